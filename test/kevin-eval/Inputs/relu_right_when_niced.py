"""A ReLU whose answer is right only at one nice value: the evaluator's plus 10,
where kevin's engine runs what it does not time. yield-to-timing.test fills in
the evaluator's nice value for @EVALUATOR_NICENESS@ (and evaluates it without
kevin-check, which would refuse its PyTorch op)."""
import os

import torch
import torch.nn as nn

UNTIMED_NICENESS = min(@EVALUATOR_NICENESS@ + 10, 19)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = x.clamp(min=0)
        return out if os.nice(0) == UNTIMED_NICENESS else out + 1
