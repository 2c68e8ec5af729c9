#!/usr/bin/env bash
#===-- bench-serve.sh - kevin serve against kevin eval and KernelBench ---===#
#
# Issue 22's benchmark: one run, one machine, one RL-shaped batch
# (utils/make-rl-batch.py: TASKS_PER_BATCH tasks x PER_TASK samples, default
# 4 x 16 = N candidates, with honest variants, wrong answers and build
# errors), evaluated by
#   baseline  utils/kernelbench-baseline.py --parallel $BASELINE_PARALLEL (8):
#             a process and a cold load_inline per candidate (CUDA only: it
#             times with CUDA events);
#   base      $BASE_BIN/kevin eval, the previous release (stage tools),
#             from an empty build cache;
#   eval      $BIN/kevin eval, this tree (the in-process engine), from an
#             empty build cache;
#   serve     $BIN/kevin-serve --port 0 from an empty build cache: the batch
#             POSTed to /v1/evaluate as soon as it listens (cold: the time from
#             the server's start until the reply), then twice more to the same
#             server (warm: builds are cache hits, references cached; the
#             third POST shows whether the second was steady), then once
#             more with every candidate's source changed by a comment line
#             (fresh: the steady state of RL training, where every
#             candidate is new code, so every build misses the cache while
#             the references stay cached); SIGTERM after.
# and prints seconds per candidate (wall / N) for each, the ratios, whether
# run.correct agrees per candidate between kevin serve and both kevin evals
# (disagreements listed), the device's floor (the seconds it was held alone)
# and the spread of speedups
# between the two warm passes.
#
# usage: OUT=dir BIN=build-gpu/bin BASE_BIN=build-base-src/build-gpu/bin \
#          DEVICE=cuda utils/bench-serve.sh [baseline,base,eval,serve]
#        OUT=dir BIN=build/bin DEVICE=cpu [PER_TASK=6] utils/bench-serve.sh
# Phases run in the order given (default: all that apply; `base` needs
# BASE_BIN; `baseline` is skipped on the CPU); `none` runs none and only
# summarises what $WORK holds. On CUDA every kevin runs with --no-check (the
# GPU machine has no Clang); on the CPU kevin-check runs on both sides.
# Knobs: KEVIN_TASK_PROFILE (default gpu on CUDA, small on the CPU),
# DEVICE_JOBS (--device-jobs of kevin eval and kevin-serve; default on
# CUDA: kevin's own, one per core from 4 to 16; 1 on the CPU),
# JOBS (-j of kevin eval and kevin-serve; default: kevin's own, half the
# cores), EVAL_ARGS (both kevin evals), SERVE_ARGS (kevin-serve), SERVE_TAG
# (the serve phase's files are serve$SERVE_TAG*, so a second serve phase
# with other SERVE_ARGS, e.g. SERVE_TAG=-j16 SERVE_ARGS='-j 16', is
# summarised beside the first), SERVE_PASSES (the serve phase's POSTs, in
# order, of cold, warm1, warm2 and fresh; cold first; default all four),
# BENCH_SERVE_CACHE
# (the build caches, default $TMPDIR/kevin-bench-serve-cache), KEVIN_TMPDIR
# (kevin's work directories; default /dev/shm when it has 48 GiB free, else
# $TMPDIR).
# Logs and records are written to WORK (default $OUT/work); at the end WORK
# is packed into $OUT/logs.tar.gz (and removed when it is $OUT/work), so
# $OUT holds two files: logs.tar.gz and the summary bench-serve.txt. Chained
# device calls keep WORK outside $OUT (e.g. WORK=/tmp/bench-serve-work) so
# the summary of the last call covers the phases of all of them.
#===----------------------------------------------------------------------===#
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/bench-serve-out}
BIN=$(cd "${BIN:-$ROOT/build/bin}" && pwd)
BASE_BIN=${BASE_BIN:-}
DEVICE=${DEVICE:-cuda}
# The first device's kind (cpu or cuda) for a list such as cuda:0,cuda:1.
DEVICE_KIND=${DEVICE%%[:,]*}
PYTHON=${KEVIN_PYTHON:-$(command -v python3)}
WORK=${WORK:-$OUT/work}
CACHE=${BENCH_SERVE_CACHE:-${TMPDIR:-/tmp}/kevin-bench-serve-cache}
TASKS=$ROOT/share/kevin/tasks
BASELINE_PARALLEL=${BASELINE_PARALLEL:-8}
case $DEVICE_KIND in
  cpu) CHECK_ARGS=(); DEFAULT_PHASES=eval,serve; DEVICE_JOBS=${DEVICE_JOBS:-1}
       export KEVIN_TASK_PROFILE=${KEVIN_TASK_PROFILE:-small} ;;
  *) CHECK_ARGS=(--no-check); DEFAULT_PHASES=baseline,eval,serve; DEVICE_JOBS=${DEVICE_JOBS:-}
     export KEVIN_TASK_PROFILE=${KEVIN_TASK_PROFILE:-gpu} ;;
