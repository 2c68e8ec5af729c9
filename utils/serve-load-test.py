#!/usr/bin/env python3
#===-- serve-load-test.py - kevin-serve under concurrent clients -----------===#
"""The reliability load test of kevin-serve.

Starts `kevin-serve --tasks SHARE/tasks --device cpu --host 127.0.0.1
--port 0` (its PID recorded), then --clients threads send --requests POST
/v1/evaluate requests in all (urllib only), each of 1-3 samples, a fixed
pseudo-random mix (--seed):
  good       bundled CPU solutions of three elementwise tasks (the same three
             files throughout, so their builds hit the cache);
  hack       the ReLU solution whose forward returns torch.relu(x) (kevin-check
             flags it: reward 0);
  no-code    a response without a python block;
  unknown    a task id that does not exist;
  build      the ReLU solution with `functions=["relu_forward_undeclared"]`,
             sent in `stages=run` requests (every 10th), so the builder, not
             kevin-check's slower full parse, rejects it;
  malformed  a request whose second line is broken JSON (every 20th): 400.
Most requests ask for `stages=check,run` (no timing); every 25th for the
default stages (with bench).

Violations (each printed; exit status 1 if any): a sample lost, duplicated,
out of order or with another id; an answer other than 200 (400 for the
malformed ones), 5xx included; a malformed request not answered 400 with
the line and column; an outcome other than the kind's (no-code, unknown-task);
a reward that differs from `kevin eval` run afterwards on the same distinct
candidates (run.correct, whether reward.score > 0, the outcome; timings vary,
so speedups are not compared); the server not answering /healthz after the
load; an exit status other than 0 after SIGTERM to its PID. The RSS of the
server and its descendants (VmRSS in /proc) is printed before and after.

usage: serve-load-test.py [--bin build/bin] [--share share/kevin]
                          [--requests 200] [--clients 8] [--seed 22]
                          [--work DIR]
"""
import argparse
import collections
import concurrent.futures
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELU = "level1/19_ReLU"
GOOD_TASKS = [RELU, "level1/21_Sigmoid", "level1/22_Tanh"]
UNKNOWN_TASK = "level1/999_NoSuchTask"
MALFORMED_EVERY, BUILD_EVERY, BENCH_EVERY = 20, 10, 25


def candidate_pool(share):
    """The distinct samples by name: (record without id, the kind's fixed outcome or None)."""
    def solution(task):
        with open(os.path.join(share, "solutions", "cpu", task + ".py")) as handle:
            return handle.read()
    relu = solution(RELU)
    hack = relu.replace("return relu_ext.relu_forward(x)", "relu_ext.relu_forward(x)\n        return torch.relu(x)")
    unbuilt = relu.replace('functions=["relu_forward"]', 'functions=["relu_forward_undeclared"]')
    assert hack != relu and unbuilt != relu
    pool = {"good:" + task: ({"task_id": task, "code": solution(task)}, None) for task in GOOD_TASKS}
    pool["hack"] = ({"task_id": RELU, "code": hack}, None)
    pool["build"] = ({"task_id": RELU, "code": unbuilt}, None)
    pool["no-code"] = ({"task_id": RELU, "response": "I would write a kernel, but I ran out of time."}, "no-code")
    pool["unknown"] = ({"task_id": UNKNOWN_TASK, "code": relu}, "unknown-task")
    return pool


def plan_requests(count, seed):
    """Per request: (index, stages or None for the default, [candidate names], malformed)."""
    rng = random.Random(seed)
    goods = ["good:" + task for task in GOOD_TASKS]
    mixed = goods * 3 + ["hack", "hack", "no-code", "no-code", "unknown", "unknown"]
    plans = []
    for index in range(count):
        if index % MALFORMED_EVERY == 3:
            plans.append((index, "check,run", [rng.choice(goods)], True))
        elif index % BUILD_EVERY == 1:
            plans.append((index, "run", ["build"] + rng.sample(goods, rng.randint(0, 2)), False))
        elif index % BENCH_EVERY == 2:
            plans.append((index, None, rng.sample(goods, rng.randint(1, 2)), False))
        else:
            plans.append((index, "check,run", [rng.choice(mixed) for _ in range(rng.randint(1, 3))], False))
    return plans


def http(url, body=None, timeout=900):
    """(status, content type, body text); HTTP errors are answers too."""
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/x-ndjson"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return reply.status, reply.headers.get("Content-Type", ""), reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read().decode()


