#!/usr/bin/env python3
#===-- probe-profiler-start.py - where torch's profiler's first start goes ---===#
#
# A GPU-machine probe for kevin serve's zygote (docs/EvalThroughput.md).
#   probe-profiler-start.py top        the first start of torch's profiler
#                                      under cProfile: the 18 costliest calls
#   probe-profiler-start.py fork WHAT  imports WHAT before a fork in a parent
#                                      that has not touched CUDA (none,
#                                      dynamo, or all: every module the first
#                                      start imports), then times, in the
#                                      child, CUDA's start and the profiler's
#                                      first start, and says if CUDA works
# Each prints one line `PROBE {json}` (and `top` its table first).
#===----------------------------------------------------------------------===#
import cProfile
import importlib
import io
import json
import os
import pstats
import subprocess
import sys
import time


def first_start(activities):
    from torch.profiler import profile
    start = time.time()
    with profile(activities=activities):
        pass
    return time.time() - start


def modules_the_start_imports():
    import torch
    from torch.profiler import ProfilerActivity
    before = set(sys.modules)
    first_start([ProfilerActivity.CPU])
    return sorted(set(sys.modules) - before)


def forked_child(write_end):
    import torch
    from torch.profiler import ProfilerActivity
    result = {}
    try:
        start = time.time()
        torch.zeros(1, device="cuda")
        torch.cuda.synchronize()
        result["child_cuda_start"] = time.time() - start
        result["child_profiler_first"] = first_start([ProfilerActivity.CPU, ProfilerActivity.CUDA])
        result["child_cuda_works"] = bool((torch.ones(4, device="cuda") * 2).sum().item() == 8)
    except Exception as err:
        result["child_error"] = repr(err)[:300]
    os.write(write_end, json.dumps(result).encode())
    os._exit(0)


def main():
    mode = sys.argv[1]
    if mode == "list":
        print(json.dumps(modules_the_start_imports()))
        return 0
    start = time.time()
    import torch
    out = {"mode": " ".join(sys.argv[1:]), "import_torch": time.time() - start}
    if mode == "top":
        from torch.profiler import ProfilerActivity
        profiler = cProfile.Profile()
        profiler.enable()
        out["first_start"] = first_start([ProfilerActivity.CPU])
        profiler.disable()
        table = io.StringIO()
        pstats.Stats(profiler, stream=table).sort_stats("cumulative").print_stats(18)
        print(table.getvalue())
    else:
        what = sys.argv[2]
        names = {"none": [], "dynamo": ["torch._dynamo"]}.get(what)
        if names is None:
            names = json.loads(subprocess.run([sys.executable, __file__, "list"], capture_output=True,
                                              text=True, check=True).stdout)
        start = time.time()
        for name in names:
            try:
                importlib.import_module(name)
            except Exception:
                pass
        out.update(modules=len(names), imports_before_fork=time.time() - start)
        read_end, write_end = os.pipe()
        if os.fork() == 0:
            forked_child(write_end)
        os.close(write_end)
        out.update(json.loads(os.read(read_end, 65536)))
        os.wait()
    print("PROBE " + json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
