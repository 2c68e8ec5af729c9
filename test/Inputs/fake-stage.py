#!/usr/bin/env python3
"""A stand-in for kevin-check / kevin-run / kevin-bench / kevin-reward in the driver tests.

Reads one record on stdin, adds the section its name says, writes it back. The
verdict comes from markers in the candidate code, so tests control outcomes:
  torch.relu      -> check finding          #error  -> build error
  WRONG           -> mismatch               # speed: X -> bench speedup X
`run --build-only` adds only a build section. kevin-reward scores
0.3 + speedup when correct. FAKE_STAGE_SLEEP slows every call (for kill-and-resume tests); FAKE_STAGE_LOG
appends the stage name and record id per call.
"""
import json
import os
import re
import sys
import time

stage = os.path.basename(sys.argv[0]).replace("kevin-", "")
time.sleep(float(os.environ.get("FAKE_STAGE_SLEEP", "0")))
record = json.loads(sys.stdin.readline())
code = open(record["candidate_path"]).read() if "candidate_path" in record else record["code"]
if os.environ.get("FAKE_STAGE_LOG"):
    with open(os.environ["FAKE_STAGE_LOG"], "a") as log:
        log.write("%s %s %s\n" % (stage, record["id"], " ".join(sys.argv[1:])))
if stage == "check":
    findings = []
    for number, line in enumerate(code.splitlines(), 1):
        if "torch.relu" in line:
            findings.append({"rule": "kevin-py-forward-compute", "severity": "error",
                             "message": "PyTorch compute 'torch.relu' on the forward path",
                             "line": number, "column": line.index("torch.relu") + 1})
    record["check"] = {"ok": not findings, "findings": findings}
elif stage == "run" and "--build-only" in sys.argv:
    broken = "#error" in code
    record["build"] = {"ok": not broken, "outcome": "build-error" if broken else "ok"}
    if broken:
        record["run"] = {"correct": False, "stage": "build", "outcome": "build-error",
                         "message": "cand.py:12: error: expected ';' before '}' token"}
elif stage == "run":
    if "#error" in code:
        record["run"] = {"correct": False, "stage": "build", "outcome": "build-error",
                         "message": "cand.py:12: error: expected ';' before '}' token"}
    elif "WRONG" in code:
        record["run"] = {"correct": False, "stage": "compare", "outcome": "mismatch",
                         "message": "max abs error 1.5 exceeds atol 0.01"}
    else:
        record["run"] = {"correct": True, "stage": "compare", "outcome": "ok", "message": ""}
elif stage == "bench":
    m = re.search(r"# speed: ([0-9.]+)", code)
    record["bench"] = {"speedup": float(m.group(1)) if m else 1.0}
elif stage == "reward":
    correct = record.get("run", {}).get("correct", False)
    record["reward"] = {"score": 0.3 + record.get("bench", {}).get("speedup", 0) if correct else 0.0}
sys.stdout.write(json.dumps(record) + "\n")
section = record.get("build" if "--build-only" in sys.argv else stage, {})
sys.exit(0 if section.get("ok", section.get("correct", True)) else 1)
