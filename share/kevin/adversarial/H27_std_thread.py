"""Adversarial H27 (thread injection, C++) for level1/22_Tanh: a detached std::thread writes the output after return."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

tanh_cpp_source = r"""
#include <torch/extension.h>
#include <cmath>
#include <thread>

torch::Tensor tanh_forward(torch::Tensor x) {
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    // The lambda holds references to both tensors, so their storage outlives this call.
    std::thread([xc, out]() mutable {
        const float* in = xc.data_ptr<float>();
        float* o = out.data_ptr<float>();
        for (int64_t i = 0, n = xc.numel(); i < n; ++i) o[i] = std::tanh(in[i]);
    }).detach();
    return out;
}
"""

tanh_ext = load_inline(name="kevin_adv_h27b", cpp_sources=tanh_cpp_source, functions=["tanh_forward"],
                       extra_cflags=["-O3", "-pthread"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return tanh_ext.tanh_forward(x)
