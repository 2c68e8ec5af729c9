"""C++ (CPU) solution for level2/12_Gemm_Multiply_LeakyReLU: fused linear + scale + LeakyReLU; nn.Linear's init replayed by hand."""
import math

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gemm_cpp_source = r"""
#include <torch/extension.h>

// y = leaky_relu((x @ W^T + b) * multiplier). W is (out, in) row-major, so each output is a
// unit-stride dot product of two rows; the epilogue runs while the accumulator is in a register.
torch::Tensor gemm_mul_lrelu_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias,
                                     double multiplier, double negative_slope) {
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && x.size(1) == weight.size(1), "shape mismatch");
    TORCH_CHECK(bias.numel() == weight.size(0), "bias size mismatch");
    TORCH_CHECK(x.scalar_type() == torch::kFloat && weight.scalar_type() == torch::kFloat, "expected float32");
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    auto bc = bias.contiguous();
    const int64_t B = xc.size(0), I = xc.size(1), O = wc.size(0);
    auto out = torch::empty({B, O}, xc.options());
    const float* px = xc.data_ptr<float>();
    const float* pw = wc.data_ptr<float>();
    const float* pb = bc.data_ptr<float>();
    float* po = out.data_ptr<float>();
    const float mul = static_cast<float>(multiplier), slope = static_cast<float>(negative_slope);
    for (int64_t r = 0; r < B; ++r) {
        const float* xr = px + r * I;
        for (int64_t o = 0; o < O; ++o) {
            const float* wr = pw + o * I;
            float acc = 0.0f;
            for (int64_t i = 0; i < I; ++i) acc += xr[i] * wr[i];
            const float v = (acc + pb[o]) * mul;
            po[r * O + o] = v >= 0.0f ? v : v * slope;
        }
    }
    return out;
}
"""

gemm_ext = load_inline(
    name="kevin_cpu_l2_12_gemm_mul_lrelu",
    cpp_sources=gemm_cpp_source,
    functions=["gemm_mul_lrelu_forward"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int, multiplier: float, negative_slope: float):
        super().__init__()
        # Same parameters, same RNG draws, same order as nn.Linear.reset_parameters().
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.empty(out_features))
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        bound = 1.0 / math.sqrt(in_features) if in_features > 0 else 0.0
        nn.init.uniform_(self.bias, -bound, bound)
        self.multiplier = multiplier
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gemm_ext.gemm_mul_lrelu_forward(x, self.weight, self.bias, self.multiplier, self.negative_slope)
