"""CUDA solution for level1/19_ReLU: float4 fast path when aligned, templated grid-stride kernel otherwise."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

template <typename scalar_t>
__device__ __forceinline__ scalar_t relu_op(scalar_t v) {
    return v > scalar_t(0) ? v : scalar_t(0);
}

// Generic path: any dtype, any size, any alignment.
template <typename scalar_t>
__global__ void relu_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int64_t n) {
    const int64_t stride = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride) y[i] = relu_op(x[i]);
}

// Fast path for float32 with 16-byte aligned buffers: one 128-bit load and store per thread.
__global__ void relu_vec4_kernel(const float4* __restrict__ x, float4* __restrict__ y, int64_t n4) {
    const int64_t stride = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 v = x[i];
        v.x = relu_op(v.x); v.y = relu_op(v.y); v.z = relu_op(v.z); v.w = relu_op(v.w);
        y[i] = v;
    }
}

static int num_sms(int device) {
    static int sm_count = -1;   // device attribute cache, not a result cache
    if (sm_count < 0) {
        C10_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
    }
    return sm_count;
}

torch::Tensor relu_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "relu_forward: expected a CUDA tensor");
    const at::cuda::CUDAGuard device_guard(x.device());
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t n = xc.numel();
    if (n == 0) return y;
    const int threads = 256;
    const int64_t max_blocks = (int64_t)num_sms(xc.get_device()) * 8;
    auto stream = at::cuda::getCurrentCUDAStream();
    const bool aligned = (reinterpret_cast<uintptr_t>(xc.data_ptr()) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(y.data_ptr()) % 16 == 0);
    if (xc.scalar_type() == at::kFloat && n % 4 == 0 && aligned) {
        const int64_t n4 = n / 4;
        const int64_t blocks = std::min<int64_t>((n4 + threads - 1) / threads, max_blocks);
        relu_vec4_kernel<<<blocks, threads, 0, stream>>>(
            reinterpret_cast<const float4*>(xc.data_ptr<float>()), reinterpret_cast<float4*>(y.data_ptr<float>()), n4);
    } else {
        const int64_t blocks = std::min<int64_t>((n + threads - 1) / threads, max_blocks);
        AT_DISPATCH_FLOATING_TYPES_AND_HALF(xc.scalar_type(), "relu_forward", [&] {
            relu_kernel<scalar_t><<<blocks, threads, 0, stream>>>(xc.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
        });
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

relu_cpp_source = "torch::Tensor relu_forward(torch::Tensor x);"

relu_ext = load_inline(
    name="kevin_cuda_l1_19_relu",
    cpp_sources=relu_cpp_source,
    cuda_sources=relu_cuda_source,
    functions=["relu_forward"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return relu_ext.relu_forward(x)
