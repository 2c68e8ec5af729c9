"""Answer to level1/63_conv_standard_2D__square_input__square_kernel: direct convolution, one thread per output."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

conv2d_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void conv2d_kernel(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
                              float* __restrict__ y, int N, int C, int H, int W, int O, int K, int stride, int pad,
                              int OH, int OW, bool has_bias) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int total = N * O * OH * OW;
    if (idx >= total) return;
    int ow = idx % OW, oh = (idx / OW) % OH, o = (idx / (OW * OH)) % O, n = idx / (OW * OH * O);
    float acc = has_bias ? b[o] : 0.0f;
    for (int c = 0; c < C; ++c) {
        for (int kh = 0; kh < K; ++kh) {
            int ih = oh * stride - pad + kh;
            if (ih < 0 || ih >= H) continue;
            for (int kw = 0; kw < K; ++kw) {
                int iw = ow * stride - pad + kw;
                if (iw < 0 || iw >= W) continue;
                acc += x[((n * C + c) * H + ih) * W + iw] * w[((o * C + c) * K + kh) * K + kw];
            }
        }
    }
    y[idx] = acc;
}

torch::Tensor conv2d_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, int stride, int pad) {
    x = x.contiguous();
    weight = weight.contiguous();
    const int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    const int O = weight.size(0), K = weight.size(2);
    const int OH = (H + 2 * pad - K) / stride + 1, OW = (W + 2 * pad - K) / stride + 1;
    auto y = torch::empty({N, O, OH, OW}, x.options());
    const bool has_bias = bias.defined() && bias.numel() > 0;
    const float* bptr = has_bias ? bias.data_ptr<float>() : nullptr;
    const int total = N * O * OH * OW;
    conv2d_kernel<<<(total + 255) / 256, 256>>>(x.data_ptr<float>(), weight.data_ptr<float>(), bptr,
                                                y.data_ptr<float>(), N, C, H, W, O, K, stride, pad, OH, OW,
                                                has_bias);
    return y;
}
"""

conv2d_cpp = "torch::Tensor conv2d_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, int stride, int pad);"

conv2d = load_inline(name="conv2d_naive", cpp_sources=conv2d_cpp, cuda_sources=conv2d_source, functions=["conv2d_cuda"])


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, padding: int = 0,
                 bias: bool = False):
        super().__init__()
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=bias)
        self.stride = stride
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        bias = self.conv2d.bias if self.conv2d.bias is not None else torch.empty(0, device=x.device)
        return conv2d.conv2d_cuda(x, self.conv2d.weight, bias, self.stride, self.padding)
