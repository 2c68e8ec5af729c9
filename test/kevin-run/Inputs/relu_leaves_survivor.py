# Leaves a process behind: at import it forks a child that leaves the
# worker's session and process group (setsid), says it started (the import
# waits for that), waits for the worker to end (its parent changes) and then
# writes a file into the build cache, the one directory outside its own that
# it can write and that outlives the evaluation. The answer itself is right.
import os
import time

import torch
import torch.nn as nn

worker = os.getpid()
ready_read, ready_write = os.pipe()
if os.fork() == 0:
    os.setsid()
    cache = os.environ["KEVIN_CACHE_DIR"]
    with open(os.path.join(cache, "started"), "w") as out:
        out.write("started\n")
    os.write(ready_write, b"1")
    deadline = time.monotonic() + 60
    while os.getppid() == worker and time.monotonic() < deadline:
        time.sleep(0.05)
    with open(os.path.join(cache, "survivor"), "w") as out:
        out.write("still running after the evaluation\n")
    os._exit(0)
# The import goes on once the child has said it started.
os.read(ready_read, 1)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
