#!/usr/bin/env python3
#===-- make-budget-replay.py - recorded responses for the budget grid ---===#
#
# Writes share/kevin/replay/budget.jsonl: recorded responses for two CPU tasks
# (level1/19_ReLU, level1/20_LeakyReLU) at every (trajectory, turn) the
# default budget grid asks for: slots 0-127 at turn 1 (128 x 1), 0-31 at
# turns 2-4 (32 x 4, and beam k=4 b=8), 0-15 at turns 5-8 (16 x 8). Slot j
# fails in a way of its own until its fix turn (1 to 4, from a hash of j),
# then answers correctly, with a faster-written kernel on later turns, so
# refinement pays off as in the Kevin paper. Every failing answer fails for
# real (the missing semicolon is a kevin-check parse finding before g++ would
# reject it, the wrong answer is a mismatch, the PyTorch fallback is a check
# finding, the prose answer has no code); every correct one is correct.
# Deterministic: rerunning writes the same file.
#
# Usage: experiments/make-budget-replay.py [OUT]
#
#===----------------------------------------------------------------------===#
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "share", "kevin", "replay", "budget.jsonl")

HEADER = ("import torch\nimport torch.nn as nn\n"
          "from torch.utils.cpp_extension import load_inline\n\n")

# Per task: the C++ loop bodies of the correct variants (slowest first), the
# wrong one, the one that does not compile, the ModelNew glue, and a PyTorch
# fallback for forward that kevin-check rejects.
TASKS = {
    "level1/19_ReLU": {
        "function": "relu_forward", "signature": "torch::Tensor x",
        "init": "", "args": "x",
        "correct": [
            ("a branchy loop", "o[i] = in[i] > 0.0f ? in[i] : 0.0f;"),
            ("a branch-free max", "o[i] = std::max(in[i], 0.0f);"),
            ("a 4-way unrolled branch-free loop", None),
        ],
        "wrong": ("clamps at zero from the wrong side", "o[i] = std::min(in[i], 0.0f);"),
        "broken": ("a branch-free max", "o[i] = std::max(in[i], 0.0f)"),
        "fallback": "torch.relu(x)",
    },
    "level1/20_LeakyReLU": {
        "function": "leaky_relu_forward", "signature": "torch::Tensor x, double slope",
        "init": ("    def __init__(self, negative_slope: float = 0.01):\n        super().__init__()\n"
                 "        self.negative_slope = negative_slope\n\n"),
        "args": "x, self.negative_slope",
        "correct": [
            ("a branchy loop", "o[i] = in[i] >= 0.0f ? in[i] : in[i] * s;"),
            ("a branch-free max/min", "o[i] = std::max(in[i], 0.0f) + s * std::min(in[i], 0.0f);"),
            ("a 4-way unrolled branch-free loop", None),
        ],
        "wrong": ("drops the negative slope", "o[i] = std::max(in[i], 0.0f);"),
        "broken": ("a branch-free max/min", "o[i] = std::max(in[i], 0.0f) + s * std::min(in[i], 0.0f)"),
        "fallback": "torch.nn.functional.leaky_relu(x, self.negative_slope)",
    },
}


def cpp_source(task, body):
    spec = TASKS[task]
    if body is None:  # the unrolled variant of the branch-free body
        one = spec["correct"][1][1]
        body = ("int64_t i = 0;\n    for (; i + 4 <= n; i += 4) {\n"
                + "".join("        { const int64_t k = i + %d; %s }\n" % (u, one.replace("[i]", "[k]"))
                          for u in range(4))
                + "    }\n    for (; i < n; ++i) " + one)
    else:
        body = "for (int64_t i = 0; i < n; ++i) " + body
    return ("#include <torch/extension.h>\n#include <algorithm>\n\n"
            "torch::Tensor %s(%s) {\n"
            "    TORCH_CHECK(x.device().is_cpu() && x.scalar_type() == torch::kFloat, \"expected float32 on the CPU\");\n"
            "    auto xc = x.contiguous();\n    auto out = torch::empty_like(xc);\n"
            "    const float* in = xc.data_ptr<float>();\n    float* o = out.data_ptr<float>();\n"
            "    const int64_t n = xc.numel();\n%s"
            "    %s\n    return out;\n}\n") % (
                spec["function"], spec["signature"],
                "    const float s = static_cast<float>(slope);\n" if "slope" in spec["signature"] else "",
                body)


def module(task, body, forward=None):
    spec = TASKS[task]
    name = "budget_" + task.split("/")[1].lower()
    forward = forward or "ext.%s(%s)" % (spec["function"], spec["args"])
    return (HEADER + "source = r\"\"\"\n" + cpp_source(task, body) + "\"\"\"\n\n"
            "ext = load_inline(name=\"%s\", cpp_sources=source, functions=[\"%s\"], extra_cflags=[\"-O3\"])\n\n\n"
            "class ModelNew(nn.Module):\n%s    def forward(self, x):\n        return %s\n") % (
                name, spec["function"], spec["init"], forward)


def answer(thought, prose, code, summary):
    text = "<think>\n" + thought + "\n</think>\n\n" + prose
    if code is not None:
        text += "\n\n```python\n" + code + "```\n\nSummary of changes: " + summary
    return text


def unit(key):
    """A number in [0, 1) from a string, the same on every run."""
    return int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) / 2.0**32


def response(task, slot, turn):
    spec = TASKS[task]
    fix_turn = 1 + int(unit("%s fix %d" % (task, slot)) * 4)
    if turn < fix_turn:
        kind = int(unit("%s fail %d %d" % (task, slot, turn)) * 4)
        if kind == 0:
            return answer("Okay, an elementwise op: one loop over the buffer will do.",
                          "I would write one C++ loop over the flat buffer and bind it with load_inline.",
                          None, "")
        if kind == 1:
            what, body = spec["broken"]
            return answer("Okay, I will write %s." % what, "The kernel is one loop:",
                          module(task, body), "replaced the PyTorch op with %s." % what)
        if kind == 2:
            what, body = spec["wrong"]
            return answer("Okay, a single comparison per element should be enough.",
                          "A loop that %s:" % what, module(task, body), "a single-comparison loop.")
        what, body = spec["correct"][0]
        return answer("Okay, let me keep the PyTorch op in forward for safety.", "A safe version:",
                      module(task, body, spec["fallback"]), "kept the PyTorch op in forward.")
    what, body = spec["correct"][min(turn - fix_turn, len(spec["correct"]) - 1)]
    return answer("Okay, the loop must be correct first and then vectorize well; %s should do." % what,
                  "The kernel is %s over the raw float buffer:" % what, module(task, body),
                  "the forward pass is %s in C++." % what)


def slots_at(turn):
    return 128 if turn == 1 else 32 if turn <= 4 else 16


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT
    with open(out, "w") as f:
        for task in TASKS:
            for turn in range(1, 9):
                for slot in range(slots_at(turn)):
                    f.write(json.dumps({"task": task, "trajectory": slot, "turn": turn,
                                        "response": response(task, slot, turn)}) + "\n")


if __name__ == "__main__":
    main()
