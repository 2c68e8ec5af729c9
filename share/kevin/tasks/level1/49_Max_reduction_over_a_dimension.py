"""KernelBench-format level 1 task 49: max over a constructor-given dim (values only, dim removed)."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """Takes the maximum of x over `dim`."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.max(x, dim=self.dim)[0]


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, dim1, dim2 = 64, 2048, 1024
elif PROFILE == "small":
    batch_size, dim1, dim2 = 8, 64, 48
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")
reduce_dim = 2


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return [reduce_dim]
