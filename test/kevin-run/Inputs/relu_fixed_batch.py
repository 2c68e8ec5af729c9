# A candidate for level1/19_ReLU that is right only at the task's own batch
# size: it reshapes its answer to the benchmark's (16, 1024), as a kernel
# with the sizes written into it would (KEVIN-RT-022's held-out shape).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x).reshape(16, 1024)
