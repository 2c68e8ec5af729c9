#!/usr/bin/env bash
#===-- gpu-serve.sh - issue 22's measurements on the GPU machine ---------===#
#
# The device calls of kevin serve's proof, each STEP in one call or several
# (the machine keeps build-gpu/ and $WORK between calls while it is warm):
#   build     the runtime tools of this tree (kevin-serve included) and of
#             BASE_SRC (the previous release, for bench-serve.sh's `base`)
#   lit       the GPU lit tests (LIT_FILTER, a lit --filter; kevin serve's
#             need kevin-check, which the runtime-only build lacks)
#   zygote    the zygote's unit tests
#   sanity    kevin eval (in-process engine) over the bundled CUDA solutions
#   PHASE     any phase of utils/bench-serve.sh (baseline, base, eval, serve),
#             the batch shaped by TASKS_PER_BATCH x PER_TASK
# Summaries go to $OUT (at most 8 files come back from the device tool).
#
# usage: OUT=dir STEPS=build,lit,zygote,sanity BASE_SRC=build-base-src utils/gpu-serve.sh
#        OUT=dir STEPS=baseline PER_TASK=8 utils/gpu-serve.sh
#===----------------------------------------------------------------------===#
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:?set OUT}
STEPS=${STEPS:-build,lit,sanity}
export KEVIN_PYTHON=${KEVIN_PYTHON:-/opt/torch/.venv/bin/python3}
export WORK=${WORK:-/tmp/bench-serve-work}
[ -d "$ROOT/.gpu/lib" ] && export LD_LIBRARY_PATH=$ROOT/.gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$OUT" "$WORK"
for STEP in ${STEPS//,/ }; do
  echo "== gpu-serve: $STEP ($(date +%T))" | tee -a "$OUT/gpu-serve.txt"
  case $STEP in
    build)
      OUT=$WORK/build-new STEPS=build "$ROOT/utils/gpu-validate.sh" > "$WORK/build-new.txt" 2>&1
      tail -3 "$WORK/build-new.txt" | tee -a "$OUT/gpu-serve.txt"
      if [ -n "${BASE_SRC:-}" ]; then
        BASE=$(cd "$BASE_SRC" && pwd)
        [ -e "$BASE/.gpu" ] || ln -s "$ROOT/.gpu" "$BASE/.gpu"
        OUT=$WORK/build-base STEPS=build "$BASE/utils/gpu-validate.sh" > "$WORK/build-base.txt" 2>&1
        tail -3 "$WORK/build-base.txt" | tee -a "$OUT/gpu-serve.txt"
      fi ;;
    lit)
      OUT=$WORK/lit STEPS=lit LIT_FILTER="${LIT_FILTER:-/gpu/}" "$ROOT/utils/gpu-validate.sh" > "$WORK/lit.txt" 2>&1
      grep -E "Passed|Failed|FAIL:|Unsupported" "$WORK/lit.txt" | tail -12 | tee -a "$OUT/gpu-serve.txt" ;;
    zygote)
      cmake --build "$ROOT/build-gpu" --target ExecTests -j "$(nproc)" > "$WORK/exectests-build.txt" 2>&1
      "$ROOT/build-gpu/unittests/Exec/ExecTests" --gtest_filter='Zygote*' > "$WORK/zygote.txt" 2>&1
      tail -3 "$WORK/zygote.txt" | tee -a "$OUT/gpu-serve.txt" ;;
    sanity)
      rm -f "$WORK/sanity.jsonl"
      KEVIN_TASK_PROFILE=gpu KEVIN_CACHE_DIR=$WORK/sanity-cache "$ROOT/build-gpu/bin/kevin" eval --no-check \
        --tasks "$ROOT/share/kevin/tasks" --solutions "$ROOT/share/kevin/solutions/cuda" --device cuda \
        -j "$(nproc)" --device-jobs 8 -o "$WORK/sanity.jsonl" > "$WORK/sanity.txt" 2>&1
      tail -25 "$WORK/sanity.txt" | tee -a "$OUT/gpu-serve.txt"
      "$KEVIN_PYTHON" -c "import json,sys; rs=[json.loads(l) for l in open(sys.argv[1])]; [print(r['id'], r['run'].get('outcome'), [e.get('cuda_header') for e in (r.get('build') or {}).get('extensions') or []], r.get('bench',{}).get('speedup'), r.get('bench',{}).get('flags'), r.get('bench',{}).get('cover_excess_ms'), r.get('reward',{}).get('score')) for r in rs]" \
        "$WORK/sanity.jsonl" | tee -a "$OUT/gpu-serve.txt" ;;
    *)
      BASE_BIN=""
      [ -n "${BASE_SRC:-}" ] && BASE_BIN=$(cd "$BASE_SRC" && pwd)/build-gpu/bin
      OUT=$OUT BIN=$ROOT/build-gpu/bin DEVICE=cuda BASE_BIN=$BASE_BIN \
        "$ROOT/utils/bench-serve.sh" "$STEP" >> "$OUT/gpu-serve.txt" 2>&1 ;;
  esac
done
tar -czf "$OUT/work-logs.tar.gz" -C "$WORK" --exclude='*-cache' --exclude='build-*/build*' . 2>/dev/null
