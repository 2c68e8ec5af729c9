"""KernelBench-format level 2 task 14: matmul with a raw weight, divide by 2, sum over features, scale."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """(x @ W.T) / 2 -> sum over dim 1 (keepdim) -> * scaling_factor; output (batch_size, 1)."""

    def __init__(self, input_size: int, hidden_size: int, scaling_factor: float):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.matmul(x, self.weight.T)
        x = x / 2
        x = torch.sum(x, dim=1, keepdim=True)
        return x * self.scaling_factor


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, input_size, hidden_size = 1024, 4096, 4096
elif PROFILE == "small":
    batch_size, input_size, hidden_size = 16, 32, 24
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")
scaling_factor = 1.5


def get_inputs():
    return [torch.randn(batch_size, input_size)]


def get_init_inputs():
    return [input_size, hidden_size, scaling_factor]
