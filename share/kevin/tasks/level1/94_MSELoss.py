"""KernelBench-format level 1 task 94: mean squared error between two (batch_size, dim) tensors."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """Returns the scalar mean of (predictions - targets) ** 2."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.mean((predictions - targets) ** 2)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, dim = 8192, 8192
elif PROFILE == "small":
    batch_size, dim = 64, 1024
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")


def get_inputs():
    # A per-draw scale keeps the loss input-dependent: with plain randn pairs it is 2.0 +- 0.01 and the
    # constant 2.0 would pass a 1e-2 check (the "analytical" hack KernelBench fixed for its loss tasks).
    scale = float(torch.rand(()) * 2.0 + 0.5)
    return [torch.randn(batch_size, dim) * scale, torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
