"""A degenerate task: softmax over 32768 columns, every output about 3e-5,
far below atol=1e-2, so an all-zeros answer would pass a plain allclose."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=1)


def get_inputs():
    return [torch.randn(4, 32768)]


def get_init_inputs():
    return []
