# CUDA case: zeros on a task where zeros pass atol
# TASK: test/kevin-run/Inputs/tiny_softmax_task.py
# ARGS: 
# EXPECT-OUTCOME: not-input-sensitive
# RUN: not kevin-run --device cuda  --task %S/../Inputs/tiny_softmax_task.py %s | FileCheck %s
# CHECK: "outcome":"not-input-sensitive",{{.*}}"degenerate_task":true
import os
import sys

import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from relu_kernels import ext  # noqa: E402


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.zeros_out(x)
