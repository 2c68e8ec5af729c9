"""Answer to level1/24_LogSoftmax: cooperative groups for the row reductions."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

log_softmax_src = r"""
#include <torch/extension.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <c10/cuda/CUDAStream.h>

namespace cg = cooperative_groups;

__global__ void log_softmax_rows(const float* __restrict__ x, float* __restrict__ y, int cols) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float partial[32];
    const float* row = x + (size_t)blockIdx.x * cols;
    float* out = y + (size_t)blockIdx.x * cols;

    float m = -INFINITY;
    for (int c = block.thread_rank(); c < cols; c += block.size()) m = fmaxf(m, row[c]);
    m = cg::reduce(warp, m, cg::greater<float>());
    if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = m;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        float v = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : -INFINITY;
        v = cg::reduce(warp, v, cg::greater<float>());
        if (warp.thread_rank() == 0) partial[0] = v;
    }
    block.sync();
    m = partial[0];
    block.sync();

    float s = 0.0f;
    for (int c = block.thread_rank(); c < cols; c += block.size()) s += expf(row[c] - m);
    s = cg::reduce(warp, s, cg::plus<float>());
    if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = s;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        float v = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.0f;
        v = cg::reduce(warp, v, cg::plus<float>());
        if (warp.thread_rank() == 0) partial[0] = logf(v);
    }
    block.sync();
    const float lse = m + partial[0];
    for (int c = block.thread_rank(); c < cols; c += block.size()) out[c] = row[c] - lse;
}

torch::Tensor log_softmax_cuda(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(dim == 1 || dim == -1, "only the last dim of a 2-D input is supported");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int rows = xc.size(0), cols = xc.size(1);
    log_softmax_rows<<<rows, 512, 0, c10::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), cols);
    return y;
}
"""

log_softmax_cpp = "torch::Tensor log_softmax_cuda(torch::Tensor x, int64_t dim);"

log_softmax_ext = load_inline(
    name="log_softmax_cg",
    cpp_sources=log_softmax_cpp,
    cuda_sources=log_softmax_src,
    functions=["log_softmax_cuda"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return log_softmax_ext.log_softmax_cuda(x, self.dim)
