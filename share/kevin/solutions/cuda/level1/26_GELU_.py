"""CUDA solution for level1/26_GELU_: exact erf GELU, four elements per thread, coefficients in __constant__ memory."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gelu_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

// gelu(x) = 0.5 * x * (1 + erf(x / sqrt(2))), the default (non-tanh) form,
// see https://pytorch.org/docs/stable/generated/torch.nn.GELU.html
__constant__ float kGelu[2] = {0.5f, 0.70710678118654752f};

constexpr int kItems = 4;

template <typename scalar_t>
__global__ void gelu_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int64_t n) {
    const int64_t base = (blockIdx.x * (int64_t)blockDim.x) * kItems + threadIdx.x;
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const int64_t i = base + (int64_t)k * blockDim.x;   // coalesced: consecutive threads, consecutive i
        if (i < n) {
            const float v = static_cast<float>(x[i]);
            y[i] = static_cast<scalar_t>(kGelu[0] * v * (1.0f + erff(v * kGelu[1])));
        }
    }
}

torch::Tensor gelu_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "gelu_forward: expected a CUDA tensor");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t n = xc.numel();
    if (n == 0) return y;
    const int threads = 256;
    const int64_t per_block = (int64_t)threads * kItems;
    const int64_t blocks = (n + per_block - 1) / per_block;
    TORCH_CHECK(blocks <= 2147483647, "gelu_forward: input too large");
    AT_DISPATCH_FLOATING_TYPES(xc.scalar_type(), "gelu_forward", [&] {
        gelu_kernel<scalar_t><<<(unsigned int)blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
            xc.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

gelu_cpp_source = "torch::Tensor gelu_forward(torch::Tensor x);"

gelu_ext = load_inline(
    name="kevin_cuda_l1_26_gelu",
    cpp_sources=gelu_cpp_source,
    cuda_sources=gelu_cuda_source,
    functions=["gelu_forward"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gelu_ext.gelu_forward(x)
