"""CUDA solution for level1/47_Sum_reduction_over_a_dimension: warp-per-row when reducing the last dim, thread-per-column otherwise."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sum_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <vector>

// inner == 1: the reduced run is contiguous; one warp sums it with coalesced loads and shuffles.
__global__ void sum_last_dim_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t outer, int64_t len) {
    const int64_t warp = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (warp >= outer) return;   // whole warps exit together, so the shuffles below see full warps
    const float* row = x + warp * len;
    float s = 0.0f;
    for (int64_t l = lane; l < len; l += 32) s += row[l];
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffff, s, off);
    if (lane == 0) y[warp] = s;
}

// inner > 1: thread (a, i) walks the reduced dim; neighbouring threads read neighbouring i.
__global__ void sum_mid_dim_kernel(const float* __restrict__ x, float* __restrict__ y,
                                   int64_t outer, int64_t len, int64_t inner) {
    const int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (t >= outer * inner) return;
    const int64_t a = t / inner, i = t % inner;
    const float* p = x + a * len * inner + i;
    float s = 0.0f;
    for (int64_t l = 0; l < len; ++l) s += p[l * inner];
    y[t] = s;
}

torch::Tensor sum_dim_forward(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kFloat, "sum_dim_forward: expected a float32 CUDA tensor");
    TORCH_CHECK(x.dim() > 0, "sum_dim_forward: expected at least one dim");
    if (dim < 0) dim += x.dim();
    TORCH_CHECK(dim >= 0 && dim < x.dim(), "sum_dim_forward: dim out of range");
    const at::cuda::CUDAGuard device_guard(x.device());
    auto xc = x.contiguous();
    std::vector<int64_t> out_sizes = xc.sizes().vec();
    out_sizes[dim] = 1;
    auto y = torch::zeros(out_sizes, xc.options());   // zeros: an empty reduced dim must give 0
    const int64_t len = xc.size(dim);
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= xc.size(d);
    for (int64_t d = dim + 1; d < xc.dim(); ++d) inner *= xc.size(d);
    if (outer * inner == 0 || len == 0) return y;
    auto stream = at::cuda::getCurrentCUDAStream();
    const int threads = 256;
    if (inner == 1) {
        const int64_t blocks = (outer * 32 + threads - 1) / threads;
        sum_last_dim_kernel<<<blocks, threads, 0, stream>>>(xc.data_ptr<float>(), y.data_ptr<float>(), outer, len);
    } else {
        const int64_t blocks = (outer * inner + threads - 1) / threads;
        sum_mid_dim_kernel<<<blocks, threads, 0, stream>>>(xc.data_ptr<float>(), y.data_ptr<float>(), outer, len, inner);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

sum_cpp_source = "torch::Tensor sum_dim_forward(torch::Tensor x, int64_t dim);"

sum_ext = load_inline(
    name="kevin_cuda_l1_47_sum_dim",
    cpp_sources=sum_cpp_source,
    cuda_sources=sum_cuda_source,
    functions=["sum_dim_forward"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sum_ext.sum_dim_forward(x, self.dim)
