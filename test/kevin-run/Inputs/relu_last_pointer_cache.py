# Remembers only the last call: when the input sits at the last call's
# address, it returns the last output. Fresh buffers every call defeat it;
# the harness's rewrite of the previous call's buffer catches it.
import torch
import torch.nn as nn

_last = {}


class ModelNew(nn.Module):
    def forward(self, x):
        if _last.get("ptr") == x.data_ptr():
            return _last["out"]
        out = torch.relu(x)
        _last.update(ptr=x.data_ptr(), out=out)
        return out
