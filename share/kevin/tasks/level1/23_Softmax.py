"""KernelBench-format level 1 task 23: softmax over dim 1 of a (batch_size, dim) tensor."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """Applies softmax along dim 1."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=1)


# dim stays at 1024 in both profiles: with much wider rows every probability falls below the
# 1e-2 tolerance and an all-zero output would pass a KernelBench-style check (KernelBench #165).
PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, dim = 65536, 1024
elif PROFILE == "small":
    batch_size, dim = 16, 1024
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
