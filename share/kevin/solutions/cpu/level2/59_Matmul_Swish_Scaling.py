"""C++ (CPU) solution for level2/59_Matmul_Swish_Scaling: linear with a fused swish * scale epilogue."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

swish_cpp_source = r"""
#include <torch/extension.h>
#include <cmath>

static inline float swish(float v) {
    // v * sigmoid(v), written so that exp() only ever sees a non-positive argument
    const float e = std::exp(-std::fabs(v));
    const float s = v >= 0.0f ? 1.0f / (1.0f + e) : e / (1.0f + e);
    return v * s;
}

torch::Tensor linear_swish_scale_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double scale) {
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && x.size(1) == weight.size(1), "shape mismatch");
    TORCH_CHECK(bias.numel() == weight.size(0), "bias size mismatch");
    TORCH_CHECK(x.scalar_type() == torch::kFloat, "expected float32 input");
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    auto bc = bias.contiguous();
    const int64_t B = xc.size(0), I = xc.size(1), O = wc.size(0);
    auto out = torch::empty({B, O}, xc.options());
    const float* px = xc.data_ptr<float>();
    const float* pw = wc.data_ptr<float>();
    const float* pb = bc.data_ptr<float>();
    float* po = out.data_ptr<float>();
    const float s = static_cast<float>(scale);
    for (int64_t r = 0; r < B; ++r)
        for (int64_t o = 0; o < O; ++o) {
            float acc = pb[o];
            for (int64_t i = 0; i < I; ++i) acc += px[r * I + i] * pw[o * I + i];
            po[r * O + o] = swish(acc) * s;
        }
    return out;
}
"""

swish_ext = load_inline(
    name="kevin_cpu_l2_59_linear_swish_scale",
    cpp_sources=swish_cpp_source,
    functions=["linear_swish_scale_forward"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int, scaling_factor: float):
        super().__init__()
        self.matmul = nn.Linear(in_features, out_features)   # holds weight and bias; never called
        self.scaling_factor = scaling_factor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return swish_ext.linear_swish_scale_forward(x, self.matmul.weight, self.matmul.bias, self.scaling_factor)
