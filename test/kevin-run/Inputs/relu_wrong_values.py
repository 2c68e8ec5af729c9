# Wrong values: 10% too large on the positive side.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x) * 1.1
