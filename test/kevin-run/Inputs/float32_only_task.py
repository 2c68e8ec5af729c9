"""A task whose model refuses float64 inputs: kevin-run cannot make a
float64 reference, so it judges without the precision budget."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        if x.dtype != torch.float32:
            raise TypeError("float32 only")
        return torch.tanh(x)


def get_inputs():
    return [torch.randn(64, 256)]


def get_init_inputs():
    return []
