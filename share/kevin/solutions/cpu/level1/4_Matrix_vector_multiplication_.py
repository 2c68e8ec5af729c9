"""C++ (CPU) solution for level1/4_Matrix_vector_multiplication_: row dot products with four partial sums."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matvec_cpp_source = r"""
#include <torch/extension.h>

// A (M x K) times B (K x N); the task has N == 1, but any N works: column j of B is gathered once
// into a contiguous buffer so each output is a unit-stride dot product.
torch::Tensor matvec_forward(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2 && A.size(1) == B.size(0), "matvec_forward: shape mismatch");
    TORCH_CHECK(A.scalar_type() == torch::kFloat && B.scalar_type() == torch::kFloat, "expected float32 inputs");
    auto a = A.contiguous();
    auto b = B.contiguous();
    const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
    auto C = torch::empty({M, N}, a.options());
    auto col = torch::empty({K}, a.options());
    const float* pa = a.data_ptr<float>();
    const float* pb = b.data_ptr<float>();
    float* pc = C.data_ptr<float>();
    float* v = col.data_ptr<float>();
    for (int64_t j = 0; j < N; ++j) {
        for (int64_t k = 0; k < K; ++k) v[k] = pb[k * N + j];
        for (int64_t i = 0; i < M; ++i) {
            const float* row = pa + i * K;
            float s0 = 0.f, s1 = 0.f, s2 = 0.f, s3 = 0.f;
            int64_t k = 0;
            for (; k + 4 <= K; k += 4) {
                s0 += row[k] * v[k];
                s1 += row[k + 1] * v[k + 1];
                s2 += row[k + 2] * v[k + 2];
                s3 += row[k + 3] * v[k + 3];
            }
            for (; k < K; ++k) s0 += row[k] * v[k];
            pc[i * N + j] = (s0 + s1) + (s2 + s3);
        }
    }
    return C;
}
"""

matvec_ext = load_inline(
    name="kevin_cpu_l1_4_matvec",
    cpp_sources=matvec_cpp_source,
    functions=["matvec_forward"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return matvec_ext.matvec_forward(A, B)
