"""ReLU that fails loudly when it can read the reference worker's report
(reference.json: it names the heavy-tailed trials and holds float64 norms)
from the candidate's directory; kevin-run deletes it before the task comes."""
import glob
import os

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        here = os.getcwd()
        for pattern in ("../reference/reference.json", "../../reference/reference.json",
                        "../*/reference.json", "../../*/reference.json"):
            found = glob.glob(os.path.join(here, pattern))
            if found:
                raise RuntimeError("the reference's report is readable: " + found[0])
        return torch.relu(x)
