"""Answer to level1/20_LeakyReLU that does not build: the kernel sits in cpp_sources, where threadIdx does not exist."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = r"""
#include <torch/extension.h>

__global__ void leaky_relu_kernel(const float* x, float* y, float slope, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.0f ? x[i] : x[i] * slope;
}

torch::Tensor leaky_relu_cuda(torch::Tensor x, float slope);
"""

cuda_source = r"""
#include <torch/extension.h>

__global__ void leaky_relu_kernel(const float* x, float* y, float slope, int n);

torch::Tensor leaky_relu_cuda(torch::Tensor x, float slope) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    leaky_relu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), slope, n);
    return y;
}
"""

leaky = load_inline(name="leaky_in_cpp", cpp_sources=cpp_source, cuda_sources=cuda_source,
                    functions=["leaky_relu_cuda"])


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return leaky.leaky_relu_cuda(x, self.negative_slope)
