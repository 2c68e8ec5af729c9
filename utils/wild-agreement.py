#!/usr/bin/env python3
#===-- wild-agreement.py - kevin-check's verdicts against nvcc's builds ---===#
#
# Joins kevin-check's verdict on each candidate of the real-world-style
# corpus (test/kevin-check/Inputs/wild, checked here on the CPU machine) with
# what nvcc and the GPU made of it (utils/gpu-wild.sh's wild-run.jsonl from
# the GPU machine). A candidate agrees when kevin-check is clean and it
# builds, or kevin-check reports kevin-cu-parse-failure and it does not
# build. Candidates the GPU run did not reach, or whose reference failed
# there, are listed as such and counted apart.
#
# usage: utils/wild-agreement.py WILD_RUN_JSONL [--bin build/bin]
#===----------------------------------------------------------------------===#
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "test/kevin-check/Inputs/wild")


def corpus_records():
    for name in sorted(n for n in os.listdir(CORPUS) if n.endswith(".py")):
        path = os.path.join(CORPUS, name)
        with open(path) as handle:
            match = re.search(r"Answer to (level[0-9]+/\S+?)[:\s]", handle.readline())
        task = os.path.join(ROOT, "share/kevin/tasks", match.group(1) + ".py") if match else ""
        yield {"id": name[:-3], "candidate_path": path, "task_path": task}


def check_verdicts(binary):
    records = list(corpus_records())
    out = subprocess.run([binary], input="".join(json.dumps(r) + "\n" for r in records),
                         capture_output=True, text=True)
    verdicts = {}
    for line in out.stdout.splitlines():
        record = json.loads(line)
        errors = [f for f in record["check"].get("findings", []) if f["severity"] == "error"]
        parse = [f for f in errors if f["rule"] == "kevin-cu-parse-failure"]
        verdicts[record["id"]] = ("parse-failure" if parse else
                                  "flagged" if errors else "clean")
    return [r["id"] for r in records], verdicts


def gpu_results(path):
    results = {}
    with open(path) as handle:
        for line in handle:
            record = json.loads(line)
            build, run = record.get("build", {}), record.get("run", {})
            if build.get("outcome") == "reference-error":
                results[record["id"]] = ("reference-error", run.get("outcome", ""))
            else:
                results[record["id"]] = ("builds" if build.get("ok") else "build-error",
                                         run.get("outcome", ""))
    return results


def main():
    parser = argparse.ArgumentParser(description="kevin-check against nvcc on the wild corpus")
    parser.add_argument("wild_run")
    parser.add_argument("--bin", default=os.path.join(ROOT, "build/bin"))
    args = parser.parse_args()
    names, checked = check_verdicts(os.path.join(args.bin, "kevin-check"))
    built = gpu_results(args.wild_run)
    counts = {"agree": 0, "disagree": 0, "not judged": 0}
    print("| candidate | kevin-check | nvcc build | run on the GPU | |")
    print("| --- | --- | --- | --- | --- |")
    for name in names:
        check = checked.get(name, "no record")
        build, run = built.get(name, ("not reached", ""))
        if build in ("not reached", "reference-error"):
            verdict = "not judged"
        else:
            verdict = "agree" if (check == "clean") == (build == "builds") else "disagree"
        counts[verdict] += 1
        print("| %s | %s | %s | %s | %s |" % (name, check, build, run, verdict))
    print()
    print("agree %(agree)d, disagree %(disagree)d, not judged on the GPU %(not judged)d" % counts)
    return 1 if counts["disagree"] else 0


if __name__ == "__main__":
    sys.exit(main())
