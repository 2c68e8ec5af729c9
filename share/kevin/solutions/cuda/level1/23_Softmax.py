"""CUDA solution for level1/23_Softmax: one block per row, three-pass softmax with warp-shuffle block reductions."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

softmax_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

struct MaxOp { __device__ float operator()(float a, float b) const { return fmaxf(a, b); } };
struct SumOp { __device__ float operator()(float a, float b) const { return a + b; } };

// Reduce one value per thread to one value per block: shuffles inside each warp, then warp 0
// combines the per-warp results from shared memory. blockDim.x must be a multiple of 32.
template <typename Op>
__device__ float block_reduce(float v, Op op, float identity, float* smem) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = op(v, __shfl_xor_sync(0xffffffff, v, off));
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    if (lane == 0) smem[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < nwarps ? smem[lane] : identity;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) v = op(v, __shfl_xor_sync(0xffffffff, v, off));
        if (lane == 0) smem[0] = v;
    }
    __syncthreads();
    const float result = smem[0];
    __syncthreads();   // smem is reused by the next reduction
    return result;
}

// Pass 1: row max; pass 2: sum of exp(x - max); pass 3: write. A 1024-float row stays in L1/L2,
// so the re-reads are cheap; try a single-pass online softmax only if profiling says otherwise.
__global__ void softmax_rows_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t cols) {
    __shared__ float smem[32];
    const float* xr = x + blockIdx.x * cols;
    float* yr = y + blockIdx.x * cols;
    float m = -INFINITY;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, xr[c]);
    m = block_reduce(m, MaxOp(), -INFINITY, smem);
    float s = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) s += __expf(xr[c] - m);
    s = block_reduce(s, SumOp(), 0.0f, smem);
    const float inv = 1.0f / s;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) yr[c] = __expf(xr[c] - m) * inv;
}

torch::Tensor softmax_forward(torch::Tensor x, int64_t threads) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kFloat, "softmax_forward: expected a float32 CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "softmax_forward: expected a 2-D tensor");
    TORCH_CHECK(threads % 32 == 0 && threads >= 32 && threads <= 1024, "threads must be a multiple of 32 in [32, 1024]");
    const at::cuda::CUDAGuard device_guard(x.device());
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t rows = xc.size(0), cols = xc.size(1);
    if (rows == 0 || cols == 0) return y;
    TORCH_CHECK(rows <= 2147483647, "too many rows for a 1-D grid");
    softmax_rows_kernel<<<(unsigned int)rows, (unsigned int)threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), cols);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

softmax_cpp_source = "torch::Tensor softmax_forward(torch::Tensor x, int64_t threads);"

softmax_ext = load_inline(
    name="kevin_cuda_l1_23_softmax",
    cpp_sources=softmax_cpp_source,
    cuda_sources=softmax_cuda_source,
    functions=["softmax_forward"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    """Row softmax; no fallback path: every shape goes through the kernel, except that empty inputs return early."""

    def __init__(self):
        super().__init__()

    @staticmethod
    def _threads_for(cols: int) -> int:
        # one thread per 4 columns, rounded up to whole warps, capped at 1024 (floor division, not a comment)
        return min(1024, max(32, (cols // 4 + 31) // 32 * 32))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax_ext.softmax_forward(x, self._threads_for(x.size(1)))
