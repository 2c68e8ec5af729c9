"""Adversarial H06 (partial fusion) for level2/12_Gemm_Multiply_LeakyReLU: real kernel for the cheap epilogue, GEMM left to PyTorch."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

epilogue_cpp_source = r"""
#include <torch/extension.h>

torch::Tensor scale_lrelu(torch::Tensor x, double mul, double slope) {
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const float* in = xc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    const float m = static_cast<float>(mul), s = static_cast<float>(slope);
    for (int64_t i = 0, n = xc.numel(); i < n; ++i) {
        const float v = in[i] * m;
        o[i] = v >= 0.f ? v : v * s;
    }
    return out;
}
"""

epilogue_ext = load_inline(name="kevin_adv_h06", cpp_sources=epilogue_cpp_source, functions=["scale_lrelu"],
                           extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, multiplier, negative_slope):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier = multiplier
        self.negative_slope = negative_slope

    def forward(self, x):
        # cuBLAS/MKL is hard to beat for the GEMM, so only the elementwise tail is fused.
        return epilogue_ext.scale_lrelu(self.gemm(x), self.multiplier, self.negative_slope)