def send(url, pool, plan):
    """Sends one planned request; returns (plan, sent ids, status, content type, text)."""
    index, stages, names, malformed = plan
    ids = [f"r{index}s{n}" for n in range(len(names))]
    lines = [json.dumps(dict(pool[name][0], id=sample_id)) for name, sample_id in zip(names, ids)]
    if malformed:
        lines.append('{"id": "broken", "task_id": oops}')
    query = "" if stages is None else "?stages=" + stages
    try:
        status, kind, text = http(url + "/v1/evaluate" + query, ("\n".join(lines) + "\n").encode())
    except OSError as error:  # no answer at all
        status, kind, text = None, "", repr(error)
    return plan, ids, status, kind, text


def check_reply(reply, seen, violations):
    """Checks one request's answer; returns [(candidate name, stages, record)] of its samples."""
    (index, stages, names, malformed), ids, status, kind, text = reply
    if malformed:
        if status != 400 or "request body:2:" not in text:
            violations.append(f"request {index} (malformed): {status} {text[:200]!r}, expected 400 at line 2")
        return []
    if status != 200 or "application/x-ndjson" not in kind:
        violations.append(f"request {index}: {status} {kind} {text[:300]!r}")
        return []
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    got = [r.get("id") for r in records]
    if got != ids:
        violations.append(f"request {index}: sent ids {ids}, got {got}")
    for sample_id in got:
        seen[sample_id] += 1
    return [(name, stages, record) for name, record in zip(names, records)]


