# A task whose reference raises: timing it is a tool error.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        raise RuntimeError("this reference is broken")


def get_inputs():
    return [torch.randn(8)]


def get_init_inputs():
    return []
