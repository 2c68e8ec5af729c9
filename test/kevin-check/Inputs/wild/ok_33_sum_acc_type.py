"""Answer to level1/47_Sum_reduction_over_a_dimension: accumulates in at::acc_type, dispatched with half."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <ATen/AccumulateType.h>
#include <ATen/cuda/CUDAContext.h>

template <typename scalar_t>
__global__ void sum_dim_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int64_t reduce,
                               int64_t inner, int64_t total) {
    using acc_t = at::acc_type<scalar_t, true>;
    const int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (idx >= total) return;
    const scalar_t* p = x + (idx / inner) * reduce * inner + idx % inner;
    acc_t acc = acc_t(0);
    for (int64_t r = 0; r < reduce; ++r) acc += static_cast<acc_t>(p[r * inner]);
    y[idx] = static_cast<scalar_t>(acc);
}

torch::Tensor sum_dim(torch::Tensor x, int64_t dim) {
    auto xc = x.contiguous();
    dim = dim < 0 ? dim + xc.dim() : dim;
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= xc.size(d);
    for (int64_t d = dim + 1; d < xc.dim(); ++d) inner *= xc.size(d);
    auto sizes = xc.sizes().vec();
    sizes[dim] = 1;
    auto y = torch::empty(sizes, xc.options());
    const int64_t total = outer * inner;
    AT_DISPATCH_FLOATING_TYPES_AND_HALF(xc.scalar_type(), "sum_dim", [&] {
        sum_dim_kernel<scalar_t><<<(total + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
            xc.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), xc.size(dim), inner, total);
    });
    return y;
}
"""

cpp = "torch::Tensor sum_dim(torch::Tensor x, int64_t dim);"

sum_ext = load_inline(name="sum_acc_type", cpp_sources=cpp, cuda_sources=source, functions=["sum_dim"])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sum_ext.sum_dim(x, self.dim)
