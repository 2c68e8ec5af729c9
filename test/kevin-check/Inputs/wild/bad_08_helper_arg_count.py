"""Answer to level1/36_RMSNorm_ that does not build: a device helper called with one argument too many."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rms_source = r"""
#include <torch/extension.h>

__device__ float inv_rms(float sum_sq, int count) { return rsqrtf(sum_sq / count + 1e-5f); }

__global__ void rms_kernel(const float* x, float* y, int C, int HW, int total, float eps) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int n = idx / HW, p = idx % HW;
    float s = 0.f;
    for (int c = 0; c < C; ++c) { float v = x[(n * C + c) * HW + p]; s += v * v; }
    float r = inv_rms(s, C, eps);
    for (int c = 0; c < C; ++c) y[(n * C + c) * HW + p] = x[(n * C + c) * HW + p] * r;
}

torch::Tensor rms_norm(torch::Tensor x, double eps) {
    auto y = torch::empty_like(x);
    const int N = x.size(0), C = x.size(1), HW = x.numel() / (N * C);
    rms_kernel<<<(N * HW + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), C, HW, N * HW, (float)eps);
    return y;
}
"""

rms_cpp = "torch::Tensor rms_norm(torch::Tensor x, double eps);"

rms = load_inline(name="rms_argc", cpp_sources=rms_cpp, cuda_sources=rms_source, functions=["rms_norm"])


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rms.rms_norm(x.contiguous(), self.eps)
