"""Answer to level1/89_cumsum: an extern "C" scan kernel, one block per row, Hillis-Steele over chunks."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cumsum_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define BLOCK 1024

extern "C" __global__ void cumsum_rows_kernel(const float* __restrict__ x, float* __restrict__ y, int len) {
    __shared__ float buf[BLOCK];
    __shared__ float carry;
    const float* xr = x + (size_t)blockIdx.x * len;
    float* yr = y + (size_t)blockIdx.x * len;
    if (threadIdx.x == 0) carry = 0.0f;
    __syncthreads();
    for (int base = 0; base < len; base += BLOCK) {
        int i = base + threadIdx.x;
        buf[threadIdx.x] = i < len ? xr[i] : 0.0f;
        __syncthreads();
        for (int off = 1; off < BLOCK; off <<= 1) {
            float v = threadIdx.x >= off ? buf[threadIdx.x - off] : 0.0f;
            __syncthreads();
            buf[threadIdx.x] += v;
            __syncthreads();
        }
        if (i < len) yr[i] = buf[threadIdx.x] + carry;
        __syncthreads();
        if (threadIdx.x == BLOCK - 1) carry += buf[BLOCK - 1];
        __syncthreads();
    }
}

torch::Tensor cumsum_cuda(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.dim() == 2 && (dim == 1 || dim == -1), "cumsum_cuda: rows of a 2-D tensor");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    cumsum_rows_kernel<<<xc.size(0), BLOCK>>>(xc.data_ptr<float>(), y.data_ptr<float>(), xc.size(1));
    return y;
}
"""

cumsum_cpp = "torch::Tensor cumsum_cuda(torch::Tensor x, int64_t dim);"

cumsum = load_inline(name="cumsum_scan", cpp_sources=cumsum_cpp, cuda_sources=cumsum_cuda, functions=["cumsum_cuda"])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return cumsum.cumsum_cuda(x, self.dim)
