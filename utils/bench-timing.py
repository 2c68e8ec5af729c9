#!/usr/bin/env python3
"""bench-timing.py - kevin-bench's timing goals, measured on a GPU machine.

  1. repeatability: --repeats kevin-bench processes (fresh secrets, their own
     reference workers) started at once, each timing every kernel; the
     device lock keeps their timing loops apart. Prints each kernel's
     speedup max/min - 1 (goal <= 2%) and the reference's round medians per
     process (kevin-bench times each side in rounds of fresh placements);
  2. agreement: the same kernels (candidate and reference) timed by
     triton.testing.do_bench (median, its own L2 flush) in one process, with
     the candidate's extension loaded from kevin's build cache; prints
     kevin median / do_bench median - 1 (goal within 3%);
  3. escapes: the side-stream and host-thread candidates of the adversarial
     corpus must come back rejected with their flag;
  4. with --probes N (and agree): N fresh processes per kernel time the reference and
     the candidate with do_bench and name the reference's GPU kernels (the
     profiler), which tells a per-process effect (algorithm choice, memory
     placement) from kevin-bench's own spread; the agreement is then also
     taken against the median of those N processes (a kernel whose speed
     differs between processes has no one do_bench figure to agree with);
  5. serve: every kernel through a kevin serve on 127.0.0.1 (its warm
     worker times each reference once per task), two requests, a restart,
     a third request; each speedup against the kevin-bench median of 1.
     (goal within 2%).

usage: bench-timing.py --bin BUILD/bin [--repeats 5] [--kernels all] [--steps repeat,agree,escapes,serve]
                       [--out DIR] [--sequential] [--cpu-load N]
--sequential runs the repeats one after another, --cpu-load N keeps N cores
busy meanwhile: the two tell the device's own spread from what concurrent
processes and a loaded host add to it.
The candidates must already be built into $KEVIN_CACHE_DIR (kevin-run
--build-only), as utils/gpu-validate.sh does.
"""
import argparse
import glob
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARE = os.path.join(ROOT, "share", "kevin")
KERNELS = ["level1/19_ReLU", "level1/23_Softmax", "level2/12_Gemm_Multiply_LeakyReLU"]
ESCAPES = [("level1/21_Sigmoid", "adversarial/H26_torch_stream_cuda.py", "stream-escape"),
           ("level1/19_ReLU", "adversarial/H26_pool_stream_cuda.py", "stream-escape"),
           ("level1/22_Tanh", "adversarial/H27_std_thread_cuda.py", "thread-spawned")]


def kevin_bench(binary, task, candidate, extra=()):
    """One kevin-bench run; its bench section."""
    cmd = [os.path.join(binary, "kevin-bench"), "--device", "cuda", "--task",
           os.path.join(SHARE, "tasks", task + ".py"), candidate] + list(extra)
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if not out.stdout.strip():
        raise RuntimeError("kevin-bench gave no record: " + out.stderr[-2000:])
    return json.loads(out.stdout.splitlines()[-1])["bench"]


SOLUTIONS = os.path.join(SHARE, "solutions", "cuda")


def solution_of(task):
    return os.path.join(SOLUTIONS, task + ".py")


def all_kernels():
    """Every candidate of SOLUTIONS (the bundled CUDA solutions), as task ids."""
    return sorted(os.path.relpath(p, SOLUTIONS)[:-3] for p in glob.glob(os.path.join(SOLUTIONS, "*", "*.py")))


CHILDREN = []


def end_children(signum, frame):
    """SIGTERM (the caller's time limit): the kevin-bench and kevin serve
    processes started here end too, so none keeps the device after it."""
    for child in CHILDREN:
        if child.poll() is None:
            child.kill()
    sys.exit(128 + signum)


def start_cpu_load(count):
    """count processes that keep a core busy each (--cpu-load): is a
    reference's spread between processes the host's load, not the device's?
    Returns them (they are CHILDREN too)."""
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    CHILDREN.extend(load)
    return load


def repeated_benches(binary, tasks, repeats, budget, out_dir, extra, sequential=False, device="cuda"):
    """repeats kevin-bench processes on device, each timing every kernel into
    OUT/bench-repeat-N.jsonl: all at once, or one after another."""
    records = "".join(json.dumps({"id": t, "task_path": os.path.join(SHARE, "tasks", t + ".py"),
                                  "candidate_path": solution_of(t), "run": {"correct": True}}) + "\n"
                      for t in tasks)
    procs = []
    for i in range(repeats):
        out = open(os.path.join(out_dir, "bench-repeat-%d.jsonl" % i), "w")
        err = open(os.path.join(out_dir, "bench-repeat-%d.err" % i), "w")
        p = subprocess.Popen([os.path.join(binary, "kevin-bench"), "--device", device, "--budget", budget,
                              "--quiet"] + extra, stdin=subprocess.PIPE, stdout=out, stderr=err, text=True)
        CHILDREN.append(p)
        p.stdin.write(records)
        p.stdin.close()
        procs.append(p)
        if sequential:
            p.wait(timeout=900)
    for p in procs:
        p.wait(timeout=900)


