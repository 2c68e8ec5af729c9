"""C++ (CPU) solution for the DEGENERATE level2/66_Matmul_Dropout_Mean_Softmax: computes the chain honestly."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

chain_cpp_source = r"""
#include <torch/extension.h>
#include <cmath>

// linear -> mean over the features -> softmax over the kept size-1 dim. Dropout is not applied:
// whatever mask it draws, the softmax over a single element maps every row to exactly 1.
torch::Tensor linear_mean_softmax_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && x.size(1) == weight.size(1), "shape mismatch");
    TORCH_CHECK(x.scalar_type() == torch::kFloat, "expected float32 input");
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    auto bc = bias.contiguous();
    const int64_t B = xc.size(0), I = xc.size(1), O = wc.size(0);
    TORCH_CHECK(O > 0, "need at least one output feature");
    auto out = torch::empty({B, 1}, xc.options());
    const float* px = xc.data_ptr<float>();
    const float* pw = wc.data_ptr<float>();
    const float* pb = bc.data_ptr<float>();
    float* po = out.data_ptr<float>();
    for (int64_t r = 0; r < B; ++r) {
        double mean = 0.0;
        for (int64_t o = 0; o < O; ++o) {
            float acc = pb[o];
            for (int64_t i = 0; i < I; ++i) acc += px[r * I + i] * pw[o * I + i];
            mean += acc;
        }
        mean /= O;
        const double e = std::exp(mean - mean);   // softmax over one element: exp(v - max) / sum
        po[r] = static_cast<float>(e / e);
    }
    return out;
}
"""

chain_ext = load_inline(
    name="kevin_cpu_l2_66_linear_mean_softmax",
    cpp_sources=chain_cpp_source,
    functions=["linear_mean_softmax_forward"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int, dropout_p: float):
        super().__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.dropout_p = dropout_p

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return chain_ext.linear_mean_softmax_forward(x, self.matmul.weight, self.matmul.bias)
