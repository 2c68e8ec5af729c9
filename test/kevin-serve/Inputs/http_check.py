#===-- http_check.py - kevin-serve's endpoints, as a client sees them ----===#
"""Starts kevin-serve on 127.0.0.1 (any free port), talks HTTP to it and
prints one checkable line per answer; stops it with SIGTERM by PID while a
request is in flight and prints how that request and the server ended.

usage: http_check.py SHARE_DIR [--token T] [extra kevin-serve options...]
"""
import json
import os
import signal
import sys
import threading
import time
import urllib.error
import urllib.request

from serve_support import start_server

SHARE = sys.argv[1]
EXTRA = sys.argv[2:]
TOKEN = EXTRA[EXTRA.index("--token") + 1] if "--token" in EXTRA else None


def call(url, path, body=None, token=TOKEN, content_type="application/x-ndjson"):
    req = urllib.request.Request(url + path, data=body,
                                 method="POST" if body is not None else "GET")
    if body is not None:
        req.add_header("Content-Type", content_type)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=600) as resp:
            return resp.status, dict(resp.headers), resp.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read().decode()


def lines(records):
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def read(path):
    with open(os.path.join(SHARE, path)) as handle:
        return handle.read()


def main():
    proc, url = start_server(SHARE, os.environ.get("SERVE_LOG", "serve.log"), EXTRA)
    try:
        probe(proc, url)
    finally:
        # A failed check must not leave the server behind.
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def probe(proc, url):
    print("listening", url.startswith("http://127.0.0.1:"))
    if TOKEN:
        status, _, body = call(url, "/healthz", token=None)
        print("no token", status, json.loads(body)["error"])
        status, _, _ = call(url, "/healthz", token="wrong")
        print("wrong token", status)
    if "--max-queue" in EXTRA:
        # More samples than the queue takes: refused whole, with Retry-After.
        code = read("solutions/cpu/level1/19_ReLU.py")
        status, headers, body = call(url, "/v1/evaluate", lines(
            [{"task_id": "level1/19_ReLU", "code": code}] * 3))
        print("queue full", status, headers.get("Retry-After"), json.loads(body)["error"])
        return
    status, _, body = call(url, "/healthz")
    health = json.loads(body)
    print("healthz", status, health["devices"], health["tasks"] > 0,
          health["workers_alive"]["zygote"], health["reference_cache"]["timed_disk_limit_bytes"])

    relu = read("solutions/cpu/level1/19_ReLU.py")
    broken = relu.replace('functions=["relu_forward"]',
                          'functions=["relu_forward_undeclared"]')
    samples = [
        {"id": "good", "task_id": "level1/19_ReLU", "code": relu},
        {"id": "prose", "task_id": "level1/19_ReLU",
         "response": "No code today, sorry."},
        {"id": "lost", "task_id": "level1/999_Nothing", "code": relu},
        {"id": "path", "task_id": "level1/19_ReLU",
         "candidate_path": "/etc/passwd"},
        {"id": "answer", "task_id": "level1/19_ReLU",
         "response": "Here:\n```python\n" + relu + "```\nA plain loop."},
    ]
    status, headers, body = call(url, "/v1/evaluate?stages=check,run",
                                  lines(samples))
    print("evaluate", status, headers.get("Content-Type"))
    for record in map(json.loads, body.splitlines()):
        print("record", record["id"], record["outcome"],
              record["reward"]["score"], bool(record.get("feedback")),
              "task_path" in record and record["task_path"].startswith(SHARE))

    # Without the check, the build error reaches the builder.
    status, _, body = call(url, "/v1/evaluate?stages=run", lines(
        [{"id": "unbuilt", "task_id": "level1/19_ReLU", "code": broken}]))
    record = json.loads(body)
    print("record", record["id"], record["outcome"], record["run"]["stage"],
          record["reward"]["score"], "relu_forward_undeclared" in record["feedback"])

    status, _, body = call(url, "/v1/evaluate",
                           b'{"task_id": "level1/19_ReLU", "code": "x"}\n{"task_id": oops}\n')
    print("malformed", status, json.loads(body)["error"])
    status, _, body = call(url, "/v1/evaluate?stages=check,fly", lines(samples[:1]))
    print("stages", status, json.loads(body)["error"])
    status, _, body = call(url, "/v1/evaluate?deadline_s=soon", lines(samples[:1]))
    print("deadline", status, json.loads(body)["error"])
    status, _, body = call(url, "/nowhere")
    print("unknown path", status, json.loads(body)["error"])

    # SIGTERM while a request runs: it is answered, then the server exits 0.
    answer = {}

    def slow():
        answer["reply"] = call(url, "/v1/evaluate?stages=check,run",
                               lines([samples[0]]))
    worker = threading.Thread(target=slow)
    worker.start()
    # Signalled only once the engine has the sample: on a loaded machine a
    # fixed pause could end before the request arrived.
    deadline = time.time() + 120
    while time.time() < deadline and worker.is_alive():
        _, _, body = call(url, "/healthz")
        if json.loads(body)["in_flight"] > 0:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    worker.join(600)
    status, _, body = answer.get("reply", (0, {}, "{}"))
    print("in flight", status, json.loads(body.splitlines()[0]).get("outcome"))
    print("exit", proc.wait(300))


main()
