"""Answer to level2/1_Conv2D_ReLU_BiasAdd: direct conv + ReLU + bias, dispatched over the floating types."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

conv_relu_bias_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

template <typename scalar_t>
__global__ void conv_relu_bias_kernel(const scalar_t* __restrict__ x, const scalar_t* __restrict__ w,
                                      const scalar_t* __restrict__ cb, const scalar_t* __restrict__ extra,
                                      scalar_t* __restrict__ y, int N, int C, int H, int W, int O, int K) {
    const int OH = H - K + 1, OW = W - K + 1;
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= N * O * OH * OW) return;
    const int ow = idx % OW, oh = (idx / OW) % OH, o = (idx / (OW * OH)) % O, n = idx / (OW * OH * O);
    scalar_t acc = cb[o];
    for (int c = 0; c < C; ++c)
        for (int i = 0; i < K; ++i)
            for (int j = 0; j < K; ++j)
                acc += x[((n * C + c) * H + oh + i) * W + ow + j] * w[((o * C + c) * K + i) * K + j];
    acc = acc > scalar_t(0) ? acc : scalar_t(0);
    y[idx] = acc + extra[o];
}

torch::Tensor conv_relu_bias(torch::Tensor x, torch::Tensor w, torch::Tensor conv_bias, torch::Tensor bias) {
    const at::cuda::OptionalCUDAGuard guard(device_of(x));
    x = x.contiguous();
    w = w.contiguous();
    const int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3), O = w.size(0), K = w.size(2);
    auto y = torch::empty({N, O, H - K + 1, W - K + 1}, x.options());
    const int total = y.numel();
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "conv_relu_bias", [&] {
        conv_relu_bias_kernel<scalar_t><<<(total + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
            x.data_ptr<scalar_t>(), w.data_ptr<scalar_t>(), conv_bias.contiguous().data_ptr<scalar_t>(),
            bias.contiguous().data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), N, C, H, W, O, K);
    });
    return y;
}
"""

conv_relu_bias_cpp = "torch::Tensor conv_relu_bias(torch::Tensor x, torch::Tensor w, torch::Tensor conv_bias, torch::Tensor bias);"

conv_relu_bias_ext = load_inline(
    name="conv_relu_bias",
    cpp_sources=conv_relu_bias_cpp,
    cuda_sources=conv_relu_bias_source,
    functions=["conv_relu_bias"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, bias_shape: tuple):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv_relu_bias_ext.conv_relu_bias(x, self.conv.weight, self.conv.bias, self.bias)
