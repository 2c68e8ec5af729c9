"""C++ (CPU) solution for level2/14_Gemm_Divide_Sum_Scaling: sum_h (x . W_h) = x . (sum_h W_h), so the GEMM becomes a GEMV."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gemv_cpp_source = r"""
#include <torch/extension.h>
#include <vector>

// Exact for every input (not a distribution trick): summing the GEMM output over the hidden dim
// equals one dot product with the column sums of W. Cost drops from B*H*I to (H + B)*I.
torch::Tensor gemm_div_sum_scale_forward(torch::Tensor x, torch::Tensor weight, double scaling_factor) {
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && x.size(1) == weight.size(1), "shape mismatch");
    TORCH_CHECK(x.scalar_type() == torch::kFloat && weight.scalar_type() == torch::kFloat, "expected float32");
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    const int64_t B = xc.size(0), I = xc.size(1), H = wc.size(0);
    const float* px = xc.data_ptr<float>();
    const float* pw = wc.data_ptr<float>();
    std::vector<double> wsum(I, 0.0);
    for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < I; ++i) wsum[i] += pw[h * I + i];
    auto out = torch::empty({B}, xc.options());
    float* po = out.data_ptr<float>();
    const double scale = scaling_factor / 2.0;
    for (int64_t r = 0; r < B; ++r) {
        double acc = 0.0;
        for (int64_t i = 0; i < I; ++i) acc += px[r * I + i] * wsum[i];
        po[r] = static_cast<float>(acc * scale);
    }
    return out;
}
"""

gemv_ext = load_inline(
    name="kevin_cpu_l2_14_gemm_div_sum_scale",
    cpp_sources=gemv_cpp_source,
    functions=["gemm_div_sum_scale_forward"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, scaling_factor: float):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size))   # same draw as the reference
        self.scaling_factor = scaling_factor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # The kernel writes a flat (B,) result; the keepdim shape is a view of our own output.
        return gemv_ext.gemm_div_sum_scale_forward(x, self.weight, self.scaling_factor).view(-1, 1)
