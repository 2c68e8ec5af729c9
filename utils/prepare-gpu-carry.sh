#!/usr/bin/env bash
#===-- prepare-gpu-carry.sh - what the GPU machine lacks, in .gpu/ --------===#
#
# The GPU machine has no toml++, lit or FileCheck. This copies them from the
# CPU machine's Debian packages into the git-ignored .gpu/ (about 26 MiB),
# which the device call carries (carry: [".gpu"]):
#   .gpu/toml++     headers (-DKEVIN_EXTRA_INCLUDE_DIR=.gpu)
#   .gpu/lit        lit from llvm-14-tools (pure Python)
#   .gpu/llvm       FileCheck, not, count and the libz3 they link
#   .gpu/bin        wrappers that find that libz3
# Then, on the device: OUT=$OUT utils/gpu-validate.sh
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEST=$ROOT/.gpu
rm -rf "$DEST"
mkdir -p "$DEST/llvm" "$DEST/bin"
cp -r /usr/include/toml++ "$DEST/"
cp -r /usr/lib/llvm-14/build/utils/lit "$DEST/lit"
for tool in FileCheck not count; do
  cp /usr/lib/llvm-14/bin/$tool "$DEST/llvm/"
  cat > "$DEST/bin/$tool" <<WRAP
#!/bin/sh
# LLVM test tool carried for the GPU machine, with its libz3.
d=\$(dirname "\$(readlink -f "\$0")")/../llvm
LD_LIBRARY_PATH="\$d\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "\$d/$tool" "\$@"
WRAP
  chmod +x "$DEST/bin/$tool"
done
cp -L "$(ldconfig -p | sed -n 's/.*libz3.so.4 .*=> //p' | head -1)" "$DEST/llvm/"
du -sh "$DEST"
