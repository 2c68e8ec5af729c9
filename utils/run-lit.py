#!/usr/bin/env python3
"""Run lit and end with one line: 'N passed, N failed[, N skipped]'.

Usage: run-lit.py LIT_PY [lit arguments...]

lit's own summary is kept; the last line adds up lit tests and GoogleTest
tests (lit runs both) the way CI reads them. Exits with lit's status, and
non-zero when any test failed.
"""
import re
import subprocess
import sys

PASSED = {"Passed", "Expectedly Failed"}
FAILED = {"Failed", "Unexpectedly Passed", "Unresolved", "Timed Out"}
SKIPPED = {"Unsupported", "Skipped", "Excluded"}
COUNT_LINE = re.compile(r"^\s+(Passed|Failed|Expectedly Failed|Unexpectedly Passed|"
                        r"Unresolved|Timed Out|Unsupported|Skipped|Excluded)\s*:\s*(\d+)\s*$")


def main(argv):
    if len(argv) < 2:
        print("usage: run-lit.py LIT_PY [lit arguments...]", file=sys.stderr)
        return 2
    proc = subprocess.Popen([sys.executable] + argv[1:], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace")
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for line in proc.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        m = COUNT_LINE.match(line)
        if not m:
            continue
        kind, n = m.group(1), int(m.group(2))
        if kind in PASSED:
            counts["passed"] += n
        elif kind in FAILED:
            counts["failed"] += n
        else:
            counts["skipped"] += n
    status = proc.wait()
    line = "%d passed, %d failed" % (counts["passed"], counts["failed"])
    if counts["skipped"]:
        line += ", %d skipped" % counts["skipped"]
    print(line)
    if counts["failed"] or counts["passed"] == 0:
        return status or 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
