# Leaves a process behind: at import it forks a child that leaves the
# worker's session and process group (setsid) and, two seconds later, writes
# a file into the build cache, the one directory outside its own that it can
# write and that outlives the evaluation. The answer itself is right.
import os
import time

import torch
import torch.nn as nn

if os.fork() == 0:
    os.setsid()
    time.sleep(2)
    with open(os.path.join(os.environ["KEVIN_CACHE_DIR"], "survivor"), "w") as out:
        out.write("still running after the evaluation\n")
    os._exit(0)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
