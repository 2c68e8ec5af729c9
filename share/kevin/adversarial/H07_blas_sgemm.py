"""Adversarial H07 (library substitution, CPU) for level1/1_Square_matrix_multiplication_: a hand-declared Fortran BLAS sgemm_."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matmul_cpp_source = r"""
#include <torch/extension.h>

// Declared by hand so no BLAS header is needed; libtorch already links a BLAS that exports it.
extern "C" void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                       const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                       const float* beta, float* c, const int* ldc);

torch::Tensor matmul_forward(torch::Tensor A, torch::Tensor B) {
    auto a = A.contiguous();
    auto b = B.contiguous();
    const int M = a.size(0), K = a.size(1), N = b.size(1);
    auto C = torch::empty({M, N}, a.options());
    const float one = 1.0f, zero = 0.0f;
    const char no = 'N';
    // Row-major C = A B computed as column-major C^T = B^T A^T.
    sgemm_(&no, &no, &N, &M, &K, &one, b.data_ptr<float>(), &N, a.data_ptr<float>(), &K, &zero, C.data_ptr<float>(), &N);
    return C;
}
"""

matmul_ext = load_inline(name="kevin_adv_h07_cpu", cpp_sources=matmul_cpp_source, functions=["matmul_forward"],
                         extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return matmul_ext.matmul_forward(A, B)
