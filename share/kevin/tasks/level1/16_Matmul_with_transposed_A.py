"""KernelBench-format level 1 task 16: C = A.T @ B with A stored as (K, M)."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """Multiplies the transpose of A (K, M) by B (K, N)."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A.T, B)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    M, K, N = 2048, 4096, 4096
elif PROFILE == "small":
    M, K, N = 48, 64, 40
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")


def get_inputs():
    return [torch.randn(K, M), torch.randn(K, N)]


def get_init_inputs():
    return []
