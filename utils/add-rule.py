#!/usr/bin/env python3
"""Scaffold a kevin-check rule.

Usage: add-rule.py NAME --kind python|cuda --catalog KEVIN-PY-0NN
                   --summary TEXT [--id kevin-py-...] [--hint TEXT]
                   [--cpu error|warning|off] [--kevin error|warning|off]
                   [--root DIR] [--dry-run]

NAME is the rule's CamelCase name (GlobalSeed). The script writes

  lib/Check/{Py,Cu}NAMERule.cpp   the rule class and its factory, with an
                                  example check to replace
  test/kevin-check/ID.test        a lit test: a candidate the example check
                                  rejects and a clean one
  docs/rules/ID.md                the rule's page

and edits lib/Check/Rules.def (the rule's row: id, factory, catalog entry,
summary, hint, its setting in the cpu, kevin and strict presets; strict is
an error for every rule), lib/Check/CMakeLists.txt (the source) and
docs/rules/README.md (the index row). It prints every path it writes;
--dry-run prints them and the row without writing. --root is the source
tree to edit (default: the one holding this script).
See docs/rules/AddingARule.md.
"""
import argparse
import os
import re
import sys
import textwrap

KINDS = {
    "python": {"prefix": "Py", "id": "kevin-py-", "catalog": "KEVIN-PY-",
               "macro": "PYTHON_RULE", "def_kind": "Python"},
    "cuda": {"prefix": "Cu", "id": "kevin-cu-", "catalog": "KEVIN-CU-",
             "macro": "CUDA_RULE", "def_kind": "Cuda"},
}
SETTINGS = {"error": "Error", "warning": "Warning", "off": "Off"}
ROW_START = re.compile(r"^(PYTHON_RULE|CUDA_RULE|CHECKER_RULE)\((.*)$")


class ScaffoldError(Exception):
    pass


class Rule:
    """Everything the scaffold derives from the command line."""

    def __init__(self, args):
        kind = KINDS[args.kind]
        if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", args.name):
            raise ScaffoldError("NAME must be CamelCase, like GlobalSeed")
        self.kind = args.kind
        self.name = args.name
        self.id = args.id or kind["id"] + re.sub(
            r"(?<!^)(?=[A-Z])", "-", args.name).lower()
        if not re.fullmatch(re.escape(kind["id"]) + r"[a-z0-9]+(-[a-z0-9]+)*",
                            self.id):
            raise ScaffoldError(f"a {args.kind} rule id looks like "
                                f"{kind['id']}some-name, not '{self.id}'")
        if not re.fullmatch(re.escape(kind["catalog"]) + r"\d{3}", args.catalog):
            raise ScaffoldError(f"a {args.kind} rule implements a catalog entry "
                                f"{kind['catalog']}NNN, not '{args.catalog}'")
        self.catalog = args.catalog
        self.summary = args.summary
        self.hint = args.hint
        self.settings = [SETTINGS[args.cpu], SETTINGS[args.kevin], "Error"]
        self.stem = kind["prefix"] + args.name + "Rule"
        self.class_name = args.name + "Rule"
        self.factory = "create" + self.stem
        self.macro = kind["macro"]
        self.def_kind = kind["def_kind"]

    def paths(self):
        return {
            "source": f"lib/Check/{self.stem}.cpp",
            "test": f"test/kevin-check/{self.id}.test",
            "doc": f"docs/rules/{self.id}.md",
        }


