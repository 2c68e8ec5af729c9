"""A task whose Model fails."""
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        raise RuntimeError("this reference is broken")


def get_inputs():
    import torch
    return [torch.randn(2, 2)]


def get_init_inputs():
    return []
