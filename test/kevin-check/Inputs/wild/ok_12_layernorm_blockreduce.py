"""Answer to level1/40_LayerNorm: Welford-free two-pass block reduction, affine from nn.LayerNorm's parameters."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

layernorm_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>

template <unsigned BLOCK>
__device__ float block_sum(float v, float* shm) {
    shm[threadIdx.x] = v;
    __syncthreads();
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) shm[threadIdx.x] += shm[threadIdx.x + s];
        __syncthreads();
    }
    float r = shm[0];
    __syncthreads();
    return r;
}

__global__ void layer_norm_kernel(const float* __restrict__ x, const float* __restrict__ gamma,
                                  const float* __restrict__ beta, float* __restrict__ y,
                                  int64_t inner, float eps) {
    __shared__ float shm[1024];
    const float* xr = x + blockIdx.x * inner;
    float* yr = y + blockIdx.x * inner;
    float s = 0.f;
    for (int64_t i = threadIdx.x; i < inner; i += blockDim.x) s += xr[i];
    const float mean = block_sum<1024>(s, shm) / inner;
    float v = 0.f;
    for (int64_t i = threadIdx.x; i < inner; i += blockDim.x) {
        float d = xr[i] - mean;
        v += d * d;
    }
    const float rstd = rsqrtf(block_sum<1024>(v, shm) / inner + eps);
    for (int64_t i = threadIdx.x; i < inner; i += blockDim.x)
        yr[i] = (xr[i] - mean) * rstd * gamma[i] + beta[i];
}

torch::Tensor layer_norm_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    auto xc = x.contiguous();
    const int64_t inner = weight.numel();
    const int64_t outer = xc.numel() / inner;
    auto y = torch::empty_like(xc);
    layer_norm_kernel<<<outer, 1024>>>(xc.data_ptr<float>(), weight.contiguous().data_ptr<float>(),
                                       bias.contiguous().data_ptr<float>(), y.data_ptr<float>(), inner,
                                       (float)eps);
    return y;
}
"""

layernorm_cpp_source = "torch::Tensor layer_norm_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"

layernorm = load_inline(
    name="layernorm_block",
    cpp_sources=layernorm_cpp_source,
    cuda_sources=layernorm_source,
    functions=["layer_norm_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return layernorm.layer_norm_cuda(x, self.ln.weight, self.ln.bias, self.ln.eps)
