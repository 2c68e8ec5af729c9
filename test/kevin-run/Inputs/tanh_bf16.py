"""tanh computed in bfloat16: within atol = rtol = 1e-2, far outside the
precision budget (runtime tests only: it calls torch)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.tanh(x.bfloat16()).float()
