#!/usr/bin/env python3
"""kernelbench-baseline.py - evaluate candidates the KernelBench way.

The baseline of utils/bench-eval-throughput.sh: per candidate a freshly
spawned Python process with its own empty TORCH_EXTENSIONS_DIR, so torch's
load_inline compiles the extension cold; the reference Model and ModelNew
built under seed 42; 5 correctness trials (fresh seeded inputs, allclose
atol = rtol = 1e-2); if correct, 3 warmups and 100 timed trials of each side
with CUDA events and a synchronize per trial (KernelBench's
time_execution_with_cuda_event). Candidates run --parallel at a time.

usage: kernelbench-baseline.py --tasks DIR --solutions DIR --out FILE.jsonl
       [--parallel N] [--device cuda]
Prints seconds per candidate (mean process wall time) and the batch's wall
time divided by the number of candidates.
"""
import argparse
import concurrent.futures
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def evaluate_one(task_path, candidate_path, device):
    """Runs inside the spawned process; returns the verdict."""
    t0 = time.time()
    import torch
    t_import = time.time() - t0

    def load(name, path):
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    task = load("kb_task", task_path)
    t1 = time.time()
    cand = load("kb_candidate", candidate_path)      # load_inline compiles here
    t_compile = time.time() - t1
    dev = torch.device(device)
    init = task.get_init_inputs()
    torch.manual_seed(42)
    ref = task.Model(*init).to(dev)
    torch.manual_seed(42)
    new = cand.ModelNew(*init).to(dev)
    t2 = time.time()
    correct = True
    message = ""
    with torch.no_grad():
        for trial in range(5):
            torch.manual_seed(trial + 1)
            inputs = [x.to(dev) if isinstance(x, torch.Tensor) else x for x in task.get_inputs()]
            want = ref(*inputs)
            got = new(*inputs)
            torch.cuda.synchronize(dev)
            if got.shape != want.shape:
                correct, message = False, "shape mismatch"
                break
            if not torch.allclose(got, want, atol=1e-2, rtol=1e-2):
                correct, message = False, "value mismatch"
                break
    t_correct = time.time() - t2
    t3 = time.time()
    times = {}
    if correct:
        torch.manual_seed(1234)
        inputs = [x.to(dev) if isinstance(x, torch.Tensor) else x for x in task.get_inputs()]
        for side, model in (("candidate", new), ("reference", ref)):
            with torch.no_grad():
                for _ in range(3):
                    model(*inputs)
                torch.cuda.synchronize(dev)
                elapsed = []
                for _ in range(100):
                    start = torch.cuda.Event(enable_timing=True)
                    end = torch.cuda.Event(enable_timing=True)
                    start.record()
                    model(*inputs)
                    end.record()
                    torch.cuda.synchronize(dev)
                    elapsed.append(start.elapsed_time(end))
            elapsed.sort()
            times[side + "_ms"] = sum(elapsed) / len(elapsed)
    t_timing = time.time() - t3
    return {"correct": correct, "message": message, **times,
            "seconds": {"import": t_import, "compile": t_compile, "correctness": t_correct,
                        "timing": t_timing}}


def spawn(script, task_path, candidate_path, device):
    ext_dir = tempfile.mkdtemp(prefix="kb-ext-")
    env = dict(os.environ, TORCH_EXTENSIONS_DIR=ext_dir)
    env.setdefault("TORCH_CUDA_ARCH_LIST", "9.0")
    start = time.time()
    proc = subprocess.run([sys.executable, script, "--one", task_path, candidate_path,
                           "--device", device], capture_output=True, text=True, env=env,
                          timeout=1800)
    wall = time.time() - start
    shutil.rmtree(ext_dir, ignore_errors=True)
    verdict = {"correct": False, "message": "no verdict: " + proc.stderr[-500:]}
    for line in proc.stdout.splitlines():
        if line.startswith("KB-VERDICT "):
            verdict = json.loads(line[len("KB-VERDICT "):])
    verdict["wall_seconds"] = wall
    return verdict


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--one", nargs=2, metavar=("TASK", "CANDIDATE"), help=argparse.SUPPRESS)
    parser.add_argument("--tasks")
    parser.add_argument("--solutions")
    parser.add_argument("--out")
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--device", default="cuda")
    args = parser.parse_args()
    if args.one:
        verdict = evaluate_one(args.one[0], args.one[1], args.device)
        print("KB-VERDICT " + json.dumps(verdict), flush=True)
        return 0
    if not (args.tasks and args.solutions and args.out):
        parser.error("--tasks, --solutions and --out are required")
    pairs = []
    for level in sorted(os.listdir(args.solutions)):
        for name in sorted(os.listdir(os.path.join(args.solutions, level))):
            if name.endswith(".py"):
                task_id = level + "/" + name[:-3]
                pairs.append((task_id, os.path.join(args.tasks, task_id + ".py"),
                              os.path.join(args.solutions, level, name)))
    script = os.path.abspath(__file__)
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.parallel) as pool:
        futures = {pool.submit(spawn, script, t, c, args.device): task_id
                   for task_id, t, c in pairs}
        results = {futures[f]: f.result() for f in concurrent.futures.as_completed(futures)}
    wall = time.time() - start
    with open(args.out, "w") as out:
        for task_id, _, _ in pairs:
            out.write(json.dumps({"task_id": task_id, **results[task_id]}) + "\n")
    per = [r["wall_seconds"] for r in results.values()]
    print("baseline: %d candidates, %d correct; %.1f s per candidate (mean process wall); "
          "batch %.1f s at --parallel %d = %.1f s per candidate"
          % (len(pairs), sum(r["correct"] for r in results.values()), sum(per) / len(per),
             wall, args.parallel, wall / len(pairs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