esac
[ -n "$BASE_BIN" ] && DEFAULT_PHASES=${DEFAULT_PHASES/eval/base,eval}
PHASES=${1:-$DEFAULT_PHASES}
mkdir -p "$OUT" "$WORK"
[ -f "$WORK/batch/batch.jsonl" ] ||
  "$PYTHON" "$ROOT/utils/make-rl-batch.py" --device "$DEVICE_KIND" --out "$WORK/batch" \
    --tasks-per-batch "${TASKS_PER_BATCH:-4}" --per-task "${PER_TASK:-16}" > "$WORK/batch.log" 2>&1 ||
  { cat "$WORK/batch.log" >&2; exit 1; }

timed() { # name command...: runs the command; appends "name milliseconds" to walls.txt if it succeeds
  local name=$1 start end
  shift
  start=$(date +%s%N)
  if "$@"; then
    end=$(date +%s%N)
    echo "$name $(( (end - start) / 1000000 ))" >> "$WORK/walls.txt"
  else
    echo "bench-serve: error: the $name phase failed (exit $?; its log is in logs.tar.gz)" >&2
  fi
}
# kevin's work directories (TMPDIR of kevin eval and kevin serve): a tmpfs
# where one is large enough. A gpu-profile batch writes tens of GB of input
# sets and outputs there, and on a disk those writes are throttled by the
# kernel's writeback.
. "$ROOT/utils/kevin-work-dirs.sh"
KEVIN_TMPDIR=${KEVIN_TMPDIR:-$(kevin_fast_tmpdir)}
echo "$KEVIN_TMPDIR" > "$WORK/tmpdir.txt"

run_eval() { # name bin-dir: kevin eval over the batch from an empty build cache
  rm -rf "${CACHE:?}/$1" "$WORK/$1.jsonl"
  TMPDIR=$KEVIN_TMPDIR KEVIN_CACHE_DIR=$CACHE/$1 timed "$1" "$2/kevin" eval "${CHECK_ARGS[@]}" --no-report \
    --tasks "$TASKS" --solutions "$WORK/batch/solutions" --device "$DEVICE" ${JOBS:+-j "$JOBS"} \
    ${DEVICE_JOBS:+--device-jobs "$DEVICE_JOBS"} ${EVAL_ARGS:-} -o "$WORK/$1.jsonl" > "$WORK/$1.log" 2>&1
}

