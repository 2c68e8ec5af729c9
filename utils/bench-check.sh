#!/usr/bin/env bash
#===-- bench-check.sh - kevin-check latency: default, lean and full parse -===#
#
# Wall-clock latency of one kevin-check run per candidate, median and p95,
# over the bundled CUDA solutions (or the candidate directories given, e.g.
# test/kevin-check/Inputs/wild as well), for what a user gets
# (--parser=auto: the lean prelude, then the real torch headers when the lean
# parse fails), for kevin's fast path alone (--parser=lean) and for the naive
# full parse (--parser=full: the real torch headers), with the ratio of full
# to lean. A benchmark, not a test.
#
# Usage: utils/bench-check.sh [candidate-dir...]   (REPEAT=n, FULL_REPEAT=n
#        (0: no full parse), KEVIN_CHECK=path). The first check on a machine
#        builds the precompiled lean prelude (about a second); a warm-up run
#        keeps it out of the figures.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/.."
KC=${KEVIN_CHECK:-build/bin/kevin-check}
DIRS=("${@:-share/kevin/solutions/cuda}")
REPEAT=${REPEAT:-3}
FULL_REPEAT=${FULL_REPEAT:-1}
PY=/usr/bin/python3

[ -x "$KC" ] || { echo "bench-check: error: '$KC' not built" >&2; exit 2; }
mapfile -t FILES < <(find "${DIRS[@]}" -name '*.py' | sort)
[ ${#FILES[@]} -gt 0 ] || { echo "bench-check: error: no candidates under ${DIRS[*]}" >&2; exit 2; }

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

# "MEDIAN P95" of the latencies on stdin.
stats() {
  $PY -c 'import statistics, sys
v = sorted(float(l) for l in sys.stdin)
print("%g %g" % (statistics.median(v), v[min(len(v) - 1, int(0.95 * len(v)))]))'
}

"$KC" --parser=lean "${FILES[0]}" >/dev/null 2>&1 || true   # builds the precompiled prelude once
echo "kevin-check latency over ${#FILES[@]} candidates in ${DIRS[*]} ($(nproc) cores)"
read -r AUTO AUTO95 < <(measure auto "$REPEAT" | stats)
echo "  default (--parser=auto):  median ${AUTO} ms, p95 ${AUTO95} ms  (${REPEAT} runs per candidate)"
read -r LEAN LEAN95 < <(measure lean "$REPEAT" | stats)
echo "  lean prelude (fast path): median ${LEAN} ms, p95 ${LEAN95} ms  (${REPEAT} runs per candidate)"
if [ "$FULL_REPEAT" -gt 0 ]; then
  read -r FULL FULL95 < <(measure full "$FULL_REPEAT" | stats)
  echo "  full torch parse (naive): median ${FULL} ms, p95 ${FULL95} ms  (${FULL_REPEAT} run per candidate)"
  $PY -c "print('  ratio full/lean: %.1fx' % ($FULL / $LEAN))"
fi
