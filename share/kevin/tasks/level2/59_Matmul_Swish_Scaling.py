"""KernelBench-format level 2 task 59: Linear, Swish (x * sigmoid(x)), multiply by a constant."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """linear -> x * sigmoid(x) -> * scaling_factor."""

    def __init__(self, in_features: int, out_features: int, scaling_factor: float):
        super().__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.scaling_factor = scaling_factor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.matmul(x)
        x = x * torch.sigmoid(x)
        return x * self.scaling_factor


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, in_features, out_features = 512, 4096, 4096
elif PROFILE == "small":
    batch_size, in_features, out_features = 16, 64, 32
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")
scaling_factor = 2.0


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, scaling_factor]
