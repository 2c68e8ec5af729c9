#===-- check_placement.py - where a kevin-bench record's rounds lay ------===#
#
# Reads one kevin-bench record on stdin; for each side prints how many
# rounds have a placement, and whether the L2 flush and the first output
# lay elsewhere in every round than in the round before ("moved"), never
# ("stayed"), or only at times ("partly"); a flush at address 0 (the CPU's)
# is "none".
#===----------------------------------------------------------------------===#
import json
import sys

bench = json.loads(sys.stdin.readline())["bench"]
assert bench["ok"], bench["message"]


def moves(addresses):
    if not any(addresses):
        return "none"
    changed = [a != b for a, b in zip(addresses, addresses[1:])]
    return "moved" if all(changed) else "stayed" if not any(changed) else "partly"


for side in ("reference", "candidate"):
    placements = bench[side]["rounds_placement"]
    assert len(placements) == len(bench[side]["rounds_ms"]), bench[side]
    print("%s: %d placements, flush %s, output %s" % (
        side, len(placements), moves([p["flush"] for p in placements]),
        moves([p["output"] for p in placements])))
