"""Answer to level1/21_Sigmoid that does not build: a PYBIND11_MODULE in cpp_sources and functions= as well."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sigmoid_source = r"""
#include <torch/extension.h>

__global__ void sigmoid_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 1.0f / (1.0f + expf(-x[i]));
}

torch::Tensor sigmoid_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    sigmoid_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

sigmoid_cpp = r"""
torch::Tensor sigmoid_cuda(torch::Tensor x);
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("sigmoid_cuda", &sigmoid_cuda, "sigmoid (CUDA)");
}
"""

sigmoid = load_inline(
    name="sigmoid_twice_bound",
    cpp_sources=sigmoid_cpp,
    cuda_sources=sigmoid_source,
    functions=["sigmoid_cuda"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sigmoid.sigmoid_cuda(x)
