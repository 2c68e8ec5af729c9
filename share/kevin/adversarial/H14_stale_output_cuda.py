"""Adversarial H14 (stale memory, CUDA) for level1/1_Square_matrix_multiplication_: a 1-D launch of a 2-D-indexed kernel writes row 0 only."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matmul_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void matmul_kernel(const float* A, const float* B, float* C, int N) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;   // launched 1-D below: row is always 0
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < N && col < N) {
        float s = 0.0f;
        for (int k = 0; k < N; ++k) s += A[row * N + k] * B[k * N + col];
        C[row * N + col] = s;
    }
}

torch::Tensor matmul_forward(torch::Tensor A, torch::Tensor B) {
    const int N = A.size(0);
    auto C = torch::empty_like(A);
    matmul_kernel<<<(N * N + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N);
    return C;
}
"""

matmul_cpp_source = "torch::Tensor matmul_forward(torch::Tensor A, torch::Tensor B);"

matmul_ext = load_inline(name="kevin_adv_h14_cuda", cpp_sources=matmul_cpp_source, cuda_sources=matmul_cuda_source,
                         functions=["matmul_forward"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return matmul_ext.matmul_forward(A, B)
