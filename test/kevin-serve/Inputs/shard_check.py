#===-- shard_check.py - KevinClient sharding over two live servers -------===#
"""Usage: shard_check.py URL_FILE_A URL_FILE_B SHARE_DIR

Evaluates records of four tasks through one KevinClient over both servers
(stages=check, so no torch work): the replies come back in input order, and
each server's /healthz "evaluated" count grew by the records whose task id
hashes to it (CRC-32, computed here independently of the client).
"""
import os
import sys
import zlib

from kevin_client import KevinClient, KevinError
from serve_support import server_url

urls = [server_url(sys.argv[1]), server_url(sys.argv[2])]
share = sys.argv[3]
tasks = ["level1/19_ReLU", "level1/21_Sigmoid", "level1/20_LeakyReLU", "level1/22_Tanh",
         "level1/19_ReLU", "level1/22_Tanh"]
records = []
for i, task in enumerate(tasks):
    with open(os.path.join(share, "solutions", "cpu", task + ".py")) as handle:
        records.append({"id": f"r{i}", "task_id": task, "code": handle.read()})

client = KevinClient(urls)
before = [client.health(url)["evaluated"] for url in urls]
replies = client.evaluate(records, stages=["check"])
after = [client.health(url)["evaluated"] for url in urls]

print("order", " ".join(f"{r['id']}:{r['task_id']}" for r in replies))
print("sections", sorted({key for r in replies for key in ("check", "reward", "outcome") if key in r}))
expected = [0, 0]
for task in tasks:
    expected[zlib.crc32(task.encode()) % 2] += 1
for i in range(2):
    print(f"server{i} evaluated {after[i] - before[i]} expected {expected[i]}")

try:
    KevinClient(urls[0] + "/no/such/path").evaluate(records[:1])
except KevinError as err:
    print("error", err.status, bool(err.message))
