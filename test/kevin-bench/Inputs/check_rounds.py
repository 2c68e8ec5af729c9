#===-- check_rounds.py - the rounds of a kevin-bench record -------------===#
#
# Reads one kevin-bench record on stdin; for each side prints how many round
# medians it has and whether the median kept is the lowest of them. Exits 1
# when the count is not the expected one (argv[1]).
#===----------------------------------------------------------------------===#
import json
import sys

bench = json.loads(sys.stdin.readline())["bench"]
assert bench["ok"], bench["message"]
for side in ("reference", "candidate"):
    rounds = bench[side]["rounds_ms"]
    fastest = bench[side]["median_ms"] == min(rounds)
    print("%s: %d rounds, median is %s" % (side, len(rounds), "the fastest" if fastest else "NOT the fastest"))
    if len(rounds) != int(sys.argv[1]):
        sys.exit(1)
