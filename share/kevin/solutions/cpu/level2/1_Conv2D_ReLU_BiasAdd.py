"""C++ (CPU) solution for level2/1_Conv2D_ReLU_BiasAdd: direct valid convolution with the ReLU and bias add fused."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

conv_relu_bias_cpp_source = r"""
#include <torch/extension.h>
#include <algorithm>

// Stride 1, no padding, groups 1 (what nn.Conv2d(in, out, k) builds). Each output plane starts at the
// conv bias, accumulates w * shifted input rows, then gets relu(.) + extra_bias[oc] in one sweep.
torch::Tensor conv_relu_bias_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor conv_bias,
                                     torch::Tensor extra_bias) {
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4 && x.size(1) == weight.size(1), "shape mismatch");
    TORCH_CHECK(conv_bias.numel() == weight.size(0) && extra_bias.numel() == weight.size(0), "bias size mismatch");
    TORCH_CHECK(x.scalar_type() == torch::kFloat, "expected float32 input");
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    auto cb = conv_bias.contiguous();
    auto eb = extra_bias.contiguous();
    const int64_t N = xc.size(0), IC = xc.size(1), H = xc.size(2), W = xc.size(3);
    const int64_t OC = wc.size(0), KH = wc.size(2), KW = wc.size(3);
    const int64_t OH = H - KH + 1, OW = W - KW + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "input smaller than the kernel");
    auto out = torch::empty({N, OC, OH, OW}, xc.options());
    const float* in = xc.data_ptr<float>();
    const float* w = wc.data_ptr<float>();
    const float* pcb = cb.data_ptr<float>();
    const float* peb = eb.data_ptr<float>();
    float* o = out.data_ptr<float>();
    for (int64_t n = 0; n < N; ++n)
        for (int64_t oc = 0; oc < OC; ++oc) {
            float* yp = o + (n * OC + oc) * OH * OW;
            std::fill(yp, yp + OH * OW, pcb[oc]);
            for (int64_t ic = 0; ic < IC; ++ic) {
                const float* xp = in + (n * IC + ic) * H * W;
                const float* wp = w + (oc * IC + ic) * KH * KW;
                for (int64_t kh = 0; kh < KH; ++kh)
                    for (int64_t kw = 0; kw < KW; ++kw) {
                        const float wv = wp[kh * KW + kw];
                        for (int64_t oh = 0; oh < OH; ++oh) {
                            const float* xrow = xp + (oh + kh) * W + kw;
                            float* yrow = yp + oh * OW;
                            for (int64_t ow = 0; ow < OW; ++ow) yrow[ow] += wv * xrow[ow];
                        }
                    }
            }
            const float b = peb[oc];
            for (int64_t i = 0; i < OH * OW; ++i) yp[i] = (yp[i] > 0.0f ? yp[i] : 0.0f) + b;
        }
    return out;
}
"""

conv_relu_bias_ext = load_inline(
    name="kevin_cpu_l2_1_conv_relu_bias",
    cpp_sources=conv_relu_bias_cpp_source,
    functions=["conv_relu_bias_forward"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, bias_shape: tuple):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)   # parameter container
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv_relu_bias_ext.conv_relu_bias_forward(x, self.conv.weight, self.conv.bias, self.bias)
