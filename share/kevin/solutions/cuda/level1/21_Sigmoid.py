"""CUDA solution for level1/21_Sigmoid: read-only loads through inline PTX (ld.global.nc), fast-math exp."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sigmoid_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

// Non-coherent (read-only) global load: the input is never written during the kernel, so it may
// bypass the L1 coherence path. Device-side inline PTX only.
__device__ __forceinline__ float load_nc(const float* p) {
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

__global__ void sigmoid_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t stride = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride) {
        const float v = load_nc(x + i);
        y[i] = 1.0f / (1.0f + __expf(-v));   // __expf(-v) = inf for very negative v gives exactly 0
    }
}

torch::Tensor sigmoid_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kFloat, "sigmoid_forward: expected a float32 CUDA tensor");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t n = xc.numel();
    if (n == 0) return y;
    const int threads = 256;
    const int64_t blocks = std::min<int64_t>((n + threads - 1) / threads, 65535);
    sigmoid_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

sigmoid_cpp_source = "torch::Tensor sigmoid_forward(torch::Tensor x);"

sigmoid_ext = load_inline(
    name="kevin_cuda_l1_21_sigmoid",
    cpp_sources=sigmoid_cpp_source,
    cuda_sources=sigmoid_cuda_source,
    functions=["sigmoid_forward"],
    extra_cuda_cflags=["-O3", "--use_fast_math", "-Xptxas=-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sigmoid_ext.sigmoid_forward(x)
