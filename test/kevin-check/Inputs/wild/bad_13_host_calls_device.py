"""Answer to level1/21_Sigmoid that does not build: the host function calls a __device__ helper."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sigmoid_source = r"""
#include <torch/extension.h>

__device__ int ceil_div(int a, int b) { return (a + b - 1) / b; }

__global__ void sigmoid_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 1.0f / (1.0f + __expf(-x[i]));
}

torch::Tensor sigmoid_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    sigmoid_kernel<<<ceil_div(n, 256), 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

sigmoid_cpp = "torch::Tensor sigmoid_cuda(torch::Tensor x);"

sigmoid = load_inline(name="sigmoid_host_device", cpp_sources=sigmoid_cpp, cuda_sources=sigmoid_source,
                      functions=["sigmoid_cuda"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sigmoid.sigmoid_cuda(x.contiguous())
