#!/usr/bin/env bash
#===-- demo.sh - `make demo`: Kevin's loop on the bundled CPU tasks -------===#
#
# Runs `kevin rollout` on the bundled CPU tasks that the bundled replay policy
# (share/kevin/replay/demo.jsonl: recorded multi-turn responses with
# reasoning, code and summaries) answers, on the CPU device: every turn is
# checked, built, run against the reference and timed; then rewards, GRPO
# training rows and the report are written. Usage: demo.sh [BUILD_DIR]
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-build}" && pwd)
replay=$root/share/kevin/replay/demo.jsonl
run=$build/demo

# The tasks, trajectories and turns the replay file answers.
read -r tasks m n < <(python3 - "$replay" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
tasks = sorted({r["task"] for r in rows})
print(",".join(tasks), 1 + max(r["trajectory"] for r in rows), max(r["turn"] for r in rows))
PY
)
task_args=()
for t in ${tasks//,/ }; do task_args+=(--task "$t"); done

echo "kevin demo: tasks ${tasks//,/ }; m=$m trajectories x n=$n turns on the CPU"
rm -rf "$run"
"$build/bin/kevin" rollout --tasks "$root/share/kevin/tasks" "${task_args[@]}" \
  --policy "replay:$replay" -m "$m" -n "$n" --device cpu -j 2 --eval-jobs 2 -o "$run"
