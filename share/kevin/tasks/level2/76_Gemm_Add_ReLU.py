"""KernelBench-format level 2 task 76: bias-free Linear, add a learned bias, ReLU."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """linear (no bias) -> + bias (randn-initialised parameter) -> relu."""

    def __init__(self, in_features: int, out_features: int, bias_shape: tuple):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.gemm(x)
        x = x + self.bias
        return torch.relu(x)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, in_features, out_features = 512, 4096, 4096
elif PROFILE == "small":
    batch_size, in_features, out_features = 16, 64, 32
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")
bias_shape = (out_features,)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, bias_shape]