def load_repeats(out_dir):
    """{task: [bench section per kevin-bench process]} from the files that
    repeated_benches wrote (this run's, or an earlier call's)."""
    found = {}
    for path in sorted(glob.glob(os.path.join(out_dir, "bench-repeat-*.jsonl"))):
        for line in open(path):
            r = json.loads(line)
            found.setdefault(r["id"], []).append(r["bench"])
    return found


def start_server(binary):
    """kevin serve on a free port of 127.0.0.1: (process, base URL)."""
    p = subprocess.Popen([os.path.join(binary, "kevin-serve"), "--tasks", os.path.join(SHARE, "tasks"),
                          "--device", "cuda", "--port", "0", "--no-check"],
                         stderr=subprocess.PIPE, text=True)
    CHILDREN.append(p)
    for line in p.stderr:
        m = re.search(r"listening on (http://\S+)", line)
        if m:
            return p, m.group(1)
    raise RuntimeError("kevin serve did not start (exit %s)" % p.wait())


def serve_speedups(binary, tasks, log):
    """{task: [speedup of POST 1, POST 2, POST 3 after a restart]}."""
    body = "".join(json.dumps({"id": t, "task_id": t, "code": open(solution_of(t)).read()}) + "\n"
                   for t in tasks).encode()
    found = {t: [] for t in tasks}
    for server_run, posts in ((0, 2), (1, 1)):
        proc, url = start_server(binary)
        try:
            for post in range(posts):
                req = urllib.request.Request(url + "/v1/evaluate", data=body,
                                             headers={"Content-Type": "application/x-ndjson"})
                reply = urllib.request.urlopen(req, timeout=900).read().decode()
                for line in reply.splitlines():
                    r = json.loads(line)
                    log.write(json.dumps({"serve": server_run, "post": post, "id": r["id"],
                                          "outcome": r.get("outcome"), "run": r.get("run"),
                                          "bench": r.get("bench")}) + "\n")
                    found[r["id"]].append((r.get("bench") or {}).get("speedup"))
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=120)
    return found


def report_serve(binary, rows, log):
    """Prints the serve table (5. above); the worst |serve/kevin-bench - 1|."""
    medians = {r["task"]: r["speedup"] for r in rows if r["ok"]}
    found = serve_speedups(binary, list(medians), log)
    print()
    print("%-40s %9s %27s %9s" % ("kernel (kevin serve)", "bench", "POST 1, POST 2, restarted", "worst"))
    worst = 0.0
    for task, speedups in found.items():
        devs = [abs(s / medians[task] - 1) if s else float("inf") for s in speedups]
        worst = max([worst] + devs)
        print("%-40s %9.3f %27s %+8.2f%%" % (task, medians[task], ", ".join(
            "%.3f" % s if s else "none" for s in speedups), 100 * max(devs)))
    print("kevin serve: worst |serve/kevin-bench - 1| %.2f%% (goal <= 2%%)" % (100 * worst))
    return worst


def load_from_kevin_cache(name, *args, **kwargs):
    """load_inline replacement: the module kevin already built."""
    cache = os.environ.get("KEVIN_CACHE_DIR", os.path.expanduser("~/.cache/kevin"))
    hits = sorted(glob.glob(os.path.join(cache, "ext", "*", name + ".so")), key=os.path.getmtime)
    if not hits:
        raise RuntimeError("extension %s is not in kevin's cache %s" % (name, cache))
    spec = importlib.util.spec_from_file_location(name, hits[-1])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def import_path(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def do_bench_medians(task, candidate):
    """(reference ms, candidate ms) by triton.testing.do_bench."""
    import torch
    import torch.utils.cpp_extension as ext
    from triton.testing import do_bench
    ext.load_inline = load_from_kevin_cache
    t = import_path("task_" + re.sub(r"\W", "_", task), os.path.join(SHARE, "tasks", task + ".py"))
    c = import_path("cand_" + re.sub(r"\W", "_", task), candidate)
    torch.manual_seed(42)
    init = t.get_init_inputs()
    torch.manual_seed(42)
    ref = t.Model(*init).cuda()
    torch.manual_seed(42)
    new = c.ModelNew(*init).cuda()
    torch.manual_seed(1)
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in t.get_inputs()]
    with torch.no_grad():
        r = do_bench(lambda: ref(*inputs), warmup=100, rep=1000, return_mode="median")
        n = do_bench(lambda: new(*inputs), warmup=100, rep=1000, return_mode="median")
    return r, n


