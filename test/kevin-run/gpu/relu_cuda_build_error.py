# CUDA case: a kernel that does not compile; nvcc's error is mapped to line 16.
# TASK: share/kevin/tasks/level1/19_ReLU.py
# ARGS:
# EXPECT-OUTCOME: build-error
# RUN: not kevin-run --device cuda --task %share/tasks/level1/19_ReLU.py %s | FileCheck %s
# CHECK: "outcome":"build-error","message":"{{[^"]*}}relu_cuda_build_error.py:16: error: identifier \"outp\" is undefined
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>

__global__ void relu_kernel(const float* x, float* out, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n)
        outp[i] = fmaxf(x[i], 0.0f);
}

torch::Tensor relu_forward(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int64_t n = x.numel();
    relu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

ext = load_inline(
    name="kevin_gpu_test_broken",
    cpp_sources="torch::Tensor relu_forward(torch::Tensor x);",
    cuda_sources=cuda_source,
    functions=["relu_forward"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu_forward(x)
