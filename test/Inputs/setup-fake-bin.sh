#!/bin/sh
# Lays out DIR/bin with copies of the named kevin tools and fake stage tools
# (Inputs/fake-stage.py) next to them, the way the drivers find their stages.
# Usage: setup-fake-bin.sh DIR TOOL...
set -e
dir=$1; shift
mkdir -p "$dir/bin"
for tool in "$@"; do
  cp "$(command -v "$tool")" "$dir/bin/$tool"
done
for stage in check run bench reward; do
  ln -sf "$(cd "$(dirname "$0")" && pwd)/fake-stage.py" "$dir/bin/kevin-$stage"
done
