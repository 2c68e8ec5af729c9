#!/usr/bin/env bash
#===-- gpu-validate.sh - build and prove kevin-run on the GPU machine -----===#
#
# One script for the GPU sessions (the machine has no LLVM, lit or FileCheck;
# utils/prepare-gpu-carry.sh puts toml++, lit and FileCheck/not in .gpu/,
# which the device call carries). STEPS (comma-separated; default
# build,precompile,cases,lit,timing,buildbench) picks:
#   build       configure without Clang (-DKEVIN_ENABLE_CLANG=OFF), with the
#               carried toml++ and lit/FileCheck, and build the runtime tools
#               (kevin-run, kevin-worker, kevin-bench, kevin-reward);
#   precompile  compile every CUDA source the later steps use (the gpu test
#               cases, the bundled CUDA solutions, the escape candidates)
#               with kevin-run --build-only -j $(nproc) into the lit suite's
#               cache, so no later step waits for nvcc;
#   cases       every case of test/kevin-run/gpu through kevin-run --device
#               cuda, the illegal-address kernel first, comparing run.outcome
#               with the case's `# EXPECT-OUTCOME:` line; then a few
#               device-independent CPU-suite cases on the GPU;
#   lit         the lit tests that need a GPU (`gpu/` directories; LIT_FILTER
#               narrows them);
#   heldout     every bundled CUDA solution through kevin-run --device cuda
#               --held-out-batch (KEVIN-RT-022): each must stay ok, and the
#               table says which trial drew the held-out batch;
#   timing      utils/bench-timing.py (kevin-bench repeatability, agreement
#               with triton's do_bench, escape candidates);
#   buildbench  utils/bench-build.sh for a CPU and a CUDA extension
#               (BUILDBENCH=cuda: the CUDA one only);
#   throughput  utils/bench-eval-throughput.sh (kevin eval against the
#               KernelBench protocol; THROUGHPUT_PHASES picks its phases);
#   profiles    utils/bench-task-profiles.py (one forward of every bundled
#               task: small profile on one CPU core, gpu profile on the GPU).
# PRECOMPILE=timing compiles only what the timing step needs, PRECOMPILE=cases
# only the cases; CASE_FILTER (a regular expression on the case names) narrows
# the cases step to those gpu cases and the adversarial ones, and what it
# compiles ahead; TIMING_ARGS go to
# bench-timing.py (e.g. --probes 3).
# Full logs go to $OUT (default ./gpu-out); a short table is printed last and
# saved as $OUT/summary.txt. Each step has a time limit so the whole script
# stays within one 10-minute call; a step that runs out is reported as such.
#
# usage: OUT=/some/dir [STEPS=build,lit] utils/gpu-validate.sh
#===----------------------------------------------------------------------===#
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/gpu-out}
mkdir -p "$OUT"
BUILD=$ROOT/build-gpu
PYTHON=${KEVIN_PYTHON:-$(command -v python3)}
JOBS=$(nproc)
STEPS=${STEPS:-build,precompile,cases,lit,timing,buildbench}
# cpp-httplib and the Brotli libraries it links, carried (utils/prepare-gpu-carry.sh).
[ -d "$ROOT/.gpu/lib" ] && export LD_LIBRARY_PATH=$ROOT/.gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export KEVIN_TASK_PROFILE=small
# The lit suite's own cache (test/lit.cfg.py), shared by every step.
export KEVIN_CACHE_DIR=$BUILD/test/kevin-cache
mkdir -p "$KEVIN_CACHE_DIR"
START=$(date +%s)
want() { case ",$STEPS," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
SUMMARY=$OUT/summary.txt
: > "$SUMMARY"

elapsed() { echo $(( $(date +%s) - START )); }
note() { echo "$*" | tee -a "$SUMMARY"; }
step() { echo "== [$(elapsed) s] $*" | tee -a "$OUT/steps.log"; }

note "gpu-validate: $(nvidia-smi -L 2>/dev/null | head -1)"
note "python: $PYTHON ($("$PYTHON" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>&1))"

#--- build ---------------------------------------------------------------------
if want build; then
step "configure"
EXTRA=""
[ -d "$ROOT/.gpu" ] && EXTRA="-DKEVIN_EXTRA_INCLUDE_DIR=$ROOT/.gpu"
[ -x "$ROOT/.gpu/bin/FileCheck" ] && EXTRA="$EXTRA -DKEVIN_LIT=$ROOT/.gpu/lit/lit.py -DKEVIN_FILECHECK=$ROOT/.gpu/bin/FileCheck"
if ! timeout 300 cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DKEVIN_ENABLE_CLANG=OFF -DKEVIN_ENABLE_TORCH=ON -DKEVIN_INCLUDE_TESTS=ON \
    -DKEVIN_PYTHON="$PYTHON" -DPython3_EXECUTABLE="$PYTHON" $EXTRA > "$OUT/configure.log" 2>&1; then
  note "configure: FAILED (see configure.log)"; tail -20 "$OUT/configure.log"; exit 1
fi
step "build"
if ! timeout 420 cmake --build "$BUILD" --target kevin kevin-eval kevin-serve kevin-run kevin-worker kevin-bench kevin-reward -j "$JOBS" > "$OUT/build.log" 2>&1; then
  note "build: FAILED (see build.log)"; grep -E "error|FAILED" "$OUT/build.log" | head -20; exit 1
fi
note "build: ok in $(elapsed) s"
fi
KEVIN_RUN=$BUILD/bin/kevin-run
CASES=$(ls "$ROOT"/test/kevin-run/gpu/*.py | sort | grep -E "/(${CASE_FILTER:-.*})\.py$")
# Adversarial CUDA candidates judged on the GPU: candidate:task:outcome.
ADVERSARIAL="H14_stale_output_cuda:1_Square_matrix_multiplication_:nan"

#--- compile ahead ---------------------------------------------------------------
if want precompile; then
step "precompile"
BUILD_START=$(date +%s)
# The cases when they run, the bundled CUDA solutions (only those the timing
# step uses with PRECOMPILE=timing) and the escape candidates.
SOLUTIONS=$(ls "$ROOT"/share/kevin/solutions/cuda/*/*.py)
[ "${PRECOMPILE:-all}" = timing ] && SOLUTIONS=$(echo "$SOLUTIONS" | grep -E '19_ReLU|23_Softmax|12_Gemm')
ESCAPES="$ROOT/share/kevin/adversarial/H26_torch_stream_cuda.py $ROOT/share/kevin/adversarial/H26_pool_stream_cuda.py $ROOT/share/kevin/adversarial/H27_std_thread_cuda.py"
PRECOMPILE_CASES=$CASES
for TRIPLE in $ADVERSARIAL; do
  PRECOMPILE_CASES="$PRECOMPILE_CASES $ROOT/share/kevin/adversarial/${TRIPLE%%:*}.py"
done
want cases || PRECOMPILE_CASES=""
[ "${PRECOMPILE:-all}" = cases ] && SOLUTIONS="" ESCAPES=""
SOURCES="$PRECOMPILE_CASES $SOLUTIONS $ESCAPES"
# shellcheck disable=SC2086
timeout 400 "$KEVIN_RUN" --build-only --device cuda -j "$JOBS" --build-jobs 1 $SOURCES \
  > "$OUT/build-only.jsonl" 2> "$OUT/build-only.err"
note "compile ahead: $(( $(date +%s) - BUILD_START )) s for $(echo $SOURCES | wc -w) candidates ($(grep -c '"ok":true' "$OUT/build-only.jsonl") built)"
fi

#--- run the cases --------------------------------------------------------------
if want cases; then
# Order: the illegal-address case first, so every other case runs after it.
ORDERED="$(echo "$CASES" | grep relu_illegal_address) $(echo "$CASES" | grep -v relu_illegal_address)"
field() { sed -n "s/^# $1: *//p" "$2" | head -1; }
# The run.outcome of the record a kevin-run appended to FILE, which had
# LINES lines before it ran ("no-record" when it appended none).
outcome_since() {
  tail -n +"$(( $2 + 1 ))" "$1" | head -1 | "$PYTHON" -c '
import json, sys
try:
    print(json.loads(sys.stdin.readline())["run"]["outcome"])
except Exception:
    print("no-record")'
}
# judge NAME WANT LINES: compares the outcome of the record appended to
# cases.jsonl after its first LINES lines with WANT (alternatives separated by
# "|"), counts and prints a row.
judge() {
  local got verdict
  got=$(outcome_since "$OUT/cases.jsonl" "$3")
  case "|$2|" in *"|$got|"*) verdict=PASS ;; *) verdict=FAIL ;; esac
  if [ "$verdict" = PASS ]; then PASS=$((PASS + 1)); else FAIL=$((FAIL + 1)); fi
  printf '%-28s %-22s %-22s %s\n' "$1" "$2" "$got" "$verdict" | tee -a "$SUMMARY"
}
step "cases"
: > "$OUT/cases.jsonl"
PASS=0; FAIL=0
printf '%-28s %-22s %-22s %s\n' "case" "expected" "got" "verdict" | tee -a "$SUMMARY"
for CASE in $ORDERED; do
  NAME=$(basename "$CASE" .py)
  TASK=$ROOT/$(field TASK "$CASE")
  ARGS=$(field ARGS "$CASE")
  WANT=$(field EXPECT-OUTCOME "$CASE")
  LINES=$(wc -l < "$OUT/cases.jsonl")
  # shellcheck disable=SC2086
  timeout 180 "$KEVIN_RUN" --device cuda $ARGS --task "$TASK" "$CASE" \
    >> "$OUT/cases.jsonl" 2>> "$OUT/cases.err"
  judge "$NAME" "$WANT" "$LINES"
