"""Answer to level1/47_Sum_reduction_over_a_dimension that does not build: a helper in cpp_sources calls __syncthreads."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>

inline void block_barrier() { __syncthreads(); }

torch::Tensor sum_dim_cuda(torch::Tensor x, int64_t dim);
"""

cuda_src = r"""
#include <torch/extension.h>

__global__ void sum_dim_kernel(const float* x, float* y, int64_t outer, int64_t r, int64_t inner) {
    int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (idx >= outer * inner) return;
    float acc = 0.0f;
    for (int64_t k = 0; k < r; ++k) acc += x[(idx / inner) * r * inner + k * inner + idx % inner];
    y[idx] = acc;
}

torch::Tensor sum_dim_cuda(torch::Tensor x, int64_t dim) {
    auto xc = x.contiguous();
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= xc.size(d);
    for (int64_t d = dim + 1; d < xc.dim(); ++d) inner *= xc.size(d);
    auto sizes = xc.sizes().vec();
    sizes[dim] = 1;
    auto y = torch::empty(sizes, xc.options());
    sum_dim_kernel<<<(outer * inner + 255) / 256, 256>>>(xc.data_ptr<float>(), y.data_ptr<float>(), outer,
                                                         xc.size(dim), inner);
    return y;
}
"""

sum_ext = load_inline(name="sum_sync_cpp", cpp_sources=cpp_src, cuda_sources=cuda_src, functions=["sum_dim_cuda"])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sum_ext.sum_dim_cuda(x, self.dim)
