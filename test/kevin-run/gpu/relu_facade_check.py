# CUDA case: a TORCH_CHECK that fails in a wrapper compiled with kevin's torch facade
# TASK: share/kevin/tasks/level1/19_ReLU.py
# ARGS:
# EXPECT-OUTCOME: runtime-error
import os
import sys

import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from relu_facade import ext  # noqa: E402


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu_forward(x, True)
