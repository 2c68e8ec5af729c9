"""Holds a device lock file (flock -s or -x) for some seconds in the background.

usage: hold_lock.py -s|-x LOCKFILE SECONDS
Returns once the lock is held, so the next RUN line sees it taken.
"""
import subprocess
import sys
import time

mode, path, seconds = sys.argv[1], sys.argv[2], sys.argv[3]
holder = subprocess.Popen(["flock", mode, path, "sh", "-c", "echo held; exec sleep " + seconds],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          start_new_session=True)
if holder.stdout.readline().strip() != b"held":
    sys.exit("hold_lock.py: error: could not take " + path)
