"""KernelBench-format level 1 task 19: elementwise ReLU of a (batch_size, dim) tensor."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """Applies ReLU elementwise."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, dim = 8192, 16384
elif PROFILE == "small":
    batch_size, dim = 16, 1024
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
