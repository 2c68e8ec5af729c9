"""Adversarial H01 (reference copy) for level2/12_Gemm_Multiply_LeakyReLU: the forward is the reference's PyTorch ops; the kernel is decoration."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.cpp_extension import load_inline

scale_cpp_source = r"""
#include <torch/extension.h>

torch::Tensor scale_forward(torch::Tensor x, double s) {
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const float* in = xc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    for (int64_t i = 0; i < xc.numel(); ++i) o[i] = in[i] * static_cast<float>(s);
    return out;
}
"""

scale_ext = load_inline(name="kevin_adv_h01", cpp_sources=scale_cpp_source, functions=["scale_forward"],
                        extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, multiplier, negative_slope):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier = multiplier
        self.negative_slope = negative_slope

    def forward(self, x):
        # Same math as the reference; PyTorch's fused ops are already optimal here.
        x = self.gemm(x)
        x = x * self.multiplier
        return F.leaky_relu(x, self.negative_slope)
