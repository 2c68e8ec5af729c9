#!/usr/bin/env python3
#===-- make-rl-batch.py - an RL-shaped batch of candidates -----------------===#
"""Writes an RL-shaped batch: a few tasks, many samples per task.

The tasks are a fixed mix (the first --tasks-per-batch of them; each has a
bundled solution for both devices): level1/19_ReLU (elementwise),
level1/23_Softmax (softmax), level1/1_Square_matrix_multiplication_ (GEMM),
level2/12_Gemm_Multiply_LeakyReLU (GEMM with a fused epilogue).

Per task, --per-task samples (at least 3):
  sample 0             the bundled solution (share/kevin/solutions/DEVICE);
  samples 1 .. P-3     honest variants of it, made by textual substitution that
                       keeps it correct: CUDA launch configurations (threads
                       per block, grid caps, tile sizes, outputs per thread),
                       `#pragma unroll` factors, nvcc flags; C++ loop blocking
                       constants, `#pragma GCC unroll` lines, an equivalent
                       select, allowlisted compiler flags. Each substitution
                       is checked to change the text. Should a task have fewer
                       knob combinations than asked, the rest differ only by a
                       comment line in the C++ source (so the build cache key
                       differs) and the script says so on stderr;
  sample P-2           a wrong answer: a constant in the kernel's arithmetic
                       changed so that the output is wrong;
  sample P-1           a build error: `functions=[...]` names a function that
                       is not declared.

Layout of --out DIR:
  DIR/solutions/level<L>/level_<L>_problem_<P>_sample_<S>_kernel.py
        KernelBench's generation naming: `kevin eval --tasks TASKS
        --solutions DIR/solutions` maps each to its task, id `<task id>#<S>`;
  DIR/baseline-tasks/level<L>/level_<L>_problem_<P>_sample_<S>_kernel.py
        a copy of the task file under the candidate's name, because
        utils/kernelbench-baseline.py maps `<level>/<name>.py` to the task
        `<level>/<name>` of its --tasks and so takes one candidate per task
        name: `kernelbench-baseline.py --tasks DIR/baseline-tasks --solutions
        DIR/solutions` evaluates the same files against the same references;
  DIR/batch.jsonl   one {"id", "task_id", "code"} record per candidate (what a
                    trainer POSTs to kevin serve; ids as kevin eval's);
  DIR/expected.json per candidate: id, task_id, sample, file, kind (bundled,
                    variant, padded, wrong-answer, build-error), correct (the
                    intended verdict) and the substitutions made.

usage: make-rl-batch.py --device cpu|cuda --out DIR [--tasks-per-batch 4]
                        [--per-task 16] [--share share/kevin]
"""
import argparse
import itertools
import json
import os
import shutil
import sys

# One entry per task, in the order they are picked. A knob is (text in the
# bundled solution, alternatives); the first alternative of every knob at once
# is the bundled solution itself. WRONG and UNBUILT are one substitution each.
CPU_FLAGS = ('extra_cflags=["-O3"]', ['extra_cflags=["-O2"]', 'extra_cflags=["-O3", "-funroll-loops"]',
                                      'extra_cflags=["-O3", "-DNDEBUG"]'])


def gcc_unroll(loop_line):
    """A knob putting `#pragma GCC unroll N` before the loop starting with loop_line."""
    indent = loop_line[:len(loop_line) - len(loop_line.lstrip())]
    return (loop_line, [f"{indent}#pragma GCC unroll {n}\n{loop_line}" for n in (4, 8)])


CUDA_UNROLL = ("#pragma unroll\n", ["#pragma unroll 2\n", "#pragma unroll 4\n"])
CUDA_TILES = [("constexpr int TILE = 32;", ["constexpr int TILE = 16;", "constexpr int TILE = 64;"]),
              ("constexpr int ROWS = 4;", ["constexpr int ROWS = 8;"])]

