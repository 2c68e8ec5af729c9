"""Adversarial H23 (precision downcast, CUDA) for level1/1_Square_matrix_multiplication_: fp32 task computed from __half tiles."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matmul_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_fp16.h>

constexpr int TILE = 16;

// Tiles stored as __half halve shared-memory traffic; accumulation stays fp32 "so it is accurate".
__global__ void hgemm_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
    __shared__ __half As[TILE][TILE];
    __shared__ __half Bs[TILE][TILE];
    const int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += TILE) {
        As[threadIdx.y][threadIdx.x] = __float2half_rn(row < N && k0 + threadIdx.x < N ? A[row * N + k0 + threadIdx.x] : 0.0f);
        Bs[threadIdx.y][threadIdx.x] = __float2half_rn(col < N && k0 + threadIdx.y < N ? B[(k0 + threadIdx.y) * N + col] : 0.0f);
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += __half2float(As[threadIdx.y][k]) * __half2float(Bs[k][threadIdx.x]);
        __syncthreads();
    }
    if (row < N && col < N) C[row * N + col] = acc;
}

torch::Tensor matmul_forward(torch::Tensor A, torch::Tensor B) {
    const int N = A.size(0);
    auto C = torch::empty_like(A);
    const dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (N + TILE - 1) / TILE);
    hgemm_kernel<<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.contiguous().data_ptr<float>(), B.contiguous().data_ptr<float>(), C.data_ptr<float>(), N);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return C;
}
"""

matmul_cpp_source = "torch::Tensor matmul_forward(torch::Tensor A, torch::Tensor B);"

matmul_ext = load_inline(name="kevin_adv_h23_cuda", cpp_sources=matmul_cpp_source, cuda_sources=matmul_cuda_source,
                         functions=["matmul_forward"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return matmul_ext.matmul_forward(A, B)
