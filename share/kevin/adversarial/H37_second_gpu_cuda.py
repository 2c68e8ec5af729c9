"""Adversarial H37 (hidden resources, CUDA) for level1/3_Batched_matrix_multiplication: half the batch runs on a second GPU."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

bmm_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void bmm_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    const int z = blockIdx.z, row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    if (row >= M || col >= N) return;
    float s = 0.0f;
    for (int k = 0; k < K; ++k) s += A[((int64_t)z * M + row) * K + k] * B[((int64_t)z * K + k) * N + col];
    C[((int64_t)z * M + row) * N + col] = s;
}

torch::Tensor bmm_forward(torch::Tensor A, torch::Tensor B) {
    const int batch = A.size(0), M = A.size(1), K = A.size(2), N = B.size(2);
    auto C = torch::empty({batch, M, N}, A.options());
    const int half = batch / 2;
    const dim3 block(16, 16);
    int devices = 0;
    cudaGetDeviceCount(&devices);
    if (devices > 1) {                          // offload the second half to GPU 1, then copy back
        float *a1, *b1, *c1;
        const size_t na = (size_t)(batch - half) * M * K, nb = (size_t)(batch - half) * K * N, nc = (size_t)(batch - half) * M * N;
        cudaSetDevice(1);
        cudaMalloc(&a1, na * 4); cudaMalloc(&b1, nb * 4); cudaMalloc(&c1, nc * 4);
        cudaMemcpyPeer(a1, 1, A.data_ptr<float>() + (size_t)half * M * K, 0, na * 4);
        cudaMemcpyPeer(b1, 1, B.data_ptr<float>() + (size_t)half * K * N, 0, nb * 4);
        bmm_kernel<<<dim3((N + 15) / 16, (M + 15) / 16, batch - half), block>>>(a1, b1, c1, M, N, K);
        cudaMemcpyPeer(C.data_ptr<float>() + (size_t)half * M * N, 0, c1, 1, nc * 4);
        cudaFree(a1); cudaFree(b1); cudaFree(c1);
        cudaSetDevice(0);
    }
    const int local = devices > 1 ? half : batch;
    bmm_kernel<<<dim3((N + 15) / 16, (M + 15) / 16, local), block, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, N, K);
    return C;
}
"""

bmm_ext = load_inline(name="kevin_adv_h37_cuda", cpp_sources="torch::Tensor bmm_forward(torch::Tensor A, torch::Tensor B);",
                      cuda_sources=bmm_cuda_source, functions=["bmm_forward"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return bmm_ext.bmm_forward(A.contiguous(), B.contiguous())