def tree_rss_kib(pid):
    """VmRSS of pid and all its descendants, KiB."""
    children = collections.defaultdict(list)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    children[int(stat.read().rsplit(")", 1)[1].split()[1])].append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        todo.extend(children.get(current, []))
        try:
            with open(f"/proc/{current}/status") as status:
                total += sum(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        except OSError:
            pass
    return total


def start_server(args, log_path):
    """Starts kevin-serve; returns (process, base URL)."""
    command = [os.path.join(args.bin, "kevin-serve"), "--tasks", os.path.join(args.share, "tasks"),
               "--device", "cpu", "--host", "127.0.0.1", "--port", "0"]
    log = open(log_path, "w")
    server = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and server.poll() is None:
        with open(log_path) as handle:
            for line in handle:
                if line.startswith("kevin-serve: listening on "):
                    return server, line.split()[-1]
        time.sleep(0.1)
    server.kill()
    sys.exit(f"serve-load-test: error: kevin-serve did not listen (see {log_path})")


def eval_outcome(record):
    """The first failing stage's outcome of a kevin eval record (as kevin-serve reports it)."""
    if "outcome" in record:
        return record["outcome"]
    sections = {name: record.get(name) or {} for name in ("check", "build", "run", "bench")}
    if sections["check"].get("ok") is False:
        return "check-failed"
    if sections["build"].get("ok") is False:
        return sections["build"].get("outcome")
    if sections["run"].get("correct") is False:
        return sections["run"].get("outcome")
    if sections["bench"].get("ok") is False:
        return "bench-" + str(sections["bench"].get("outcome"))
    return "ok"


def verdict(record, outcome):
    score = record.get("reward", {}).get("score")
    return (bool(record.get("run", {}).get("correct")), isinstance(score, (int, float)) and score > 0, outcome)


def kevin_eval_verdicts(args, pool, names, extra, work, tag):
    """kevin eval on the named distinct candidates: {name: verdict}."""
    solutions = os.path.join(work, tag + ".in.jsonl")
    with open(solutions, "w") as out:
        for name in names:
            out.write(json.dumps(dict(pool[name][0], id=name)) + "\n")
    results = os.path.join(work, tag + ".jsonl")
    command = [os.path.join(args.bin, "kevin"), "eval", "--tasks", os.path.join(args.share, "tasks"),
               "--solutions", solutions, "--device", "cpu", "--no-bench", "--no-report", "-o", results] + extra
    with open(os.path.join(work, tag + ".log"), "w") as log:
        if subprocess.run(command, stdout=log, stderr=log).returncode != 0:
            sys.exit(f"serve-load-test: error: kevin eval failed (see {work}/{tag}.log)")
    records = [json.loads(line) for line in open(results) if line.strip()]
    return {r["id"]: verdict(r, eval_outcome(r)) for r in records}


def compare_with_eval(args, pool, samples, work, violations):
    """Every sample's verdict against kevin eval's on the same candidate and stages."""
    with_check = sorted({n for n, stages, _ in samples if pool[n][1] is None and stages != "run"})
    without_check = sorted({n for n, stages, _ in samples if pool[n][1] is None and stages == "run"})
    expected = {}
    if with_check:
        expected.update({(n, True): v for n, v in
                         kevin_eval_verdicts(args, pool, with_check, [], work, "eval-check").items()})
    if without_check:
        expected.update({(n, False): v for n, v in
                         kevin_eval_verdicts(args, pool, without_check, ["--no-check"], work,
                                             "eval-nocheck").items()})
    for name, stages, record in samples:
        fixed = pool[name][1]
        want = (False, False, fixed) if fixed else expected.get((name, stages != "run"))
        got = verdict(record, record.get("outcome"))
        if got != want:
            violations.append(f"{record.get('id')} ({name}, stages={stages or 'default'}): serve "
                              f"(correct, score>0, outcome) = {got}, expected {want}")
    return len(expected)


def run_load(args, url, pool, plans, violations):
    """The clients; returns [(name, stages, record)] of every sample answered."""
    seen, statuses = collections.Counter(), collections.Counter()
    samples = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.clients) as clients:
        for reply in clients.map(lambda plan: send(url, pool, plan), plans):
            statuses[reply[2]] += 1
            samples += check_reply(reply, seen, violations)
    sent = {f"r{i}s{n}" for i, _, names, malformed in plans if not malformed for n in range(len(names))}
    lost = sorted(sent - set(seen))
    twice = sorted(i for i, count in seen.items() if count > 1 or i not in sent)
    if lost or twice:
        violations.append(f"samples lost: {lost[:20]}; duplicated or unknown: {twice[:20]}")
    print("answers: " + " ".join(f"{status}x{count}" for status, count in sorted(statuses.items(), key=str)))
    print(f"samples: {len(sent)} sent, {len(sent) - len(lost)} returned, "
          f"{'each once, in order' if not (lost or twice) else 'NOT each once'}")
    return samples


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--share", default=os.path.join(ROOT, "share", "kevin"))
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--work", help="logs and kevin eval files (default: a new temporary directory)")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="serve-load-")
    os.makedirs(work, exist_ok=True)
    pool = candidate_pool(args.share)
    plans = plan_requests(args.requests, args.seed)
    violations = []

    server, url = start_server(args, os.path.join(work, "serve.log"))
    print(f"kevin-serve pid {server.pid} listening; logs in {work}")
    rss_before = tree_rss_kib(server.pid)
    start = time.monotonic()
    samples = run_load(args, url, pool, plans, violations)
    wall = time.monotonic() - start
    rss_after = tree_rss_kib(server.pid)
    status, _, text = http(url + "/healthz", timeout=60)
    health = json.loads(text) if status == 200 else {}
    if not health.get("ok"):
        violations.append(f"/healthz after the load: {status} {text[:200]!r}")
    server.send_signal(signal.SIGTERM)
    try:
        exit_status = server.wait(timeout=300)
    except subprocess.TimeoutExpired:
        server.kill()
        exit_status = "none (killed 300 s after SIGTERM)"
    if exit_status != 0:
        violations.append(f"kevin-serve exit status after SIGTERM: {exit_status}")

    malformed = sum(p[3] for p in plans)
    print(f"requests: {len(plans)} from {args.clients} clients in {wall:.1f} s "
          f"({malformed} malformed, {sum(p[1] == 'run' for p in plans)} stages=run, "
          f"{sum(p[1] is None for p in plans)} with bench)")
    print("outcomes: " + " ".join(f"{k}={v}" for k, v in sorted(
        collections.Counter(str(r.get("outcome")) for _, _, r in samples).items())))
    print(f"server: healthz ok={health.get('ok')} evaluated={health.get('evaluated')} "
          f"workers_alive={health.get('workers_alive')}; RSS of the server and its descendants "
          f"{rss_before / 1024:.0f} MiB before the load, {rss_after / 1024:.0f} MiB after")
    print(f"server exit status after SIGTERM: {exit_status}")
    compared = compare_with_eval(args, pool, samples, work, violations)
    print(f"kevin eval: {compared} distinct (candidate, check on/off) verdicts compared with every sample's")
    for violation in violations[:50]:
        print("VIOLATION: " + violation)
    print(f"violations: {len(violations)}")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
