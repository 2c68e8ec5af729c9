"""CUDA solution for level1/63_conv_standard_2D__square_input__square_kernel: direct conv, the output channel's filter staged in shared memory."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

conv_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

// grid = (ceil(OH*OW / 256), OC, N). The block's filter w[oc] (IC*KH*KW floats) is copied to dynamic
// shared memory once; each thread then computes one output pixel of plane (n, oc).
__global__ void conv2d_direct_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                     const float* __restrict__ bias, float* __restrict__ y,
                                     int IC, int H, int W, int KH, int KW, int OH, int OW, int stride, int pad) {
    extern __shared__ float wsh[];
    const int oc = blockIdx.y, n = blockIdx.z, OC = gridDim.y;
    const int fsize = IC * KH * KW;
    for (int i = threadIdx.x; i < fsize; i += blockDim.x) wsh[i] = w[(int64_t)oc * fsize + i];
    __syncthreads();
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= OH * OW) return;
    const int oh = p / OW, ow = p % OW;
    float acc = bias != nullptr ? bias[oc] : 0.0f;
    for (int ic = 0; ic < IC; ++ic) {
        const float* xp = x + ((int64_t)n * IC + ic) * H * W;
        const float* wp = wsh + ic * KH * KW;
        for (int kh = 0; kh < KH; ++kh) {
            const int ih = oh * stride - pad + kh;
            if (ih < 0 || ih >= H) continue;
            for (int kw = 0; kw < KW; ++kw) {
                const int iw = ow * stride - pad + kw;
                if (iw >= 0 && iw < W) acc = fmaf(xp[ih * W + iw], wp[kh * KW + kw], acc);
            }
        }
    }
    y[((int64_t)n * OC + oc) * OH * OW + p] = acc;
}

torch::Tensor conv2d_forward(torch::Tensor x, torch::Tensor weight, c10::optional<torch::Tensor> bias,
                             int64_t stride, int64_t pad) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda(), "conv2d_forward: expected CUDA tensors");
    TORCH_CHECK(x.scalar_type() == at::kFloat && weight.scalar_type() == at::kFloat, "conv2d_forward: expected float32");
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4 && x.size(1) == weight.size(1), "conv2d_forward: shape mismatch");
    TORCH_CHECK(stride > 0 && pad >= 0, "conv2d_forward: bad stride/padding");
    const at::cuda::CUDAGuard device_guard(x.device());
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    const int64_t N = xc.size(0), IC = xc.size(1), H = xc.size(2), W = xc.size(3);
    const int64_t OC = wc.size(0), KH = wc.size(2), KW = wc.size(3);
    const int64_t OH = (H + 2 * pad - KH) / stride + 1, OW = (W + 2 * pad - KW) / stride + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "conv2d_forward: output would be empty");
    auto y = torch::empty({N, OC, OH, OW}, xc.options());
    if (y.numel() == 0) return y;
    torch::Tensor bc;
    const float* bptr = nullptr;
    if (bias.has_value() && bias->defined()) {
        bc = bias->contiguous();
        TORCH_CHECK(bc.numel() == OC, "conv2d_forward: bias size mismatch");
        bptr = bc.data_ptr<float>();
    }
    const size_t smem = (size_t)IC * KH * KW * sizeof(float);
    if (smem > 48 * 1024) {
        // Opt in to large dynamic shared memory once per process (a launch-config cache, not a result cache).
        static bool smem_attr_set = false;
        const int optin = at::cuda::getCurrentDeviceProperties()->sharedMemPerBlockOptin;
        TORCH_CHECK(smem <= (size_t)optin, "conv2d_forward: filter of ", smem, " bytes does not fit in shared memory");
        if (!smem_attr_set) {
            C10_CUDA_CHECK(cudaFuncSetAttribute(conv2d_direct_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
            smem_attr_set = true;
        }
    }
    TORCH_CHECK(OC <= 65535 && N <= 65535, "conv2d_forward: grid too large");
    const int threads = 256;
    const dim3 grid((unsigned int)((OH * OW + threads - 1) / threads), (unsigned int)OC, (unsigned int)N);
    conv2d_direct_kernel<<<grid, threads, smem, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bptr, y.data_ptr<float>(),
        (int)IC, (int)H, (int)W, (int)KH, (int)KW, (int)OH, (int)OW, (int)stride, (int)pad);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

conv_cpp_source = (
    "torch::Tensor conv2d_forward(torch::Tensor x, torch::Tensor weight, c10::optional<torch::Tensor> bias, "
    "int64_t stride, int64_t pad);"
)

conv_ext = load_inline(
    name="kevin_cuda_l1_63_conv2d",
    cpp_sources=conv_cpp_source,
    cuda_sources=conv_cuda_source,
    functions=["conv2d_forward"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 padding: int = 0, bias: bool = False):
        super().__init__()
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=bias)
        self.stride, self.padding = stride, padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv_ext.conv2d_forward(x, self.conv2d.weight, self.conv2d.bias, self.stride, self.padding)
