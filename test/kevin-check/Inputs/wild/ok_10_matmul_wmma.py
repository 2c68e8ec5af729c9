"""Answer to level1/1_Square_matrix_multiplication_: WMMA tensor-core tiles with float accumulation."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

wmma_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

constexpr int WM = 16, WN = 16, WK = 16;

__global__ void to_half_kernel(const float* __restrict__ src, half* __restrict__ dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = __float2half(src[i]);
}

// One warp per 16x16 output tile; N must be a multiple of 16 (checked on the host).
__global__ void wmma_gemm_kernel(const half* __restrict__ a, const half* __restrict__ b,
                                 float* __restrict__ c, int N) {
    const int warp_m = (blockIdx.y * blockDim.y + threadIdx.y);
    const int warp_n = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    if (warp_m * WM >= N || warp_n * WN >= N) return;
    wmma::fragment<wmma::matrix_a, WM, WN, WK, half, wmma::row_major> a_frag;
    wmma::fragment<wmma::matrix_b, WM, WN, WK, half, wmma::row_major> b_frag;
    wmma::fragment<wmma::accumulator, WM, WN, WK, float> acc_frag;
    wmma::fill_fragment(acc_frag, 0.0f);
    for (int k = 0; k < N; k += WK) {
        wmma::load_matrix_sync(a_frag, a + warp_m * WM * N + k, N);
        wmma::load_matrix_sync(b_frag, b + k * N + warp_n * WN, N);
        wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
    }
    wmma::store_matrix_sync(c + warp_m * WM * N + warp_n * WN, acc_frag, N, wmma::mem_row_major);
}

torch::Tensor wmma_matmul(torch::Tensor A, torch::Tensor B) {
    const int N = A.size(0);
    TORCH_CHECK(N % 16 == 0, "N must be a multiple of 16");
    auto opts = A.options();
    auto a16 = torch::empty({N, N}, opts.dtype(torch::kHalf));
    auto b16 = torch::empty({N, N}, opts.dtype(torch::kHalf));
    auto C = torch::empty({N, N}, opts);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    const int n = N * N;
    to_half_kernel<<<(n + 255) / 256, 256, 0, stream>>>(A.data_ptr<float>(),
        reinterpret_cast<half*>(a16.data_ptr<at::Half>()), n);
    to_half_kernel<<<(n + 255) / 256, 256, 0, stream>>>(B.data_ptr<float>(),
        reinterpret_cast<half*>(b16.data_ptr<at::Half>()), n);
    dim3 block(128, 4);
    dim3 grid((N / WN + 3) / 4, (N / WM + 3) / 4);
    wmma_gemm_kernel<<<grid, block, 0, stream>>>(
        reinterpret_cast<const half*>(a16.data_ptr<at::Half>()),
        reinterpret_cast<const half*>(b16.data_ptr<at::Half>()), C.data_ptr<float>(), N);
    return C;
}
"""

wmma_cpp = "torch::Tensor wmma_matmul(torch::Tensor A, torch::Tensor B);"

wmma_ext = load_inline(
    name="wmma_matmul_ext",
    cpp_sources=wmma_cpp,
    cuda_sources=wmma_source,
    functions=["wmma_matmul"],
    extra_cuda_cflags=["-O3", "-arch=sm_90a"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return wmma_ext.wmma_matmul(A.contiguous(), B.contiguous())
