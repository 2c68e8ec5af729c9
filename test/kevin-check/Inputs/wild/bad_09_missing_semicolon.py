"""Answer to level1/45_Average_Pooling_2D that does not build: a statement without its semicolon."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

pool_source = r"""
#include <torch/extension.h>

__global__ void avg_pool_kernel(const float* x, float* y, int H, int W, int OH, int OW, int k, int s, int p, int total) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int ow = idx % OW, oh = (idx / OW) % OH, plane = idx / (OW * OH);
    float acc = 0.f
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j) {
            int h = oh * s - p + i, w = ow * s - p + j;
            if (h >= 0 && h < H && w >= 0 && w < W) acc += x[(plane * H + h) * W + w];
        }
    y[idx] = acc / (k * k);
}

torch::Tensor avg_pool(torch::Tensor x, int k, int s, int p) {
    const int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    const int OH = (H + 2 * p - k) / s + 1, OW = (W + 2 * p - k) / s + 1;
    auto y = torch::empty({N, C, OH, OW}, x.options());
    const int total = N * C * OH * OW;
    avg_pool_kernel<<<(total + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), H, W, OH, OW, k, s, p, total);
    return y;
}
"""

pool_cpp = "torch::Tensor avg_pool(torch::Tensor x, int k, int s, int p);"

pool = load_inline(name="avg_pool_semicolon", cpp_sources=pool_cpp, cuda_sources=pool_source, functions=["avg_pool"])


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return pool.avg_pool(x.contiguous(), self.kernel_size, self.stride, self.padding)
