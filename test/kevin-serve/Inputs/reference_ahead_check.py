#===-- reference_ahead_check.py - references made ahead of candidates ----===#
"""Starts kevin-serve on 127.0.0.1 (CPU, any free port), POSTs a sample that
stops at the check, one whose build fails and an honest one of the same
task, and prints /healthz's reference counts after each; stops the server
with SIGTERM by PID.

usage: reference_ahead_check.py SHARE_DIR
"""
import json
import os
import signal
import sys
import time
import urllib.request

from serve_support import start_server

SHARE = sys.argv[1]
LEAKY = "level1/20_LeakyReLU"


def call(url, path, records=None):
    body = None if records is None else "".join(json.dumps(r) + "\n" for r in records).encode()
    request = urllib.request.Request(url + path, data=body)
    with urllib.request.urlopen(request, timeout=600) as reply:
        return reply.read().decode()


def settled(url):
    """/healthz's reference cache once nothing is being made ahead."""
    deadline = time.monotonic() + 300
    while True:
        cache = json.loads(call(url, "/healthz"))["reference_cache"]
        if cache["ahead_pending"] == 0 or time.monotonic() > deadline:
            return cache
        time.sleep(0.2)


def main():
    proc, url = start_server(SHARE, os.environ.get("SERVE_LOG", "serve.log"))
    try:
        with open(os.path.join(SHARE, "solutions", "cpu", LEAKY + ".py")) as handle:
            honest = handle.read()
        broken = honest.replace('functions=["leaky_relu_forward"]',
                                'functions=["leaky_relu_forward_undeclared"]')
        assert broken != honest

        record = json.loads(call(url, "/v1/evaluate?stages=check",
                                 [{"id": "checked", "task_id": LEAKY, "code": honest}]))
        print(record["id"], record["outcome"])
        cache = json.loads(call(url, "/healthz"))["reference_cache"]
        print("after the check: made %d, made_ahead %d, ahead_pending %d, entries %d, timed_references %d" % (
            cache["made"], cache["made_ahead"], cache["ahead_pending"], cache["entries"], cache["timed_references"]))

        # kevin-check would stop it (the function is not declared): the
        # build is where it fails.
        record = json.loads(call(url, "/v1/evaluate?stages=run,bench",
                                 [{"id": "unbuilt", "task_id": LEAKY, "code": broken}]))
        print(record["id"], record["outcome"])
        cache = settled(url)
        print("after the build error: made %d, made_ahead %d, ahead_failed %d, entries %d, timed_references %d" % (
            cache["made"], cache["made_ahead"], cache["ahead_failed"], cache["entries"], cache["timed_references"]))

        record = json.loads(call(url, "/v1/evaluate", [{"id": "honest", "task_id": LEAKY, "code": honest}]))
        print(record["id"], record["outcome"], record["bench"].get("ok"))
        cache = settled(url)
        print("after the honest one: made %d, made_ahead %d, ahead_failed %d, entries %d, timed_references %d" % (
            cache["made"], cache["made_ahead"], cache["ahead_failed"], cache["entries"], cache["timed_references"]))
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        print("exit", proc.wait(timeout=120))


if __name__ == "__main__":
    main()
