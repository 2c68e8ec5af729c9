#===-- serve_support.py - shared helpers of the kevin-serve tests --------===#
"""Model responses and small helpers for the engine-shim test scripts.

Each script gets a file holding a server's URL (written by wait_listening.py)
and share/kevin; the kevin_client package comes from PYTHONPATH.
"""
import os
import subprocess
import sys
import time

RELU = "level1/19_ReLU"
UNKNOWN = "level1/999_NoSuchTask"


def server_url(url_file: str) -> str:
    with open(url_file) as handle:
        return handle.read().strip()


def honest_response(share_dir: str) -> str:
    """A model answer whose final python block is kevin's CPU ReLU solution."""
    with open(os.path.join(share_dir, "solutions", "cpu", RELU + ".py")) as handle:
        code = handle.read()
    return ("<think>A branch-free loop vectorizes.</think>\nHere is my kernel.\n\n"
            f"```python\n{code}```\n\nI replaced torch.relu with a C++ loop.\n")


# An answer with no code block: a format failure, reward 0.
BROKEN_RESPONSE = "I would write a CUDA kernel for this, but I ran out of time."


def score_text(score: float) -> str:
    """A score as the tests check it: exact when <= 0.3, else only "> 0.3"
    (the speedup of a timed kernel varies)."""
    return ">0.3" if score > 0.3 else f"{score:g}"


def describe(summary: dict) -> str:
    """A reward dict (score, correct, speedup, outcome) as one checkable line."""
    return (f"score={score_text(summary['score'])} correct={summary['correct']} "
            f"outcome={summary['outcome']} keys={','.join(sorted(summary))}")


def start_server(share_dir: str, log_path: str, extra=(), tasks_dir=None):
    """Starts kevin-serve on the bundled tasks (or tasks_dir; CPU, any free
    port) with its stderr in log_path; returns the process and its URL once
    it listens."""
    log = open(log_path, "w+")
    proc = subprocess.Popen(
        ["kevin-serve", "--tasks", tasks_dir or os.path.join(share_dir, "tasks"), "--device",
         "cpu", "--port", "0", *extra],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.time() + 180
    while time.time() < deadline:
        log.seek(0)
        text = log.read()
        for line in text.splitlines():
            if "listening on " in line:
                return proc, line.split("listening on ")[1].strip()
        if proc.poll() is not None:
            sys.exit("kevin-serve ended: " + text)
        time.sleep(0.2)
    proc.kill()
    sys.exit("kevin-serve did not listen within 180 s")
