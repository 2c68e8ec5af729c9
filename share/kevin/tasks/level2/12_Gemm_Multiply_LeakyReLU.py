"""KernelBench-format level 2 task 12: Linear, multiply by a constant, LeakyReLU."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """linear -> x * multiplier -> leaky_relu(negative_slope)."""

    def __init__(self, in_features: int, out_features: int, multiplier: float, negative_slope: float):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier = multiplier
        self.leaky_relu = nn.LeakyReLU(negative_slope)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.gemm(x)
        x = x * self.multiplier
        return self.leaky_relu(x)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, in_features, out_features = 512, 4096, 4096
elif PROFILE == "small":
    batch_size, in_features, out_features = 16, 64, 32
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")
multiplier, negative_slope = 2.0, 0.1


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, multiplier, negative_slope]
