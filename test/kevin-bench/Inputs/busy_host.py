#!/usr/bin/env python3
# busy_host.py - runs a command while every core of the machine is kept busy.
"""usage: busy_host.py [--per-core N] [--nice K] -- command...

Starts N spinning processes per core (default 2), K above our nice value
(default 0), runs the command, then ends
the spinners it started, by PID, and exits with the command's status. Used by
tests of timing that must not mistake a busy host for the candidate's work."""
import os
import signal
import subprocess
import sys


def main(argv):
    per_core, niceness = 2, 0
    while argv[:1] in (["--per-core"], ["--nice"]):
        if argv[0] == "--per-core":
            per_core = int(argv[1])
        else:
            niceness = int(argv[1])
        argv = argv[2:]
    if argv[:1] != ["--"] or len(argv) < 2:
        sys.exit(__doc__)
    spinners = []
    for _ in range(per_core * (os.cpu_count() or 1)):
        pid = os.fork()
        if pid == 0:
            os.nice(niceness)
            while True:
                pass
        spinners.append(pid)
    try:
        return subprocess.call(argv[1:])
    finally:
        for pid in spinners:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
