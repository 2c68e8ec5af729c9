"""Answer to level1/47_Sum_reduction_over_a_dimension: (outer, reduce, inner) view, keepdim output."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sum_reduce_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <device_launch_parameters.h>
#include <vector>

__global__ void sum_dim_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t outer,
                               int64_t reduce, int64_t inner) {
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= outer * inner) return;
    int64_t o = idx / inner, i = idx % inner;
    const float* p = x + o * reduce * inner + i;
    float acc = 0.0f;
    for (int64_t r = 0; r < reduce; ++r) acc += p[r * inner];
    y[idx] = acc;
}

torch::Tensor sum_dim_cuda(torch::Tensor x, int64_t dim) {
    auto xc = x.contiguous();
    if (dim < 0) dim += xc.dim();
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= xc.size(d);
    for (int64_t d = dim + 1; d < xc.dim(); ++d) inner *= xc.size(d);
    std::vector<int64_t> out_shape(xc.sizes().begin(), xc.sizes().end());
    out_shape[dim] = 1;
    auto y = torch::empty(out_shape, xc.options());
    const int64_t total = outer * inner;
    sum_dim_kernel<<<(total + 255) / 256, 256>>>(xc.data_ptr<float>(), y.data_ptr<float>(), outer,
                                                xc.size(dim), inner);
    return y;
}
"""

sum_reduce_cpp = "torch::Tensor sum_dim_cuda(torch::Tensor x, int64_t dim);"

sum_reduce = load_inline(
    name="sum_reduce_dim",
    cpp_sources=sum_reduce_cpp,
    cuda_sources=sum_reduce_source,
    functions=["sum_dim_cuda"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sum_reduce.sum_dim_cuda(x, self.dim)
