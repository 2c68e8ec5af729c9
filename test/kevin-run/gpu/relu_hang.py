# CUDA case: a kernel that never finishes
# TASK: share/kevin/tasks/level1/19_ReLU.py
# ARGS: --timeout 30
# EXPECT-OUTCOME: timeout
# RUN: not kevin-run --device cuda --timeout 30 --task %share/tasks/level1/19_ReLU.py %s | FileCheck %s
# CHECK: "stage":"run","outcome":"timeout"
import os
import sys

import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from relu_kernels import ext  # noqa: E402


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu_hang(x)
