"""Answer to level2/14_Gemm_Divide_Sum_Scaling: sum_j (x.W_j)/2*s = x . (sum_j W_j) * s / 2, column sums first."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

fused_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

// wsum[i] = sum_j W[j, i]
__global__ void column_sum_kernel(const float* __restrict__ W, float* __restrict__ wsum, int H, int I) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= I) return;
    float s = 0.f;
    for (int j = 0; j < H; ++j) s += W[j * I + i];
    wsum[i] = s;
}

// y[b] = (x[b] . wsum) / 2 * scale, one block per row.
__global__ void row_dot_kernel(const float* __restrict__ x, const float* __restrict__ wsum, float* __restrict__ y,
                               int I, float scale) {
    extern __shared__ float red[];
    const float* xr = x + (size_t)blockIdx.x * I;
    float s = 0.f;
    for (int i = threadIdx.x; i < I; i += blockDim.x) s += xr[i] * wsum[i];
    red[threadIdx.x] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) red[threadIdx.x] += red[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) y[blockIdx.x] = red[0] / 2.0f * scale;
}

torch::Tensor gemm_div_sum_scale(torch::Tensor x, torch::Tensor weight, double scale) {
    auto xc = x.contiguous(), wc = weight.contiguous();
    const int B = xc.size(0), I = xc.size(1), H = wc.size(0);
    auto wsum = torch::empty({I}, xc.options());
    auto y = torch::empty({B, 1}, xc.options());
    auto stream = at::cuda::getCurrentCUDAStream().stream();
    column_sum_kernel<<<(I + 127) / 128, 128, 0, stream>>>(wc.data_ptr<float>(), wsum.data_ptr<float>(), H, I);
    const int threads = 256;
    row_dot_kernel<<<B, threads, threads * sizeof(float), stream>>>(xc.data_ptr<float>(), wsum.data_ptr<float>(),
                                                                   y.data_ptr<float>(), I, (float)scale);
    return y;
}
"""

fused_cpp = "torch::Tensor gemm_div_sum_scale(torch::Tensor x, torch::Tensor weight, double scale);"

fused = load_inline(name="gemm_div_sum", cpp_sources=fused_cpp, cuda_sources=fused_source,
                    functions=["gemm_div_sum_scale"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, scaling_factor: float):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return fused.gemm_div_sum_scale(x, self.weight, self.scaling_factor)
