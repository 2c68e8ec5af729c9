#!/usr/bin/env python3
"""gpu-multi-summary.py - one GPU against two, from utils/gpu-multi.sh's work.

Reads WORK/one and WORK/two (each a utils/bench-serve.sh work directory over
the same batch) and prints, per phase: the wall per candidate on each side
and the ratio (issue 28's goal: at least 1.8x), whether run.correct agrees
per candidate, how the two-device side spread its candidates over the
devices, and whether each timed candidate was timed on the device that ran
it; then the per-device timing spreads of --timing files.
"""
import argparse
import collections
import json
import os
import sys

PHASES = ("eval-new", "serve-cold", "serve-warm1", "serve-warm2")
GOAL = 1.8


def walls(side):
    """Seconds per phase: walls.txt (milliseconds) and serve.json's passes."""
    out = {}
    path = os.path.join(side, "walls.txt")
    if os.path.exists(path):
        for line in open(path):
            name, ms = line.split()
            out[name] = float(ms) / 1000
    path = os.path.join(side, "serve.json")
    if os.path.exists(path):
        for p in json.load(open(path)).get("passes", []):
            out[p["name"]] = p["seconds"]
    return out


def records(side, phase):
    path = os.path.join(side, phase + ".jsonl")
    if not os.path.exists(path):
        return {}
    rows = {}
    for number, line in enumerate(open(path), 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
        except ValueError as e:
            print("%s:%d: error: not JSON: %s" % (path, number, e), file=sys.stderr)
            continue
        rows[r.get("id")] = r
    return rows


def section(record, name):
    value = record.get(name)
    return value if isinstance(value, dict) else {}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--work", required=True)
    parser.add_argument("--one", default="cuda:0")
    parser.add_argument("--two", default="cuda:0,cuda:1")
    parser.add_argument("--timing", action="append", default=[],
                        help="DEVICE=FILE: bench-timing.py's output on that device (repeatable)")
    args = parser.parse_args()
    one, two = os.path.join(args.work, "one"), os.path.join(args.work, "two")
    batch = os.path.join(one, "batch", "batch.jsonl")
    n = sum(1 for line in open(batch) if line.strip()) if os.path.exists(batch) else 0
    if n == 0:
        print("gpu-multi: error: no batch in %s" % batch, file=sys.stderr)
        return 1
    w1, w2 = walls(one), walls(two)
    print("batch: %d candidates; one: %s; two: %s" % (n, args.one, args.two))
    print("%-14s %12s %12s %8s" % ("phase", "one s/cand", "two s/cand", "ratio"))
    for phase in PHASES:
        if phase in w1 and phase in w2:
            ratio = w1[phase] / w2[phase]
            print("%-14s %12.3f %12.3f %7.2fx%s" % (phase, w1[phase] / n, w2[phase] / n, ratio,
                                                   "" if ratio >= GOAL else "  (goal %.1fx)" % GOAL))
    for phase in PHASES:
        r1, r2 = records(one, phase), records(two, phase)
        if not r1 or not r2:
            continue
        missing = sorted(set(r1) ^ set(r2))
        differ = sorted(c for c in set(r1) & set(r2)
                        if bool(section(r1[c], "run").get("correct")) != bool(section(r2[c], "run").get("correct")))
        print("run.correct %s, one vs two: %s%s" % (
            phase, "identical" if not differ else "%d differ: %s" % (len(differ), ", ".join(differ)),
            "; in one side only: %s" % missing if missing else ""))
        ran = collections.Counter(section(r, "run").get("device") for r in r2.values())
        timed = [r for r in r2.values() if section(r, "bench")]
        elsewhere = sorted(c for c, r in r2.items()
                           if section(r, "bench") and section(r, "bench").get("device") != section(r, "run").get("device"))
        print("  %s on two: runs by device %s; %d timed, %s" % (
            phase, dict(ran), len(timed), "each on the device that ran it" if not elsewhere
            else "timed elsewhere than run: %s" % ", ".join(elsewhere)))
    for item in args.timing:
        device, _, path = item.partition("=")
        print("timing on %s:" % device)
        if not os.path.exists(path):
            print("  (no output: %s)" % path)
            continue
        for line in open(path).read().splitlines():
            if line.startswith(("kernel ", "level", "repeatability")):
                print("  " + line[:120])
    return 0


if __name__ == "__main__":
    sys.exit(main())
