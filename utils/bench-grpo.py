#!/usr/bin/env python3
"""Throughput of `kevin-reward | kevin-grpo` on synthetic multi-turn records.

Writes N synthetic records (default one million: tasks x 16 trajectories x
4 turns, each with prompt, response, check/run/bench sections) to a temporary
file, then times

    kevin-reward RECORDS | kevin-grpo -o OUT      (the pipeline, wall clock)
    kevin-reward RECORDS -o SCORED                (each tool alone, CPU time)
    kevin-grpo SCORED -o OUT

and, as the baseline, the least a Python step over the same records does:
json.loads and json.dumps of every line (no scoring at all). It prints seconds,
records per second, and the baseline's CPU time over the pipeline's.

CPU seconds (user + system) are the figure to compare across runs: on a shared
machine the wall clock also counts time spent waiting for a core.

usage: utils/bench-grpo.py [--records N] [--bin build/bin] [--emit records|rows]
"""
import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

TRAJECTORIES = 16
TURNS = 4


def write_records(path, count):
    rng = random.Random(1)
    per_task = TRAJECTORIES * TURNS
    with open(path, "w") as out:
        for n in range(count):
            task, rest = divmod(n, per_task)
            trajectory, turn = divmod(rest, TURNS)
            correct = rng.random() < 0.5
            record = {
                "schema_version": 1,
                "id": "level1/%d_Task#%d.%d" % (task, trajectory, turn + 1),
                "task_id": "level1/%d_Task" % task,
                "trajectory": trajectory,
                "turn": turn + 1,
                "prompt": [{"role": "user", "content": "Optimise task %d." % task}],
                "response": "Okay, here is a kernel for task %d." % task,
                "check": {"ok": True, "findings": []},
                "run": {"correct": correct, "stage": "compare",
                        "outcome": "ok" if correct else "mismatch"},
            }
            if correct:
                record["bench"] = {"speedup": round(rng.uniform(0.2, 3.0), 3),
                                   "flags": []}
            out.write(json.dumps(record, separators=(",", ":")) + "\n")


def timed(command):
    """Wall-clock seconds and CPU seconds (user + system) of a shell command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, shell=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--bin", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "bin"))
    parser.add_argument("--emit", choices=["records", "rows"], default="records")
    args = parser.parse_args()
    reward = os.path.join(args.bin, "kevin-reward")
    grpo = os.path.join(args.bin, "kevin-grpo")
    for tool in (reward, grpo):
        if not os.access(tool, os.X_OK):
            sys.exit("bench-grpo: error: '%s': not built" % tool)
    with tempfile.TemporaryDirectory() as tmp:
        records = os.path.join(tmp, "records.jsonl")
        out = os.path.join(tmp, "out.jsonl")
        write_records(records, args.records)
        size_mb = os.path.getsize(records) / 1e6
        seconds, cpu = timed("'%s' '%s' | '%s' --emit=%s -o '%s' 2>/dev/null" %
                             (reward, records, grpo, args.emit, out))
        with open(out) as f:
            written = sum(1 for _ in f)
        if written != args.records:
            sys.exit("bench-grpo: error: wrote %d of %d records" %
                     (written, args.records))
        scored = os.path.join(tmp, "scored.jsonl")
        _, reward_cpu = timed("'%s' '%s' -o '%s'" % (reward, records, scored))
        _, grpo_cpu = timed("'%s' '%s' --emit=%s -o '%s' 2>/dev/null" %
                            (grpo, scored, args.emit, out))
        _, baseline_cpu = timed(
            "'%s' -c 'import json,sys\nfor l in open(sys.argv[1]): "
            "sys.stdout.write(json.dumps(json.loads(l)) + \"\\n\")' "
            "'%s' > '%s'" % (sys.executable, records, out))
    n = args.records
    print("records: %d (%.0f MB, %d tasks x %d trajectories x %d turns)"
          % (n, size_mb, n // (TRAJECTORIES * TURNS), TRAJECTORIES, TURNS))
    print("kevin-reward | kevin-grpo --emit=%s: %.2f s wall, %.2f s CPU, "
          "%.0f records/s (wall)" % (args.emit, seconds, cpu, n / seconds))
    print("  kevin-reward alone: %.2f s CPU (%.2f us/record)"
          % (reward_cpu, 1e6 * reward_cpu / n))
    print("  kevin-grpo alone:   %.2f s CPU (%.2f us/record)"
          % (grpo_cpu, 1e6 * grpo_cpu / n))
    print("baseline, Python json.loads + json.dumps per line: %.2f s CPU"
          % baseline_cpu)
    print("baseline CPU / pipeline CPU = %.1fx" % (baseline_cpu / cpu))
    print("machine load (1, 5, 15 min): %.2f %.2f %.2f on %d CPUs"
          % (os.getloadavg() + (os.cpu_count(),)))

if __name__ == "__main__":
    main()
