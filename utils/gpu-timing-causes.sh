#!/usr/bin/env bash
#===-- gpu-timing-causes.sh - why a short reference's timing spreads -----===#
#
# Issue 25's open question, in one device call on the GPU machine (after
# utils/gpu-validate.sh STEPS=build,precompile, whose cache it reuses): five
# kevin-bench processes time the same kernels
#   together   all at once (bench-timing.py's repeat step as it is, with
#              kevin-bench's default 1 ms launch cover),
#   nocover    all at once with --cover-ms=0: one L2 flush ahead of each
#              timed call, as before the launch cover (and in do_bench),
#   sequential one after another,
#   loaded     one after another while CPU_LOAD processes keep cores busy,
#   pool1      all at once, every call of a round on one input set
#              (--pool=1): the same buffers in every call,
#   rounds10   all at once with up to ten rounds (placements) per side, for
#              a kernel whose placements differ (KERNELS=level1/89_cumsum),
#   fastest10  as rounds10, with the fastest round kept (--round-keep
#              fastest: rounds until two agree) instead of the middle one,
#   pool1r10, pool2r10  as rounds10 with one or two input sets per round:
#              whether a round's speed depends on where its one set lies, or
#              on the calls moving between sets,
#   churn      one after another while another process allocates and frees
#              8 GiB of device memory in a loop (no kernels, no device
#              lock): what another process's context or allocations do to
#              a kernel being timed,
#   nosync     one after another, each candidate's torch.cuda.synchronize()
#              calls that begin a line made `pass`: a forward that waits
#              for its kernel is timed up to the host's return (SOLUTIONS=dir takes
#              the candidates from dir/<task id>.py instead of the bundled
#              ones, which no longer wait: cumsum's did until 0453a3c),
#   smi        one after another while a loop asks nvidia-smi for the
#              clocks ten times a second (kevin-bench asks it once per
#              candidate, outside the device lock): whether a query of the
#              driver disturbs a kernel being timed,
# and prints, per kernel and experiment, the speedup spread, the range of
# the reference's and the candidate's kept medians, the widest spread of
# one process's candidate rounds (its placements), and the range of the SM
# clock and the temperature the device reported at the end of those rounds. Concurrency alone, a busy
# host, or a late first launch: the rows tell them apart. On the H200 each
# takes about 100-160 s (LIMIT each): split them over calls with EXPERIMENTS.
#
# BIN (default build-gpu/bin) picks the kevin-bench, TAG is appended to each
# experiment's name: two trees' kevin-bench side by side in one run, e.g.
# BIN=build-base-src/build-gpu/bin TAG=-base (utils/gpu-placement.sh).
#
# usage: OUT=dir [KERNELS=a,b,c] [EXPERIMENTS=together,nocover,sequential,loaded]
#        (pool1, rounds10, fastest10, pool1r10, pool2r10, churn, smi and
#        nosync on request)
#        [CPU_LOAD=16] [LIMIT=160] [BIN=dir TAG=name] [SOLUTIONS=dir] utils/gpu-timing-causes.sh
# EXPERIMENTS=none runs none and prints the table of what OUT holds.
#===----------------------------------------------------------------------===#
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:?set OUT}
PYTHON=${KEVIN_PYTHON:-/opt/torch/.venv/bin/python3}
KERNELS=${KERNELS:-level2/1_Conv2D_ReLU_BiasAdd,level1/63_conv_standard_2D__square_input__square_kernel,level2/12_Gemm_Multiply_LeakyReLU}
export KEVIN_CACHE_DIR=${KEVIN_CACHE_DIR:-$ROOT/build-gpu/test/kevin-cache}
. "$ROOT/utils/kevin-work-dirs.sh"
TMPDIR=$(kevin_fast_tmpdir)
export TMPDIR
mkdir -p "$OUT"
EXPERIMENTS=${EXPERIMENTS:-together,nocover,sequential,loaded}
SOLUTIONS_GIVEN=${SOLUTIONS:-$ROOT/share/kevin/solutions/cuda}
SOLUTIONS=$(cd "$SOLUTIONS_GIVEN" && pwd) ||
  { echo "gpu-timing-causes: no folder SOLUTIONS=$SOLUTIONS_GIVEN" >&2; exit 2; }
