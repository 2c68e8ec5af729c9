"""Answer to level1/26_GELU_ that does not build: a float* passed where the kernel takes __half*."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gelu_source = r"""
#include <torch/extension.h>
#include <cuda_fp16.h>

__global__ void gelu_half_kernel(const __half* x, __half* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = __half2float(x[i]);
        y[i] = __float2half(0.5f * v * (1.0f + erff(v * 0.7071067811865476f)));
    }
}

torch::Tensor gelu_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    gelu_half_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

gelu_cpp = "torch::Tensor gelu_cuda(torch::Tensor x);"

gelu = load_inline(name="gelu_half_mismatch", cpp_sources=gelu_cpp, cuda_sources=gelu_source, functions=["gelu_cuda"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gelu.gelu_cuda(x)
