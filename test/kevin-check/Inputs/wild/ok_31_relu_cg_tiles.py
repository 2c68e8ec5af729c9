"""Answer to level1/19_ReLU: cooperative-groups tiles over a grid-stride loop, half2 for half inputs."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_cg_source = r"""
#include <torch/extension.h>
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <ATen/cuda/CUDAContext.h>

namespace cg = cooperative_groups;

__global__ void relu_f32(const float* __restrict__ x, float* __restrict__ y, size_t n) {
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition(block, 32);
    size_t stride = (size_t)gridDim.x * block.size();
    for (size_t i = (size_t)blockIdx.x * block.size() + block.thread_rank(); i < n; i += stride)
        y[i] = fmaxf(x[i], 0.0f);
    tile.sync();
}

__global__ void relu_h2(const __half2* __restrict__ x, __half2* __restrict__ y, size_t n2) {
    const __half2 zero = __float2half2_rn(0.0f);
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n2; i += (size_t)gridDim.x * blockDim.x)
        y[i] = __hmax2(x[i], zero);
}

torch::Tensor relu_forward(torch::Tensor x) {
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const size_t n = xc.numel();
    const int threads = 256;
    const int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    const int blocks = sms * 8;
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    if (xc.scalar_type() == torch::kHalf && n % 2 == 0) {
        relu_h2<<<blocks, threads, 0, stream>>>(reinterpret_cast<const __half2*>(xc.data_ptr<at::Half>()),
                                                reinterpret_cast<__half2*>(y.data_ptr<at::Half>()), n / 2);
    } else {
        relu_f32<<<blocks, threads, 0, stream>>>(xc.data_ptr<float>(), y.data_ptr<float>(), n);
    }
    return y;
}
"""

relu_cg_cpp = "torch::Tensor relu_forward(torch::Tensor x);"

relu_cg = load_inline(name="relu_cg", cpp_sources=relu_cg_cpp, cuda_sources=relu_cg_source,
                      functions=["relu_forward"], extra_cuda_cflags=["-O3", "--use_fast_math"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return relu_cg.relu_forward(x)