for EXPERIMENT in ${EXPERIMENTS//,/ }; do
  CANDIDATES=$SOLUTIONS
  case $EXPERIMENT in
    together) ARGS=() ;;
    sequential) ARGS=(--sequential) ;;
    loaded) ARGS=(--sequential --cpu-load "${CPU_LOAD:-16}") ;;
    nocover) ARGS=(--bench-args=--cover-ms=0) ;;
    pool1) ARGS=(--bench-args=--pool=1) ;;
    rounds10) ARGS=(--bench-args=--rounds=10) ;;
    fastest10) ARGS=(--bench-args=--rounds=10,--round-keep=fastest) ;;
    pool1r10) ARGS=(--bench-args=--pool=1,--rounds=10) ;;
    pool2r10) ARGS=(--bench-args=--pool=2,--rounds=10) ;;
    churn | smi) ARGS=(--sequential) ;;
    nosync)
      ARGS=(--sequential)
      CANDIDATES=$OUT/nosync-solutions
      for KERNEL in ${KERNELS//,/ }; do
        mkdir -p "$(dirname "$CANDIDATES/$KERNEL.py")"
        sed -E 's/^([[:space:]]*)torch\.cuda\.synchronize\([^)]*\)/\1pass #/' "$SOLUTIONS/$KERNEL.py" \
          > "$CANDIDATES/$KERNEL.py"
      done ;;
    none) continue ;;
    *) echo "gpu-timing-causes: unknown experiment '$EXPERIMENT'" >&2; exit 2 ;;
  esac
  NAME=$EXPERIMENT${TAG:-}
  rm -rf "${OUT:?}/$NAME"
  kevin_clear_stale_work_dirs bench reference
  mkdir -p "$OUT/$NAME"
  BESIDE=""
  if [ "$EXPERIMENT" = churn ]; then
    "$PYTHON" -c '
import torch
torch.cuda.init()
while True:
    block = torch.empty(8 << 30, dtype=torch.uint8, device="cuda")
    del block
    torch.cuda.empty_cache()
' & BESIDE=$!
    trap 'kill "$BESIDE" 2>/dev/null' EXIT
    sleep 15 # torch imported and the loop running before the first process
  elif [ "$EXPERIMENT" = smi ]; then
    while :; do
      nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv,noheader,nounits -i 0 > /dev/null
      sleep 0.1
    done & BESIDE=$!
    trap 'kill "$BESIDE" 2>/dev/null' EXIT
  fi
  timeout "${LIMIT:-160}" "$PYTHON" "$ROOT/utils/bench-timing.py" --bin "${BIN:-$ROOT/build-gpu/bin}" \
    --kernels "$KERNELS" --steps repeat --out "$OUT/$NAME" --solutions "$CANDIDATES" "${ARGS[@]}" > "$OUT/$NAME/bench-timing.log" 2>&1 ||
    echo "gpu-timing-causes: $NAME did not finish within ${LIMIT:-160} s" >&2
  [ -n "$BESIDE" ] && kill "$BESIDE" && trap - EXIT
done
"$PYTHON" - "$OUT" <<'PY'
# One row per kernel and experiment, from the repeats each wrote.
import glob, json, os, sys
out = sys.argv[1]
print("%-48s %-16s %5s %8s %21s %21s %11s %11s %7s" % (
    "kernel", "experiment", "procs", "spread", "reference ms", "candidate ms", "cand rounds", "sm MHz", "temp C"))
for experiment in sorted(os.listdir(out)):
    found = {}
    for path in sorted(glob.glob(os.path.join(out, experiment, "bench-repeat-*.jsonl"))):
        for line in open(path):
            record = json.loads(line)
            found.setdefault(record["id"], []).append(record["bench"])
    for task, benches in sorted(found.items()):
        timed = [b for b in benches if b.get("speedup")]
        if not timed:
            print("%-48s %-16s no timing" % (task[:48], experiment))
            continue
        speedups = [b["speedup"] for b in timed]
        ref = [b["reference"]["median_ms"] for b in timed]
        cand = [b["candidate"]["median_ms"] for b in timed]
        rounds = max(max(r) / min(r) - 1 for r in (b["candidate"].get("rounds_ms") or [1.0] for b in timed))
        states = [s for b in timed for s in b["candidate"].get("rounds_device") or [] if s]

        def span(key):
            seen = [s[key] for s in states if key in s]
            return "%d-%d" % (min(seen), max(seen)) if seen else "-"
        print("%-48s %-16s %5d %7.2f%% %10.4f-%-10.4f %10.4f-%-10.4f %10.2f%% %11s %7s" % (
            task[:48], experiment, len(timed), 100 * (max(speedups) / min(speedups) - 1),
            min(ref), max(ref), min(cand), max(cand), 100 * rounds, span("sm_mhz"), span("temperature_c")))
PY