def reference_kernels(task):
    """The GPU kernels of one reference forward, by the profiler."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    t = import_path("probe_" + re.sub(r"\W", "_", task), os.path.join(SHARE, "tasks", task + ".py"))
    torch.manual_seed(42)
    ref = t.Model(*t.get_init_inputs()).cuda()
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in t.get_inputs()]
    with torch.no_grad():
        ref(*inputs)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            ref(*inputs)
            torch.cuda.synchronize()
    return sorted({e.key[:60] for e in prof.key_averages() if e.device_time_total > 0})


def probe(task):
    """One fresh process's view of a kernel (run as a child)."""
    candidate = solution_of(task)
    ref_ms, cand_ms = do_bench_medians(task, candidate)
    print(json.dumps({"task": task, "reference_ms": ref_ms, "candidate_ms": cand_ms,
                      "reference_kernels": reference_kernels(task)}))
    return 0


def run_probes(task, count, log):
    """count fresh processes of probe(task); prints their spread and returns
    their rows."""
    found = []
    for i in range(count):
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--bin", "-",
                              "--solutions", SOLUTIONS, "--probe", task],
                             capture_output=True, text=True, timeout=300)
        lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
        if not lines:
            print("  probe %s %d failed: %s" % (task, i, out.stderr[-500:]))
            continue
        row = json.loads(lines[-1])
        log.write(json.dumps(dict(row, probe=i)) + "\n")
        found.append(row)
        print("  probe %s %d: reference %.4f ms, candidate %.4f ms, kernels %s" % (
            task, i, row["reference_ms"], row["candidate_ms"], row["reference_kernels"]), flush=True)
    if found:
        refs = [r["reference_ms"] for r in found]
        cands = [r["candidate_ms"] for r in found]
        print("  probes %s: do_bench across processes: reference spread %.2f%%, candidate spread %.2f%%, "
              "%d kernel set(s)" % (task, 100 * (max(refs) / min(refs) - 1), 100 * (max(cands) / min(cands) - 1),
                                   len({tuple(r["reference_kernels"]) for r in found})))
    return found


