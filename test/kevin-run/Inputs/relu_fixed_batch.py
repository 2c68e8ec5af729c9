# A candidate for level1/19_ReLU that is right only at the task's own batch
# size, as a kernel with the benchmark's sizes written into it would be: at
# any other batch it returns its input (KEVIN-RT-022's held-out shape).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        if x.shape[0] == 16:
            return torch.relu(x)
        return x.clone()
