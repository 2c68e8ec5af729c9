"""Adversarial H09 (ATen via a Python operator) for level2/76_Gemm_Add_ReLU: the GEMM is `x @ W.t()`, only bias+ReLU is custom."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

bias_relu_cpp_source = r"""
#include <torch/extension.h>

torch::Tensor bias_relu(torch::Tensor y, torch::Tensor bias) {
    auto yc = y.contiguous();
    auto out = torch::empty_like(yc);
    const int64_t rows = yc.size(0), cols = yc.size(1);
    const float* in = yc.data_ptr<float>();
    const float* b = bias.data_ptr<float>();
    float* o = out.data_ptr<float>();
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            const float v = in[r * cols + c] + b[c];
            o[r * cols + c] = v > 0.f ? v : 0.f;
        }
    return out;
}
"""

bias_relu_ext = load_inline(name="kevin_adv_h09", cpp_sources=bias_relu_cpp_source, functions=["bias_relu"],
                            extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias_shape):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        return bias_relu_ext.bias_relu(x @ self.gemm.weight.t(), self.bias)
