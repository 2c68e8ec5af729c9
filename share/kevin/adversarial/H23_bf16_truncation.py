"""Adversarial H23 (precision downcast) for level1/1_Square_matrix_multiplication_: operands truncated to bfloat16 before the GEMM."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matmul_cpp_source = r"""
#include <torch/extension.h>
#include <cstdint>
#include <cstring>
#include <vector>

// bf16 keeps 8 mantissa bits: drop the low 16 bits of every operand (what a bf16 tensor-core path
// would see), accumulate in fp32. Passes atol = rtol = 1e-2 on unit-scale inputs.
static inline float to_bf16(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    bits &= 0xFFFF0000u;
    std::memcpy(&v, &bits, sizeof bits);
    return v;
}

torch::Tensor matmul_forward(torch::Tensor A, torch::Tensor B) {
    auto a = A.contiguous();
    auto b = B.contiguous();
    const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
    std::vector<float> ra(M * K), rb(K * N);
    for (int64_t i = 0; i < M * K; ++i) ra[i] = to_bf16(a.data_ptr<float>()[i]);
    for (int64_t i = 0; i < K * N; ++i) rb[i] = to_bf16(b.data_ptr<float>()[i]);
    auto C = torch::zeros({M, N}, a.options());
    float* pc = C.data_ptr<float>();
    for (int64_t i = 0; i < M; ++i)
        for (int64_t k = 0; k < K; ++k) {
            const float aik = ra[i * K + k];
            for (int64_t j = 0; j < N; ++j) pc[i * N + j] += aik * rb[k * N + j];
        }
    return C;
}
"""

matmul_ext = load_inline(name="kevin_adv_h23", cpp_sources=matmul_cpp_source, functions=["matmul_forward"],
                         extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return matmul_ext.matmul_forward(A, B)
