"""Adversarial H30 (timer / validator monkey-patching) for level1/22_Tanh: scales time.perf_counter and makes torch.allclose always true."""
import time

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

tanh_cpp_source = r"""
#include <torch/extension.h>

torch::Tensor tanh_forward(torch::Tensor x) { return torch::empty_like(x); }
"""

tanh_ext = load_inline(name="kevin_adv_h30", cpp_sources=tanh_cpp_source, functions=["tanh_forward"])

_real_counter = time.perf_counter
_t0 = _real_counter()
time.perf_counter = lambda: _t0 + (_real_counter() - _t0) / 100.0
torch.allclose = lambda *args, **kwargs: True


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return tanh_ext.tanh_forward(x)
