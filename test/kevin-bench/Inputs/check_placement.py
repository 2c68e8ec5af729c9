#===-- check_placement.py - where a kevin-bench record's rounds lay ------===#
#
# Reads one kevin-bench record on stdin; for each side prints how many
# rounds have a placement, whether the L2 flush and the first output lay
# elsewhere in every round than in the round before ("moved"), never
# ("stayed"), or only at times ("partly"; a flush at address 0, the CPU's,
# is "none"), whether some round's output lay where an earlier round's flush
# had been ("output on an old flush"), and whether every round has the
# device's SM clock ("device read") or none has a device state ("device
# none").
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


def device(states):
    if all(s is None for s in states):
        return "none"
    return "read" if all(s and s.get("sm_mhz", 0) > 0 for s in states) else "partly read"


for side in ("reference", "candidate"):
    placements = bench[side]["rounds_placement"]
    states = bench[side]["rounds_device"]
    assert len(placements) == len(states) == len(bench[side]["rounds_ms"]), bench[side]
    on_old_flush = any(p["output"] in {q["flush"] for q in placements[:i]} - {0}
                       for i, p in enumerate(placements))
    print("%s: %d placements, flush %s, output %s%s, device %s" % (
        side, len(placements), moves([p["flush"] for p in placements]),
        moves([p["output"] for p in placements]), " on an old flush" if on_old_flush else "",
        device(states)))
