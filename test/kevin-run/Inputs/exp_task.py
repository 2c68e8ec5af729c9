"""A task whose outputs overflow on heavy-tailed inputs (exp(x * x) with x
above 9.4): its trials keep the task's own distribution."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.exp(x * x)


def get_inputs():
    return [torch.randn(64, 256)]


def get_init_inputs():
    return []
