"""KernelBench-format level 1 task 40: nn.LayerNorm over the last three dims of a 4-D tensor."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """Layer normalisation with an elementwise affine transform (weight 1, bias 0 at init)."""

    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ln(x)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, features, dim1, dim2 = 16, 64, 256, 256
elif PROFILE == "small":
    batch_size, features, dim1, dim2 = 4, 8, 16, 16
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")


def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2)]


def get_init_inputs():
    return [(features, dim1, dim2)]
