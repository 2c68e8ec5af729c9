# Right on the 1st, 3rd, 5th... call, one element off on the others: like a
# race or an output the kernel writes only sometimes. The second call of each
# trial (the same inputs again) is the wrong one.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        y = torch.relu(x)
        if self.calls % 2 == 0:
            y[0, 0] = 1000.0
        return y
