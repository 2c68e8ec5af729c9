#!/usr/bin/env bash
#===-- bench-eval-throughput.sh - kevin eval vs the KernelBench protocol --===#
#
# On the GPU machine: evaluates the bundled CUDA solutions (gpu size profile)
#   1. the KernelBench way (utils/kernelbench-baseline.py: a fresh process
#      and a cold load_inline compile per candidate, 5 correctness trials,
#      100 timed trials per side), --parallel $BASELINE_PARALLEL at a time;
#   2. with kevin eval from a cold build cache (-j $(nproc) build pool ahead
#      of $DEVICE_JOBS device workers, default 8, whose timing loops take
#      turns holding the GPU alone);
#   3. with kevin eval again on the warm cache;
# then checks that the correctness verdicts agree and prints seconds per
# candidate for each, the ratios, and kevin's time by stage. kevin-check is
# not run here (the GPU machine has no Clang: --no-check); its cost is
# measured on the CPU machine (utils/bench-check.sh).
#
# EVAL_ARGS are added to kevin eval's arguments (e.g. --no-namespaces).
#
# usage: OUT=dir BIN=build-gpu/bin utils/bench-eval-throughput.sh [baseline,cold,warm]
# (the phases run in the order given; the summary reads whatever $OUT holds;
# `none` runs no phase and prints only that summary)
#===----------------------------------------------------------------------===#
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/throughput-out}
BIN=${BIN:-$ROOT/build-gpu/bin}
PYTHON=${KEVIN_PYTHON:-$(command -v python3)}
PHASES=${1:-baseline,cold,warm}
BASELINE_PARALLEL=${BASELINE_PARALLEL:-4}
DEVICE_JOBS=${DEVICE_JOBS:-8}
# kevin's build cache of the cold and warm phases (outside $OUT: it holds a
# precompiled header of several hundred MB).
CACHE=${THROUGHPUT_CACHE:-${TMPDIR:-/tmp}/kevin-throughput-cache}
mkdir -p "$OUT"
export KEVIN_TASK_PROFILE=gpu
TASKS=$ROOT/share/kevin/tasks
SOLUTIONS=$ROOT/share/kevin/solutions/cuda
N=$(ls "$SOLUTIONS"/*/*.py | wc -l)

run_kevin() { # name
  local start end
  start=$(date +%s%N)
  "$BIN/kevin" eval --no-check --no-report --tasks "$TASKS" --solutions "$SOLUTIONS" \
    --device cuda -j "$(nproc)" --device-jobs "$DEVICE_JOBS" ${EVAL_ARGS:-} -o "$OUT/kevin-$1.jsonl" > "$OUT/kevin-$1.log" 2>&1
  end=$(date +%s%N)
  echo "$1 $(( (end - start) / 1000000 ))" >> "$OUT/kevin-walls.txt"
}
# The phases run in the order given.
for PHASE in ${PHASES//,/ }; do
  case $PHASE in
    baseline)
      "$PYTHON" "$ROOT/utils/kernelbench-baseline.py" --tasks "$TASKS" --solutions "$SOLUTIONS" \
        --parallel "$BASELINE_PARALLEL" --out "$OUT/baseline.jsonl" | tee "$OUT/baseline.txt" ;;
    cold)
      rm -rf "$CACHE" "$OUT/kevin-cold.jsonl"
      KEVIN_CACHE_DIR=$CACHE run_kevin cold ;;
    warm)
      rm -f "$OUT/kevin-warm.jsonl"
      KEVIN_CACHE_DIR=$CACHE run_kevin warm ;;
    none) ;; # only the summary of what $OUT holds
    *) echo "bench-eval-throughput.sh: error: unknown phase '$PHASE'" >&2; exit 2 ;;
  esac
done

"$PYTHON" - "$OUT" "$N" <<'PY'
import json, os, sys
out, n = sys.argv[1], int(sys.argv[2])
def rows(name):
    path = os.path.join(out, name)
    return {r.get("task_id"): r for r in map(json.loads, open(path))} if os.path.exists(path) else {}
walls = {}
if os.path.exists(os.path.join(out, "kevin-walls.txt")):
    for line in open(os.path.join(out, "kevin-walls.txt")):
        name, secs = line.split()
        walls[name] = float(secs) / 1000.0  # milliseconds
base = rows("baseline.jsonl")
base_per = sum(r["wall_seconds"] for r in base.values()) / len(base) if base else float("nan")
print("candidates: %d" % n)
print("baseline (KernelBench protocol): %.1f s per candidate (mean process wall)" % base_per)
batch_per = float("nan")
if os.path.exists(os.path.join(out, "baseline.txt")):
    import re
    m = re.search(r"= ([0-9.]+) s per candidate", open(os.path.join(out, "baseline.txt")).read())
    if m:
        batch_per = float(m.group(1))
        print("baseline, processes in parallel: %.1f s per candidate (batch wall / N)" % batch_per)
for name in ("cold", "warm"):
    k = rows("kevin-%s.jsonl" % name)
    if not k or name not in walls:
        continue
    per = walls[name] / len(k)
    split = {"build": 0.0, "run": 0.0, "bench": 0.0, "run_wait": 0.0, "bench_wait": 0.0}
    for r in k.values():
        run_s = r.get("run", {}).get("seconds", {})
        bench_s = r.get("bench", {}).get("seconds", {})
        split["build"] += r.get("build_ahead", r.get("build", {})).get("seconds", 0.0)
        split["run"] += run_s.get("total", 0.0)
        split["bench"] += bench_s.get("total", 0.0)
        split["run_wait"] += run_s.get("device_wait", 0.0)
        split["bench_wait"] += bench_s.get("device_wait", 0.0)
    disagree = [t for t in k if t in base and bool(k[t].get("run", {}).get("correct")) != bool(base[t]["correct"])]
    print("kevin eval %s cache: %.1f s wall for %d = %.1f s per candidate; baseline/kevin = %.2fx"
          " (parallel baseline/kevin = %.2fx)"
          % (name, walls[name], len(k), per, base_per / per, batch_per / per))
    print("  summed stage seconds per candidate: build %.1f, run %.1f, bench %.1f (stages overlap across candidates)"
          % tuple(split[s] / len(k) for s in ("build", "run", "bench")))
    print("  of which waiting for the device: run %.1f, bench %.1f"
          % tuple(split[s] / len(k) for s in ("run_wait", "bench_wait")))
    print("  verdicts: %d correct; disagreements with the baseline: %s"
          % (sum(bool(r.get("run", {}).get("correct")) for r in k.values()), disagree or "none"))
PY
