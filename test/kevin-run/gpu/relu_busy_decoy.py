# CUDA case: a decoy kernel busies the GPU on a scratch buffer, long enough
# to hold nearly all of the GPU time (KEVIN-RT-009's share passes), while
# ATen's relu computes the output. With the candidate's own launches skipped
# the output is still right (KEVIN-RT-010: its kernels compute nothing).
# TASK: share/kevin/tasks/level1/19_ReLU.py
# ARGS:
# EXPECT-OUTCOME: kernels-unused
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void busy_kernel(float* scratch, int rounds) {
    float v = scratch[threadIdx.x];
    for (int i = 0; i < rounds; ++i)
        v = v * 0.999f + 1.0f;
    scratch[threadIdx.x] = v;
}

torch::Tensor relu_forward(torch::Tensor x) {
    auto scratch = torch::zeros({32}, x.options());
    busy_kernel<<<1, 32, 0, at::cuda::getCurrentCUDAStream()>>>(scratch.data_ptr<float>(), 200000);
    return at::relu(x);
}
"""

ext = load_inline(
    name="kevin_test_relu_busy_decoy",
    cpp_sources="torch::Tensor relu_forward(torch::Tensor x);",
    cuda_sources=cuda_source,
    functions=["relu_forward"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu_forward(x)
