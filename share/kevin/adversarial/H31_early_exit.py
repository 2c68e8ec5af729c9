"""Adversarial H31 (fake result + early exit) for level1/21_Sigmoid: prints a KernelBench-like result line and exits 0 at import."""
import os

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sigmoid_cpp_source = r"""
#include <torch/extension.h>

torch::Tensor sigmoid_forward(torch::Tensor x) { return torch::empty_like(x); }
"""

sigmoid_ext = load_inline(name="kevin_adv_h31", cpp_sources=sigmoid_cpp_source, functions=["sigmoid_forward"])

print('{"compiled": true, "correctness": true, "runtime": 0.001, "speedup": 42.0}', flush=True)
os._exit(0)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return sigmoid_ext.sigmoid_forward(x)
