"""C++ (CPU) solution for level1/63_conv_standard_2D__square_input__square_kernel: direct convolution, nn.Conv2d as the weight container."""
from typing import Optional

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

conv_cpp_source = r"""
#include <torch/extension.h>
#include <algorithm>

// Direct convolution, groups = 1, dilation = 1. For every (n, oc) output plane the loop walks
// (ic, kh, kw) and adds w * shifted input row segments; the valid ow range is computed once per row
// so the innermost loop has no bounds checks.
torch::Tensor conv2d_forward(torch::Tensor x, torch::Tensor weight, c10::optional<torch::Tensor> bias,
                             int64_t stride, int64_t pad) {
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4 && x.size(1) == weight.size(1), "conv2d_forward: shape mismatch");
    TORCH_CHECK(x.scalar_type() == torch::kFloat && weight.scalar_type() == torch::kFloat, "expected float32");
    TORCH_CHECK(stride > 0 && pad >= 0, "conv2d_forward: bad stride/padding");
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    const int64_t N = xc.size(0), IC = xc.size(1), H = xc.size(2), W = xc.size(3);
    const int64_t OC = wc.size(0), KH = wc.size(2), KW = wc.size(3);
    const int64_t OH = (H + 2 * pad - KH) / stride + 1, OW = (W + 2 * pad - KW) / stride + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "conv2d_forward: output would be empty");
    auto out = torch::empty({N, OC, OH, OW}, xc.options());
    const float* in = xc.data_ptr<float>();
    const float* w = wc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    torch::Tensor bc;
    const float* b = nullptr;
    if (bias.has_value() && bias->defined()) {
        bc = bias->contiguous();
        TORCH_CHECK(bc.numel() == OC, "conv2d_forward: bias size mismatch");
        b = bc.data_ptr<float>();
    }
    for (int64_t n = 0; n < N; ++n) {
        for (int64_t oc = 0; oc < OC; ++oc) {
            float* yp = o + (n * OC + oc) * OH * OW;
            std::fill(yp, yp + OH * OW, b ? b[oc] : 0.0f);
            for (int64_t ic = 0; ic < IC; ++ic) {
                const float* xp = in + (n * IC + ic) * H * W;
                const float* wp = w + (oc * IC + ic) * KH * KW;
                for (int64_t kh = 0; kh < KH; ++kh) {
                    for (int64_t kw = 0; kw < KW; ++kw) {
                        const float wv = wp[kh * KW + kw];
                        // iw = ow * stride - pad + kw must lie in [0, W).
                        int64_t ow0 = 0;
                        while (ow0 < OW && ow0 * stride - pad + kw < 0) ++ow0;
                        int64_t ow1 = OW;
                        while (ow1 > ow0 && (ow1 - 1) * stride - pad + kw >= W) --ow1;
                        for (int64_t oh = 0; oh < OH; ++oh) {
                            const int64_t ih = oh * stride - pad + kh;
                            if (ih < 0 || ih >= H) continue;
                            const float* xrow = xp + ih * W;
                            const int64_t shift = kw - pad;
                            float* yrow = yp + oh * OW;
                            for (int64_t ow = ow0; ow < ow1; ++ow) yrow[ow] += wv * xrow[ow * stride + shift];
                        }
                    }
                }
            }
        }
    }
    return out;
}
"""

conv_ext = load_inline(
    name="kevin_cpu_l1_63_conv2d",
    cpp_sources=conv_cpp_source,
    functions=["conv2d_forward"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 padding: int = 0, bias: bool = False):
        super().__init__()
        # Same constructor call as the reference, so the seeded weight init matches; never called.
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=bias)
        self.stride, self.padding = stride, padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        bias: Optional[torch.Tensor] = self.conv2d.bias
        return conv_ext.conv2d_forward(x, self.conv2d.weight, bias, self.stride, self.padding)
