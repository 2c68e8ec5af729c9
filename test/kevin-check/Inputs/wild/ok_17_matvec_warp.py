"""Answer to level1/4_Matrix_vector_multiplication_: one warp per row, float4 loads when aligned."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matvec_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}

__global__ void matvec_kernel(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y,
                              int M, int K) {
    const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= M) return;
    const float* a = A + (size_t)row * K;
    float acc = 0.f;
    if (K % 4 == 0) {
        const float4* a4 = reinterpret_cast<const float4*>(a);
        const float4* x4 = reinterpret_cast<const float4*>(x);
        for (int k = lane; k < K / 4; k += 32) {
            float4 av = a4[k], xv = x4[k];
            acc += av.x * xv.x + av.y * xv.y + av.z * xv.z + av.w * xv.w;
        }
    } else {
        for (int k = lane; k < K; k += 32) acc += a[k] * x[k];
    }
    acc = warp_sum(acc);
    if (lane == 0) y[row] = acc;
}

torch::Tensor matvec_cuda(torch::Tensor A, torch::Tensor B) {
    at::cuda::CUDAGuard guard(A.device());
    auto a = A.contiguous();
    auto b = B.contiguous();
    const int M = a.size(0), K = a.size(1);
    auto y = torch::empty({M, 1}, a.options());
    const int rows_per_block = 8;
    matvec_kernel<<<(M + rows_per_block - 1) / rows_per_block, rows_per_block * 32, 0,
                    at::cuda::getCurrentCUDAStream()>>>(a.data_ptr<float>(), b.data_ptr<float>(),
                                                        y.data_ptr<float>(), M, K);
    AT_CUDA_CHECK(cudaGetLastError());
    return y;
}
"""

matvec_cpp = "torch::Tensor matvec_cuda(torch::Tensor A, torch::Tensor B);"

matvec = load_inline(
    name="matvec_warp",
    cpp_sources=matvec_cpp,
    cuda_sources=matvec_src,
    functions=["matvec_cuda"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return matvec.matvec_cuda(A, B)
