"""A task whose float64 twin's output norm overflows (exp(200 x) saturated
to the largest finite value): no precision budget for those outputs."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.nan_to_num(torch.exp(200 * x))


def get_inputs():
    return [torch.randn(64, 256)]


def get_init_inputs():
    return []
