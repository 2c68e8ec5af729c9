#!/usr/bin/env bash
#===-- gpu-placement.sh - two trees' timing placements side by side ------===#
#
# Issue 25's placement question in one device call on the GPU machine, after
# `STEPS=build utils/gpu-validate.sh` (this tree, in build-gpu/): builds the
# kevin-bench and kevin-worker of another tree (BASE_SRC: e.g. `git archive`
# of the commit before a change to the timing method, unpacked into the
# git-ignored build-base-src/ and carried), then runs gpu-timing-causes.sh's
# EXPERIMENTS on KERNELS, the base tree and this one in turn, ROUNDS times,
# and prints its table: the base tree's experiments end in -base (-baseN
# after the first round), this tree's have no suffix (-N after the first).
#
# usage: OUT=dir BASE_SRC=dir [KERNELS=level1/89_cumsum,level1/23_Softmax]
#        [EXPERIMENTS=together] [ROUNDS=2] [LIMIT=160]
#        utils/gpu-placement.sh
#===----------------------------------------------------------------------===#
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:?set OUT}
BASE_SRC=$(cd "${BASE_SRC:?set BASE_SRC to the other tree}" && pwd)
PYTHON=${KEVIN_PYTHON:-/opt/torch/.venv/bin/python3}
export KERNELS=${KERNELS:-level1/89_cumsum,level1/23_Softmax}
export EXPERIMENTS=${EXPERIMENTS:-together}
mkdir -p "$OUT"

# The carried toml++ serves both trees (utils/prepare-gpu-carry.sh).
if ! { cmake -S "$BASE_SRC" -B "$BASE_SRC/build-gpu" -G Ninja -DCMAKE_BUILD_TYPE=Release \
         -DKEVIN_ENABLE_CLANG=OFF -DKEVIN_ENABLE_TORCH=ON -DKEVIN_INCLUDE_TESTS=OFF \
         -DKEVIN_PYTHON="$PYTHON" -DPython3_EXECUTABLE="$PYTHON" -DKEVIN_EXTRA_INCLUDE_DIR="$ROOT/.gpu" &&
       cmake --build "$BASE_SRC/build-gpu" --target kevin-bench kevin-worker -j "$(nproc)"; } \
     > "$OUT/build-base.log" 2>&1; then
  echo "gpu-placement: error: the base tree did not build (see build-base.log)" >&2
  tail -20 "$OUT/build-base.log" >&2
  exit 1
fi

for ((R = 1; R <= ${ROUNDS:-2}; ++R)); do
  SUFFIX=""
  [ "$R" -gt 1 ] && SUFFIX=$R
  OUT=$OUT BIN=$BASE_SRC/build-gpu/bin TAG=-base$SUFFIX "$ROOT/utils/gpu-timing-causes.sh" > /dev/null
  OUT=$OUT BIN=$ROOT/build-gpu/bin TAG=${SUFFIX:+-$SUFFIX} "$ROOT/utils/gpu-timing-causes.sh" > /dev/null
done
OUT=$OUT EXPERIMENTS=none "$ROOT/utils/gpu-timing-causes.sh" | tee "$OUT/placement.txt"
