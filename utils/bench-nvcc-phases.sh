#!/usr/bin/env bash
#===-- bench-nvcc-phases.sh - what one CUDA unit's compile spends where ---===#
#
# Compiles the same small kernel and wrapper (torch::empty_like, data_ptr, a
# <<<>>> launch) four ways with kevin's nvcc flags and prints nvcc's own
# per-phase times (nvcc -time) and the wall time of each:
#   no-torch   the kernel and a plain C++ wrapper, no torch header;
#   facade     with kevin's torch facade (lib/Build/embedded/torch_facade.h)
#              standing in for torch's headers, which CUDA units that fit
#              it are compiled with first;
#   minimal    with kevin's minimal torch/extension.h (lib/Build/embedded),
#              which CUDA units the facade fails are compiled with next;
#   full       with torch's own torch/extension.h.
# The difference between no-torch and minimal is what torch's headers cost
# every candidate's CUDA unit: nvcc parses them in cudafe++ (host side), in
# cicc (device side) and again in the host compiler.
#
# usage: utils/bench-nvcc-phases.sh [--arch sm_90a] [--python PY]
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ARCH=sm_90a
PYTHON=${KEVIN_PYTHON:-$(command -v python3)}
while [ $# -gt 0 ]; do
  case $1 in
    --arch) ARCH=$2; shift 2 ;;
    --python) PYTHON=$2; shift 2 ;;
    *) echo "bench-nvcc-phases: unknown option $1" >&2; exit 2 ;;
  esac
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/minimal/torch"
cp "$ROOT/lib/Build/embedded/minimal_types.h" "$WORK/minimal/torch/types.h"
cp "$ROOT/lib/Build/embedded/minimal_extension.h" "$WORK/minimal/torch/extension.h"
cp "$ROOT/lib/Build/embedded/torch_dtype_names.h" "$WORK/minimal/kevin_torch_dtype_names.h"
# kevin's torch facade, under each torch header's name it stands in for
# (lib/Build/TorchHeaders.cpp writes the same files).
mkdir -p "$WORK/facade"
cp "$ROOT/lib/Build/embedded/torch_facade.h" "$WORK/facade/kevin_torch_facade.h"
cp "$ROOT/lib/Build/embedded/torch_dtype_names.h" "$WORK/facade/kevin_torch_dtype_names.h"
for NAME in torch/extension.h torch/types.h ATen/ATen.h ATen/Dispatch.h ATen/cuda/CUDAContext.h \
            c10/cuda/CUDAGuard.h c10/cuda/CUDAStream.h c10/cuda/CUDAException.h; do
  mkdir -p "$WORK/facade/$(dirname "$NAME")"
  printf '#pragma once\n#include <kevin_torch_facade.h>\n' > "$WORK/facade/$NAME"
done
# torch's and Python's include directories, from the torch in use.
mapfile -t TORCH_INCLUDES < <("$PYTHON" -c "
import sysconfig
from torch.utils.cpp_extension import include_paths
for p in include_paths() + [sysconfig.get_paths()['include']]: print(p)")
INCLUDES=()
for DIR in "${TORCH_INCLUDES[@]}"; do INCLUDES+=(-isystem "$DIR"); done
FLAGS=(-D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__
       -D__CUDA_NO_HALF2_OPERATORS__ --expt-relaxed-constexpr "-gencode=arch=compute_${ARCH#sm_},code=$ARCH"
       --compiler-options -fPIC -std=c++17 -O3)
KERNEL='__global__ void scale_kernel(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}'
cat > "$WORK/no-torch.cu" <<CU
#include <cuda_runtime.h>
$KERNEL
void scale(const float* x, float* y, int n) { scale_kernel<<<(n + 255) / 256, 256>>>(x, y, n); }
CU
TORCH_UNIT="#include <torch/extension.h>
$KERNEL
torch::Tensor scale(torch::Tensor x) {
  auto y = torch::empty_like(x);
  int n = x.numel();
  scale_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}"
echo "$TORCH_UNIT" > "$WORK/facade.cu"
echo "$TORCH_UNIT" > "$WORK/minimal.cu"
echo "$TORCH_UNIT" > "$WORK/full.cu"

printf "%-10s %8s" "unit" "wall s"
PHASES=("gcc (preprocessing 4)" "cudafe++" "gcc (preprocessing 1)" "cicc" "ptxas" "gcc (compiling)")
printf " %12s" "host cpp" "cudafe++" "device cpp" "cicc" "ptxas" "host gcc"
echo
for UNIT in no-torch facade minimal full; do
  EXTRA=()
  [ "$UNIT" = facade ] && EXTRA=(-I "$WORK/facade")
  [ "$UNIT" = minimal ] && EXTRA=(-I "$WORK/minimal")
  START=$(date +%s%N)
  nvcc -c "$WORK/$UNIT.cu" -o "$WORK/$UNIT.o" "${EXTRA[@]}" "${INCLUDES[@]}" "${FLAGS[@]}" -time "$WORK/$UNIT.csv"
  END=$(date +%s%N)
  printf "%-10s %8.1f" "$UNIT" "$(echo "($END - $START) / 1000000000" | bc -l)"
  for PHASE in "${PHASES[@]}"; do
    MS=$(awk -F' , ' -v p="$PHASE" '$2 == p { s += $7 } END { printf "%.1f", s / 1000 }' "$WORK/$UNIT.csv")
    printf " %12s" "$MS"
  done
  echo
done
