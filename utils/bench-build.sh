#!/usr/bin/env bash
#===-- bench-build.sh - kevin's builder against torch's load_inline -------===#
#
# Compiles the same candidate sources, on the same machine, with
# torch.utils.cpp_extension.load_inline (ninja, a fresh TORCH_EXTENSIONS_DIR)
# and with kevin's builder (kevin-run --build-only, a fresh cache), and
# prints the times and the ratios:
#
#   load_inline cold           torch's JIT build, nothing cached
#   kevin cold, cold PCH       first build ever with these flags (the
#                              precompiled header of torch/extension.h is
#                              built too)
#   kevin cold, warm PCH       a new extension once the header is built
#                              (the steady state of an RL run)
#   kevin cache hit            the same sources again (builder time)
#   load_inline cache hit      the same sources again (ninja's no-op)
#
# and the time of one call of the extension's first function on a
# one-element tensor through each build (pybind11's glue and the function):
# kevin compiles its split binding unit at -O1, load_inline at the
# candidate's flags.
#
# Builder times are what the builder itself reports (build.seconds); the
# load_inline times are measured around the call, after `import torch`, so
# neither includes interpreter start-up. Wall times of the whole kevin-run
# process are printed too.
#
# usage: utils/bench-build.sh [--build-dir DIR] [--candidate FILE] [--python PY]
#                             [--device cpu|cuda] [--quick]
# --quick builds one cold variant per builder instead of two (for slow nvcc
# builds): then there is no separate warm-PCH row.
#===----------------------------------------------------------------------===#
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=$ROOT/build
CANDIDATE=$ROOT/test/kevin-run/Inputs/relu_cpp.py
PYTHON=${KEVIN_PYTHON:-/usr/bin/python3}
DEVICE=cpu
QUICK=0
while [ $# -gt 0 ]; do
  case $1 in
    --build-dir) BUILD_DIR=$2; shift 2 ;;
    --candidate) CANDIDATE=$2; shift 2 ;;
    --python) PYTHON=$2; shift 2 ;;
    --device) DEVICE=$2; shift 2 ;;
    --quick) QUICK=1; shift ;;
    *) echo "bench-build.sh: error: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
KEVIN_RUN=$BUILD_DIR/bin/kevin-run
[ -x "$KEVIN_RUN" ] || { echo "bench-build.sh: error: '$KEVIN_RUN': not built" >&2; exit 2; }
[ -x "$PYTHON" ] || PYTHON=$(command -v python3)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kevin-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# A variant of the candidate whose first source string starts with a unique
# comment, so that no earlier build of it can be in any cache.
variant() {
  local tag=$1 out=$WORK/$1.py
  sed "0,/r\"\"\"/s//r\"\"\"\\n\\/\\/ kevin bench $tag $$ $RANDOM/" "$CANDIDATE" > "$out"
  echo "$out"
}

# Arithmetic without bc (not on every machine).
calc() { "$PYTHON" -c "print('%.3f' % ($1))"; }

# Seconds spent in load_inline (in process, after import torch).
torch_build() {
  local file=$1 extdir=$2
  TORCH_EXTENSIONS_DIR=$extdir "$PYTHON" - "$file" <<'PY'
import runpy, sys, time
import torch  # noqa: F401  (not timed)
start = time.perf_counter()
runpy.run_path(sys.argv[1])
print("%.3f" % (time.perf_counter() - start))
PY
}

# Builder seconds and process wall seconds of kevin-run --build-only.
kevin_build() {
  local file=$1 cache=$2 start end record
  start=$(date +%s.%N)
  record=$("$KEVIN_RUN" --build-only --device "$DEVICE" --cache-dir "$cache" "$file" 2>/dev/null)
  end=$(date +%s.%N)
  echo "$record" | "$PYTHON" -c '
import json, sys
b = json.loads(sys.stdin.readline())["build"]
assert b["ok"], b["message"]
print("%.3f" % b["seconds"], "hit" if b["cache_hit"] else "built")' | tr '\n' ' '
  calc "$end - $start"
}

