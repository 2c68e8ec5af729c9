"""Adversarial H34 (setup-time / first-call precomputation) for level1/36_RMSNorm_: computes once, returns the stored tensor afterwards."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rms_cpp_source = r"""
#include <torch/extension.h>
#include <cmath>

torch::Tensor rms_norm_forward(torch::Tensor x, double eps) {
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int64_t B = xc.size(0), C = xc.size(1), S = xc.numel() / (B * C);
    const float* in = xc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    for (int64_t b = 0; b < B; ++b)
        for (int64_t s = 0; s < S; ++s) {
            double acc = 0.0;
            for (int64_t c = 0; c < C; ++c) acc += (double)in[(b * C + c) * S + s] * in[(b * C + c) * S + s];
            const float inv = (float)(1.0 / std::sqrt(acc / C + eps));
            for (int64_t c = 0; c < C; ++c) o[(b * C + c) * S + s] = in[(b * C + c) * S + s] * inv;
        }
    return out;
}
"""

rms_ext = load_inline(name="kevin_adv_h34", cpp_sources=rms_cpp_source, functions=["rms_norm_forward"],
                      extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, num_features, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.cached = None

    def forward(self, x):
        if self.cached is None:           # warmup call pays; timed calls are free
            self.cached = rms_ext.rms_norm_forward(x, self.eps)
        return self.cached
