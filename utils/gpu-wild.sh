#!/usr/bin/env bash
#===-- gpu-wild.sh - the real-world-style corpus through nvcc and the H200 --===#
#
# Issue 24's agreement table: every candidate of test/kevin-check/Inputs/wild
# is built with nvcc and, when it builds, judged on the GPU (kevin-run, gpu
# size profile, no kevin-check: the GPU machine has no Clang). Writes
# $OUT/wild-run.jsonl and $OUT/wild-run.txt (name, expectation, build,
# outcome). On the CPU machine, utils/wild-agreement.py joins it with
# kevin-check's verdicts.
#
# Each job's gpu-profile input sets and outputs take gigabytes: kevin's work
# directories go to /dev/shm when it has 48 GiB free (else $TMPDIR), and JOBS
# (default 8) bounds the candidates in flight. With 16 jobs on the H200's
# 64 GiB disk, 12 of 47 records failed with "No space left on device".
#
# usage: OUT=dir BIN=build-gpu/bin [JOBS=8] utils/gpu-wild.sh
#===----------------------------------------------------------------------===#
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:?set OUT}
BIN=$(cd "${BIN:-$ROOT/build-gpu/bin}" && pwd)
PYTHON=${KEVIN_PYTHON:-/opt/torch/.venv/bin/python3}
CORPUS=$ROOT/test/kevin-check/Inputs/wild
mkdir -p "$OUT"
"$PYTHON" - "$CORPUS" "$ROOT/share/kevin" > "$OUT/wild-records.jsonl" <<'PY'
import json, os, re, sys
corpus, share = sys.argv[1], sys.argv[2]
for name in sorted(n for n in os.listdir(corpus) if n.endswith(".py")):
    path = os.path.join(corpus, name)
    with open(path) as handle:
        match = re.search(r"Answer to (level[0-9]+/\S+?)[:\s]", handle.readline())
    task = os.path.join(share, "tasks", match.group(1) + ".py") if match else ""
    print(json.dumps({"id": name[:-3], "candidate_path": path, "task_path": task}))
PY
. "$ROOT/utils/kevin-work-dirs.sh"
WORK_TMP=$(kevin_fast_tmpdir)
START=$(date +%s)
TMPDIR=$WORK_TMP KEVIN_TASK_PROFILE=gpu KEVIN_CACHE_DIR=${KEVIN_CACHE_DIR:-$OUT/wild-cache} \
  "$BIN/kevin-run" --device cuda -j "${JOBS:-8}" < "$OUT/wild-records.jsonl" \
  > "$OUT/wild-run.jsonl" 2> "$OUT/wild-run.stderr"
echo "kevin-run exit $? after $(( $(date +%s) - START )) s" > "$OUT/wild-run.txt"
"$PYTHON" - "$OUT/wild-run.jsonl" >> "$OUT/wild-run.txt" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    build, run = r.get("build", {}), r.get("run", {})
    print("%-40s %-6s build=%-5s %-8s run=%s" % (
        r["id"], "honest" if r["id"].startswith("ok_") else "broken",
        build.get("ok"), build.get("outcome", ""), run.get("outcome", "")))
PY
cat "$OUT/wild-run.txt"
