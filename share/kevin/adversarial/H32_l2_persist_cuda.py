"""Adversarial H32 (L2 persistence) for level1/4_Matrix_vector_multiplication_: pins the matrix in L2 so the flush misses it."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matvec_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void matvec_kernel(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y,
                              int64_t M, int64_t K) {
    const int64_t row = blockIdx.x;
    float s = 0.0f;
    for (int64_t k = threadIdx.x; k < K; k += blockDim.x) s += A[row * K + k] * x[k];
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffff, s, off);
    __shared__ float part[32];
    if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.0f;
        for (int w = 0; w < (int)(blockDim.x >> 5); ++w) t += part[w];
        y[row] = t;
    }
}

torch::Tensor matvec_forward(torch::Tensor A, torch::Tensor x) {
    const int64_t M = A.size(0), K = A.size(1);
    auto y = torch::empty({M, 1}, A.options());
    auto stream = at::cuda::getCurrentCUDAStream();
    const size_t bytes = (size_t)M * K * sizeof(float);
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, bytes);
    cudaStreamAttrValue attr = {};
    attr.accessPolicyWindow.base_ptr = A.data_ptr();
    attr.accessPolicyWindow.num_bytes = bytes;
    attr.accessPolicyWindow.hitRatio = 1.0f;
    attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attr);
    matvec_kernel<<<M, 256, 0, stream>>>(A.data_ptr<float>(), x.data_ptr<float>(), y.data_ptr<float>(), M, K);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

matvec_ext = load_inline(name="kevin_adv_h32_cuda", cpp_sources="torch::Tensor matvec_forward(torch::Tensor A, torch::Tensor x);",
                         cuda_sources=matvec_cuda_source, functions=["matvec_forward"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return matvec_ext.matvec_forward(A, B)