A=$(variant a)
B=$(variant b)
echo "candidate: $CANDIDATE (device $DEVICE), $(nproc) cores, $("$PYTHON" -c 'import torch; print("torch", torch.__version__)')"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
T_COLD_A=$(torch_build "$A" "$WORK/torch-ext")
read -r K_COLD_PCH _ K_COLD_PCH_WALL <<< "$(kevin_build "$A" "$WORK/kevin-cache")"
if [ "$QUICK" = 1 ]; then
  T_COLD_B=$T_COLD_A; K_WARM_PCH=$K_COLD_PCH; K_WARM_PCH_WALL=$K_COLD_PCH_WALL; B=$A
else
  T_COLD_B=$(torch_build "$B" "$WORK/torch-ext-b")
  read -r K_WARM_PCH _ K_WARM_PCH_WALL <<< "$(kevin_build "$B" "$WORK/kevin-cache")"
fi
read -r K_HIT HIT K_HIT_WALL <<< "$(kevin_build "$B" "$WORK/kevin-cache")"
# A's and B's builds share an extension name: each has a directory of its
# own, or load_inline in a new process would rebuild over the other.
if [ "$QUICK" = 1 ]; then B_EXT=$WORK/torch-ext; else B_EXT=$WORK/torch-ext-b; fi
T_HIT=$(torch_build "$B" "$B_EXT")
B_KEY=$("$KEVIN_RUN" --build-only --device "$DEVICE" --cache-dir "$WORK/kevin-cache" "$B" 2>/dev/null |
  "$PYTHON" -c 'import json, sys; print(json.loads(sys.stdin.readline())["build"]["extensions"][0]["key"])')
CALLS=$(TORCH_EXTENSIONS_DIR=$B_EXT "$PYTHON" - "$B" "$WORK/kevin-cache/ext/$B_KEY" "$DEVICE" <<'PY'
import glob, importlib.util, runpy, sys, timeit, types
import torch
candidate, kevin_dir, device = sys.argv[1:4]
scope = runpy.run_path(candidate)  # load_inline's build is there: it loads
torch_mod = next(v for v in scope.values() if isinstance(v, types.ModuleType)
                 and str(getattr(v, "__file__", "")).endswith(".so"))
spec = importlib.util.spec_from_file_location(
    torch_mod.__name__, glob.glob(kevin_dir + "/*.so")[0])
kevin_mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kevin_mod)
name = next(n for n in dir(torch_mod) if not n.startswith("_"))
x = torch.ones(1, device=device)
calls = {"load_inline": getattr(torch_mod, name), "kevin": getattr(kevin_mod, name)}
try:
    for f in calls.values():
        f(x)
except Exception as e:  # a function that wants other arguments
    print("n/a (%s(x) raised %s)" % (name, type(e).__name__))
    sys.exit(0)
best = {k: float("inf") for k in calls}
for _ in range(15):  # interleaved, the best of each
    for k, f in calls.items():
        best[k] = min(best[k], min(timeit.repeat(lambda: f(x), number=20000, repeat=3)) / 20000)
print("%s(x): load_inline %.0f ns, kevin %.0f ns per call" % (
    name, best["load_inline"] * 1e9, best["kevin"] * 1e9))
PY
)
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

ratio() { "$PYTHON" -c "print('%.2f' % ($1 / $2))"; }
T_COLD=$(calc "($T_COLD_A + $T_COLD_B) / 2")
printf '%-28s %10s %12s\n' "build" "seconds" "process wall"
printf '%-28s %10s %12s\n' "load_inline cold (mean of 2)" "$T_COLD" "-"
printf '%-28s %10s %12s\n' "kevin cold, cold PCH" "$K_COLD_PCH" "$K_COLD_PCH_WALL"
printf '%-28s %10s %12s\n' "kevin cold, warm PCH" "$K_WARM_PCH" "$K_WARM_PCH_WALL"
printf '%-28s %10s %12s\n' "kevin cache hit ($HIT)" "$K_HIT" "$K_HIT_WALL"
printf '%-28s %10s %12s\n' "load_inline cache hit" "$T_HIT" "-"
echo "speedup cold (warm PCH) vs load_inline: $(ratio "$T_COLD" "$K_WARM_PCH")x"
echo "speedup cold (cold PCH) vs load_inline: $(ratio "$T_COLD" "$K_COLD_PCH")x"
echo "cache hit: ${K_HIT} s (goal < 0.2 s)"
echo "call through each build, $CALLS"
