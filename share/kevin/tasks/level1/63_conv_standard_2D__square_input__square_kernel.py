"""KernelBench-format level 1 task 63: nn.Conv2d (square input, square kernel, stride/padding, no bias)."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """A standard 2-D convolution, groups=1, dilation=1."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 padding: int = 0, bias: bool = False):
        super().__init__()
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv2d(x)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, in_channels, out_channels, size = 16, 16, 64, 256
elif PROFILE == "small":
    batch_size, in_channels, out_channels, size = 2, 3, 8, 16
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")
kernel_size, stride, padding = 3, 1, 1


def get_inputs():
    return [torch.randn(batch_size, in_channels, size, size)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding]