def middle(values):
    """The median of a non-empty list (the upper one of an even count)."""
    return sorted(values)[len(values) // 2]


def timing_rows(kernels, benched, args, agree, log):
    """Prints a row per kernel (1., and 2. when agree) and returns them."""
    rows = []
    print("%-40s %9s %9s %9s %8s %10s %10s %8s %8s  %s" % (
        "kernel", "speedup", "min", "max", "spread", "kevin ms", "do_bench", "cand", "ref",
        "reference rounds (ms) per process"))
    for task in kernels:
        benches = benched.get(task, [])
        for i, b in enumerate(benches):
            log.write(json.dumps({"task": task, "repeat": i, "bench": b}) + "\n")
        speedups = [b["speedup"] for b in benches if b.get("speedup")]
        if len(speedups) < max(len(benches), 2):
            print("%-40s timing failed: %s" % (task, [b.get("message") for b in benches]))
            rows.append({"task": task, "ok": False})
            continue
        spread = max(speedups) / min(speedups) - 1
        ref_kevin = middle([b["reference"]["median_ms"] for b in benches])
        cand_kevin = middle([b["candidate"]["median_ms"] for b in benches])
        rounds = " ".join("/".join("%.4g" % m for m in b["reference"].get("rounds_ms", [])) for b in benches)
        cand_db = ref_db = cand_agree = ref_agree = float("nan")
        if agree:
            try:
                ref_db, cand_db = do_bench_medians(task, solution_of(task))
                cand_agree = cand_kevin / cand_db - 1
                ref_agree = ref_kevin / ref_db - 1
            except Exception as err:  # report, keep going
                print("  do_bench failed for %s: %s" % (task, err))
        probes = run_probes(task, args.probes, log) if args.probes and agree else []
        probed = {}
        if probes:
            probed = {"probes": len(probes),
                      "probes_candidate_ms": middle([p["candidate_ms"] for p in probes]),
                      "probes_reference_ms": middle([p["reference_ms"] for p in probes])}
            probed["probes_candidate_agreement"] = cand_kevin / probed["probes_candidate_ms"] - 1
            probed["probes_reference_agreement"] = ref_kevin / probed["probes_reference_ms"] - 1
            print("  %s: kevin / median of %d do_bench processes - 1: candidate %+.2f%%, reference %+.2f%%" % (
                task, len(probes), 100 * probed["probes_candidate_agreement"],
                100 * probed["probes_reference_agreement"]))
        med = middle(speedups)
        print("%-40s %9.3f %9.3f %9.3f %7.2f%% %10.4f %10.4f %+7.2f%% %+7.2f%%  %s" % (
            task, med, min(speedups), max(speedups), 100 * spread, cand_kevin, cand_db,
            100 * cand_agree, 100 * ref_agree, rounds), flush=True)
        rows.append({"task": task, "ok": True, "processes": len(speedups), "speedup": med,
                     "spread": spread, "candidate_agreement": cand_agree,
                     "reference_agreement": ref_agree, "kevin_candidate_ms": cand_kevin,
                     "do_bench_candidate_ms": cand_db, "kevin_reference_ms": ref_kevin,
                     "do_bench_reference_ms": ref_db, **probed})
    return rows


def check_escapes(binary, log):
    """3. above: prints a row per escape candidate; whether all were caught."""
    print()
    print("%-55s %-16s %s" % ("escape candidate", "expected flag", "got"))
    caught_all = True
    for task, path, flag in ESCAPES:
        b = kevin_bench(binary, task, os.path.join(SHARE, path), ["--budget", "1"])
        log.write(json.dumps({"task": task, "escape": path, "bench": b}) + "\n")
        caught = (not b.get("ok")) and flag in b.get("flags", []) and b.get("speedup") is None
        caught_all &= caught
        print("%-55s %-16s %s %s (%s)" % (path, flag, b.get("outcome"), b.get("flags"),
                                         "caught" if caught else "MISSED"))
    return caught_all


def main():
    global SOLUTIONS
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--budget", default="2")
    parser.add_argument("--out", default=".")
    parser.add_argument("--device", default="cuda",
                        help="the repeats' GPU, e.g. cuda:1 (the other steps use cuda)")
    parser.add_argument("--kernels", default=",".join(KERNELS),
                        help="task ids, comma-separated, or 'all' (every bundled CUDA solution); "
                             "empty for none (default: %(default)s)")
    parser.add_argument("--bench-args", default="",
                        help="more kevin-bench options for the repeats, separated by spaces or commas "
                             "(e.g. --bench-args=--rounds=3,--round-keep=fastest)")
    parser.add_argument("--steps", default="repeat,agree,escapes",
                        help="repeat (1.), agree (2.), escapes (3.), serve (5.), comma-separated; a later "
                             "call without repeat reads the repeats of --out (default: %(default)s)")
    parser.add_argument("--sequential", action="store_true",
                        help="start each repeat when the one before it has ended, not all at once")
    parser.add_argument("--cpu-load", type=int, default=0,
                        help="processes that keep a core busy each while the repeats run")
    parser.add_argument("--probes", type=int, default=0,
                        help="fresh do_bench processes per kernel (see 4. above)")
    parser.add_argument("--solutions", default=SOLUTIONS,
                        help="the candidates, as DIR/<task id>.py (default: the bundled CUDA solutions)")
    parser.add_argument("--probe", help=argparse.SUPPRESS)
    args = parser.parse_args()
    SOLUTIONS = os.path.abspath(args.solutions)
    os.environ["KEVIN_TASK_PROFILE"] = "gpu"
    signal.signal(signal.SIGTERM, end_children)
    if args.probe:
        return probe(args.probe)
    steps = set(args.steps.split(","))
    os.makedirs(args.out, exist_ok=True)
    log = open(os.path.join(args.out, "bench-timing.jsonl"), "a")
    kernels = all_kernels() if args.kernels == "all" else [t for t in args.kernels.split(",") if t]
    if "repeat" in steps and kernels:
        load = start_cpu_load(args.cpu_load)
        repeated_benches(args.bin, kernels, args.repeats, args.budget, args.out,
                         [a for a in re.split(r"[ ,]+", args.bench_args) if a], args.sequential,
                         args.device)
        for child in load:
            child.kill()
    rows = timing_rows(kernels, load_repeats(args.out), args, "agree" in steps, log)
    serve_worst = report_serve(args.bin, rows, log) if "serve" in steps else None
    escapes_ok = check_escapes(args.bin, log) if "escapes" in steps else None
    good = [r for r in rows if r["ok"]]
    worst_spread = max((r["spread"] for r in good), default=float("nan"))
    worst_agree = max((abs(r["candidate_agreement"]) for r in good), default=float("nan"))
    print()
    print("repeatability: worst speedup spread %.2f%% over %d kernels (goal <= 2%%)" % (
        100 * worst_spread, len(good)))
    if "agree" in steps:
        print("agreement: worst |kevin/do_bench - 1| on candidates %.2f%% (goal <= 3%%)" % (100 * worst_agree))
        probed = [abs(r["probes_candidate_agreement"]) for r in good if "probes_candidate_agreement" in r]
        if probed:
            print("agreement: worst |kevin/median of do_bench processes - 1| on candidates %.2f%%" % (
                100 * max(probed)))
    if escapes_ok is not None:
        print("escapes: %s" % ("all caught" if escapes_ok else "SOME MISSED"))
    json.dump({"rows": rows, "escapes_caught": escapes_ok, "serve_worst": serve_worst},
              open(os.path.join(args.out, "bench-timing.json"), "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
