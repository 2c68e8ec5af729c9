# A constant answer to the constant task.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.ones(x.shape[0])
