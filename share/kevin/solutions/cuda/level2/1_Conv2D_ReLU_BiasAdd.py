"""CUDA solution for level2/1_Conv2D_ReLU_BiasAdd: direct valid conv over 16x16 output tiles, input patch and filter in shared memory, ReLU + bias fused."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

conv_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

constexpr int T = 16;   // output tile edge; blockDim = (T, T)

// grid = (ceil(OW/T), ceil(OH/T), N * OC). Stride 1, no padding. For each input channel the block
// stages the (T+KH-1) x (T+KW-1) input patch in shared memory, then every thread accumulates its pixel.
// Dynamic smem layout: [patch: (T+KH-1)*(T+KW-1)] [filter of this oc: IC*KH*KW].
__global__ void conv_relu_bias_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                      const float* __restrict__ conv_b, const float* __restrict__ extra_b,
                                      float* __restrict__ y, int IC, int H, int W, int OC, int KH, int KW) {
    extern __shared__ float smem[];
    const int PH = T + KH - 1, PW = T + KW - 1;
    float* patch = smem;
    float* filt = smem + PH * PW;
    const int n = blockIdx.z / OC, oc = blockIdx.z % OC;
    const int OH = H - KH + 1, OW = W - KW + 1;
    const int oh0 = blockIdx.y * T, ow0 = blockIdx.x * T;
    const int tid = threadIdx.y * T + threadIdx.x;
    for (int i = tid; i < IC * KH * KW; i += T * T) filt[i] = w[(int64_t)oc * IC * KH * KW + i];
    float acc = conv_b[oc];
    for (int ic = 0; ic < IC; ++ic) {
        const float* xp = x + ((int64_t)n * IC + ic) * H * W;
        __syncthreads();   // the previous channel's patch is no longer read (also orders the filter copy)
        for (int i = tid; i < PH * PW; i += T * T) {
            const int ph = i / PW, pw = i % PW;
            const int ih = oh0 + ph, iw = ow0 + pw;
            patch[i] = (ih < H && iw < W) ? xp[ih * W + iw] : 0.0f;
        }
        __syncthreads();
        const float* fp = filt + ic * KH * KW;
        for (int kh = 0; kh < KH; ++kh)
#pragma unroll 4
            for (int kw = 0; kw < KW; ++kw)
                acc = fmaf(patch[(threadIdx.y + kh) * PW + threadIdx.x + kw], fp[kh * KW + kw], acc);
    }
    const int oh = oh0 + threadIdx.y, ow = ow0 + threadIdx.x;
    if (oh < OH && ow < OW)
        y[(((int64_t)n * OC + oc) * OH + oh) * OW + ow] = fmaxf(acc, 0.0f) + extra_b[oc];
}

torch::Tensor conv_relu_bias_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor conv_bias,
                                     torch::Tensor extra_bias) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda(), "expected CUDA tensors");
    TORCH_CHECK(x.scalar_type() == at::kFloat && weight.scalar_type() == at::kFloat, "expected float32");
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4 && x.size(1) == weight.size(1), "shape mismatch");
    TORCH_CHECK(conv_bias.numel() == weight.size(0) && extra_bias.numel() == weight.size(0), "bias size mismatch");
    const at::cuda::CUDAGuard device_guard(x.device());
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    auto cb = conv_bias.contiguous();
    auto eb = extra_bias.contiguous();
    const int64_t N = xc.size(0), IC = xc.size(1), H = xc.size(2), W = xc.size(3);
    const int64_t OC = wc.size(0), KH = wc.size(2), KW = wc.size(3);
    const int64_t OH = H - KH + 1, OW = W - KW + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "input smaller than the kernel");
    auto y = torch::empty({N, OC, OH, OW}, xc.options());
    if (y.numel() == 0) return y;
    const size_t smem = ((size_t)(T + KH - 1) * (T + KW - 1) + (size_t)IC * KH * KW) * sizeof(float);
    TORCH_CHECK(smem <= 48 * 1024, "filter too large for the shared-memory tile (", smem, " bytes)");
    TORCH_CHECK(N * OC <= 65535 && (OH + T - 1) / T <= 65535, "conv_relu_bias_forward: grid too large");
    const dim3 block(T, T);
    const dim3 grid((unsigned int)((OW + T - 1) / T), (unsigned int)((OH + T - 1) / T), (unsigned int)(N * OC));
    conv_relu_bias_kernel<<<grid, block, smem, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), cb.data_ptr<float>(), eb.data_ptr<float>(), y.data_ptr<float>(),
        (int)IC, (int)H, (int)W, (int)OC, (int)KH, (int)KW);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

conv_cpp_source = (
    "torch::Tensor conv_relu_bias_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor conv_bias, "
    "torch::Tensor extra_bias);"
)

conv_ext = load_inline(
    name="kevin_cuda_l2_1_conv_relu_bias",
    cpp_sources=conv_cpp_source,
    cuda_sources=conv_cuda_source,
    functions=["conv_relu_bias_forward"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, bias_shape: tuple):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)   # container: weight + conv bias
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv_ext.conv_relu_bias_forward(x, self.conv.weight, self.conv.bias, self.bias)
