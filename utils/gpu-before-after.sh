#!/usr/bin/env bash
#===-- gpu-before-after.sh - kevin eval throughput of two trees, one run --===#
#
# On the GPU machine: builds the runtime tools of this tree and of another
# (BASE_SRC: e.g. `git archive` of the commit before a change, unpacked into
# a git-ignored folder such as build-base-src/ and carried), then runs
# bench-eval-throughput.sh's PHASES (default cold: a fresh build cache, so
# the builder is measured too) for both trees, alternating base and this
# tree ROUNDS times, and prints seconds per candidate for each and the ratio.
# Both trees are judged by this tree's benchmark script, on the same machine,
# in the same run; the verdicts of the two trees are compared record by record.
#
# usage: OUT=dir BASE_SRC=dir [PHASES=cold] [ROUNDS=1] utils/gpu-before-after.sh
#===----------------------------------------------------------------------===#
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/before-after-out}
BASE_SRC=$(cd "${BASE_SRC:?set BASE_SRC to the other tree}" && pwd)
PHASES=${PHASES:-cold}
ROUNDS=${ROUNDS:-1}
PYTHON=${KEVIN_PYTHON:-$(command -v python3)}
mkdir -p "$OUT"

for TREE in base new; do
  SRC=$ROOT
  [ $TREE = base ] && SRC=$BASE_SRC
  # The carried toml++, lit and FileCheck (utils/prepare-gpu-carry.sh) serve both trees.
  [ -e "$SRC/.gpu" ] || [ ! -d "$ROOT/.gpu" ] || ln -s "$ROOT/.gpu" "$SRC/.gpu"
  if ! OUT=$OUT/build-$TREE STEPS=build "$SRC/utils/gpu-validate.sh" > "$OUT/build-$TREE.txt" 2>&1; then
    echo "gpu-before-after: error: the $TREE tree did not build (see build-$TREE.txt)" >&2
    tail -20 "$OUT/build-$TREE.txt" >&2
    exit 1
  fi
done

for ((R = 1; R <= ROUNDS; ++R)); do
  for TREE in base new; do
    SRC=$ROOT
    [ $TREE = base ] && SRC=$BASE_SRC
    OUT=$OUT/$TREE-$R BIN=$SRC/build-gpu/bin "$ROOT/utils/bench-eval-throughput.sh" "$PHASES" \
      > "$OUT/$TREE-$R.txt" 2>&1
    echo "== $TREE, round $R"
    grep -E "kevin eval|summed|verdicts" "$OUT/$TREE-$R.txt"
  done
done

"$PYTHON" - "$OUT" "$ROUNDS" "$PHASES" <<'PY'
import json, os, sys
out, rounds, phases = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")
def walls(tree, r):
    path = os.path.join(out, "%s-%d" % (tree, r), "kevin-walls.txt")
    return dict((l.split()[0], float(l.split()[1]) / 1000) for l in open(path)) if os.path.exists(path) else {}
def verdicts(tree, r, phase):
    path = os.path.join(out, "%s-%d" % (tree, r), "kevin-%s.jsonl" % phase)
    if not os.path.exists(path):
        return {}
    return {rec.get("task_id"): (rec.get("run", {}).get("outcome"), rec.get("run", {}).get("correct"))
            for rec in map(json.loads, open(path))}
for phase in phases:
    for r in range(1, rounds + 1):
        b, n = walls("base", r).get(phase), walls("new", r).get(phase)
        vb, vn = verdicts("base", r, phase), verdicts("new", r, phase)
        if b is None or n is None or not vb:
            print("%s round %d: missing results" % (phase, r))
            continue
        differ = sorted(t for t in vb if vb[t] != vn.get(t))
        print("%s round %d: base %.1f s, new %.1f s for %d candidates (%.2f s vs %.2f s each); new/base wall = %.3f;"
              " verdicts differing: %s" % (phase, r, b, n, len(vb), b / len(vb), n / len(vb), n / b, differ or "none"))
PY
