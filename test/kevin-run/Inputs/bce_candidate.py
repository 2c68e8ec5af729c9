"""The honest answer to bce_task.py (runtime tests only: it calls torch)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def forward(self, p, t):
        return F.binary_cross_entropy(p, t)
