#!/usr/bin/env bash
#===-- prepare-gpu-carry.sh - what the GPU machine lacks, in .gpu/ --------===#
#
# The GPU machine has no toml++, cpp-httplib, lit or FileCheck. This copies
# them from the CPU machine's Debian packages into the git-ignored .gpu/
# (about 28 MiB), which the device call carries (carry: [".gpu"]):
#   .gpu/toml++     headers (-DKEVIN_EXTRA_INCLUDE_DIR=.gpu)
#   .gpu/httplib.h  cpp-httplib's header with the OpenSSL, zlib and Brotli
#                   headers it includes, and in .gpu/lib its library and the
#                   Brotli and OpenSSL libraries it links
#                   (LD_LIBRARY_PATH=.gpu/lib)
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
mkdir -p "$DEST/lib"
cp /usr/include/httplib.h "$DEST/"
# The header includes OpenSSL's, zlib's and Brotli's (the library is built
# with all three).
cp -r /usr/include/brotli /usr/include/openssl /usr/include/zlib.h /usr/include/zconf.h "$DEST/"
cp /usr/include/x86_64-linux-gnu/openssl/* "$DEST/openssl/"
cp -L /usr/lib/x86_64-linux-gnu/libcpp-httplib.so.0.11 "$DEST/lib/"
ln -s libcpp-httplib.so.0.11 "$DEST/lib/libcpp-httplib.so"
for lib in libbrotlidec.so.1 libbrotlienc.so.1 libbrotlicommon.so.1 libssl.so.3 libcrypto.so.3; do
  cp -L "/usr/lib/x86_64-linux-gnu/$lib" "$DEST/lib/"
done
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
