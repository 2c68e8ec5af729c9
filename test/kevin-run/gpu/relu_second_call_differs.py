# CUDA case: right on the first call, one element off on every second call (KEVIN-RT-005's repeat, compared on the device)
# TASK: share/kevin/tasks/level1/19_ReLU.py
# ARGS: 
# EXPECT-OUTCOME: mismatch
# RUN: not kevin-run --device cuda  --task %share/tasks/level1/19_ReLU.py %s | FileCheck %s
# CHECK: "outcome":"mismatch"
import os
import sys

import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from relu_kernels import ext  # noqa: E402


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        y = ext.relu_ok(x)
        if self.calls % 2 == 0:
            y.view(-1)[0] += 1.0
        return y
