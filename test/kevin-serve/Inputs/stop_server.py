#===-- stop_server.py - stop a background kevin-serve by its pid ---------===#
"""Usage: stop_server.py PIDFILE

Sends SIGTERM to the process whose id PIDFILE holds (a kevin-serve the test
started) and waits up to 60 s for it to drain and exit; SIGKILL after that,
and exit 1. The server is not our child, so an exited one that nobody reaped
yet (a zombie) counts as gone.
"""
import os
import signal
import sys
import time


def gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


def main() -> int:
    with open(sys.argv[1]) as pid_file:
        pid = int(pid_file.read().strip())
    if gone(pid):
        return 0
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if gone(pid):
            return 0
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
    sys.stderr.write(f"stop_server: {pid} ignored SIGTERM for 60 s; killed\n")
    return 1


if __name__ == "__main__":
    sys.exit(main())
