"""CUDA solution for level1/89_cumsum: block-wide scan (warp shuffles + shared memory) with a carry across chunks."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cumsum_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

constexpr int kThreads = 256;
constexpr int kItems = 4;                       // each thread scans 4 consecutive elements
constexpr int kChunk = kThreads * kItems;

// Inclusive scan of one value per thread across the block; returns the thread's inclusive prefix.
__device__ float block_inclusive_scan(float v, float* warp_tot) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        const float up = __shfl_up_sync(0xffffffff, v, off);
        if (lane >= off) v += up;
    }
    if (lane == 31) warp_tot[warp] = v;
    __syncthreads();
    if (warp == 0) {
        float w = lane < kThreads / 32 ? warp_tot[lane] : 0.0f;
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            const float up = __shfl_up_sync(0xffffffff, w, off);
            if (lane >= off) w += up;
        }
        if (lane < kThreads / 32) warp_tot[lane] = w;   // inclusive prefix over warps
    }
    __syncthreads();
    if (warp > 0) v += warp_tot[warp - 1];
    return v;
}

// inner == 1: one block per row, chunks of kChunk elements, the running total carried between chunks.
__global__ void cumsum_rows_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t len) {
    __shared__ float warp_tot[kThreads / 32];
    const float* xr = x + blockIdx.x * len;
    float* yr = y + blockIdx.x * len;
    float carry = 0.0f;
    for (int64_t base = 0; base < len; base += kChunk) {
        const int64_t first = base + (int64_t)threadIdx.x * kItems;
        float v[kItems];
        float local = 0.0f;
#pragma unroll
        for (int k = 0; k < kItems; ++k) {
            v[k] = first + k < len ? xr[first + k] : 0.0f;
            local += v[k];
            v[k] = local;                                  // thread-local inclusive prefix
        }
        const float incl = block_inclusive_scan(local, warp_tot);
        const float offset = carry + incl - local;         // everything before this thread's first element
#pragma unroll
        for (int k = 0; k < kItems; ++k)
            if (first + k < len) yr[first + k] = v[k] + offset;
        carry += warp_tot[kThreads / 32 - 1];              // the chunk's total
        __syncthreads();                                   // warp_tot is rewritten by the next chunk
    }
}

// inner > 1: thread (a, i) scans sequentially; neighbouring threads touch neighbouring addresses.
__global__ void cumsum_strided_kernel(const float* __restrict__ x, float* __restrict__ y,
                                      int64_t outer, int64_t len, int64_t inner) {
    const int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (t >= outer * inner) return;
    const int64_t a = t / inner, i = t % inner;
    const float* xp = x + a * len * inner + i;
    float* yp = y + a * len * inner + i;
    float run = 0.0f;
    for (int64_t l = 0; l < len; ++l) {
        run += xp[l * inner];
        yp[l * inner] = run;
    }
}

torch::Tensor cumsum_forward(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kFloat, "cumsum_forward: expected a float32 CUDA tensor");
    TORCH_CHECK(x.dim() > 0, "cumsum_forward: expected at least one dim");
    if (dim < 0) dim += x.dim();
    TORCH_CHECK(dim >= 0 && dim < x.dim(), "cumsum_forward: dim out of range");
    const at::cuda::CUDAGuard device_guard(x.device());
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t len = xc.size(dim);
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= xc.size(d);
    for (int64_t d = dim + 1; d < xc.dim(); ++d) inner *= xc.size(d);
    if (xc.numel() == 0) return y;
    auto stream = at::cuda::getCurrentCUDAStream();
    if (inner == 1) {
        TORCH_CHECK(outer <= 2147483647, "cumsum_forward: too many rows");
        cumsum_rows_kernel<<<(unsigned int)outer, kThreads, 0, stream>>>(xc.data_ptr<float>(), y.data_ptr<float>(), len);
    } else {
        const int64_t blocks = (outer * inner + kThreads - 1) / kThreads;
        cumsum_strided_kernel<<<blocks, kThreads, 0, stream>>>(xc.data_ptr<float>(), y.data_ptr<float>(), outer, len, inner);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

cumsum_cpp_source = "torch::Tensor cumsum_forward(torch::Tensor x, int64_t dim);"

cumsum_ext = load_inline(
    name="kevin_cuda_l1_89_cumsum",
    cpp_sources=cumsum_cpp_source,
    cuda_sources=cumsum_cuda_source,
    functions=["cumsum_forward"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # No torch.cuda.synchronize() here: a forward that waits for its kernel is timed up to the
        # host's return, whose delay differs from one process to the next.
        return cumsum_ext.cumsum_forward(x, self.dim)