def cpp_literals(text, indent, width=80):
    """Text as adjacent C++ string literals, one per line, within width."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    words = escaped.split(" ")
    lines, current = [], ""
    for i, word in enumerate(words):
        piece = word + (" " if i + 1 < len(words) else "")
        if current and len(indent) + len(current + piece) + 3 > width:
            lines.append(current)
            current = piece
        else:
            current += piece
    lines.append(current)
    return [f'{indent}"{line}"' for line in lines]


def banner(file_name, description):
    """An LLVM file banner padded with dashes to 80 columns."""
    head = f"//===-- {file_name} - {description} "
    return head + "-" * max(3, 80 - len(head) - len("===//")) + "===//"


def def_row(rule):
    indent = "    "
    hint = cpp_literals(rule.hint, indent) if rule.hint else [indent + '""']
    lines = [f'{rule.macro}("{rule.id}", {rule.factory},',
             f'{indent}"{rule.catalog}",']
    lines += cpp_literals(rule.summary, indent)
    lines[-1] += ","
    lines += hint
    lines[-1] += ","
    cpu, kevin, strict = rule.settings
    lines.append(f"{indent}/*Cpu=*/{cpu}, /*Kevin=*/{kevin}, /*Strict=*/{strict})")
    return "\n".join(lines) + "\n"


def row_spans(lines):
    """(first, last, kind, id) of each row of Rules.def; kind is Python/Cuda."""
    spans = []
    i = 0
    while i < len(lines):
        match = ROW_START.match(lines[i])
        if not match:
            i += 1
            continue
        first, depth, in_string = i, 0, False
        while True:
            line = lines[i]
            j = 0
            while j < len(line):
                c = line[j]
                if in_string:
                    if c == "\\":
                        j += 1
                    elif c == '"':
                        in_string = False
                elif c == '"':
                    in_string = True
                elif line.startswith("/*", j):
                    j = line.index("*/", j) + 1
                elif c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                j += 1
            if depth == 0:
                break
            i += 1
        args = [a.strip() for a in match.group(2).split(",")]
        macro = match.group(1)
        kind = {"PYTHON_RULE": "Python", "CUDA_RULE": "Cuda"}.get(macro, args[1])
        spans.append((first, i, kind, args[0].strip('"')))
        i += 1
    return spans


def add_def_row(text, rule):
    lines = text.splitlines(keepends=True)
    spans = row_spans(lines)
    if not spans:
        raise ScaffoldError("lib/Check/Rules.def has no rows")
    for _, _, _, rule_id in spans:
        if rule_id == rule.id:
            raise ScaffoldError(f"{rule.id} is already a row of Rules.def")
    if re.search(r"\b" + rule.factory + r"\b", text):
        raise ScaffoldError(f"{rule.factory} is already in Rules.def")
    same_kind = [s for s in spans if s[2] == rule.def_kind]
    last = (same_kind or spans)[-1][1]
    return "".join(lines[:last + 1] + ["\n", def_row(rule)] + lines[last + 1:])


def add_cmake_source(text, rule):
    lines = text.splitlines(keepends=True)
    prefix = rule.stem[:2]
    sources = [i for i, line in enumerate(lines)
               if re.fullmatch(r"  " + prefix + r"[A-Z]\w*Rule\.cpp\n", line)]
    if not sources:
        raise ScaffoldError(f"lib/Check/CMakeLists.txt lists no {prefix}*Rule.cpp")
    entry = f"  {rule.stem}.cpp\n"
    if entry in lines:
        raise ScaffoldError(f"{rule.stem}.cpp is already in lib/Check/CMakeLists.txt")
    later = [i for i in sources if lines[i] > entry]
    at = later[0] if later else sources[-1] + 1
    return "".join(lines[:at] + [entry] + lines[at:])


def add_index_row(text, rule):
    lines = text.splitlines(keepends=True)
    prefix = KINDS[rule.kind]["id"]
    rows = [i for i, line in enumerate(lines)
            if line.startswith("| [" + prefix)]
    if not rows:
        raise ScaffoldError(f"docs/rules/README.md has no {prefix}* rows")
    row = f"| [{rule.id}]({rule.id}.md) | {rule.catalog} |\n"
    return "".join(lines[:rows[-1] + 1] + [row] + lines[rows[-1] + 1:])


def rule_source(rule):
    purpose = textwrap.wrap(
        f"{rule.id}: {rule.summary} (docs/rules/{rule.id}.md).", width=77)
    header = ([banner(f"{rule.stem}.cpp", f"{rule.id} ({rule.catalog})"), "//"]
              + ["// " + line for line in purpose]
              + ["//", "//===" + "-" * 70 + "===//"])
    if rule.kind == "python":
        body = PYTHON_SOURCE
    else:
        body = CUDA_SOURCE
    return "\n".join(header) + "\n" + body.format(
        id=rule.id, cls=rule.class_name, factory=rule.factory)


PYTHON_SOURCE = """\
#include "PythonRules.h"

