#!/usr/bin/env bash
#===-- bench-build-errors.sh - what a candidate that does not build costs --===#
#
# A kind of build error in models' answers, built from an empty cache with
# kevin-run --build-only the way kevin takes it and, side by side in the
# same run, a variant that makes kevin take the long way (the one it took
# before it could tell), with the ratio: functions=[...] names a function
# the C++ sources never declare (test/kevin-run/Inputs/relu_cpp_unbound.py).
# kevin's binding set gives the message; the variant spells the name in a
# comment, so torch's own torch/extension.h is compiled too (with its
# precompiled header, which an empty cache lacks).
#
# Both builds must end in build-error, with binding_header minimal and full,
# or the script stops. Builder seconds are the record's build.seconds.
#
# usage: utils/bench-build-errors.sh [--build-dir DIR]
#===----------------------------------------------------------------------===#
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=$ROOT/build
while [ $# -gt 0 ]; do
  case $1 in
    --build-dir) BUILD_DIR=$2; shift 2 ;;
    *) echo "bench-build-errors.sh: error: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
KEVIN_RUN=$BUILD_DIR/bin/kevin-run
[ -x "$KEVIN_RUN" ] || { echo "bench-build-errors.sh: error: '$KEVIN_RUN': not built" >&2; exit 2; }
PYTHON=$(command -v python3)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kevin-bench-errors.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

BINDING=$ROOT/test/kevin-run/Inputs/relu_cpp_unbound.py
# The long-way variant: one comment line after the source string opens.
sed '0,/r"""/s//r"""\n\/\/ relu_forward_fast: bound below/' "$BINDING" > "$WORK/binding_long.py"
grep -q 'relu_forward_fast: bound below' "$WORK/binding_long.py"

# "seconds" of one build of File from an empty cache, which must end in
# build-error with Header (binding_header or cuda_header) equal to Expected.
# Each cache starts empty: the ratio is of whole cold builds.
build() {
  local file=$1 header=$2 expected=$3 cache record
  cache=$(mktemp -d "$WORK/cache.XXXXXX")
  # kevin-run exits 1 for a candidate that does not build.
  record=$("$KEVIN_RUN" --build-only --device cpu --cache-dir "$cache" "$file" 2>/dev/null) || true
  echo "$record" | "$PYTHON" -c '
import json, sys
header, expected = sys.argv[1:3]
b = json.loads(sys.stdin.readline())["build"]
assert b["outcome"] == "build-error", "outcome " + b["outcome"]
used = b["extensions"][0][header]
assert used == expected, "%s %s, expected %s" % (header, used, expected)
print("%.1f" % b["seconds"])' "$header" "$expected"
}

# One row: Name, the header entry, what each side must use, the two files
# (a row per kind of build error).
row() {
  local name=$1 header=$2 short_set=$3 long_set=$4 short=$5 long=$6 s l
  s=$(build "$short" "$header" "$short_set")
  l=$(build "$long" "$header" "$long_set")
  printf '%-8s %-15s %-10s %-13s %s\n' "$name" "$header" "$s" "$l" \
    "$("$PYTHON" -c "print('%.1fx' % ($l / $s))")"
}

echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-15s %-10s %-13s %s\n' error header "kevin (s)" "long way (s)" ratio
row binding binding_header minimal full "$BINDING" "$WORK/binding_long.py"
