"""KernelBench-format level 1 task 20: elementwise LeakyReLU with a constructor-given negative slope."""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Applies LeakyReLU elementwise."""

    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.leaky_relu(x, negative_slope=self.negative_slope)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, dim = 8192, 16384
elif PROFILE == "small":
    batch_size, dim = 16, 1024
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")
negative_slope = 0.05


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [negative_slope]