namespace kevin {{
namespace {{

class {cls} : public PythonRule {{
public:
  const char *id() const override {{ return "{id}"; }}
  void check(PyRuleContext &Ctx) const override {{
    // The scaffold's example check (every assert statement): replace it with
    // the rule's own, and the test's cases with the hacks it targets.
    walkNodes(Ctx.M.root(), [&](const PyNode &N) {{
      if (isNode(N, "Assert"))
        Ctx.Sink.report(id(), Ctx.M.locate(N), "assert statement");
      return true;
    }});
  }}
}};

}} // namespace

std::unique_ptr<PythonRule> {factory}() {{
  return std::make_unique<{cls}>();
}}

}} // namespace kevin
"""

CUDA_SOURCE = """\
#include "CudaRules.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace kevin {{
namespace {{

class Visitor : public clang::RecursiveASTVisitor<Visitor> {{
public:
  explicit Visitor(CudaRuleContext &Ctx) : Ctx(Ctx) {{}}
  // The scaffold's example check (every goto in the candidate's sources):
  // replace it with the rule's own, and the test's cases with the hacks it
  // targets.
  bool VisitGotoStmt(clang::GotoStmt *S) {{
    if (Ctx.isUserCode(S->getGotoLoc()))
      Ctx.report("{id}", S->getGotoLoc(), "goto statement");
    return true;
  }}

private:
  CudaRuleContext &Ctx;
}};

class {cls} : public CudaRule {{
public:
  const char *id() const override {{ return "{id}"; }}
  void check(CudaRuleContext &Ctx) override {{
    Visitor(Ctx).TraverseAST(Ctx.AST);
  }}
}};

}} // namespace

std::unique_ptr<CudaRule> {factory}() {{
  return std::make_unique<{cls}>();
}}

}} // namespace kevin
"""

# A clean candidate, like test/kevin-check/Inputs/good.py: a CUDA ReLU.
CLEAN_CANDIDATE = '''\
"""A clean candidate: a CUDA ReLU built with load_inline."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <ATen/cuda/CUDAContext.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.f ? x[i] : 0.f;
}

torch::Tensor relu_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int n = xc.numel();
    relu_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

cpp_src = "torch::Tensor relu_forward(torch::Tensor x);"

