"""Answer to level1/49_Max_reduction_over_a_dimension: a warp per output, intrinsics for the max."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

max_reduce_cuda_source = r"""
#include <torch/extension.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cfloat>
#include <vector>

__global__ void max_reduce_kernel(const float* __restrict__ input, float* __restrict__ output,
                                  int outer, int reduce, int inner) {
    const int warp_id = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int lane = threadIdx.x & 31;
    if (warp_id >= outer * inner) return;
    const int o = warp_id / inner, i = warp_id % inner;
    float m = -FLT_MAX;
    for (int r = lane; r < reduce; r += 32) m = fmaxf(m, __ldg(&input[((size_t)o * reduce + r) * inner + i]));
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    if (lane == 0) output[warp_id] = m;
}

torch::Tensor max_reduce_cuda(torch::Tensor input, int dim) {
    auto x = input.contiguous();
    const int nd = x.dim();
    if (dim < 0) dim += nd;
    int outer = 1, inner = 1;
    for (int d = 0; d < dim; ++d) outer *= x.size(d);
    for (int d = dim + 1; d < nd; ++d) inner *= x.size(d);
    std::vector<int64_t> shape;
    for (int d = 0; d < nd; ++d) if (d != dim) shape.push_back(x.size(d));
    auto output = torch::empty(shape, x.options());
    const int warps = outer * inner;
    const int threads = 256;
    const int blocks = max(1, (warps * 32 + threads - 1) / threads);
    max_reduce_kernel<<<blocks, threads>>>(x.data_ptr<float>(), output.data_ptr<float>(), outer, x.size(dim), inner);
    return output;
}
"""

max_reduce_cpp_source = "torch::Tensor max_reduce_cuda(torch::Tensor input, int dim);"

max_reduce = load_inline(
    name="max_reduce",
    cpp_sources=max_reduce_cpp_source,
    cuda_sources=max_reduce_cuda_source,
    functions=["max_reduce_cuda"],
    verbose=True,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim
        self.max_reduce = max_reduce

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.max_reduce.max_reduce_cuda(x, self.dim)
