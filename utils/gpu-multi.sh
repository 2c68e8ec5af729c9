#!/usr/bin/env bash
#===-- gpu-multi.sh - one GPU against two, the same batch, one lease -----===#
#
# Issue 28's measurement, on a machine with two GPUs (the device tool's
# nvidia-h200-x2), after `STEPS=build utils/gpu-validate.sh` built
# build-gpu/:
#   1. one RL-shaped batch (utils/make-rl-batch.py, TASKS_PER_BATCH x
#      PER_TASK) through utils/bench-serve.sh's PHASES (default eval,serve)
#      on ONE (default cuda:0), then the same candidates on TWO (default
#      cuda:0,cuda:1);
#   2. TIMING=1: bench-timing.py's repeat step on each GPU of TWO at once
#      (TIMING_KERNELS, default its three), for the per-device spread;
#   3. the summary (utils/gpu-multi-summary.py): wall per candidate on one
#      and on two GPUs and their ratio, run.correct per candidate on both,
#      whether each candidate was timed on the device that ran it, how the
#      candidates were spread over the devices, and the per-device spreads.
# A dry run on one GPU: TWO=cuda:0,cuda:0 (both queues share its lock); on
# the CPU: BIN=build/bin ONE=cpu TWO=cpu,cpu PER_TASK=3 TASKS_PER_BATCH=1.
# Work goes to WORK (default /tmp/gpu-multi-work); OUT gets the summary
# gpu-multi.txt and logs.tar.gz.
#
# usage: OUT=dir [PER_TASK=6] [TIMING=1] utils/gpu-multi.sh
#        OUT=dir TWO=cuda:0,cuda:0 PER_TASK=2 utils/gpu-multi.sh
#===----------------------------------------------------------------------===#
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:?set OUT}
ONE=${ONE:-cuda:0}
TWO=${TWO:-cuda:0,cuda:1}
PHASES=${PHASES:-eval,serve}
WORK=${WORK:-/tmp/gpu-multi-work}
BIN=${BIN:-$ROOT/build-gpu/bin}
# The GPU machine's torch; elsewhere (a CPU dry run) the caller's python3.
[ -z "${KEVIN_PYTHON:-}" ] && [ -x /opt/torch/.venv/bin/python3 ] && export KEVIN_PYTHON=/opt/torch/.venv/bin/python3
PYTHON=${KEVIN_PYTHON:-$(command -v python3)}
[ -d "$ROOT/.gpu/lib" ] && export LD_LIBRARY_PATH=$ROOT/.gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$OUT" "$WORK/one" "$WORK/two"

# The same candidates on both sides: the batch is made once and copied.
for SIDE in one two; do
  [ "$SIDE" = two ] && [ -d "$WORK/one/batch" ] && [ ! -d "$WORK/two/batch" ] &&
    cp -r "$WORK/one/batch" "$WORK/two/batch"
  DEVICES=$ONE
  [ "$SIDE" = two ] && DEVICES=$TWO
  echo "== gpu-multi: $SIDE ($DEVICES, $(date +%T))" | tee -a "$OUT/gpu-multi.txt"
  OUT=$WORK/$SIDE-out WORK=$WORK/$SIDE BIN=$BIN DEVICE=$DEVICES \
    "$ROOT/utils/bench-serve.sh" "$PHASES" > "$WORK/$SIDE.txt" 2>&1
  grep -E "^\((b'|c|d)\)|verdicts|listening" "$WORK/$SIDE.txt" | tee -a "$OUT/gpu-multi.txt"
done

TIMING_ARGS=()
if [ "${TIMING:-0}" = 1 ]; then
  echo "== gpu-multi: timing on each GPU at once ($(date +%T))" | tee -a "$OUT/gpu-multi.txt"
  PIDS=()
  for DEV in ${TWO//,/ }; do
    "$PYTHON" "$ROOT/utils/bench-timing.py" --bin "$BIN" --device "$DEV" \
      --kernels "${TIMING_KERNELS:-level1/19_ReLU,level1/23_Softmax,level2/12_Gemm_Multiply_LeakyReLU}" \
      --steps repeat --out "$WORK/timing-${DEV/:/}" > "$WORK/timing-${DEV/:/}.txt" 2>&1 &
    PIDS+=($!)
    TIMING_ARGS+=(--timing "$DEV=$WORK/timing-${DEV/:/}.txt")
  done
  wait "${PIDS[@]}"
fi

"$PYTHON" "$ROOT/utils/gpu-multi-summary.py" --work "$WORK" --one "$ONE" --two "$TWO" \
  "${TIMING_ARGS[@]}" | tee -a "$OUT/gpu-multi.txt"
tar -czf "$OUT/logs.tar.gz" -C "$WORK" --exclude='batch' --exclude='*-cache' . 2>/dev/null