TASKS = {
    "cpu": [
        {"task": "level1/19_ReLU", "function": "relu_forward",
         "knobs": [CPU_FLAGS,
                   ("v > scalar_t(0) ? v : scalar_t(0)", ["v < scalar_t(0) ? scalar_t(0) : v"]),
                   gcc_unroll("    for (int64_t i = 0; i < n; ++i) {")],
         "wrong": ("v > scalar_t(0) ? v : scalar_t(0)", "v > scalar_t(0) ? v : scalar_t(1)")},
        {"task": "level1/23_Softmax", "function": "softmax_forward",
         "knobs": [CPU_FLAGS,
                   ("m = std::max(m, xr[c]);", ["m = xr[c] > m ? xr[c] : m;"]),
                   gcc_unroll("        for (int64_t c = 0; c < cols; ++c) {\n            const float e")],
         "wrong": ("static_cast<float>(1.0 / sum)", "static_cast<float>(100.0 / sum)")},
        {"task": "level1/1_Square_matrix_multiplication_", "function": "matmul_forward",
         "knobs": [("kBlockK = 128;", ["kBlockK = 64;", "kBlockK = 256;"]),
                   ("kBlockN = 256;", ["kBlockN = 128;", "kBlockN = 512;"]),
                   ('extra_cflags=["-O3"]', ['extra_cflags=["-O2"]'])],
         "wrong": ("crow[j] += aik * brow[j];", "crow[j] += 2.0f * aik * brow[j];")},
        {"task": "level2/12_Gemm_Multiply_LeakyReLU", "function": "gemm_mul_lrelu_forward",
         "knobs": [CPU_FLAGS,
                   ("v >= 0.0f ? v : v * slope", ["v < 0.0f ? v * slope : v"]),
                   gcc_unroll("            for (int64_t i = 0; i < I; ++i) acc")],
         "wrong": ("float acc = 0.0f;", "float acc = 1.0f;")},
    ],
    "cuda": [
        {"task": "level1/19_ReLU", "function": "relu_forward",
         "knobs": [("const int threads = 256;", ["const int threads = %d;" % t for t in (128, 512, 1024)]),
                   ("num_sms(xc.get_device()) * 8;",
                    ["num_sms(xc.get_device()) * %d;" % b for b in (4, 16, 32)])],
         "wrong": ("return v > scalar_t(0) ? v : scalar_t(0);", "return v > scalar_t(0) ? v : scalar_t(1);")},
        {"task": "level1/23_Softmax", "function": "softmax_forward",
         "knobs": [("(cols // 4 + 31)", ["(cols // 2 + 31)", "(cols // 8 + 31)", "(cols + 31)"]),
                   ("return min(1024,", ["return min(512,", "return min(256,"]),
                   ("#pragma unroll\n", ["#pragma unroll 4\n"])],
         "wrong": ("const float inv = 1.0f / s;", "const float inv = 100.0f / s;")},
        {"task": "level1/1_Square_matrix_multiplication_", "function": "matmul_forward",
         "knobs": CUDA_TILES + [CUDA_UNROLL],
         "wrong": ("C[row * N + col] = acc[r];", "C[row * N + col] = 2.0f * acc[r];")},
        {"task": "level2/12_Gemm_Multiply_LeakyReLU", "function": "gemm_mul_lrelu_forward",
         "knobs": CUDA_TILES + [("#pragma unroll\n", ["#pragma unroll 2\n"]), (', "-lineinfo"]', [']'])],
         "wrong": ("const float v = (acc + bias) * mul;", "const float v = (acc + bias + 1.0f) * mul;")},
    ],
}


def one_line(text):
    """text with its line breaks and runs of blanks as single spaces."""
    return " ".join(text.split())


def substitute(code, old, new, what):
    """code with old replaced by new everywhere; fails unless that changes it."""
    changed = code.replace(old, new)
    if old not in code or changed == code:
        sys.exit(f"make-rl-batch: error: {what}: '{one_line(old)}' is not in the bundled solution")
    return changed


