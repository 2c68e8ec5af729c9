"""CUDA solution for level1/40_LayerNorm: chunked statistics (Chan's parallel combine) so long rows fill the GPU."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

layer_norm_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

__device__ float block_sum(float v, float* smem) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffff, v, off);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    if (lane == 0) smem[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < nwarps ? smem[lane] : 0.0f;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffff, v, off);
        if (lane == 0) smem[0] = v;
    }
    __syncthreads();
    v = smem[0];
    __syncthreads();
    return v;
}

__device__ __forceinline__ int64_t chunk_count(int64_t norm, int64_t chunk, int64_t c) {
    const int64_t left = norm - c * chunk;
    return left < chunk ? left : chunk;
}

// Kernel 1: block (row, c) stores the mean and the sum of squared deviations (M2) of its chunk.
__global__ void ln_stats_kernel(const float* __restrict__ x, float* __restrict__ ws,
                                int64_t norm, int64_t chunk, int64_t nchunks) {
    __shared__ float smem[32];
    const int64_t row = blockIdx.x / nchunks, c = blockIdx.x % nchunks;
    const int64_t cnt = chunk_count(norm, chunk, c);
    const float* xr = x + row * norm + c * chunk;
    float s = 0.0f;
    for (int64_t i = threadIdx.x; i < cnt; i += blockDim.x) s += xr[i];
    const float mean = block_sum(s, smem) / (float)cnt;
    float m2 = 0.0f;
    for (int64_t i = threadIdx.x; i < cnt; i += blockDim.x) {
        const float d = xr[i] - mean;
        m2 = fmaf(d, d, m2);
    }
    m2 = block_sum(m2, smem);
    if (threadIdx.x == 0) {
        ws[2 * blockIdx.x] = mean;
        ws[2 * blockIdx.x + 1] = m2;
    }
}

// Kernel 2: every block recombines its row's chunk statistics, then normalises its own chunk:
// mean = sum(n_c mean_c) / N,  M2 = sum(M2_c + n_c (mean_c - mean)^2),  var = M2 / N (biased).
__global__ void ln_apply_kernel(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
                                const float* __restrict__ ws, float* __restrict__ y,
                                int64_t norm, int64_t chunk, int64_t nchunks, float eps) {
    __shared__ float smem[32];
    const int64_t row = blockIdx.x / nchunks, c = blockIdx.x % nchunks;
    const float* st = ws + 2 * row * nchunks;
    float s = 0.0f;
    for (int64_t j = threadIdx.x; j < nchunks; j += blockDim.x) s += (float)chunk_count(norm, chunk, j) * st[2 * j];
    const float mean = block_sum(s, smem) / (float)norm;
    float m2 = 0.0f;
    for (int64_t j = threadIdx.x; j < nchunks; j += blockDim.x) {
        const float d = st[2 * j] - mean;
        m2 += st[2 * j + 1] + (float)chunk_count(norm, chunk, j) * d * d;
    }
    const float rstd = rsqrtf(block_sum(m2, smem) / (float)norm + eps);
    const int64_t start = c * chunk, cnt = chunk_count(norm, chunk, c);
    const float* xr = x + row * norm + start;
    float* yr = y + row * norm + start;
    for (int64_t i = threadIdx.x; i < cnt; i += blockDim.x)
        yr[i] = (xr[i] - mean) * rstd * w[start + i] + b[start + i];
}

torch::Tensor layer_norm_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps,
                                 torch::Tensor workspace, int64_t chunk) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kFloat, "layer_norm_forward: expected a float32 CUDA tensor");
    TORCH_CHECK(weight.numel() == bias.numel() && weight.numel() > 0, "weight/bias size mismatch");
    bool shapes_ok = x.dim() >= weight.dim();
    for (int64_t d = 1; shapes_ok && d <= weight.dim(); ++d) shapes_ok = x.size(-d) == weight.size(-d);
    TORCH_CHECK(shapes_ok, "layer_norm_forward: input ", x.sizes(), " does not end in ", weight.sizes());
    TORCH_CHECK(chunk > 0, "chunk must be positive");
    const at::cuda::CUDAGuard device_guard(x.device());
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    auto bc = bias.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t norm = wc.numel(), rows = xc.numel() / norm;
    const int64_t nchunks = (norm + chunk - 1) / chunk;
    if (rows == 0) return y;
    TORCH_CHECK(workspace.is_cuda() && workspace.scalar_type() == at::kFloat && workspace.is_contiguous() &&
                workspace.numel() >= 2 * rows * nchunks, "layer_norm_forward: workspace too small");
    TORCH_INTERNAL_ASSERT(rows * nchunks <= 2147483647, "grid too large");
    const unsigned int blocks = (unsigned int)(rows * nchunks);
    auto stream = at::cuda::getCurrentCUDAStream();
    ln_stats_kernel<<<blocks, 256, 0, stream>>>(xc.data_ptr<float>(), workspace.data_ptr<float>(), norm, chunk, nchunks);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    ln_apply_kernel<<<blocks, 256, 0, stream>>>(xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(),
                                                workspace.data_ptr<float>(), y.data_ptr<float>(), norm, chunk, nchunks,
                                                static_cast<float>(eps));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

layer_norm_cpp_source = (
    "torch::Tensor layer_norm_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps, "
    "torch::Tensor workspace, int64_t chunk);"
)

layer_norm_ext = load_inline(
    name="kevin_cuda_l1_40_layer_norm",
    cpp_sources=layer_norm_cpp_source,
    cuda_sources=layer_norm_cuda_source,
    functions=["layer_norm_forward"],
    extra_cuda_cflags=["-O3"],
)

CHUNK = 4096


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)   # weight/bias/eps container, never called
        self._ws = torch.empty(0)   # per-chunk statistics; fully rewritten by every call, never returned

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        norm = self.ln.weight.numel()
        need = 2 * (x.numel() // norm) * ((norm + CHUNK - 1) // CHUNK)
        if self._ws.numel() < need or self._ws.device != x.device:
            self._ws = torch.empty(need, device=x.device)
        return layer_norm_ext.layer_norm_forward(x, self.ln.weight, self.ln.bias, self.ln.eps, self._ws, CHUNK)
