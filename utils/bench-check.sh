#!/usr/bin/env bash
#===-- bench-check.sh - kevin-check latency: lean prelude vs full parse ---===#
#
# Median wall-clock latency of one kevin-check run per candidate over the
# bundled CUDA solutions (every one builds a main.cpp that includes
# torch/extension.h), for kevin's fast path (--parser=lean: the built-in
# declaration prelude) and for the naive full parse (--parser=full: the real
# torch headers), and the ratio between them. A benchmark, not a test.
#
# Usage: utils/bench-check.sh [candidate-dir]   (REPEAT=n, FULL_REPEAT=n (0: lean only),
#        KEVIN_CHECK=path). The first check on a machine builds the precompiled
#        lean prelude (about a second); a warm-up run keeps it out of the figures.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/.."
KC=${KEVIN_CHECK:-build/bin/kevin-check}
DIR=${1:-share/kevin/solutions/cuda}
REPEAT=${REPEAT:-3}
FULL_REPEAT=${FULL_REPEAT:-1}
PY=/usr/bin/python3

[ -x "$KC" ] || { echo "bench-check: error: '$KC' not built" >&2; exit 2; }
mapfile -t FILES < <(find "$DIR" -name '*.py' | sort)
[ ${#FILES[@]} -gt 0 ] || { echo "bench-check: error: no candidates under '$DIR'" >&2; exit 2; }

measure() { # mode repeat -> one latency in ms per line
  local mode=$1 repeat=$2 f r t0 t1
  for f in "${FILES[@]}"; do
    for ((r = 0; r < repeat; ++r)); do
      t0=$(date +%s%N)
      "$KC" --parser="$mode" "$f" >/dev/null 2>&1 || true
      t1=$(date +%s%N)
      echo $(((t1 - t0) / 1000000))
    done
  done
}

median() { $PY -c 'import statistics, sys; print(statistics.median(float(l) for l in sys.stdin))'; }

"$KC" --parser=lean "${FILES[0]}" >/dev/null 2>&1 || true   # builds the precompiled prelude once
echo "kevin-check latency over ${#FILES[@]} candidates in $DIR ($(nproc) cores)"
LEAN=$(measure lean "$REPEAT" | median)
echo "  lean prelude (fast path): median ${LEAN} ms  (${REPEAT} runs per candidate)"
if [ "$FULL_REPEAT" -gt 0 ]; then
  FULL=$(measure full "$FULL_REPEAT" | median)
  echo "  full torch parse (naive): median ${FULL} ms  (${FULL_REPEAT} run per candidate)"
  $PY -c "print('  ratio full/lean: %.1fx' % ($FULL / $LEAN))"
fi
