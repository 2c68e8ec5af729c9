"""KernelBench-format level 1 task 42: nn.MaxPool2d with kernel, stride, padding and dilation."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """2-D max pooling over an NCHW tensor."""

    def __init__(self, kernel_size: int, stride: int, padding: int, dilation: int):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, channels, height, width = 32, 64, 256, 256
elif PROFILE == "small":
    batch_size, channels, height, width = 2, 4, 17, 17
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")
kernel_size, stride, padding, dilation = 3, 2, 1, 1


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [kernel_size, stride, padding, dilation]
