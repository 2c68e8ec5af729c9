#!/usr/bin/env python3
"""A scripted OpenAI-compatible server on 127.0.0.1 for the policy-client tests.

Usage: fake-openai.py --script S1,S2,... --log FILE [--response FILE] -- COMMAND...

Starts the server on a free loopback port, runs COMMAND with every '{url}' in
it replaced by the server's base URL, then stops and exits with COMMAND's
status. Request k gets the behaviour Sk (the last one repeats):
  ok         200 with one choice per requested n (text from --response, with
             the choice index appended), usage and vLLM-style token ids;
             with "logprobs": true, each choice's logprobs in the OpenAI form
             and vLLM's top-level prompt_token_ids
  429, 500   that status with an OpenAI error body (429 adds Retry-After: 0)
  400        a client error the client must not retry
  malformed  200 with a body that is not JSON
  slow       sleeps 5 s before answering 200 (longer than the test's timeout)
Each request body is appended to --log as one JSON line.
"""
import http.server
import json
import subprocess
import sys
import threading
import time


def main():
    argv = sys.argv[1:]
    sep = argv.index("--")
    opts, command = argv[:sep], argv[sep + 1:]
    args = dict(zip(opts[::2], opts[1::2]))
    script = args["--script"].split(",")
    log_path = args["--log"]
    text = open(args["--response"]).read() if "--response" in args else "hello"
    state = {"count": 0}
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            with lock:
                k = state["count"]
                state["count"] += 1
                with open(log_path, "a") as log:
                    entry = json.loads(body)
                    entry["_path"] = self.path
                    entry["_auth"] = self.headers.get("Authorization", "")
                    log.write(json.dumps(entry) + "\n")
            behaviour = script[min(k, len(script) - 1)]
            request = json.loads(body)
            if behaviour == "slow":
                time.sleep(5)
                behaviour = "ok"
            if behaviour == "ok":
                n = request.get("n", 1)
                choices = [{"index": i, "finish_reason": "stop",
                            "message": {"role": "assistant", "content": "%s [choice %d]" % (text, i)},
                            "token_ids": [1, 2, 3]} for i in range(n)]
                reply = {"id": "cmpl-1", "object": "chat.completion", "model": request.get("model"),
                         "choices": choices,
                         "usage": {"prompt_tokens": 11, "completion_tokens": 7 * n, "total_tokens": 11 + 7 * n}}
                if request.get("logprobs"):
                    for choice in choices:
                        choice["logprobs"] = {"content": [{"token": t, "logprob": -0.25 * (k + 1)}
                                                          for k, t in enumerate("abc")]}
                    reply["prompt_token_ids"] = [7, 8, 9]
                self.reply(200, reply)
            elif behaviour == "malformed":
                self.reply(200, None, raw=b"<html>not json</html>")
            else:
                status = int(behaviour)
                self.reply(status, {"error": {"message": "scripted %d" % status}},
                           headers={"Retry-After": "0"} if status == 429 else {})

        def reply(self, status, payload, raw=None, headers={}):
            data = raw if raw is not None else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in headers.items():
                self.send_header(key, value)
            self.end_headers()
            try:
                self.wfile.write(data)
            except BrokenPipeError:
                pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d" % server.server_address[1]
    try:
        status = subprocess.call([part.replace("{url}", url) for part in command], timeout=120)
    finally:
        server.shutdown()
    return status


if __name__ == "__main__":
    sys.exit(main())
