# forward raises.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return self.kernel(x)

    def kernel(self, x):
        raise ValueError("kernel not implemented for this shape")
