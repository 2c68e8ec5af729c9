"""Answer to level1/94_MSELoss that does not build: the kernel stores through a const float* output."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mse_source = r"""
#include <torch/extension.h>

__global__ void mse_kernel(const float* a, const float* b, const float* out, int n) {
    __shared__ float part[256];
    float s = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) { float d = a[i] - b[i]; s += d * d; }
    part[threadIdx.x] = s;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (threadIdx.x < k) part[threadIdx.x] += part[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] = part[0] / n;
}

torch::Tensor mse(torch::Tensor a, torch::Tensor b) {
    auto out = torch::empty({}, a.options());
    mse_kernel<<<1, 256>>>(a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), a.numel());
    return out;
}
"""

mse_cpp = "torch::Tensor mse(torch::Tensor a, torch::Tensor b);"

mse_ext = load_inline(name="mse_const_out", cpp_sources=mse_cpp, cuda_sources=mse_source, functions=["mse"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return mse_ext.mse(predictions.contiguous(), targets.contiguous())
