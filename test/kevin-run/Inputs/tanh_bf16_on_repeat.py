"""tanh exact on the first call of each trial, in bfloat16 on the second
(runtime tests only: it calls torch): the repeated call is held to the
precision budget too."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        if self.calls % 2 == 0:
            return torch.tanh(x.bfloat16()).float()
        return torch.tanh(x)
