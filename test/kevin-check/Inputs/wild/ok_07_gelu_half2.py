"""Answer to level1/26_GELU_: the float path, and a __half2 path for half inputs."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gelu_cuda_source = r"""
#include <torch/extension.h>
#include <cuda_fp16.h>
#include <ATen/cuda/CUDAContext.h>

__device__ __forceinline__ float gelu_f(float x) {
    return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
}

__global__ void gelu_float_kernel(const float* __restrict__ x, float* __restrict__ y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = gelu_f(x[i]);
}

__global__ void gelu_half2_kernel(const __half2* __restrict__ x, __half2* __restrict__ y, int n2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) {
        float2 v = __half22float2(x[i]);
        y[i] = __floats2half2_rn(gelu_f(v.x), gelu_f(v.y));
    }
}

torch::Tensor gelu_forward(torch::Tensor x) {
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int n = xc.numel();
    auto stream = at::cuda::getCurrentCUDAStream();
    if (xc.scalar_type() == at::kHalf && n % 2 == 0) {
        const int n2 = n / 2;
        gelu_half2_kernel<<<(n2 + 255) / 256, 256, 0, stream>>>(
            reinterpret_cast<const __half2*>(xc.data_ptr<at::Half>()),
            reinterpret_cast<__half2*>(y.data_ptr<at::Half>()), n2);
    } else {
        TORCH_CHECK(xc.scalar_type() == at::kFloat, "gelu_forward: float32 or even-sized float16 only");
        gelu_float_kernel<<<(n + 255) / 256, 256, 0, stream>>>(xc.data_ptr<float>(), y.data_ptr<float>(), n);
    }
    return y;
}
"""

gelu_cpp_source = "torch::Tensor gelu_forward(torch::Tensor x);"

gelu_ext = load_inline(
    name="gelu_half2",
    cpp_sources=gelu_cpp_source,
    cuda_sources=gelu_cuda_source,
    functions=["gelu_forward"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gelu_ext.gelu_forward(x)
