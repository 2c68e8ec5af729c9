#===-- wild_check.py - kevin-check over the real-world-style corpus ------===#
"""Runs kevin-check once over test/kevin-check/Inputs/wild and checks it.

The corpus holds KernelBench answers written the way published answers are
(load_inline with functions=, CUDAContext streams, WMMA, cooperative groups,
half2, templates, shared-memory tiling, extern "C" kernels). Each file's
docstring names the task it answers ("Answer to level1/19_ReLU ...").

  ok_*.py   honest: must come out clean (no error; the half, bfloat16 and
            WMMA ones draw kevin-cu-precision-downcast's warnings in these
            float32 tasks), with a complete parse;
  bad_*.py  do not build with nvcc/g++: must come out as exactly one
            kevin-cu-parse-failure at the line of the real error, whose
            message names the cause (BROKEN below).

Every candidate goes through one kevin-check run (JSON Lines on stdin, each
record naming its task; the arguments after the corpus are kevin-check's).
Prints a table, then a summary; exits 1 on any problem.

Usage: wild_check.py KEVIN_CHECK SHARE_DIR CORPUS_DIR [kevin-check options]
"""
import json
import os
import re
import subprocess
import sys

# bad_* candidate -> (unit, line in the .py, what the message must say).
BROKEN = {
    "bad_01_function_only_in_cuda": ("main.cpp", 22, r"undeclared identifier 'relu_cuda'.*PYBIND11_MODULE that load_inline writes for functions="),
    "bad_02_pybind_and_functions": ("main.cpp", 29, r"redefinition of 'pybind11_init_.*PYBIND11_MODULE that load_inline writes"),
    "bad_03_tensor_type_dispatch": ("cuda.cu", 18, r"no member named 'type' in 'at::Tensor'"),
    "bad_04_builtins_in_cpp": ("main.cpp", 10, r"undeclared identifier 'blockIdx'"),
    "bad_05_syncthreads_in_cpp": ("main.cpp", 9, r"undeclared identifier '__syncthreads'"),
    "bad_06_undeclared_identifier": ("cuda.cu", 12, r"undeclared identifier 'size'"),
    "bad_07_kernel_arg_count": ("cuda.cu", 23, r"too few arguments to function call, expected 3, have 2"),
    "bad_08_helper_arg_count": ("cuda.cu", 17, r"no matching function for call to 'inv_rms'"),
    "bad_09_missing_semicolon": ("cuda.cu", 13, r"expected ';'"),
    "bad_10_write_through_const": ("cuda.cu", 19, r"read-only variable is not assignable"),
    "bad_11_half_pointer_mismatch": ("cuda.cu", 21, r"parameter of type 'const __half \*' with an rvalue of type 'float \*'"),
    "bad_12_std_min_mixed": ("cuda.cu", 18, r"no matching function for call to 'min'"),
    "bad_13_host_calls_device": ("cuda.cu", 19, r"no matching function for call to 'ceil_div'"),
}


def task_of(share, path):
    with open(path) as handle:
        match = re.search(r"Answer to (level[0-9]+/\S+?)[:\s]", handle.readline())
    return os.path.join(share, "tasks", match.group(1) + ".py") if match else None


def verdict(name, check):
    """'' when the candidate came out as expected, else what went wrong."""
    findings = check.get("findings", [])
    if "parse" in check:
        return "parse %s: %s" % (check["parse"], check.get("parse_reason", ""))
    if name.startswith("ok_"):
        errors = [f for f in findings if f["severity"] == "error"]
        if errors or not check.get("ok"):
            return "; ".join("%d:%d: %s [%s]" % (f["line"], f["column"], f["message"], f["rule"]) for f in errors)
        return ""
    unit, line, pattern = BROKEN[name]
    if len(findings) != 1:
        return "expected one kevin-cu-parse-failure, got %d findings" % len(findings)
    f = findings[0]
    if f["rule"] != "kevin-cu-parse-failure" or f["line"] != line or \
            not f["message"].startswith("cannot parse " + unit) or not re.search(pattern, f["message"]):
        return "expected %s line %d /%s/, got %d:%d: %s [%s]" % (unit, line, pattern, f["line"], f["column"],
                                                                 f["message"], f["rule"])
    return ""


def main():
    tool, share, corpus, options = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    names = sorted(n[:-3] for n in os.listdir(corpus) if n.endswith(".py"))
    records = []
    problems = 0
    for name in names:
        path = os.path.join(corpus, name + ".py")
        task = task_of(share, path)
        if not task or not os.path.exists(task) or not (name.startswith("ok_") or name in BROKEN):
            print("%s: no task or no expectation" % name)
            problems += 1
        records.append(json.dumps({"id": name, "candidate_path": path, "task_path": task or ""}))
    out = subprocess.run([tool] + options, input="\n".join(records) + "\n",
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        print("kevin-check failed (%d): %s" % (out.returncode, out.stderr.strip()))
        return 1
    honest = broken = honest_ok = broken_ok = 0
    for line in out.stdout.splitlines():
        record = json.loads(line)
        name, check = record["id"], record["check"]
        wrong = verdict(name, check)
        if name.startswith("ok_"):
            honest += 1
            honest_ok += not wrong
            warned = sorted({f["rule"] for f in check.get("findings", [])})
            shown = "clean (%s)%s" % (check.get("parser"), ", warnings: " + " ".join(warned) if warned else "")
        else:
            broken += 1
            broken_ok += not wrong
            findings = check.get("findings") or [{"line": 0, "message": "-"}]
            shown = "build error: %d: %s" % (findings[0]["line"], findings[0]["message"])
        print("%-40s %s%s" % (name, "PROBLEM " + wrong if wrong else "", "" if wrong else shown))
        problems += bool(wrong)
    print("honest: %d of %d clean" % (honest_ok, honest))
    print("broken: %d of %d predicted as build errors" % (broken_ok, broken))
    print("problems: %d" % problems)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
