"""Runs kevin-run over the bundled corpus items the manifest leaves to the runtime.

Every [[adversarial]] entry of share/kevin/manifest.toml whose outcome is
"runtime:<outcome>" and whose device is the one asked for is judged by one
kevin-run process (records on stdin, -j 2); each must come back with run.outcome
equal to <outcome> or one of its `alternatives`, except those with a `gap`
(the runtime rule that should catch them is not implemented), which must still
pass (and are counted). With --solutions, the [[solution]] entries of that
device must come back correct, or `degenerate-task` on a task the manifest
marks degenerate. With --solutions, the [[solution]] entries of that device
must come back correct. Prints one line per problem and a summary; exits 1 on
any problem.

usage: corpus_runtime.py KEVIN_RUN SHARE [--device cpu] [--solutions]
"""
import argparse
import json
import os
import subprocess
import sys
import tomllib


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kevin_run")
    parser.add_argument("share")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--solutions", action="store_true")
    args = parser.parse_args()
    with open(os.path.join(args.share, "manifest.toml"), "rb") as handle:
        manifest = tomllib.load(handle)
    records, expected, gaps, solutions = [], {}, [], []
    for item in manifest.get("adversarial", []):
        outcome = item.get("outcome", "")
        if not outcome.startswith("runtime:") or item.get("device") != args.device:
            continue
        records.append({"id": item["path"], "task_path": os.path.join(args.share, "tasks", item["task"] + ".py"),
                        "candidate_path": os.path.join(args.share, item["path"])})
        expected[item["path"]] = ["ok"] if item.get("gap") else [
            o[len("runtime:"):] for o in [outcome] + item.get("alternatives", [])]
        if item.get("gap"):
            gaps.append(item["path"])
    degenerate = {t["id"] for t in manifest.get("task", []) if t.get("degenerate")}
    if args.solutions:
        for item in manifest.get("solution", []):
            if item.get("device") != args.device:
                continue
            records.append({"id": item["path"], "task_path": os.path.join(args.share, "tasks", item["task"] + ".py"),
                            "candidate_path": os.path.join(args.share, item["path"])})
            expected[item["path"]] = ["degenerate-task" if item["task"] in degenerate else "ok"]
            solutions.append(item["path"])
    proc = subprocess.run([args.kevin_run, "--device", args.device, "-j", "2"],
                          input="".join(json.dumps(r) + "\n" for r in records),
                          capture_output=True, text=True)
    got = {}
    for line in proc.stdout.splitlines():
        record = json.loads(line)
        got[record["id"]] = record.get("run", {}).get("outcome", "no-run-section")
    problems = 0
    for path, want in expected.items():
        have = got.get(path, "no-record")
        if have not in want:
            problems += 1
            print("problem: %s: run.outcome %s, the manifest expects %s" % (path, have, " or ".join(want)))
    adversarial = [p for p in expected if p not in gaps and p not in solutions]
    print("runtime adversarial: %d of %d caught as the manifest says"
          % (sum(1 for p in adversarial if got.get(p) in expected[p]), len(adversarial)))
    print("known gaps (passed today, as the manifest says): %d" % sum(1 for p in gaps if got.get(p) == "ok"))
    if args.solutions:
        print("solutions: %d of %d as the manifest says"
              % (sum(1 for p in solutions if got.get(p) in expected[p]), len(solutions)))
    print("problems: %d" % problems)
    if problems and proc.returncode == 2:
        print(proc.stderr[-2000:])
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
