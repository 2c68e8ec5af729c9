#!/bin/sh
# Lays out DIR/bin with a copy of kevin-rollout and the fake stage tools next
# to it, the way the driver finds its stage tools. Usage: setup-bin.sh DIR
set -e
mkdir -p "$1/bin"
cp "$(command -v kevin-rollout)" "$1/bin/kevin-rollout"
for stage in check run bench; do
  ln -sf "$(dirname "$0")/fake-stage.py" "$1/bin/kevin-$stage"
done
