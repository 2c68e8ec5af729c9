"""KernelBench-format level 2 task 63: Linear, ReLU, divide by a constant."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """linear -> relu -> / divisor."""

    def __init__(self, in_features: int, out_features: int, divisor: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.divisor = divisor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.linear(x)
        x = torch.relu(x)
        return x / self.divisor


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, in_features, out_features = 512, 4096, 4096
elif PROFILE == "small":
    batch_size, in_features, out_features = 16, 64, 32
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")
divisor = 2.0


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, divisor]
