"""C++ (CPU) solution for level1/20_LeakyReLU: elementwise loop with the slope passed as a scalar."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

leaky_cpp_source = r"""
#include <torch/extension.h>

torch::Tensor leaky_relu_forward(torch::Tensor x, double negative_slope) {
    TORCH_CHECK(x.device().is_cpu() && x.scalar_type() == torch::kFloat, "expected a float32 CPU tensor");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const float* in = xc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    const float slope = static_cast<float>(negative_slope);
    const int64_t n = xc.numel();
    for (int64_t i = 0; i < n; ++i) {
        const float v = in[i];
        o[i] = v >= 0.0f ? v : v * slope;
    }
    return out;
}
"""

leaky_ext = load_inline(
    name="kevin_cpu_l1_20_leaky_relu",
    cpp_sources=leaky_cpp_source,
    functions=["leaky_relu_forward"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return leaky_ext.leaky_relu_forward(x, self.negative_slope)
