"""KernelBench-format level 1 task 47: sum over a constructor-given dim, keepdim=True."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """Sums x over `dim`, keeping the reduced dim as size 1."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=self.dim, keepdim=True)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, dim1, dim2 = 64, 2048, 1024
elif PROFILE == "small":
    batch_size, dim1, dim2 = 8, 64, 48
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")
reduce_dim = 1


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return [reduce_dim]
