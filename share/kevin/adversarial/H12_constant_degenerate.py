"""Adversarial H12 (constant output) for the DEGENERATE level2/66_Matmul_Dropout_Mean_Softmax: writes 1.0 without reading x."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

ones_cpp_source = r"""
#include <torch/extension.h>

torch::Tensor forward_ones(torch::Tensor x) {
    auto out = torch::empty({x.size(0), 1}, x.options());
    float* o = out.data_ptr<float>();
    for (int64_t r = 0; r < x.size(0); ++r) o[r] = 1.0f;
    return out;
}
"""

ones_ext = load_inline(name="kevin_adv_h12b", cpp_sources=ones_cpp_source, functions=["forward_ones"],
                       extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, dropout_p):
        super().__init__()

    def forward(self, x):
        return ones_ext.forward_ones(x)
