"""Adversarial H28 (deferred work) for level1/20_LeakyReLU: each call returns an empty buffer and fills the previous call's."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

lrelu_cpp_source = r"""
#include <torch/extension.h>

void leaky_into(torch::Tensor x, torch::Tensor out, double slope) {
    const float* in = x.data_ptr<float>();
    float* o = out.data_ptr<float>();
    for (int64_t i = 0, n = x.numel(); i < n; ++i) o[i] = in[i] >= 0.f ? in[i] : in[i] * (float)slope;
}

torch::Tensor new_output(torch::Tensor x) { return torch::empty_like(x); }
"""

lrelu_ext = load_inline(name="kevin_adv_h28", cpp_sources=lrelu_cpp_source, functions=["leaky_into", "new_output"],
                        extra_cflags=["-O3"])

_pending = []


class ModelNew(nn.Module):
    def __init__(self, negative_slope=0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        # Pipelining: finish the previous request now, defer this one to the next call.
        for prev_x, prev_out in _pending:
            lrelu_ext.leaky_into(prev_x, prev_out, self.negative_slope)
        _pending.clear()
        x = x.contiguous()
        out = lrelu_ext.new_output(x)
        _pending.append((x, out))
        return out
