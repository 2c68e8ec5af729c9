"""KernelBench-format level 1 task 1: product of two N x N matrices."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes C = A @ B for square A and B."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    N = 4096
elif PROFILE == "small":
    N = 128
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")


def get_inputs():
    return [torch.randn(N, N), torch.randn(N, N)]


def get_init_inputs():
    return []
