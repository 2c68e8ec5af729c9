#!/usr/bin/env python3
"""Start COMMAND, SIGKILL its process group once FILE has at least N lines.

Usage: kill-during.py FILE N -- COMMAND...   Prints how many lines FILE had
when the kill landed; exits 1 if COMMAND finished before it could be killed.
"""
import os
import signal
import subprocess
import sys
import time

path, want = sys.argv[1], int(sys.argv[2])
command = sys.argv[sys.argv.index("--") + 1:]
proc = subprocess.Popen(command, start_new_session=True)
deadline = time.time() + 60
while time.time() < deadline and proc.poll() is None:
    try:
        lines = sum(1 for _ in open(path))
    except FileNotFoundError:
        lines = 0
    if lines >= want:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        print("killed after %d lines" % lines)
        sys.exit(0)
    time.sleep(0.02)
print("command ended (status %s) before it was killed" % proc.poll())
sys.exit(1)
