"""A ReLU task that appends the time it was imported to `imported-at` next to
itself: tests of when the reference workers set up (before the device is
theirs) copy it into a directory of their own."""
import os
import time

import torch
import torch.nn as nn

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "imported-at"), "a") as notes:
    notes.write("%f\n" % time.time())


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(16, 1024)]


def get_init_inputs():
    return []
