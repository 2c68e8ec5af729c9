"""Answer to level1/22_Tanh: float4 loads with a scalar tail, under __launch_bounds__."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

tanh_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define THREADS 256

__global__ void __launch_bounds__(THREADS, 4) tanh_vec4_kernel(const float* __restrict__ x,
                                                               float* __restrict__ y, int n) {
    const int n4 = n / 4;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = reinterpret_cast<const float4*>(x)[i];
        reinterpret_cast<float4*>(y)[i] = make_float4(tanhf(v.x), tanhf(v.y), tanhf(v.z), tanhf(v.w));
    }
    // The last (n % 4) elements: one thread each, in the first block.
    const int tail = n4 * 4 + i;
    if (i < n - n4 * 4 && tail < n) y[tail] = tanhf(x[tail]);
}

torch::Tensor tanh_cuda(torch::Tensor x) {
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const int n = x.numel();
    const int work = n / 4 > 4 ? n / 4 : 4;
    tanh_vec4_kernel<<<(work + THREADS - 1) / THREADS, THREADS>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

tanh_cpp = "torch::Tensor tanh_cuda(torch::Tensor x);"

tanh_ext = load_inline(
    name="tanh_vec4",
    cpp_sources=tanh_cpp,
    cuda_sources=tanh_src,
    functions=["tanh_cuda"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return tanh_ext.tanh_cuda(x)
