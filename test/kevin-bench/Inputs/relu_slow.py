# An honest but slow candidate for level1/19_ReLU: twenty passes where one
# would do, so its speedup is well below 1.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        y = x
        for _ in range(20):
            y = torch.clamp_min(y, 0.0)
        return y + 0.0
