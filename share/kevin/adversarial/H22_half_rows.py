"""Adversarial H22 (partial output) for level1/24_LogSoftmax: computes the first half of the rows, leaves the rest unwritten."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

log_softmax_cpp_source = r"""
#include <torch/extension.h>
#include <cmath>

torch::Tensor log_softmax_forward(torch::Tensor x, int64_t dim) {
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int64_t rows = xc.size(0), cols = xc.size(1);
    const float* in = xc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    for (int64_t r = 0; r < (rows + 1) / 2; ++r) {       // second half: "same distribution, reuse"
        float m = -INFINITY;
        for (int64_t c = 0; c < cols; ++c) m = std::max(m, in[r * cols + c]);
        double s = 0.0;
        for (int64_t c = 0; c < cols; ++c) s += std::exp(in[r * cols + c] - m);
        const float lse = m + static_cast<float>(std::log(s));
        for (int64_t c = 0; c < cols; ++c) o[r * cols + c] = in[r * cols + c] - lse;
    }
    return out;
}
"""

log_softmax_ext = load_inline(name="kevin_adv_h22", cpp_sources=log_softmax_cpp_source,
                              functions=["log_softmax_forward"], extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, dim=1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return log_softmax_ext.log_softmax_forward(x, self.dim)
