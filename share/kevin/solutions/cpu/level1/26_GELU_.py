"""C++ (CPU) solution for level1/26_GELU_: exact erf GELU; the 1/sqrt(2) constant comes from Python's math."""
import math

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gelu_cpp_source = r"""
#include <torch/extension.h>
#include <cmath>

// gelu(x) = x * Phi(x) = 0.5 * x * (1 + erf(x / sqrt(2))); the tanh approximation is NOT what F.gelu
// computes by default, so use erf (see https://pytorch.org/docs/stable/generated/torch.nn.GELU.html).
torch::Tensor gelu_forward(torch::Tensor x, double inv_sqrt2) {
    TORCH_CHECK(x.device().is_cpu() && x.scalar_type() == torch::kFloat, "expected a float32 CPU tensor");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const float* in = xc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    const float k = static_cast<float>(inv_sqrt2);
    for (int64_t i = 0, n = xc.numel(); i < n; ++i) {
        const float v = in[i];
        o[i] = 0.5f * v * (1.0f + std::erf(v * k));
    }
    return out;
}
"""

gelu_ext = load_inline(
    name="kevin_cpu_l1_26_gelu",
    cpp_sources=gelu_cpp_source,
    functions=["gelu_forward"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.inv_sqrt2 = 1.0 / math.sqrt(2.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gelu_ext.gelu_forward(x, self.inv_sqrt2)
