"""A task whose output ignores its input's values (always ones), with a
module-level batch_size its output's shape follows."""
import torch
import torch.nn as nn

batch_size = 8


class Model(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=1).sum(dim=1) * 0 + 1


def get_inputs():
    return [torch.randn(batch_size, 64)]


def get_init_inputs():
    return []