for PHASE in ${PHASES//,/ }; do
  sed -i "/^$PHASE /d" "$WORK/walls.txt" 2>/dev/null
  case $PHASE in
    baseline)
      if [ "$DEVICE_KIND" = cpu ]; then
        echo "bench-serve: the baseline times with CUDA events: skipped on the CPU"
        continue
      fi
      timed baseline "$PYTHON" "$ROOT/utils/kernelbench-baseline.py" --tasks "$WORK/batch/baseline-tasks" \
        --solutions "$WORK/batch/solutions" --parallel "$BASELINE_PARALLEL" --device "$DEVICE" \
        --out "$WORK/baseline.jsonl" > "$WORK/baseline.txt" 2>&1 ;;
    base) run_eval eval-base "${BASE_BIN:?set BASE_BIN to the bin directory of the previous release}" ;;
    eval) run_eval eval-new "$BIN" ;;
    serve)
      rm -rf "${CACHE:?}/serve${SERVE_TAG:-}"
      TMPDIR=$KEVIN_TMPDIR KEVIN_CACHE_DIR=$CACHE/serve${SERVE_TAG:-} "$PYTHON" - "$WORK" "serve${SERVE_TAG:-}" \
        "$BIN/kevin-serve" --tasks "$TASKS" --device "$DEVICE" --host 127.0.0.1 --port 0 ${JOBS:+-j "$JOBS"} \
        ${DEVICE_JOBS:+--device-jobs "$DEVICE_JOBS"} \
        "${CHECK_ARGS[@]}" ${SERVE_ARGS:-} <<'PY'
# The serve phase: start the server, POST the batch four times, stop it.
import json, os, signal, subprocess, sys, threading, time, urllib.request
work, tag, command = sys.argv[1], sys.argv[2], sys.argv[3:]
batch = open(os.path.join(work, "batch", "batch.jsonl"), "rb").read()

def fresh_sources(body):
    # A comment line after each candidate's first #include (in its C++ or
    # CUDA source string): the same kernels, new build-cache keys.
    out = []
    for line in body.splitlines():
        record = json.loads(line)
        record["code"] = record["code"].replace("#include", "// fresh source\n#include", 1)
        out.append(json.dumps(record))
    return ("\n".join(out) + "\n").encode()
log = open(os.path.join(work, tag + ".log"), "w")

def request(url, body=None):
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/x-ndjson"})
    with urllib.request.urlopen(req, timeout=7200) as reply:
        return reply.read()

start = time.monotonic()
server = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.PIPE, text=True)
url = None
for line in server.stderr:
    log.write(line)
    log.flush()
    if line.startswith("kevin-serve: listening on "):
        url = line.split()[-1]
        break
result = {"listening_seconds": time.monotonic() - start, "passes": []}
def copy_log():
    for line in server.stderr:
        log.write(line)
        log.flush()

threading.Thread(target=copy_log, daemon=True).start()
try:
    for kind in os.environ.get("SERVE_PASSES", "cold,warm1,warm2,fresh").split(",") if url else ():
        name = tag + "-" + kind
        posted = time.monotonic()
        records = request(url + "/v1/evaluate", fresh_sources(batch) if kind == "fresh" else batch)
        done = time.monotonic()
        open(os.path.join(work, name + ".jsonl"), "wb").write(records)
        result["passes"].append({"name": name, "post_seconds": done - posted,
                                 "seconds": done - (start if kind == "cold" else posted),
                                 "healthz": json.loads(request(url + "/healthz"))})
except Exception as error:  # reported in the summary; the server is stopped all the same
    result["error"] = repr(error)
server.send_signal(signal.SIGTERM)
try:
    result["exit_status"] = server.wait(timeout=300)
except subprocess.TimeoutExpired:
    server.kill()
    result["exit_status"] = "killed: no exit 300 s after SIGTERM"
json.dump(result, open(os.path.join(work, tag + ".json"), "w"), indent=1)
print(tag + ": listening after %.1f s; %s; exit %s" % (result["listening_seconds"], ", ".join(
    "%s %.1f s" % (p["name"], p["seconds"]) for p in result["passes"]) or "no pass", result["exit_status"]))
PY
      ;;
    none) ;;
    *) echo "bench-serve.sh: error: unknown phase '$PHASE'" >&2; exit 2 ;;
  esac
done

"$PYTHON" - "$WORK" "$BASELINE_PARALLEL" "$DEVICE" <<'PY' | tee "$OUT/bench-serve.txt"
# The summary of whatever WORK holds.
import json, os, statistics, sys
work, parallel, device = sys.argv[1:4]
expected = {c["id"]: c for c in json.load(open(os.path.join(work, "batch", "expected.json")))["candidates"]}
n = len(expected)
by_file = {c["file"][:-len(".py")]: i for i, c in expected.items()}

