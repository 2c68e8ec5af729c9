"""KernelBench-format level 1 task 24: log-softmax along a constructor-given dim of a (batch_size, dim) tensor."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """Applies log-softmax along `dim`."""

    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(x, dim=self.dim)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, dim = 16384, 4096
elif PROFILE == "small":
    batch_size, dim = 16, 1024
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [1]
