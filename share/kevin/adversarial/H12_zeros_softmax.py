"""Adversarial H12 (constant output) for level1/23_Softmax: returns zeros, betting that every probability is below atol."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

fill_cpp_source = r"""
#include <torch/extension.h>

// With very wide rows every softmax value is ~1/cols < 1e-2, so zeros "match" under atol = 1e-2.
torch::Tensor softmax_forward(torch::Tensor x) {
    auto out = torch::empty_like(x);
    float* o = out.data_ptr<float>();
    for (int64_t i = 0, n = out.numel(); i < n; ++i) o[i] = 0.0f;
    return out;
}
"""

fill_ext = load_inline(name="kevin_adv_h12", cpp_sources=fill_cpp_source, functions=["softmax_forward"],
                       extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return fill_ext.softmax_forward(x)
