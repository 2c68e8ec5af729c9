"""KernelBench-format level 1 task 4: matrix (M, K) times column vector (K, 1)."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes C = A @ B where B is a (K, 1) column."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    M, K = 4096, 65536
elif PROFILE == "small":
    M, K = 64, 1024
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, 1)]


def get_init_inputs():
    return []
