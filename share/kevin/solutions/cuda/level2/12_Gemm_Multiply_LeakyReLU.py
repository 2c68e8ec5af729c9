"""CUDA solution for level2/12_Gemm_Multiply_LeakyReLU: tiled x @ W^T with the bias, scale and LeakyReLU fused into the store."""
import math

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gemm_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

constexpr int TILE = 32;
constexpr int ROWS = 4;
constexpr int BY = TILE / ROWS;

__device__ __forceinline__ float epilogue(float acc, float bias, float mul, float slope) {
    const float v = (acc + bias) * mul;
    return v >= 0.0f ? v : v * slope;
}

// y[r, o] = lrelu((sum_i x[r, i] * W[o, i] + b[o]) * mul). W is (O, I) row-major, so a W tile is read
// along i (coalesced) and stored transposed into Ws[i][o]; the +1 padding keeps that store conflict-free.
__global__ void gemm_mul_lrelu_kernel(const float* __restrict__ X, const float* __restrict__ Wt,
                                      const float* __restrict__ bias, float* __restrict__ Y,
                                      int64_t B, int64_t O, int64_t I, float mul, float slope) {
    __shared__ float Xs[TILE][TILE + 1];
    __shared__ float Ws[TILE][TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t row0 = (int64_t)blockIdx.y * TILE, col0 = (int64_t)blockIdx.x * TILE;
    float acc[ROWS] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int64_t k0 = 0; k0 < I; k0 += TILE) {
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
            const int lr = ty + r * BY;
            const int64_t xr = row0 + lr, wo = col0 + lr, kk = k0 + tx;
            Xs[lr][tx] = (xr < B && kk < I) ? X[xr * I + kk] : 0.0f;
            Ws[tx][lr] = (wo < O && kk < I) ? Wt[wo * I + kk] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            const float w = Ws[k][tx];
#pragma unroll
            for (int r = 0; r < ROWS; ++r) acc[r] = fmaf(Xs[ty + r * BY][k], w, acc[r]);
        }
        __syncthreads();
    }
    const int64_t col = col0 + tx;
    if (col >= O) return;
    const float b = bias[col];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const int64_t row = row0 + ty + r * BY;
        if (row < B) Y[row * O + col] = epilogue(acc[r], b, mul, slope);
    }
}

torch::Tensor gemm_mul_lrelu_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias,
                                     double multiplier, double negative_slope) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(), "expected CUDA tensors");
    TORCH_CHECK(x.scalar_type() == at::kFloat && weight.scalar_type() == at::kFloat && bias.scalar_type() == at::kFloat,
                "expected float32 tensors");
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && x.size(1) == weight.size(1), "shape mismatch");
    TORCH_CHECK(bias.numel() == weight.size(0), "bias size mismatch");
    const at::cuda::CUDAGuard device_guard(x.device());
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    auto bc = bias.contiguous();
    const int64_t B = xc.size(0), I = xc.size(1), O = wc.size(0);
    auto y = torch::empty({B, O}, xc.options());
    if (B == 0 || O == 0) return y;
    TORCH_CHECK((B + TILE - 1) / TILE <= 65535, "batch too large for gridDim.y");
    const dim3 block(TILE, BY);
    const dim3 grid((unsigned int)((O + TILE - 1) / TILE), (unsigned int)((B + TILE - 1) / TILE));
    gemm_mul_lrelu_kernel<<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(), B, O, I,
        static_cast<float>(multiplier), static_cast<float>(negative_slope));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

gemm_cpp_source = (
    "torch::Tensor gemm_mul_lrelu_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, "
    "double multiplier, double negative_slope);"
)

gemm_ext = load_inline(
    name="kevin_cuda_l2_12_gemm_mul_lrelu",
    cpp_sources=gemm_cpp_source,
    cuda_sources=gemm_cuda_source,
    functions=["gemm_mul_lrelu_forward"],
    extra_cflags=["-O3", "-std=c++17"],
    extra_cuda_cflags=["-O3", "-std=c++17", "--expt-relaxed-constexpr", "-lineinfo"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int, multiplier: float, negative_slope: float):
        super().__init__()
        # nn.Linear's reset_parameters() replayed by hand: same tensors, same RNG draws, same order.
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.empty(out_features))
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        bound = 1.0 / math.sqrt(in_features) if in_features > 0 else 0.0
        nn.init.uniform_(self.bias, -bound, bound)
        self.multiplier = multiplier
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gemm_ext.gemm_mul_lrelu_forward(x, self.weight, self.bias, self.multiplier, self.negative_slope)
