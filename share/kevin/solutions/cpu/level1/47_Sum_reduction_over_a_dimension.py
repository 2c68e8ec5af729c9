"""C++ (CPU) solution for level1/47_Sum_reduction_over_a_dimension: two loop shapes, picked by the reduced dim's position."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sum_cpp_source = r"""
#include <torch/extension.h>
#include <vector>

// View x as (outer, len, inner) around `dim` and sum over len; the result keeps dim as size 1.
torch::Tensor sum_dim_forward(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.scalar_type() == torch::kFloat && x.dim() > 0, "expected a float32 tensor with >= 1 dim");
    if (dim < 0) dim += x.dim();
    TORCH_CHECK(dim >= 0 && dim < x.dim(), "sum_dim_forward: dim out of range");
    auto xc = x.contiguous();
    std::vector<int64_t> out_sizes = xc.sizes().vec();
    out_sizes[dim] = 1;
    auto out = torch::zeros(out_sizes, xc.options());   // accumulated into
    const int64_t len = xc.size(dim);
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= xc.size(d);
    for (int64_t d = dim + 1; d < xc.dim(); ++d) inner *= xc.size(d);
    const float* in = xc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    if (inner == 1) {
        // Reducing the last dim: each output is the sum of one contiguous run.
        for (int64_t a = 0; a < outer; ++a) {
            const float* row = in + a * len;
            double s = 0.0;
            for (int64_t l = 0; l < len; ++l) s += row[l];
            o[a] = static_cast<float>(s);
        }
    } else {
        // Reducing a middle dim: add whole contiguous inner rows into the output row.
        for (int64_t a = 0; a < outer; ++a) {
            float* orow = o + a * inner;
            for (int64_t l = 0; l < len; ++l) {
                const float* row = in + (a * len + l) * inner;
                for (int64_t i = 0; i < inner; ++i) orow[i] += row[i];
            }
        }
    }
    return out;
}
"""

sum_ext = load_inline(
    name="kevin_cpu_l1_47_sum_dim",
    cpp_sources=sum_cpp_source,
    functions=["sum_dim_forward"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sum_ext.sum_dim_forward(x, self.dim)
