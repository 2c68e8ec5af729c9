# NaN where the reference is finite.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.relu(x)
        y[0, 0] = float("nan")
        return y
