#===-- kill_workers.py - kevin-serve recovers from killed workers --------===#
"""Starts kevin-serve on 127.0.0.1 and, while requests are in flight, kills
(SIGKILL, by PID) a candidate's worker, the reference workers (the one made
ahead, then the sample's own) and the zygote itself, each found among the server's descendants by its working directory
or its command line. Prints each sample's outcome, what the server says
afterwards and the new zygote's nice value; stops the server with SIGTERM.

usage: kill_workers.py SHARE_DIR TASKS_DIR LOG
(TASKS_DIR holds level1/19_ReLU and a level1/21_Sigmoid whose reference is
slow enough to be caught while it computes.)
"""
import json
import os
import signal
import sys
import threading
import time
import urllib.request

from serve_support import start_server

SHARE, TASKS, LOG = sys.argv[1], sys.argv[2], sys.argv[3]


def evaluate(url, samples, stages="run"):
    body = "".join(json.dumps(s) + "\n" for s in samples).encode()
    req = urllib.request.Request(url + "/v1/evaluate?stages=" + stages,
                                 data=body, method="POST")
    with urllib.request.urlopen(req, timeout=600) as resp:
        return [json.loads(line) for line in resp.read().decode().splitlines()]


def health(url):
    with urllib.request.urlopen(url + "/healthz", timeout=60) as resp:
        return json.loads(resp.read())


def descendants(pid):
    """Every process below pid, by walking /proc's parent links."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parents[int(entry)] = parent_of(entry)
            except OSError:
                pass
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for child, its_parent in parents.items():
            if its_parent == parent:
                found.append(child)
                todo.append(child)
    return found


def find(pid, predicate, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        for child in descendants(pid):
            try:
                if predicate(child):
                    return child
            except OSError:
                pass
        time.sleep(0.05)
    return None


def stat_fields(pid):
    """/proc/PID/stat's fields after the command name (state first)."""
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()


def parent_of(pid):
    return int(stat_fields(pid)[1])


def nice(pid):
    return int(stat_fields(pid)[16])


def cwd_has(text):
    return lambda child: text in os.readlink(f"/proc/{child}/cwd")


def lingering(predicate, seconds):
    """A predicate that holds for a process that still matches after
    seconds (a candidate's run, not the quick build ahead before it)."""
    def check(child):
        if not predicate(child):
            return False
        time.sleep(seconds)
        return os.path.exists(f"/proc/{child}") and predicate(child)
    return check


def is_zygote(child):
    with open(f"/proc/{child}/cmdline", "rb") as cmd:
        args = cmd.read().split(b"\0")
    return len(args) > 1 and args[1] == b"zygote" and \
        not cwd_has("kevin-run")(child) and not cwd_has("kevin-reference")(child)


def kill_during(url, proc, samples, predicate, what, times=1):
    """Sends samples; kills the first descendant matching predicate, then
    the next new one, times in all."""
    reply = {}
    sender = threading.Thread(target=lambda: reply.update(r=evaluate(url, samples)))
    sender.start()
    killed = []
    for _ in range(times):
        victim = find(proc.pid, lambda child: child not in killed and predicate(child))
        if not victim:
            break
        os.kill(victim, signal.SIGKILL)
        killed.append(victim)
    sender.join(600)
    record = reply["r"][0]
    print(what, "killed %d of %d" % (len(killed), times), record["outcome"],
          record["reward"]["score"])


def main():
    proc, url = start_server(SHARE, LOG, ["--no-check"], tasks_dir=TASKS)
    try:
        relu = open(os.path.join(SHARE, "solutions/cpu/level1/19_ReLU.py")).read()
        sigmoid = open(os.path.join(SHARE, "solutions/cpu/level1/21_Sigmoid.py")).read()
        # A candidate whose forward sleeps: its worker is killed in its run.
        head = "    def forward(self, x: torch.Tensor) -> torch.Tensor:\n"
        sleepy = relu.replace(head, head + "        import time; time.sleep(60)\n")
        assert sleepy != relu
        good = {"id": "good", "task_id": "level1/19_ReLU", "code": relu}
        print("warm", evaluate(url, [good])[0]["outcome"])
        kill_during(url, proc, [{"id": "sleepy", "task_id": "level1/19_ReLU", "code": sleepy}],
                    lingering(cwd_has("/candidate"), 3.0), "candidate worker")
        print("after candidate", evaluate(url, [good])[0]["outcome"])
        # The first reference worker is the one the server starts ahead, as
        # the sample builds; the sample then starts its own.
        kill_during(url, proc, [{"id": "sig", "task_id": "level1/21_Sigmoid", "code": sigmoid}],
                    cwd_has("kevin-reference"), "reference worker", times=2)
        print("made ahead", health(url)["reference_cache"]["made_ahead"],
              "failed", health(url)["reference_cache"]["ahead_failed"])
        print("after reference", evaluate(url, [dict(good, task_id="level1/21_Sigmoid", code=sigmoid)])[0]["outcome"])
        zygote = find(proc.pid, is_zygote)
        os.kill(zygote, signal.SIGKILL)
        print("after zygote", evaluate(url, [good])[0]["outcome"],
              health(url)["workers_alive"]["zygote_restarts"])
        # The zygote forks the timing workers: its replacement runs at the
        # server's nice value, not at a niced request thread's.
        # (the server's own child: a worker it forks starts as its copy)
        replacement = find(proc.pid, lambda child: child != zygote and
                           parent_of(child) == proc.pid and is_zygote(child))
        print("new zygote nice above the server's:",
              nice(replacement) - nice(proc.pid) if replacement else "no new zygote")
    finally:
        proc.send_signal(signal.SIGTERM)
        print("exit", proc.wait(300))


main()
