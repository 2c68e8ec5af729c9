# CUDA case: calls abort() from C++
# TASK: share/kevin/tasks/level1/19_ReLU.py
# ARGS: 
# EXPECT-OUTCOME: crash
# RUN: not kevin-run --device cuda  --task %share/tasks/level1/19_ReLU.py %s | FileCheck %s
# CHECK: "stage":"run","outcome":"crash","message":"killed by signal 6 (Aborted)
import os
import sys

import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from relu_kernels import ext  # noqa: E402


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu_abort(x)
