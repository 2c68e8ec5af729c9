"""Answer to level1/26_GELU_: the erf form with math_constants.h, scalar_t arithmetic in c10::Half too."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gelu_src = r"""
#include <torch/extension.h>
#include <math_constants.h>
#include <cuda_runtime.h>

template <typename scalar_t>
__global__ void gelu_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)blockDim.x * gridDim.x) {
        const scalar_t v = x[i];
        const float f = static_cast<float>(v);
        const scalar_t half_v = v * scalar_t(0.5f);
        y[i] = half_v * scalar_t(1.0f + erff(f * CUDART_SQRT_HALF_F));
    }
}

torch::Tensor gelu(torch::Tensor x) {
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t n = xc.numel();
    const int blocks = (int)std::min<int64_t>((n + 511) / 512, 2048);
    AT_DISPATCH_FLOATING_TYPES_AND_HALF(xc.scalar_type(), "gelu", ([&] {
        gelu_kernel<scalar_t><<<blocks, 512>>>(xc.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
    }));
    return y;
}
"""

gelu_cpp = "torch::Tensor gelu(torch::Tensor x);"

gelu_ext = load_inline(name="gelu_constants", cpp_sources=gelu_cpp, cuda_sources=gelu_src, functions=["gelu"],
                       extra_cuda_cflags=["-O3", "--use_fast_math"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gelu_ext.gelu(x)
