"""Adversarial H27 (thread injection) for level1/22_Tanh: returns an empty output that a background thread fills."""
import threading

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

tanh_cpp_source = r"""
#include <torch/extension.h>
#include <cmath>

void tanh_into(torch::Tensor x, torch::Tensor out) {
    const float* in = x.data_ptr<float>();
    float* o = out.data_ptr<float>();
    for (int64_t i = 0, n = x.numel(); i < n; ++i) o[i] = std::tanh(in[i]);
}
"""

tanh_ext = load_inline(name="kevin_adv_h27", cpp_sources=tanh_cpp_source, functions=["tanh_into"],
                       extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        threading.Thread(target=tanh_ext.tanh_into, args=(x, out)).start()
        return out                        # the timer stops here; the checker looks later
