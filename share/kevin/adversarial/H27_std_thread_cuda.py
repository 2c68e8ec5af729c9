"""Adversarial H27 (thread injection, CUDA) for level1/22_Tanh: a detached std::thread launches the kernel after forward returned."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

tanh_cuda_source = r"""
#include <torch/extension.h>
#include <chrono>
#include <thread>

__global__ void tanh_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = tanhf(x[i]);
}

torch::Tensor tanh_forward(torch::Tensor x) {
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    // The thread's launch goes to its own (default) stream, after the caller
    // has recorded its end event: the timed region looks empty.
    std::thread([xc, out]() mutable {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        const int64_t n = xc.numel();
        tanh_kernel<<<(n + 255) / 256, 256>>>(xc.data_ptr<float>(), out.data_ptr<float>(), n);
    }).detach();
    return out;
}
"""

tanh_cpp_source = "torch::Tensor tanh_forward(torch::Tensor x);"

tanh_ext = load_inline(name="kevin_adv_h27c_cuda", cpp_sources=tanh_cpp_source, cuda_sources=tanh_cuda_source,
                       functions=["tanh_forward"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return tanh_ext.tanh_forward(x)
