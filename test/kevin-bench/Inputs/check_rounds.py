#===-- check_rounds.py - the rounds of a kevin-bench record -------------===#
#
# Reads one kevin-bench record on stdin; for each side prints how many round
# medians it has and whether the median kept is the lowest of them (or with
# argv[2] = median, the middle one). Exits 1 when the count is not the
# expected one (argv[1]).
#===----------------------------------------------------------------------===#
import json
import sys

bench = json.loads(sys.stdin.readline())["bench"]
assert bench["ok"], bench["message"]
rule = sys.argv[2] if len(sys.argv) > 2 else "fastest"
for side in ("reference", "candidate"):
    rounds = bench[side]["rounds_ms"]
    want = min(rounds) if rule == "fastest" else sorted(rounds)[(len(rounds) - 1) // 2]
    print("%s: %d rounds, median is %s" % (side, len(rounds), ("the " if bench[side]["median_ms"] == want
                                                               else "NOT the ") + rule))
    if len(rounds) != int(sys.argv[1]):
        sys.exit(1)
