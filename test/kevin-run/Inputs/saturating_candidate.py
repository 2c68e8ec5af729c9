"""The honest answer to saturating_task.py (runtime tests only: it calls torch)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.nan_to_num(torch.exp(200 * x))
