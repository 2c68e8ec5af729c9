# Computes the right answer in place, then hands back a copy: the caller's
# input is destroyed.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        x.relu_()
        return x.clone()
