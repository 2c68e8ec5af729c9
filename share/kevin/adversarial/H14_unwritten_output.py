"""Adversarial H14 (stale memory) for level1/19_ReLU: returns torch::empty_like unwritten, hoping for the freed reference output."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_cpp_source = r"""
#include <torch/extension.h>

torch::Tensor relu_forward(torch::Tensor x) {
    // The allocator hands back the block the reference output just released: same size, same bytes.
    return torch::empty_like(x);
}
"""

relu_ext = load_inline(name="kevin_adv_h14", cpp_sources=relu_cpp_source, functions=["relu_forward"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return relu_ext.relu_forward(x)
