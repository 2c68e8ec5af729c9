"""CUDA solution for level1/36_RMSNorm_: one thread per (batch, position), coalesced walks over the feature planes."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rms_norm_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

// x is (B, C, S) after flattening the spatial dims. Thread t owns position (b, s) and walks c: at every
// step a warp reads 32 consecutive s of the same plane, so both passes are fully coalesced.
__global__ void rms_norm_kernel(const float* __restrict__ x, float* __restrict__ y,
                                int64_t B, int64_t C, int64_t S, float eps) {
    const int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (t >= B * S) return;
    const int64_t b = t / S, s = t % S;
    const float* xp = x + b * C * S + s;
    float* yp = y + b * C * S + s;
    float acc = 0.0f;
    for (int64_t c = 0; c < C; ++c) {
        const float v = xp[c * S];
        acc = fmaf(v, v, acc);
    }
    const float inv = rsqrtf(acc / (float)C + eps);
    for (int64_t c = 0; c < C; ++c) yp[c * S] = xp[c * S] * inv;
}

torch::Tensor rms_norm_forward(torch::Tensor x, double eps) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kFloat, "rms_norm_forward: expected a float32 CUDA tensor");
    TORCH_CHECK(x.dim() >= 2, "rms_norm_forward: expected (B, C, ...) input");
    const at::cuda::CUDAGuard device_guard(x.device());
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t B = xc.size(0), C = xc.size(1);
    if (xc.numel() == 0) return y;
    const int64_t S = xc.numel() / (B * C);
    const int threads = 256;
    const int64_t blocks = (B * S + threads - 1) / threads;
    rms_norm_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), B, C, S, static_cast<float>(eps));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

rms_norm_cpp_source = "torch::Tensor rms_norm_forward(torch::Tensor x, double eps);"

rms_norm_ext = load_inline(
    name="kevin_cuda_l1_36_rms_norm",
    cpp_sources=rms_norm_cpp_source,
    cuda_sources=rms_norm_cuda_source,
    functions=["rms_norm_forward"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rms_norm_ext.rms_norm_forward(x, self.eps)
