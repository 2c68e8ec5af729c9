"""C++ (CPU) solution for level1/89_cumsum: sequential scan along any dim with double running sums."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cumsum_cpp_source = r"""
#include <torch/extension.h>
#include <vector>

torch::Tensor cumsum_forward(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.scalar_type() == torch::kFloat && x.dim() > 0, "expected a float32 tensor with >= 1 dim");
    if (dim < 0) dim += x.dim();
    TORCH_CHECK(dim >= 0 && dim < x.dim(), "cumsum_forward: dim out of range");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int64_t len = xc.size(dim);
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= xc.size(d);
    for (int64_t d = dim + 1; d < xc.dim(); ++d) inner *= xc.size(d);
    const float* in = xc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    std::vector<double> run(inner);
    for (int64_t a = 0; a < outer; ++a) {
        std::fill(run.begin(), run.end(), 0.0);
        for (int64_t l = 0; l < len; ++l) {
            const int64_t base = (a * len + l) * inner;
            for (int64_t i = 0; i < inner; ++i) {
                run[i] += in[base + i];
                o[base + i] = static_cast<float>(run[i]);
            }
        }
    }
    return out;
}
"""

cumsum_ext = load_inline(
    name="kevin_cpu_l1_89_cumsum",
    cpp_sources=cumsum_cpp_source,
    functions=["cumsum_forward"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return cumsum_ext.cumsum_forward(x, self.dim)
