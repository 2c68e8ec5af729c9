"""DEGENERATE KernelBench-format level 2 task 66 (for tests): the output is all ones whatever the input."""
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """linear -> dropout -> mean over dim 1 (keepdim) -> softmax over dim 1.

    Degenerate on purpose: the softmax runs over a dim of size 1, so every output element is exactly 1.0
    and a constant-ones candidate is "correct". Kept (marked degenerate=true in manifest.toml) so that the
    dataset-hygiene check (KEVIN-RT-022) has a known positive; never use it to score a policy.
    """

    def __init__(self, in_features: int, out_features: int, dropout_p: float):
        super().__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.matmul(x)
        x = self.dropout(x)
        x = torch.mean(x, dim=1, keepdim=True)
        return torch.softmax(x, dim=1)


PROFILE = os.environ.get("KEVIN_TASK_PROFILE", "small")
if PROFILE == "gpu":
    batch_size, in_features, out_features = 512, 4096, 4096
elif PROFILE == "small":
    batch_size, in_features, out_features = 16, 64, 32
else:
    raise ValueError(f"KEVIN_TASK_PROFILE must be 'small' or 'gpu', not {PROFILE!r}")
dropout_p = 0.2


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, dropout_p]
