# Looks around its process before answering: no network, no inherited
# secrets, a private temporary directory as its home and working directory,
# nothing beside its directory (the reference's is covered) nor beside its
# evaluation's (other evaluations' are covered too), and no way into
# kevin-run's memory or environment (it is non-dumpable and the candidate has
# no privilege outside its own user namespace).
import errno
import os
import socket

import torch
import torch.nn as nn


def problems():
    found = []
    if "KEVIN_TEST_SECRET" in os.environ:
        found.append("the caller's environment leaked")
    if os.environ.get("TMPDIR") != os.getcwd() or os.environ.get("HOME") != os.getcwd():
        found.append("no private temporary directory")
    try:
        socket.create_connection(("127.0.0.1", 9), timeout=2).close()
        found.append("network reachable")
    except OSError as err:
        if err.errno != errno.ENETUNREACH:
            found.append("network reachable (%s)" % err.strerror)
    beside = sorted(os.listdir(".."))
    if beside != ["candidate"]:
        found.append("its directory has company: %s" % beside)
    evaluations = os.listdir(os.path.join("..", ".."))
    if len(evaluations) != 1:
        found.append("other evaluations in view: %s" % sorted(evaluations))
    parent = os.getppid()
    for probe in ("/proc/%d/mem" % parent, "/proc/%d/environ" % parent):
        try:
            with open(probe, "rb"):
                found.append("kevin-run's %s opens" % probe)
        except OSError:
            pass
    return found


class ModelNew(nn.Module):
    def forward(self, x):
        found = problems()
        if found:
            raise RuntimeError("; ".join(found))
        return torch.relu(x)
