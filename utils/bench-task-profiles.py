#!/usr/bin/env python3
"""bench-task-profiles.py - how long one forward of every bundled task takes.

Checks the two size profiles of share/kevin/README.md against their goals:
  small  one forward of the reference on one CPU core (torch.set_num_threads(1))
         in well under a second; the README promises under 1 ms;
  gpu    one forward on a CUDA device at least 0.1 ms (like Kevin's
         evaluation set), timed with CUDA events around each call after an
         L2 flush, the way kevin-bench times.
Prints one row per task (median of --calls calls after warmups) and a last
line counting the tasks that meet each goal. The gpu column is skipped when
torch sees no CUDA device.

usage: bench-task-profiles.py [--tasks DIR] [--calls N] [--profiles small,gpu]
"""
import argparse
import importlib.util
import os
import statistics
import sys
import time

import torch

SMALL_GOAL_MS = 1.0
GPU_GOAL_MS = 0.1


def load_task(path, profile, name):
    """Imports the task file with KEVIN_TASK_PROFILE=profile (tasks read it
    once, at import)."""
    os.environ["KEVIN_TASK_PROFILE"] = profile
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(task, device):
    torch.manual_seed(42)
    model = task.Model(*task.get_init_inputs()).to(device)
    torch.manual_seed(1)
    if device == "cuda" and hasattr(torch, "set_default_device"):
        with torch.device(device):  # gpu-profile draws take seconds on the CPU
            inputs = task.get_inputs()
    else:
        inputs = task.get_inputs()
    inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in inputs]
    return model, inputs


def time_cpu(task, calls):
    model, inputs = build(task, "cpu")
    with torch.no_grad():
        model(*inputs)  # the cold first call is not what the goal is about
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            model(*inputs)
            times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def time_gpu(task, calls, flush):
    model, inputs = build(task, "cuda")
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    with torch.no_grad():
        for _ in range(3):
            model(*inputs)
        times = []
        for _ in range(calls):
            flush.zero_()
            start.record()
            model(*inputs)
            end.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(end))
    del model, inputs
    torch.cuda.empty_cache()
    return statistics.median(times)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", default=os.path.join(root, "share", "kevin", "tasks"))
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--profiles", default="small,gpu")
    args = parser.parse_args()
    profiles = args.profiles.split(",")
    gpu = "gpu" in profiles and torch.cuda.is_available()
    if "gpu" in profiles and not gpu:
        print("(no CUDA device: the gpu profile is not timed)")
    torch.set_num_threads(1)
    flush = None
    if gpu:
        l2 = torch.cuda.get_device_properties(0).L2_cache_size or (64 << 20)
        flush = torch.empty(2 * l2, dtype=torch.uint8, device="cuda")
        print("device: %s, torch %s" % (torch.cuda.get_device_name(0), torch.__version__))
    paths = []
    for level in sorted(os.listdir(args.tasks)):
        folder = os.path.join(args.tasks, level)
        if os.path.isdir(folder):
            paths += [os.path.join(folder, f) for f in sorted(os.listdir(folder)) if f.endswith(".py")]
    if not paths:
        sys.exit("bench-task-profiles.py: error: no tasks under '%s'" % args.tasks)
    print("%-58s %14s %14s" % ("task", "small cpu ms", "gpu cuda ms"))
    small_ok = gpu_ok = 0
    for n, path in enumerate(paths):
        task_id = os.path.relpath(path, args.tasks)[:-3]
        small_ms = gpu_ms = None
        if "small" in profiles:
            small_ms = time_cpu(load_task(path, "small", "task_small_%d" % n), args.calls)
            small_ok += small_ms < SMALL_GOAL_MS
        if gpu:
            gpu_ms = time_gpu(load_task(path, "gpu", "task_gpu_%d" % n), args.calls, flush)
            gpu_ok += gpu_ms >= GPU_GOAL_MS
        cell = lambda v, goal_met: "-" if v is None else "%.4f%s" % (v, "" if goal_met(v) else " !")
        print("%-58s %14s %14s" % (task_id, cell(small_ms, lambda v: v < SMALL_GOAL_MS),
                                   cell(gpu_ms, lambda v: v >= GPU_GOAL_MS)), flush=True)
    summary = []
    if "small" in profiles:
        summary.append("small: %d of %d tasks under %g ms on one CPU core" % (small_ok, len(paths), SMALL_GOAL_MS))
    if gpu:
        summary.append("gpu: %d of %d tasks at %g ms or more per forward" % (gpu_ok, len(paths), GPU_GOAL_MS))
    print("; ".join(summary) + " ('!' marks a miss)")


if __name__ == "__main__":
    main()
