#===-- client_check.py - KevinClient against scripted fake servers -------===#
"""Usage: client_check.py

KevinClient's HTTP behaviour without kevin-serve: two scripted servers on
127.0.0.1 echo /v1/evaluate records (tagged with the server's name) unless
told to answer an error first. Checks the retry of a 503 (Retry-After
honoured), no retry of a 400, connection errors, the query string, the
bearer token and the merge of two shards into input order.
"""
import json
import socket
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from kevin_client import KevinClient, KevinError


class FakeServe(BaseHTTPRequestHandler):
    def do_POST(self):
        server = self.server
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        server.seen.append({"path": self.path, "auth": self.headers.get("Authorization"),
                            "type": self.headers.get("Content-Type"), "body": body})
        status = server.script.pop(0) if server.script else 200
        if status != 200:
            error = json.dumps({"error": f"scripted {status}"}).encode()
            self.send_response(status)
            if status == 503:
                self.send_header("Retry-After", "0")
            self.send_header("Content-Length", str(len(error)))
            self.end_headers()
            self.wfile.write(error)
            return
        replies = [dict(json.loads(line), server=server.name, reward={"score": 1.0}, outcome="ok")
                   for line in body.splitlines()]
        reply = "".join(json.dumps(r) + "\n" for r in replies).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


def fake_server(name, script=()):
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeServe)
    server.name, server.script, server.seen = name, list(script), []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def closed_port_url():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


records = [{"id": f"r{i}", "task_id": t} for i, t in enumerate(["a", "b", "c", "d", "a"])]

busy, busy_url = fake_server("busy", [503, 503])
replies = KevinClient(busy_url, backoff=30).evaluate(records[:2], deadline_s=90, stages=["check", "run"])
print("503 retried", len(busy.seen), [r["id"] for r in replies], busy.seen[-1]["path"], busy.seen[-1]["type"])

refusing, refusing_url = fake_server("refusing", [400])
try:
    KevinClient(refusing_url).evaluate(records[:1])
except KevinError as err:
    print("400", err.status, err.message, "requests", len(refusing.seen))

full, full_url = fake_server("full", [503] * 3)
try:
    KevinClient(full_url, retries=2, backoff=0.01).evaluate(records[:1])
except KevinError as err:
    print("503 given up", err.status, "requests", len(full.seen))

try:
    KevinClient(closed_port_url(), retries=2, backoff=0.01).evaluate(records[:1])
except KevinError as err:
    print("unreachable", err.status, err.message.split(":")[0])

first, first_url = fake_server("first")
second, second_url = fake_server("second")
replies = KevinClient(f"{first_url}, {second_url}", token="T").evaluate(records)
print("merged", [(r["id"], r["server"]) for r in replies])
print("shards", [zlib.crc32(r["task_id"].encode()) % 2 for r in records],
      "requests", len(first.seen), len(second.seen), first.seen[0]["auth"])
print("empty", KevinClient(first_url).evaluate([]))
