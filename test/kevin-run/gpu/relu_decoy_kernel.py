# CUDA case: the extension launches its own kernel on one element of a
# scratch buffer, while ATen's relu does the work (KEVIN-RT-009: the
# candidate's kernels did too little of the GPU time)
# TASK: share/kevin/tasks/level1/19_ReLU.py
# ARGS:
# EXPECT-OUTCOME: low-kernel-coverage
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void touch_kernel(float* scratch) { scratch[0] = 1.0f; }

torch::Tensor relu_forward(torch::Tensor x) {
    auto scratch = torch::empty({1}, x.options());
    touch_kernel<<<1, 1, 0, at::cuda::getCurrentCUDAStream()>>>(scratch.data_ptr<float>());
    auto y = at::relu(x);
    for (int i = 0; i < 8; ++i)
        y = at::relu(y);
    return y;
}
"""

ext = load_inline(
    name="kevin_test_relu_decoy_kernel",
    cpp_sources="torch::Tensor relu_forward(torch::Tensor x);",
    cuda_sources=cuda_source,
    functions=["relu_forward"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu_forward(x)
