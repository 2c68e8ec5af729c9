"""Adversarial H04 (C++ try/catch fallback) for level1/1_Square_matrix_multiplication_: the host wrapper catches and calls ATen."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matmul_cpp_source = r"""
#include <torch/extension.h>

static torch::Tensor blocked_matmul(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.size(0) % 512 == 0, "blocked path needs N % 512 == 0");
    const int64_t n = A.size(0);
    auto C = torch::zeros({n, n}, A.options());
    const float* a = A.data_ptr<float>();
    const float* b = B.data_ptr<float>();
    float* c = C.data_ptr<float>();
    for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < n; ++k)
            for (int64_t j = 0; j < n; ++j) c[i * n + j] += a[i * n + k] * b[k * n + j];
    return C;
}

torch::Tensor matmul_forward(torch::Tensor A, torch::Tensor B) {
    try {
        return blocked_matmul(A.contiguous(), B.contiguous());
    } catch (const c10::Error&) {
        return torch::matmul(A, B);   // "rare shapes only"
    }
}
"""

matmul_ext = load_inline(name="kevin_adv_h04b", cpp_sources=matmul_cpp_source, functions=["matmul_forward"],
                         extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return matmul_ext.matmul_forward(A, B)
