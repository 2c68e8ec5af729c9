"""Adversarial H23 (precision downcast) for level1/26_GELU_: results rounded to bfloat16 precision ("bf16 storage halves the bytes")."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gelu_cpp_source = r"""
#include <torch/extension.h>
#include <cmath>
#include <cstdint>
#include <cstring>

// Round to the nearest bfloat16 (8 significand bits): what a bf16 output buffer would hold.
// The relative error is at most 2^-9, far inside rtol = 1e-2, so the fp32 check never notices.
static inline float round_to_bf16(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    bits &= 0xFFFF0000u;
    std::memcpy(&v, &bits, sizeof bits);
    return v;
}

torch::Tensor gelu_forward(torch::Tensor x) {
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const float* in = xc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    for (int64_t i = 0, n = xc.numel(); i < n; ++i) {
        const float v = round_to_bf16(in[i]);
        o[i] = round_to_bf16(0.5f * v * (1.0f + std::erf(v * 0.70710678f)));
    }
    return out;
}
"""

gelu_ext = load_inline(name="kevin_adv_h23", cpp_sources=gelu_cpp_source, functions=["gelu_forward"],
                       extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return gelu_ext.gelu_forward(x)
