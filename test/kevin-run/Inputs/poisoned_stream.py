#===-- poisoned_stream.py - a record stream with poisoned lines ----------===#
#
# make TASK: 1000 record lines for kevin-run, every 100th from the 50th on a
# poisoned one: unreadable candidate paths, lines that are not JSON (one with a
# raw 0xFF byte), responses without code, a record with no candidate. The
# others carry check.ok false. Each record's `seq` is its line number.
# count: reads kevin-run's output and prints the number of records, whether
# they kept the input order, and the count of each run.outcome.
# flagged TASK CANDIDATE: one flagged record of a real candidate.
#
#===----------------------------------------------------------------------===#
import collections
import json
import sys

def record(**fields):
    return json.dumps(fields).encode()


POISON = [
    lambda task, seq: record(seq=seq, task_path=task,
                             candidate_path="/nonexistent/%d.py" % seq),
    lambda task, seq: b'{"seq": %d, "task_path": ' % seq,
    lambda task, seq: record(seq=seq, task_path=task,
                             response="I would rather not."),
    lambda task, seq: record(seq=seq, task_path=task),
    lambda task, seq: b'{"seq": %d, "code": "x = \xff"}' % seq,
]


def make(task):
    for seq in range(1, 1001):
        if seq % 100 == 50:
            line = POISON[(seq // 100) % len(POISON)](task, seq)
        else:
            line = record(seq=seq, task_path=task,
                          candidate_path="/nonexistent/flagged.py",
                          check={"ok": False, "findings": []})
        sys.stdout.buffer.write(line + b"\n")


def count():
    outcomes = collections.Counter()
    seqs = []
    for line in sys.stdin.buffer:
        record = json.loads(line)
        seqs.append(record.get("seq", record.get("input_line")))
        outcomes[record["run"]["outcome"]] += 1
    print("records", len(seqs))
    print("in order", "yes" if seqs == list(range(1, 1001)) else seqs)
    for outcome, n in sorted(outcomes.items()):
        print(outcome, n)


def flagged(task, candidate):
    print(json.dumps({"id": "flagged", "task_path": task,
                      "candidate_path": candidate,
                      "check": {"ok": False, "findings": []}}))


if __name__ == "__main__":
    {"make": make, "count": count, "flagged": flagged}[sys.argv[1]](*sys.argv[2:])
