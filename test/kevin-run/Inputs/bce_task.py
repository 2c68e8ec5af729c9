"""Binary cross entropy on probabilities drawn by torch.rand: inputs without
negative values are left as drawn on heavy-tailed trials (their domain is
bounded), so no trial is one."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, p, t):
        return F.binary_cross_entropy(p, t)


def get_inputs():
    return [torch.rand(64, 256).clamp(1e-3, 1 - 1e-3), torch.rand(64, 256)]


def get_init_inputs():
    return []
