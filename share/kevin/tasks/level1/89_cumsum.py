"""KernelBench-format level 1 task 89: inclusive prefix sum along a constructor-given dim."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """Cumulative sum of x along `dim`."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x, dim=self.dim)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, length = 16384, 4096
elif PROFILE == "small":
    batch_size, length = 16, 512
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")
scan_dim = 1


def get_inputs():
    return [torch.randn(batch_size, length)]


def get_init_inputs():
    return [scan_dim]
