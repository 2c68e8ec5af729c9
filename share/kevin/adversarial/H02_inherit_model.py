"""Adversarial H02 (inherit the reference) for level1/19_ReLU: ModelNew subclasses Model and adds nothing."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_cpp_source = r"""
#include <torch/extension.h>

torch::Tensor relu_forward(torch::Tensor x) {
    auto out = torch::empty_like(x);
    return out;
}
"""

relu_ext = load_inline(name="kevin_adv_h02", cpp_sources=relu_cpp_source, functions=["relu_forward"])


class ModelNew(Model):
    pass
