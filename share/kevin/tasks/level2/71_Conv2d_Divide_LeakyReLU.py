"""KernelBench-format level 2 task 71: Conv2d, divide by a constant, LeakyReLU(0.01)."""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """conv -> / divisor -> leaky_relu(0.01)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, divisor: float):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.divisor = divisor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.conv(x)
        x = x / self.divisor
        return F.leaky_relu(x, negative_slope=0.01)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, in_channels, out_channels, size = 64, 16, 64, 128
elif PROFILE == "small":
    batch_size, in_channels, out_channels, size = 2, 3, 8, 16
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")
kernel_size, divisor = 3, 2.0


def get_inputs():
    return [torch.randn(batch_size, in_channels, size, size)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, divisor]
