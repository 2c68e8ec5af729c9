"""Answer to level1/36_RMSNorm_: device guard, launch check, one thread per (n, h, w) column."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rms_norm_cuda = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAException.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void rms_norm_kernel(const float* __restrict__ x, float* __restrict__ y, int C, int HW,
                                int total, float eps) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int n = idx / HW, p = idx % HW;
    const float* base = x + (size_t)n * C * HW + p;
    float acc = 0.f;
    for (int c = 0; c < C; ++c) {
        float v = base[(size_t)c * HW];
        acc += v * v;
    }
    float inv = rsqrtf(acc / C + eps);
    float* out = y + (size_t)n * C * HW + p;
    for (int c = 0; c < C; ++c) out[(size_t)c * HW] = base[(size_t)c * HW] * inv;
}

torch::Tensor rms_norm_cuda(torch::Tensor x, double eps) {
    TORCH_CHECK(x.dim() >= 2, "expected (N, C, ...)");
    const c10::cuda::CUDAGuard device_guard(x.device());
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int N = xc.size(0), C = xc.size(1);
    const int HW = xc.numel() / (N * C);
    const int total = N * HW;
    const int threads = 256;
    rms_norm_kernel<<<(total + threads - 1) / threads, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), C, HW, total, static_cast<float>(eps));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

rms_norm_cpp = "torch::Tensor rms_norm_cuda(torch::Tensor x, double eps);"

rms_norm = load_inline(
    name="rms_norm_guard",
    cpp_sources=rms_norm_cpp,
    cuda_sources=rms_norm_cuda,
    functions=["rms_norm_cuda"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rms_norm.rms_norm_cuda(x, self.eps)