def honest_variants(spec, code, count):
    """count (code, changes, kind) variants of the bundled code, all distinct."""
    knobs = spec["knobs"]
    variants, seen = [], {code}
    for choice in itertools.product(*[range(len(alts) + 1) for _, alts in knobs]):
        if len(variants) == count:
            return variants
        if not any(choice):
            continue
        text, changes = code, []
        for (old, alts), pick in zip(knobs, choice):
            if pick:
                text = substitute(text, old, alts[pick - 1], spec["task"])
                changes.append(f"{one_line(old)} -> {one_line(alts[pick - 1])}")
        if text not in seen:
            seen.add(text)
            variants.append((text, changes, "variant"))
    for n in range(count - len(variants)):
        marker = f"// sample variant {n + 1}: the same kernel"
        text = substitute(code, "#include <torch/extension.h>\n",
                          f"#include <torch/extension.h>\n{marker}\n", spec["task"])
        variants.append((text, [f"added the comment line '{marker}'"], "padded"))
    padded = count - sum(kind == "variant" for _, _, kind in variants)
    if padded:
        print(f"make-rl-batch: {spec['task']}: {padded} sample(s) differ only by a comment line "
              "(no more knob combinations)", file=sys.stderr)
    return variants


def failing_samples(spec, code):
    """The wrong answer and the build error of a task."""
    old, new = spec["wrong"]
    wrong = substitute(code, old, new, spec["task"])
    name = spec["function"]
    unbuilt = substitute(code, f'functions=["{name}"]', f'functions=["{name}_undeclared"]', spec["task"])
    return [(wrong, [f"{one_line(old)} -> {one_line(new)}"], "wrong-answer"),
            (unbuilt, [f"functions=['{name}'] -> ['{name}_undeclared']"], "build-error")]


def kernelbench_name(task_id, sample):
    """level1/19_ReLU, 3 -> level1/level_1_problem_19_sample_3_kernel.py"""
    level, name = task_id.split("/")
    return f"{level}/level_{level[len('level'):]}_problem_{name.split('_')[0]}_sample_{sample}_kernel.py"


def write_file(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as out:
        out.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", choices=sorted(TASKS), required=True)
    parser.add_argument("--tasks-per-batch", type=int, default=4)
    parser.add_argument("--per-task", type=int, default=16)
    parser.add_argument("--out", required=True)
    parser.add_argument("--share", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                        "..", "share", "kevin"))
    args = parser.parse_args()
    specs = TASKS[args.device]
    if not 1 <= args.tasks_per_batch <= len(specs):
        parser.error(f"--tasks-per-batch: 1 to {len(specs)}")
    if args.per_task < 3:
        parser.error("--per-task: at least 3 (the bundled solution, a wrong answer, a build error)")
    for sub in ("solutions", "baseline-tasks"):
        shutil.rmtree(os.path.join(args.out, sub), ignore_errors=True)
    records, expected = [], []
    for spec in specs[:args.tasks_per_batch]:
        task_id = spec["task"]
        with open(os.path.join(args.share, "solutions", args.device, task_id + ".py")) as f:
            code = f.read()
        with open(os.path.join(args.share, "tasks", task_id + ".py")) as f:
            task_text = f.read()
        samples = ([(code, [], "bundled")] + honest_variants(spec, code, args.per_task - 3)
                   + failing_samples(spec, code))
        for sample, (text, changes, kind) in enumerate(samples):
            name = kernelbench_name(task_id, sample)
            write_file(os.path.join(args.out, "solutions", name), text)
            write_file(os.path.join(args.out, "baseline-tasks", name), task_text)
            record_id = f"{task_id}#{sample}"
            records.append({"id": record_id, "task_id": task_id, "code": text})
            expected.append({"id": record_id, "task_id": task_id, "sample": sample, "file": name,
                             "kind": kind, "correct": kind not in ("wrong-answer", "build-error"),
                             "changes": changes})
    with open(os.path.join(args.out, "batch.jsonl"), "w") as out:
        out.writelines(json.dumps(r) + "\n" for r in records)
    with open(os.path.join(args.out, "expected.json"), "w") as out:
        json.dump({"device": args.device, "tasks": [s["task"] for s in specs[:args.tasks_per_batch]],
                   "candidates": expected}, out, indent=1)
    print(f"make-rl-batch: {len(records)} candidates ({args.tasks_per_batch} tasks x {args.per_task}) "
          f"in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