def records(name):
    path = os.path.join(work, name + ".jsonl")
    if not os.path.exists(path):
        return {}
    rows = [json.loads(line) for line in open(path) if line.strip()]
    if name == "baseline":  # keyed by the candidate's file name under baseline-tasks
        return {by_file[r["task_id"]]: {"run": {"correct": r["correct"]}} for r in rows}
    return {r.get("id"): r for r in rows}

def field(record, *path):
    for key in path:
        record = record.get(key) if isinstance(record, dict) else None
    return record

walls = {}
if os.path.exists(os.path.join(work, "walls.txt")):
    walls = {l.split()[0]: float(l.split()[1]) / 1000 for l in open(os.path.join(work, "walls.txt"))}
# One serve phase per tag: serve.json, serve-j16.json, ...
serves = {}
for name in sorted(os.listdir(work), key=lambda name: (name != "serve.json", name)):
    if name.startswith("serve") and name.endswith(".json"):
        serves[name[:-len(".json")]] = json.load(open(os.path.join(work, name)))
for serve in serves.values():
    for p in serve.get("passes", []):
        walls[p["name"]] = p["seconds"]
rows = [("baseline", "(a) KernelBench protocol, --parallel %s" % parallel),
        ("eval-base", "(b) kevin eval, previous release, cold cache"),
        ("eval-new", "(b') kevin eval, this tree, cold cache")]
for tag in serves:
    rows += [(tag + "-cold", "(c) %s cold, server start included" % tag),
             (tag + "-warm1", "(d) %s warm, 2nd POST" % tag),
             (tag + "-warm2", "(d) %s warm, 3rd POST" % tag),
             (tag + "-fresh", "(e) %s warm, new sources (4th POST)" % tag)]
per = {key: walls[key] / n for key, _ in rows if key in walls}
print("batch: %d candidates (%s), device %s, profile %s" % (
    n, ", ".join(sorted({c["task_id"] for c in expected.values()})),
    device, os.environ.get("KEVIN_TASK_PROFILE")))
if os.path.exists(os.path.join(work, "tmpdir.txt")):
    print("kevin's work directories (TMPDIR) in %s" % open(os.path.join(work, "tmpdir.txt")).read().strip())
print("%-48s %10s %14s" % ("", "wall s", "s/candidate"))
for key, label in rows:
    if key in per:
        print("%-48s %10.1f %14.3f" % (label, walls[key], per[key]))
for tag, serve in serves.items():
    print("%s: listening %.1f s after its start; exit status %s%s" % (
        tag, serve["listening_seconds"], serve.get("exit_status"),
        "; ERROR " + serve["error"] if "error" in serve else ""))
for tag in serves:
    for kind in ("warm1", "cold", "fresh"):
        for den in ("baseline", "eval-base", "eval-new"):
            num = tag + "-" + kind
            if num in per and den in per:
                print("ratio %s / %s = %.3f (%.1fx cheaper)" % (num, den, per[num] / per[den], per[den] / per[num]))

verdicts = {key: records(key) for key, _ in rows}
def correct(key, cid):
    return bool(field(verdicts[key].get(cid, {}), "run", "correct"))
for key, _ in rows:
    if verdicts[key]:
        missing = sorted(set(expected) - set(verdicts[key]))
        off = [c for c in expected if c in verdicts[key] and correct(key, c) != expected[c]["correct"]]
        print("verdicts %s: %d correct of %d%s; not as intended: %s" % (
            key, sum(correct(key, c) for c in verdicts[key]), len(verdicts[key]),
            "; MISSING %s" % missing if missing else "", off or "none"))
