"""Answer to level2/63_Gemm_ReLU_Divide: one row of outputs per grid row, std::min on the host, float divisor."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <algorithm>

__global__ void gemm_relu_div_kernel(const float* x, const float* w, const float* b, float* y,
                                     int B, int I, int O, float inv_div) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y;
    if (col >= O) return;
    const float* xr = x + (size_t)row * I;
    const float* wr = w + (size_t)col * I;
    float acc = b[col];
    for (int k = 0; k < I; ++k) acc += xr[k] * wr[k];
    y[(size_t)row * O + col] = fmaxf(acc, 0.0f) * inv_div;
}

torch::Tensor gemm_relu_div(torch::Tensor x, torch::Tensor w, torch::Tensor b, float divisor) {
    const int B = x.size(0), I = x.size(1), O = w.size(0);
    auto y = torch::empty({B, O}, x.options());
    const int threads = std::min(256, ((O + 31) / 32) * 32);
    dim3 grid((O + threads - 1) / threads, B);
    gemm_relu_div_kernel<<<grid, threads>>>(x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(),
                                           y.data_ptr<float>(), B, I, O, 1.0f / divisor);
    return y;
}
"""

cpp_source = "torch::Tensor gemm_relu_div(torch::Tensor x, torch::Tensor w, torch::Tensor b, float divisor);"

gemm_relu_div = load_inline(
    name="gemm_relu_div",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["gemm_relu_div"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int, divisor: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.divisor = divisor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gemm_relu_div.gemm_relu_div(x.contiguous(), self.linear.weight, self.linear.bias, self.divisor)
