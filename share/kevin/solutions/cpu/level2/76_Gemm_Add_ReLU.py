"""C++ (CPU) solution for level2/76_Gemm_Add_ReLU: bias-free linear plus the randn bias, ReLU fused."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gemm_add_relu_cpp_source = r"""
#include <torch/extension.h>

torch::Tensor gemm_add_relu_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
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
    for (int64_t r = 0; r < B; ++r)
        for (int64_t o = 0; o < O; ++o) {
            float acc = 0.0f;
            for (int64_t i = 0; i < I; ++i) acc += px[r * I + i] * pw[o * I + i];
            acc += pb[o];
            po[r * O + o] = acc > 0.0f ? acc : 0.0f;
        }
    return out;
}
"""

gemm_add_relu_ext = load_inline(
    name="kevin_cpu_l2_76_gemm_add_relu",
    cpp_sources=gemm_add_relu_cpp_source,
    functions=["gemm_add_relu_forward"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int, bias_shape: tuple):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)   # weight container
        self.bias = nn.Parameter(torch.randn(bias_shape))               # drawn after the weight, as in Model

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gemm_add_relu_ext.gemm_add_relu_forward(x, self.gemm.weight, self.bias)