# Which header sets built each extension's CUDA unit and binding unit (the
# facade, kevin's minimal set, ...), over the builds that were not cache hits.
for key, _ in rows:
    headers = {}
    for r in verdicts[key].values():
        # kevin serve builds ahead of the run (build_ahead); kevin eval in build.
        for e in field(r, "build_ahead", "extensions") or field(r, "build", "extensions") or []:
            if not e.get("cache_hit"):
                pair = "%s/%s" % (e.get("cuda_header"), e.get("binding_header"))
                headers[pair] = headers.get(pair, 0) + 1
    if headers:
        print("cuda_header/binding_header %s (builds not from the cache): %s" % (key, ", ".join(
            "%s %d" % (h, c) for h, c in sorted(headers.items()))))
for tag in serves:
    for left in (tag + "-cold", tag + "-warm1", tag + "-warm2", tag + "-fresh"):
        for right in ("eval-base", "eval-new", "baseline"):
            if verdicts[left] and verdicts[right]:
                differ = ["%s (serve %s/%s, %s %s/%s)" % (
                    c, correct(left, c), field(verdicts[left].get(c, {}), "outcome"), right, correct(right, c),
                    field(verdicts[right].get(c, {}), "run", "outcome")) for c in expected
                    if correct(left, c) != correct(right, c)]
                print("run.correct %s vs %s: %s" % (left, right, "identical" if not differ else
                                                     "%d differ: %s" % (len(differ), "; ".join(differ))))

FLOOR = (("run", "seconds", "load"), ("run", "seconds", "run"), ("bench", "seconds", "candidate"))
for tag in serves:
    warm = verdicts[tag + "-warm1"]
    if not warm:
        continue
    # The device's floor: the seconds it was held alone (timed loops: the
    # references' and the candidates' import and timing); nothing else can
    # use it then, so no schedule beats their sum.
    alone = sum(field(r, "bench", "seconds", "device_alone") or 0.0 for r in warm.values()) / n
    print("%s floor: sum over the 2nd POST's records of bench.seconds.device_alone / N = %.3f s per candidate"
          % (tag, alone))
    if alone > 0 and tag + "-warm1" in per:
        print("  warm serve per candidate / floor = %.2f" % (per[tag + "-warm1"] / alone))
    carried = {".".join(p): sum(isinstance(field(r, *p), (int, float)) for r in warm.values()) for p in FLOOR}
    busy = sum(field(r, *p) or 0.0 for r in warm.values() for p in FLOOR) / n
    print("  busy: sum over the 2nd POST's records of %s / N = %.3f s per candidate (records carrying each: %s;"
          " runs overlap on the device, so this is no floor)" % (" + ".join(carried), busy, carried))
    for section in ("run", "bench"):
        keys = sorted({k for r in warm.values() if isinstance(field(r, section, "seconds"), dict)
                       for k, v in field(r, section, "seconds").items() if isinstance(v, (int, float))})
        if keys:
            print("  mean %s.seconds over the 2nd POST: %s" % (section, ", ".join(
                "%s %.2f" % (k, statistics.mean(field(r, section, "seconds", k) for r in warm.values()
                                                if isinstance(field(r, section, "seconds", k), (int, float))))
                for k in keys)))
    for other, what in ((tag + "-warm2", "both warm POSTs"), (tag + "-fresh", "the 2nd and the fresh POST")):
        second = verdicts[other]
        spread = [abs(a - b) / ((a + b) / 2) for a, b in
                  ((field(warm[c], "bench", "speedup"), field(second.get(c, {}), "bench", "speedup")) for c in warm)
                  if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > 0 and b > 0]
        if spread:
            print("  timing spread: %d candidates timed in %s; median |delta speedup| / mean speedup = %.3f"
                  " (max %.3f)" % (len(spread), what, statistics.median(spread), max(spread)))
    rejected = {key: sorted(c for c, r in verdicts[key].items() if field(r, "bench", "outcome") == "rejected")
                for key in (tag + "-cold", tag + "-warm1", tag + "-warm2", tag + "-fresh") if verdicts[key]}
    print("  bench rejections (honest candidates are never meant to be): %s" % (
        "; ".join("%s %s" % (k, v) for k, v in rejected.items() if v) or "none"))
PY
tar -czf "$OUT/logs.tar.gz" -C "$WORK" . && [ "$WORK" = "$OUT/work" ] && rm -rf "$WORK"
exit 0
