# CUDA case: flattens its output
# TASK: share/kevin/tasks/level1/19_ReLU.py
# ARGS: 
# EXPECT-OUTCOME: shape-mismatch
# RUN: not kevin-run --device cuda  --task %share/tasks/level1/19_ReLU.py %s | FileCheck %s
# CHECK: "outcome":"shape-mismatch","message":"trial 0{{( \(heavy-tailed inputs\))?}}: shape [16384], expected [16, 1024]"
import os
import sys

import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from relu_kernels import ext  # noqa: E402


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu_flat(x)
