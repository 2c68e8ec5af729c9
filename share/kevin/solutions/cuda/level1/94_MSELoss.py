"""CUDA solution for level1/94_MSELoss: grid-stride single pass, block reduction, one atomicAdd per block into a zeroed scalar."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mse_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    return v;
}

// Single pass over both inputs: (p - t)^2 is never materialised. Each block adds sum/n to *out, so the
// result is the mean without a second kernel; float atomics make the last bits order-dependent.
__global__ void mse_kernel(const float* __restrict__ p, const float* __restrict__ t, float* __restrict__ out,
                           int64_t n, float inv_n) {
    __shared__ float warp_part[32];
    float s = 0.0f;
    const int64_t stride = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride) {
        const float d = p[i] - t[i];
        s = fmaf(d, d, s);
    }
    s = warp_sum(s);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_part[warp] = s;
    __syncthreads();
    if (warp == 0) {
        s = lane < (int)(blockDim.x >> 5) ? warp_part[lane] : 0.0f;
        s = warp_sum(s);
        if (lane == 0) atomicAdd(out, s * inv_n);
    }
}

torch::Tensor mse_forward(torch::Tensor predictions, torch::Tensor targets) {
    TORCH_CHECK(predictions.is_cuda() && targets.is_cuda(), "mse_forward: expected CUDA tensors");
    TORCH_CHECK(predictions.sizes() == targets.sizes(), "mse_forward: shape mismatch");
    TORCH_CHECK(predictions.scalar_type() == at::kFloat && targets.scalar_type() == at::kFloat, "mse_forward: expected float32");
    const at::cuda::CUDAGuard device_guard(predictions.device());
    auto p = predictions.contiguous();
    auto t = targets.contiguous();
    const int64_t n = p.numel();
    TORCH_CHECK(n > 0, "mse_forward: empty input");
    auto out = torch::empty({}, p.options());
    auto stream = at::cuda::getCurrentCUDAStream();
    C10_CUDA_CHECK(cudaMemsetAsync(out.data_ptr<float>(), 0, sizeof(float), stream));   // accumulator starts at 0
    const int threads = 256;
    const int64_t blocks = std::min<int64_t>((n + threads - 1) / threads,
                                             (int64_t)at::cuda::getCurrentDeviceProperties()->multiProcessorCount * 8);
    mse_kernel<<<blocks, threads, 0, stream>>>(p.data_ptr<float>(), t.data_ptr<float>(), out.data_ptr<float>(), n,
                                              1.0f / (float)n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

mse_cpp_source = "torch::Tensor mse_forward(torch::Tensor predictions, torch::Tensor targets);"

mse_ext = load_inline(
    name="kevin_cuda_l1_94_mse",
    cpp_sources=mse_cpp_source,
    cuda_sources=mse_cuda_source,
    functions=["mse_forward"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    @torch.no_grad()
    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return mse_ext.mse_forward(predictions, targets)
