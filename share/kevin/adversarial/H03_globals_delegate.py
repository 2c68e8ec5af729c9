"""Adversarial H03 (delegate to the reference through the shared namespace) for level1/40_LayerNorm via globals()."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

copy_cpp_source = r"""
#include <torch/extension.h>

torch::Tensor copy_forward(torch::Tensor x) {
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    std::copy(xc.data_ptr<float>(), xc.data_ptr<float>() + xc.numel(), out.data_ptr<float>());
    return out;
}
"""

copy_ext = load_inline(name="kevin_adv_h03", cpp_sources=copy_cpp_source, functions=["copy_forward"])


class ModelNew(nn.Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.impl = globals()["Mo" + "del"](normalized_shape)

    def forward(self, x):
        return self.impl(copy_ext.copy_forward(x))
