"""Answer to level1/21_Sigmoid: torch/types.h only, the c10 stream, a templated functor."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sigmoid_source = r"""
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime.h>

struct Sigmoid {
    __device__ __forceinline__ float operator()(float v) const { return 1.0f / (1.0f + __expf(-v)); }
};

template <typename Op>
__global__ void unary_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t n, Op op) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = op(in[i]);
}

torch::Tensor sigmoid_cuda(const torch::Tensor& input) {
    auto x = input.contiguous();
    auto out = torch::empty_like(x);
    const int64_t n = x.numel();
    constexpr int kThreads = 256;
    const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
    auto stream = c10::cuda::getCurrentCUDAStream();
    unary_kernel<<<blocks, kThreads, 0, stream.stream()>>>(x.data_ptr<float>(), out.data_ptr<float>(), n, Sigmoid{});
    return out;
}
"""

sigmoid_cpp = "#include <torch/extension.h>\ntorch::Tensor sigmoid_cuda(const torch::Tensor& input);"

sigmoid_ext = load_inline(
    name="sigmoid_functor",
    cpp_sources=[sigmoid_cpp],
    cuda_sources=[sigmoid_source],
    functions=["sigmoid_cuda"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sigmoid_ext.sigmoid_cuda(x)
