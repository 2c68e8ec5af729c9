"""C++ (CPU) solution for level1/36_RMSNorm_: sum of squares over dim 1 into a per-position buffer, then scale."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rms_norm_cpp_source = r"""
#include <torch/extension.h>
#include <cmath>
#include <vector>

// x is (B, C, *). For each batch entry the C feature planes are walked in order, so every inner
// loop runs over a contiguous spatial plane; the per-position sums live in a small buffer.
torch::Tensor rms_norm_forward(torch::Tensor x, double eps) {
    TORCH_CHECK(x.dim() >= 2, "rms_norm_forward: expected (B, C, ...) input");
    TORCH_CHECK(x.device().is_cpu() && x.scalar_type() == torch::kFloat, "expected a float32 CPU tensor");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int64_t B = xc.size(0), C = xc.size(1);
    const int64_t S = C > 0 && B > 0 ? xc.numel() / (B * C) : 0;
    const float* in = xc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    std::vector<double> acc(S);
    for (int64_t b = 0; b < B; ++b) {
        const float* xb = in + b * C * S;
        float* yb = o + b * C * S;
        std::fill(acc.begin(), acc.end(), 0.0);
        for (int64_t c = 0; c < C; ++c)
            for (int64_t s = 0; s < S; ++s) {
                const double v = xb[c * S + s];
                acc[s] += v * v;
            }
        for (int64_t s = 0; s < S; ++s) acc[s] = 1.0 / std::sqrt(acc[s] / C + eps);
        for (int64_t c = 0; c < C; ++c)
            for (int64_t s = 0; s < S; ++s) yb[c * S + s] = static_cast<float>(xb[c * S + s] * acc[s]);
    }
    return out;
}
"""

rms_norm_ext = load_inline(
    name="kevin_cpu_l1_36_rms_norm",
    cpp_sources=rms_norm_cpp_source,
    functions=["rms_norm_forward"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rms_norm_ext.rms_norm_forward(x, self.eps)
