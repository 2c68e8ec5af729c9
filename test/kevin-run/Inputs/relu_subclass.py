# Returns a tensor subclass instead of a plain torch.Tensor.
import torch
import torch.nn as nn


class Lazy(torch.Tensor):
    pass


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x).as_subclass(Lazy)
