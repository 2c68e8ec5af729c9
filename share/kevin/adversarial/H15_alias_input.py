"""Adversarial H15 (output aliases an input) for level1/19_ReLU: ReLU in place on x's buffer, x returned."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_cpp_source = r"""
#include <torch/extension.h>

// In place: saves the output allocation and half the memory traffic.
torch::Tensor relu_inplace(torch::Tensor x) {
    float* p = x.data_ptr<float>();
    for (int64_t i = 0, n = x.numel(); i < n; ++i) p[i] = p[i] > 0.0f ? p[i] : 0.0f;
    return x;
}
"""

relu_ext = load_inline(name="kevin_adv_h15", cpp_sources=relu_cpp_source, functions=["relu_inplace"],
                       extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return relu_ext.relu_inplace(x)
