#===-- limit_candidates.py - candidates over kevin's limits ----------------===#
#
# Writes, from the clean candidate good.py (argv[2]), a candidate that is over
# one of kevin's limits (kevin/Task/CandidateLimits.h) and otherwise clean:
#   size N       good.py padded with comments to N bytes
#   nodes N      good.py and a list literal of N zeros (N + 3 more nodes)
#   depth N      good.py and an expression of N unary minuses
#   slow         cpp_sources whose `#if` expands to 2**40 tokens: a check
#                that never ends
#   hungry N     cpp_sources that concatenate 2**N copies of a 64 KiB string
#                literal: the parse asks for 2**N * 64 KiB at once
# Usage: limit_candidates.py KIND GOOD.py [N] > candidate.py
#
#===------------------------------------------------------------------------===#
import sys


def bomb(lines):
    """good.py with lines put in front of its cpp_sources' declaration."""
    return GOOD.replace('cpp_src = "torch::Tensor relu_forward(torch::Tensor x);"',
                        'cpp_src = r"""\n' + "\n".join(lines) +
                        '\ntorch::Tensor relu_forward(torch::Tensor x);\n"""')


def size(n):
    padding = n - len(GOOD.encode())
    line = "# " + "x" * 97 + "\n"
    return GOOD + line * (padding // len(line)) + "#" * (padding % len(line))


def nodes(n):
    return GOOD + "ZEROS = [" + "0," * n + "]\n"


def depth(n):
    return GOOD + "DEEP = " + "-" * n + "1\n"


def slow():
    macros = ["#define A0 1"] + ["#define A%d (A%d + A%d)" % (i, i - 1, i - 1)
                                 for i in range(1, 41)]
    return bomb(macros + ["#if A40 > 0", "#endif"])


def hungry(n):
    macros = ['#define S0 "' + "x" * 65536 + '"'] + [
        "#define S%d S%d S%d" % (i, i - 1, i - 1) for i in range(1, n + 1)]
    return bomb(macros + ["const char *kevin_hungry = S%d;" % n])


KIND = sys.argv[1]
GOOD = open(sys.argv[2]).read()
ARGS = [int(a) for a in sys.argv[3:]]
sys.stdout.write({"size": size, "nodes": nodes, "depth": depth, "slow": slow,
                  "hungry": hungry}[KIND](*ARGS))
