# A candidate for level1/19_ReLU that, while it is imported (beside the
# reference), moves its working directory away and leaves a file in its place,
# so its inputs cannot be handed over: its own failure, never a tool error.
import os

import torch
import torch.nn as nn

here = os.getcwd()
os.rename(here, here + ".moved")
open(here, "w").close()


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.clamp_min(x, 0.0)