done
# Device-independent failure modes of the CPU suite, judged on the GPU (the
# pure-PyTorch relu_correct runs no kernel of its own: KEVIN-RT-009). The
# pointer-keyed cache is caught either way, as result-caching.test accepts: which
# trial meets a reused address depends on the allocator's placement.
[ -n "${CASE_FILTER:-}" ] ||
for PAIR in relu_correct:no-candidate-kernel relu_segfault:crash 'relu_pointer_cache:not-input-sensitive|mismatch' relu_mutates_input:input-mutated; do
  NAME=${PAIR%%:*}; WANT=${PAIR#*:}
  LINES=$(wc -l < "$OUT/cases.jsonl")
  timeout 120 "$KEVIN_RUN" --device cuda --task "$ROOT/share/kevin/tasks/level1/19_ReLU.py" \
    "$ROOT/test/kevin-run/Inputs/$NAME.py" >> "$OUT/cases.jsonl" 2>> "$OUT/cases.err"
  judge "cpu-suite/$NAME" "$WANT" "$LINES"
done
for TRIPLE in $ADVERSARIAL; do
  NAME=${TRIPLE%%:*}; REST=${TRIPLE#*:}; TASK=${REST%%:*}; WANT=${REST#*:}
  LINES=$(wc -l < "$OUT/cases.jsonl")
  timeout 180 "$KEVIN_RUN" --device cuda --task "$ROOT/share/kevin/tasks/level1/$TASK.py" \
    "$ROOT/share/kevin/adversarial/$NAME.py" >> "$OUT/cases.jsonl" 2>> "$OUT/cases.err"
  judge "adversarial/$NAME" "$WANT" "$LINES"
done
note "cases: $PASS passed, $FAIL failed ($(elapsed) s so far)"
fi
FAIL=${FAIL:-0}

#--- lit tests that need the GPU ----------------------------------------------
if want lit; then
step "lit"
PATH="$ROOT/.gpu/bin:$PATH" timeout 400 "$PYTHON" "$ROOT/.gpu/lit/lit.py" -sv -j 4 "$BUILD/test" \
  --filter "${LIT_FILTER:-/gpu/}" > "$OUT/lit.log" 2>&1
LIT_RC=$?
note "lit (gpu/): $(grep -E '^ *(Passed|Failed|Unsupported)' "$OUT/lit.log" | tr -s ' ' | tr '\n' ' ') rc=$LIT_RC"
[ "$LIT_RC" -eq 0 ] || { FAIL=$((FAIL + 1)); grep -E "^(FAIL|TIMEOUT)" "$OUT/lit.log" | tee -a "$SUMMARY"; }
fi

#--- held-out batch on the bundled solutions -------------------------------------
if want heldout; then
step "heldout"
: > "$OUT/heldout.jsonl"
HELD_PASS=0; HELD_FAIL=0
for SOLUTION in "$ROOT"/share/kevin/solutions/cuda/*/*.py; do
  LEVEL=$(basename "$(dirname "$SOLUTION")")
  TASK=$ROOT/share/kevin/tasks/$LEVEL/$(basename "$SOLUTION")
  LINES=$(wc -l < "$OUT/heldout.jsonl")
  timeout 180 "$KEVIN_RUN" --device cuda --held-out-batch --task "$TASK" "$SOLUTION" \
    >> "$OUT/heldout.jsonl" 2>> "$OUT/heldout.err"
  ROW=$(tail -n +"$(( LINES + 1 ))" "$OUT/heldout.jsonl" | head -1 | "$PYTHON" -c '
import json, sys
try:
    run = json.loads(sys.stdin.readline())["run"]
    held = [t for t in run.get("trials", []) if "held_out_batch" in t]
    where = "trial %d batch %d" % (held[0]["trial"], held[0]["held_out_batch"]) if held else "none"
    print(run["outcome"], where)
except Exception:
    print("no-record -")')
  case "$ROW" in ok*) HELD_PASS=$((HELD_PASS + 1)) ;; *) HELD_FAIL=$((HELD_FAIL + 1)) ;; esac
  printf '%-50s %s\n' "$LEVEL/$(basename "$SOLUTION" .py)" "$ROW" | tee -a "$SUMMARY"
done
note "heldout: $HELD_PASS ok, $HELD_FAIL not ok ($(elapsed) s so far)"
FAIL=$((FAIL + HELD_FAIL))
fi

#--- timing benchmark -----------------------------------------------------------
if want timing; then
step "timing"
# Work directories that processes killed by an earlier step's time limit left
# behind (gpu-profile input sets, gigabytes each) would fill the disk.
. "$ROOT/utils/kevin-work-dirs.sh"
kevin_clear_stale_work_dirs bench reference run serve
# kevin serve (the serve step) and five kevin-bench processes hold gigabytes
# of input sets each: on the 64 GiB disk the serve step once ran out of room.
TMPDIR=$(kevin_fast_tmpdir)
export TMPDIR
kevin_clear_stale_work_dirs bench reference run serve
note "disk: $(df -h "$TMPDIR" | tail -1)"
# shellcheck disable=SC2086
timeout "${TIMING_LIMIT:-480}" "$PYTHON" "$ROOT/utils/bench-timing.py" --bin "$BUILD/bin" --out "$OUT" ${TIMING_ARGS:-} \
  > "$OUT/bench-timing.log" 2>&1 || echo "(bench-timing did not finish)" >> "$OUT/bench-timing.log"
note "-- kevin-bench timing (utils/bench-timing.py):"
tee -a "$SUMMARY" < "$OUT/bench-timing.log"
fi

#--- evaluation throughput ------------------------------------------------------
# THROUGHPUT_PHASES (default baseline,cold,warm) of utils/bench-eval-throughput.sh.
if want throughput; then
step "throughput"
OUT=$OUT/throughput BIN=$BUILD/bin timeout "${THROUGHPUT_LIMIT:-540}" \
  "$ROOT/utils/bench-eval-throughput.sh" "${THROUGHPUT_PHASES:-baseline,cold,warm}" \
  > "$OUT/throughput.log" 2>&1 || echo "(throughput did not finish)" >> "$OUT/throughput.log"
note "-- evaluation throughput (utils/bench-eval-throughput.sh):"
tail -12 "$OUT/throughput.log" | tee -a "$SUMMARY"
fi

#--- task size profiles --------------------------------------------------------
if want profiles; then
step "profiles"
timeout 300 "$PYTHON" "$ROOT/utils/bench-task-profiles.py" > "$OUT/profiles.log" 2>&1 \
  || echo "(bench-task-profiles did not finish)" >> "$OUT/profiles.log"
note "-- task profiles (utils/bench-task-profiles.py):"
tail -1 "$OUT/profiles.log" | tee -a "$SUMMARY"
fi

#--- build benchmark ----------------------------------------------------------
if want buildbench && [ "${BUILDBENCH:-cpu,cuda}" != cuda ]; then
step "bench cpu"
timeout 240 "$ROOT/utils/bench-build.sh" --build-dir "$BUILD" --python "$PYTHON" \
  > "$OUT/bench-cpu.log" 2>&1 || echo "(bench cpu did not finish)" >> "$OUT/bench-cpu.log"
note "-- bench, CPU extension (test/kevin-run/Inputs/relu_cpp.py):"
tail -10 "$OUT/bench-cpu.log" | tee -a "$SUMMARY"
fi
if want buildbench; then
LEFT=$(( 540 - $(elapsed) ))
if [ "$LEFT" -gt 200 ]; then
  # Two cold variants (a warm-PCH row) when there is time for them.
  QUICK=--quick; [ "$LEFT" -gt 300 ] && QUICK=
  step "bench cuda"
  timeout "$LEFT" "$ROOT/utils/bench-build.sh" --build-dir "$BUILD" --python "$PYTHON" \
    --device cuda $QUICK --candidate "$ROOT/test/kevin-run/gpu/Inputs/relu_cuda_inline.py" \
    > "$OUT/bench-cuda.log" 2>&1 || echo "(bench cuda did not finish)" >> "$OUT/bench-cuda.log"
  note "-- bench, CUDA extension:"
  tail -10 "$OUT/bench-cuda.log" | tee -a "$SUMMARY"
else
  note "-- bench, CUDA extension: skipped ($LEFT s left of the time budget)"
fi
fi
note "total: $(elapsed) s"
[ "$FAIL" -eq 0 ]
