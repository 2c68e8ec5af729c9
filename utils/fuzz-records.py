#!/usr/bin/env python3
#===-- fuzz-records.py - mutated records through the stage tools ---------===#
#
# A benchmark-style script (not a test): for --minutes, builds batches of
# mutated records and candidates (unreadable and odd candidate paths, bytes
# that are not UTF-8 or not JSON, torn and joined lines, fields of the wrong
# kind, check.ok false, responses with and without code, unclosed fences,
# huge and deeply nested values) and pipes each batch through the pipeline
# kevin-run | kevin-bench | kevin-reward (each tool reads the one before's
# output). Every input line must give exactly one output record. It reports,
# per tool:
#
#   lost    the tool ended normally (exit 0 or 1) with fewer or more records
#           out than lines in
#   crash   killed by a signal, or an exit status other than 0, 1, 2
#   hang    still running after --timeout seconds (killed)
#   refused exit 2 (a tool error) with the first line of its message; kevin's
#           rule allows it only for errors that are not about one record
#
# Most records are refused or failed before any worker starts; --judged
# (default 0.02) is the share of records that carry a real candidate and
# reach kevin-run's workers.
#
# usage: utils/fuzz-records.py [--minutes 5] [--bin build/bin] [--seed S]
#                              [--batch 40] [--timeout 300] [--judged 0.02]
#===----------------------------------------------------------------------===#
import argparse
import collections
import json
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TASK = os.path.join(ROOT, "share/kevin/tasks/level1/19_ReLU.py")
GOOD_CODE = ("import torch\nclass ModelNew(torch.nn.Module):\n"
             "    def forward(self, x):\n        return torch.clamp_min(x, 0.0)\n")
RESPONSES = [
    "I cannot help with that.",
    "```python\n" + GOOD_CODE,                      # unclosed fence
    "```python\n\n```\n",                           # empty block
    "<think>thinking forever",                      # truncated reasoning
    "~~~py\n" + GOOD_CODE + "~~~\nDone.",
    "```cpp\nint x;\n```",
    "```python\n" + "(" * 5000 + ")" * 5000 + "\n```",
]


def base_records(rng, judged):
    """A few well-formed records, most of which never reach a worker."""
    flagged = {"ok": False, "findings": []}
    records = [
        {"task_path": TASK, "candidate_path": "/nonexistent/c.py"},
        {"task_path": TASK, "candidate_path": "/"},
        {"task_path": TASK, "code": GOOD_CODE, "check": flagged},
        {"task_path": TASK, "response": rng.choice(RESPONSES), "check": flagged},
        {"task_path": TASK, "response": rng.choice(RESPONSES[:4])},
        {"task_path": TASK},
        {"candidate_path": "/nonexistent/c.py"},
        {"task_path": TASK, "code": GOOD_CODE, "run": {"correct": True},
         "check": flagged},
        {"build": {"ok": False, "outcome": "build-error"}},
        {"run": {"correct": False, "stage": "input", "outcome": "input-error"}},
    ]
    record = rng.choice(records)
    if rng.random() < judged:
        record = {"task_path": TASK, "code": GOOD_CODE}
    record = json.loads(json.dumps(record))
    record["id"] = "r%d" % rng.randrange(10**9)
    return record


def mutate_value(rng, record):
    key = rng.choice(sorted(record))
    record[key] = rng.choice([None, 0, -1, 1e308, "", "x" * 100000, [], {},
                              True, [[[[[[[[[[[]]]]]]]]]]], "\u0000\ud7ff"])


def mutate_line(rng, record):
    """One input line (bytes, newline included) from a record."""
    if rng.random() < 0.3:
        mutate_value(rng, record)
    if rng.random() < 0.2:
        record.pop(rng.choice(sorted(record)), None)
    line = json.dumps(record).encode()
    roll = rng.random()
    if roll < 0.1:
        line = line[:rng.randrange(1, len(line))]            # torn line
    elif roll < 0.15:
        pos = rng.randrange(len(line))
        line = line[:pos] + b"\xff" + line[pos:]             # not UTF-8
    elif roll < 0.2:
        line = b"[" * 10000 + b"]" * 10000                   # deep nesting
    elif roll < 0.23:
        line = b'{"schema_version": 99}'
    elif roll < 0.26:
        line = b"NaN"
    return line + b"\n"


def run_tool(argv, data, timeout):
    started = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=out,
                                stderr=err)
        try:
            proc.communicate(data, timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            return "hang", b"", "", time.monotonic() - started
        out.seek(0)
        err.seek(0)
        message = err.read().decode("utf-8", "replace").strip().splitlines()
        return proc.returncode, out.read(), message[0] if message else "", \
            time.monotonic() - started


def line_count(data):
    """Lines a record reader sees: split at every newline, blank ones
    skipped."""
    return len([l for l in data.split(b"\n") if l.strip(b" \t\r")])


def main():
    parser = argparse.ArgumentParser(
        description="mutated records through kevin-run, kevin-bench and "
        "kevin-reward; reports lost records, crashes and hangs")
    parser.add_argument("--minutes", type=float, default=5)
    parser.add_argument("--bin", default=os.path.join(ROOT, "build/bin"))
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--batch", type=int, default=40)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--judged", type=float, default=0.02)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tools = {
        "kevin-run": [os.path.join(args.bin, "kevin-run")],
        "kevin-bench": [os.path.join(args.bin, "kevin-bench")],
        "kevin-reward": [os.path.join(args.bin, "kevin-reward")],
    }
    counts = {tool: collections.Counter() for tool in tools}
    refusals = {tool: collections.Counter() for tool in tools}
    seconds = collections.Counter()
    deadline = time.monotonic() + args.minutes * 60
    batches = 0
    while time.monotonic() < deadline:
        lines = [mutate_line(rng, base_records(rng, args.judged))
                 for _ in range(args.batch)]
        data = b"".join(lines)
        for tool, argv in tools.items():
            expected = line_count(data)
            status, data, message, took = run_tool(argv, data, args.timeout)
            got = line_count(data)
            seconds[tool] += took
            counts[tool]["lines in"] += expected
            counts[tool]["records out"] += got
            if status == "hang":
                counts[tool]["hang"] += 1
            elif status < 0 or status > 2:
                counts[tool]["crash"] += 1
                refusals[tool]["status %d: %s" % (status, message)] += 1
            elif status == 2:
                counts[tool]["refused"] += 1
                refusals[tool][message[:160]] += 1
            elif got != expected:
                counts[tool]["lost"] += 1
                refusals[tool]["%d lines in, %d records out" % (expected, got)] += 1
            if status == "hang" or status < 0 or status > 2:
                break
        batches += 1
    print("fuzz-records: seed %d, %d batches of %d records, %.1f minutes"
          % (args.seed, batches, args.batch, args.minutes))
    for tool in tools:
        c = counts[tool]
        print("%-13s %6d lines in %6d records out  lost %d  crash %d  hang %d"
              "  refused %d  (%.0f s)" % (tool, c["lines in"], c["records out"],
                                         c["lost"], c["crash"], c["hang"],
                                         c["refused"], seconds[tool]))
        for message, n in refusals[tool].most_common(5):
            print("    %4d x %s" % (n, message))
    bad = sum(counts[t]["lost"] + counts[t]["crash"] + counts[t]["hang"]
              for t in tools)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
