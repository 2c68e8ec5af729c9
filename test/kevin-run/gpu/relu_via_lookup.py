# CUDA case: an honest ReLU launched through entry points looked up by name
# (the runtime's driver lookup, dlsym). kevin's launch gate hands out its own
# functions for them: the ghost replay skips both launches (KEVIN-RT-010).
# TASK: share/kevin/tasks/level1/19_ReLU.py
# ARGS:
# EXPECT-OUTCOME: ok
import os
import sys

import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from relu_kernels import ext  # noqa: E402


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu_via_lookup(x)
