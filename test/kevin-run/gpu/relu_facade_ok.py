# CUDA case: a correct ReLU whose CUDA unit kevin compiles with its torch facade
# TASK: share/kevin/tasks/level1/19_ReLU.py
# ARGS:
# EXPECT-OUTCOME: ok
import os
import sys

import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from relu_facade import ext  # noqa: E402


class ModelNew(nn.Module):
    def forward(self, x):
        first, second = ext.relu_twice(x, None)
        return second
