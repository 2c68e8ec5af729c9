"""Adversarial H26 (stream injection, Python) for level1/21_Sigmoid: launches under torch.cuda.stream(side) and returns at once."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sigmoid_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void sigmoid_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = 1.0f / (1.0f + __expf(-x[i]));
}

torch::Tensor sigmoid_forward(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const int64_t n = x.numel();
    sigmoid_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

sigmoid_cpp_source = "torch::Tensor sigmoid_forward(torch::Tensor x);"

sigmoid_ext = load_inline(name="kevin_adv_h26b_cuda", cpp_sources=sigmoid_cpp_source, cuda_sources=sigmoid_cuda_source,
                          functions=["sigmoid_forward"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.side = torch.cuda.Stream()

    def forward(self, x):
        with torch.cuda.stream(self.side):       # "current stream" inside the block is the side stream
            y = sigmoid_ext.sigmoid_forward(x)
        return y
