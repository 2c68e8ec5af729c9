# Looks around its process before answering: no network, no inherited
# secrets, a private temporary directory as its home and working directory,
# nothing beside its directory (the reference's is covered) nor beside its
# evaluation's (other evaluations' are covered too), none of the files the
# test put in /tmp, /var/tmp and /dev/shm, nothing in /run (no service
# sockets) but the driver directories kevin keeps, no process in view but
# kevin's init in its own PID namespace, and no way into that one's memory or
# environment (it is non-dumpable and the candidate has no privilege outside
# its own user namespace).
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
    for shared in ("/tmp", "/var/tmp", "/dev/shm"):
        if os.path.isdir(shared):
            for name in sorted(os.listdir(shared)):
                if name.startswith("kevin-isolation-test-"):
                    found.append("%s is in view" % os.path.join(shared, name))
    if os.path.isdir("/run"):
        # What kevin keeps there: the driver's directories, and a user's
        # runtime directory that holds the test's own (TMPDIR under it).
        kept = {"opengl-driver", "nvidia", "user"}
        services = sorted(set(os.listdir("/run")) - kept)
        if services:
            found.append("/run is shared: %s" % services[:5])
    # In its own PID namespace the worker is process 2 under kevin's init,
    # and /proc shows nothing else; the init is not traceable either.
    if os.getpid() != 2:
        found.append("not in a PID namespace of its own (pid %d)" % os.getpid())
    others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]
    if others != ["1"]:
        found.append("other processes in view: %s" % sorted(others)[:10])
    for pid in others:
        for probe in ("/proc/%s/mem" % pid, "/proc/%s/environ" % pid):
            try:
                with open(probe, "rb"):
                    found.append("%s opens" % probe)
            except OSError:
                pass
    return found


class ModelNew(nn.Module):
    def forward(self, x):
        found = problems()
        if found:
            raise RuntimeError("; ".join(found))
        return torch.relu(x)
