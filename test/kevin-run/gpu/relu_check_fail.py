# CUDA case: a failing TORCH_CHECK in the host wrapper
# TASK: share/kevin/tasks/level1/19_ReLU.py
# ARGS: 
# EXPECT-OUTCOME: runtime-error
# RUN: not kevin-run --device cuda  --task %share/tasks/level1/19_ReLU.py %s | FileCheck %s
# CHECK: "stage":"run","outcome":"runtime-error","message":"trial 0: RuntimeError: relu_check_fail wants a 3-d input, got 2 dims
import os
import sys

import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from relu_kernels import ext  # noqa: E402


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu_check_fail(x)