relu_ext = load_inline(
    name="relu_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["relu_forward"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return relu_ext.relu_forward(x)
'''

# What the example checks reject, inserted before a line of the candidate.
EXAMPLE_HACKS = {
    "python": ("        return relu_ext.relu_forward(x)\n",
               "        assert x.is_cuda\n", "assert", "assert statement"),
    "cuda": ("    return y;\n", "    goto done;\ndone:\n", "goto",
             "goto statement"),
}


def rule_test(rule):
    anchor, hack, keyword, message = EXAMPLE_HACKS[rule.kind]
    bad = CLEAN_CANDIDATE.replace(anchor, hack + anchor, 1)
    purpose = textwrap.wrap(
        f"{rule.id}: {rule.summary}. The scaffold's test of its example "
        "check: replace bad.py with the hacks the rule targets and good.py "
        "with the look-alikes it allows.", width=77)
    header = ["## " + line for line in purpose] + [
        "# RUN: rm -rf %t && split-file --leading-lines %s %t",
        "# RUN: not kevin-check --parser=lean %t/bad.py | FileCheck %s "
        "--check-prefix=BAD --implicit-check-not=error: "
        "--implicit-check-not=warning:",
        "# RUN: kevin-check --parser=lean %t/good.py | count 0",
        None,  # the BAD line, once the position is known
        "",
        "#--- bad.py",
    ]
    first_bad_line = len(header) + 1
    offset = bad.index(hack) + hack.index(keyword)
    line = first_bad_line + bad.count("\n", 0, offset)
    column = offset - bad.rfind("\n", 0, offset)
    header[header.index(None)] = (
        f"# BAD: bad.py:{line}:{column}: error: {message} [{rule.id}]")
    return "\n".join(header) + "\n" + bad + "#--- good.py\n" + CLEAN_CANDIDATE


def rule_doc(rule):
    anchor, hack, _, _ = EXAMPLE_HACKS[rule.kind]
    language = "python" if rule.kind == "python" else "cpp"
    summary = rule.summary[:1].upper() + rule.summary[1:]
    parts = [
        f"# {rule.id}\n",
        f"Catalog: **{rule.catalog}**. Presets: see "
        "`kevin-check --list-rules` (`strict` enables every rule as an error).\n",
        "## Hacks it targets\n",
        "The reward hacks this rule rejects, each with a short example.\n",
        "## What it rejects\n",
        f"{summary}.\n",
        "## What it allows (false positives it avoids)\n",
        "The look-alikes the rule leaves alone (FP-numbers).\n",
        "## Example\n",
        f"```{language}\n{textwrap.dedent(hack + anchor)}```\n",
    ]
    if rule.hint:
        parts += ["## Fix hint\n", f"`{rule.hint}`\n"]
    parts += ["## Test\n", f"`test/kevin-check/{rule.id}.test`"]
    return "\n".join(parts) + "\n"


def plan(rule, root):
    """The files to write: {relative path: new text}."""
    def read(path):
        try:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                return f.read()
        except OSError as e:
            raise ScaffoldError(f"cannot read {path}: {e.strerror}")

    paths = rule.paths()
    for path in paths.values():
        if os.path.exists(os.path.join(root, path)):
            raise ScaffoldError(f"{path} already exists")
    return {
        "lib/Check/Rules.def": add_def_row(read("lib/Check/Rules.def"), rule),
        "lib/Check/CMakeLists.txt":
            add_cmake_source(read("lib/Check/CMakeLists.txt"), rule),
        "docs/rules/README.md": add_index_row(read("docs/rules/README.md"), rule),
        paths["source"]: rule_source(rule),
        paths["test"]: rule_test(rule),
        paths["doc"]: rule_doc(rule),
    }


def main(argv):
    parser = argparse.ArgumentParser(
        description="Scaffold a kevin-check rule (docs/rules/AddingARule.md).")
    parser.add_argument("name", help="the rule's CamelCase name (GlobalSeed)")
    parser.add_argument("--kind", required=True, choices=sorted(KINDS))
    parser.add_argument("--catalog", required=True,
                        help="the catalog id (KEVIN-PY-017)")
    parser.add_argument("--summary", required=True,
                        help="what the rule rejects, lowercase, one line")
    parser.add_argument("--id", help="the rule id (default: from NAME)")
    parser.add_argument("--hint", default="", help="a one-line fix hint")
    parser.add_argument("--cpu", default="error", choices=sorted(SETTINGS),
                        help="setting in the cpu preset (default: error)")
    parser.add_argument("--kevin", default="off", choices=sorted(SETTINGS),
                        help="setting in the kevin preset (default: off)")
    parser.add_argument("--root", default=os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))),
        help="the source tree (default: this script's)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print what would be written, write nothing")
    args = parser.parse_args(argv)
    try:
        rule = Rule(args)
        files = plan(rule, args.root)
    except ScaffoldError as e:
        print(f"add-rule.py: error: {e}", file=sys.stderr)
        return 1
    for path, text in files.items():
        print(("would write " if args.dry_run else "wrote ") + path)
        if not args.dry_run:
            with open(os.path.join(args.root, path), "w", encoding="utf-8") as f:
                f.write(text)
    if args.dry_run:
        print("Rules.def row:\n" + def_row(rule), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
