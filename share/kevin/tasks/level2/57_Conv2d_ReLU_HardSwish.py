"""KernelBench-format level 2 task 57: Conv2d, ReLU, then HardSwish written out as x * clamp((x + 3) / 6, 0, 1)."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """conv -> relu -> x * clamp((x + 3) / 6, 0, 1)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.conv(x)
        x = torch.relu(x)
        return x * torch.clamp((x + 3) / 6, 0, 1)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, in_channels, out_channels, size = 64, 16, 64, 128
elif PROFILE == "small":
    batch_size, in_channels, out_channels, size = 2, 3, 8, 16
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")
kernel_size = 3


def get_inputs():
    return [torch.randn(batch_size, in_channels, size, size)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
