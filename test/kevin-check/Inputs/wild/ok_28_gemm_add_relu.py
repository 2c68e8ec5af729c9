"""Answer to level2/76_Gemm_Add_ReLU: register-blocked GEMM (4 rows a thread), bias and ReLU in the store."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gemm_add_relu_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <c10/cuda/CUDAGuard.h>
#include <ATen/cuda/CUDAContext.h>

constexpr int BT = 32, RB = 4;

__global__ void gemm_add_relu_kernel(const float* __restrict__ X, const float* __restrict__ W,
                                     const float* __restrict__ bias, float* __restrict__ Y, int B, int I, int O) {
    __shared__ float xs[BT * RB][BT + 1];
    __shared__ float ws[BT][BT + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col = blockIdx.x * BT + tx;
    const int row0 = blockIdx.y * BT * RB;
    float acc[RB] = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < I; k0 += BT) {
        for (int r = ty; r < BT * RB; r += blockDim.y) {
            int gr = row0 + r, gk = k0 + tx;
            xs[r][tx] = (gr < B && gk < I) ? X[(size_t)gr * I + gk] : 0.f;
        }
        for (int r = ty; r < BT; r += blockDim.y) {
            int go = blockIdx.x * BT + r, gk = k0 + tx;
            ws[tx][r] = (go < O && gk < I) ? W[(size_t)go * I + gk] : 0.f;
        }
        __syncthreads();
        for (int k = 0; k < BT; ++k) {
            const float wv = ws[k][tx];
#pragma unroll
            for (int r = 0; r < RB; ++r) acc[r] += xs[ty * RB + r][k] * wv;
        }
        __syncthreads();
    }
    if (col >= O) return;
#pragma unroll
    for (int r = 0; r < RB; ++r) {
        int row = row0 + ty * RB + r;
        if (row < B) Y[(size_t)row * O + col] = fmaxf(acc[r] + bias[col], 0.f);
    }
}

torch::Tensor gemm_add_relu(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
    const c10::cuda::OptionalCUDAGuard guard(x.device());
    auto xc = x.contiguous(), wc = weight.contiguous(), bc = bias.contiguous();
    const int B = xc.size(0), I = xc.size(1), O = wc.size(0);
    auto y = torch::empty({B, O}, xc.options());
    dim3 block(BT, BT);
    dim3 grid((O + BT - 1) / BT, (B + BT * RB - 1) / (BT * RB));
    gemm_add_relu_kernel<<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(), B, I, O);
    return y;
}
"""

gemm_add_relu_cpp = "torch::Tensor gemm_add_relu(torch::Tensor x, torch::Tensor weight, torch::Tensor bias);"

gemm_add_relu = load_inline(
    name="gemm_add_relu",
    cpp_sources=gemm_add_relu_cpp,
    cuda_sources=gemm_add_relu_source,
    functions=["gemm_add_relu"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int, bias_shape: tuple):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gemm_add_relu.gemm_add_relu(x, self.gemm.weight, self.bias)
