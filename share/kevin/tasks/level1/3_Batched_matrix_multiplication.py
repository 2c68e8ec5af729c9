"""KernelBench-format level 1 task 3: batched matrix product (b, m, k) x (b, k, n)."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes C[i] = A[i] @ B[i] for every batch entry."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.bmm(A, B)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, m, k, n = 128, 512, 1024, 1024
elif PROFILE == "small":
    batch_size, m, k, n = 4, 32, 48, 40
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")


def get_inputs():
    return [torch.randn(batch_size, m, k), torch.randn(batch_size, k, n)]


def get_init_inputs():
    return []
