#===-- client.py - HTTP client of kevin serve ----------------------------===#
"""The HTTP client of `kevin serve` (docs/Integration.md).

KevinClient posts kevin records to one server or shards them over several:
each record goes to the server chosen by a stable hash of its task id, so a
task's reference outputs stay cached on one server. One request per server is
sent, all servers at once, and the replies are merged back into input order.
A full queue (503) and a refused or dropped connection are retried with
backoff; any other error status raises KevinError with the server's message.

Standard library only; Python 3.8 or newer.
"""
from __future__ import annotations

import asyncio
import json
import os
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

# The longest pause between two attempts, whatever Retry-After says.
MAX_RETRY_PAUSE_S = 60.0


class KevinError(Exception):
    """A request kevin serve refused or never answered.

    `status` is the HTTP status (None when no reply came), `url` the address
    asked and `message` the server's own `error` text when it sent one.
    """

    def __init__(self, url: str, message: str, status: Optional[int] = None):
        self.url = url
        self.message = message
        self.status = status
        where = f"{url}: HTTP {status}" if status is not None else url
        super().__init__(f"{where}: {message}")


def parse_urls(urls: Union[str, Sequence[str]]) -> List[str]:
    """Server base URLs from a list or a comma-separated string."""
    items = urls.split(",") if isinstance(urls, str) else list(urls)
    parsed = [item.strip().rstrip("/") for item in items if item.strip()]
    if not parsed:
        raise ValueError("kevin_client: no kevin serve URL given")
    return parsed


def client_from_options(options: Dict[str, Any]) -> "KevinClient":
    """A client configured the way the engine shims are.

    Servers: options "server_urls" (list or comma-separated) or "url", else
    the environment variable KEVIN_SERVER_URLS. Token: option "token", else
    KEVIN_SERVER_TOKEN. Optional "timeout" and "retries".
    """
    urls = options.get("server_urls") or options.get("url") or os.environ.get("KEVIN_SERVER_URLS")
    if not urls:
        raise ValueError("kevin_client: no kevin serve URL: pass server_urls= or url=, "
                         "or set KEVIN_SERVER_URLS")
    return KevinClient(urls, token=options.get("token") or os.environ.get("KEVIN_SERVER_TOKEN"),
                       timeout=float(options.get("timeout", 600.0)),
                       retries=int(options.get("retries", 5)))


def evaluation_options(options: Dict[str, Any]) -> Dict[str, Any]:
    """The "deadline_s" and "stages" options, as KevinClient.evaluate takes them."""
    return {"deadline_s": options.get("deadline_s"), "stages": options.get("stages")}


def shard_index(task_id: str, shard_count: int) -> int:
    """The server a task goes to: CRC-32 of its id, stable across processes."""
    return zlib.crc32(task_id.encode("utf-8")) % shard_count


def summarize(record: Dict[str, Any]) -> Dict[str, Any]:
    """The reward of one reply record as plain numbers.

    score is kevin's S; speedup is 0.0 when it was not measured (an incorrect
    kernel, or no bench stage), so every value stays a number.
    """
    reward = record.get("reward") or {}
    return {
        "score": float(reward.get("score") or 0.0),
        "correct": bool(reward.get("correct")),
        "speedup": float(reward.get("speedup") or 0.0),
        "outcome": str(record.get("outcome", "")),
    }


def _error_message(body: bytes) -> str:
    text = body.decode("utf-8", "replace").strip()
    try:
        return str(json.loads(text)["error"])
    except (ValueError, KeyError, TypeError):
        return text or "(empty reply)"


def _retry_after(err: urllib.error.HTTPError) -> Optional[float]:
    try:
        return float(err.headers.get("Retry-After", ""))
    except (TypeError, ValueError):
        return None


class KevinClient:
    """Client of one kevin serve, or of several sharded by task id.

    urls: a base URL ("http://host:8765"), a comma-separated list of them,
    or a list. token: sent as `Authorization: Bearer TOKEN`. timeout: seconds
    one request may take. retries: further attempts after a 503 or a
    connection error, `backoff` seconds apart and doubling (a 503's
    Retry-After wins).
    """

    def __init__(self, urls: Union[str, Sequence[str]], token: Optional[str] = None,
                 timeout: float = 600.0, retries: int = 5, backoff: float = 1.0):
        self.urls = parse_urls(urls)
        self.token = token
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff

    def evaluate(self, records: Sequence[Dict[str, Any]], deadline_s: Optional[float] = None,
                 stages: Union[str, Sequence[str], None] = None) -> List[Dict[str, Any]]:
        """POST records to /v1/evaluate; the reply records, in input order.

        Each record needs "task_id" and "code" or "response"; other fields are
        kept. stages limits the stages ("check,run" or ["check", "run"]);
        deadline_s bounds the whole request on the server.
        """
        query = self._evaluate_query(deadline_s, stages)
        return self._sharded(records, lambda record: str(record.get("task_id") or ""),
                             lambda url, part: self._post_records(url, query, part),
                             lambda replies: replies)

    async def evaluate_async(self, records: Sequence[Dict[str, Any]],
                             deadline_s: Optional[float] = None,
                             stages: Union[str, Sequence[str], None] = None) -> List[Dict[str, Any]]:
        """evaluate() on a worker thread, for asyncio callers."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, lambda: self.evaluate(records, deadline_s, stages))

    def health(self, url: Optional[str] = None) -> Dict[str, Any]:
        """GET /healthz of url (default: the first server)."""
        base = (url or self.urls[0]).rstrip("/")
        request = urllib.request.Request(base + "/healthz", headers=self._headers())
        return json.loads(self._send(request))

    def get_reward(self, queries: Sequence[str], prompts: Sequence[str],
                   labels: Sequence[str]) -> Dict[str, Any]:
        """POST /get_reward as OpenRLHF's remote reward model client does.

        labels[i] is the task id of queries[i]; with several servers the
        samples are sharded by it and the lists merged back into input order.
        """
        if not len(queries) == len(prompts) == len(labels):
            raise ValueError("get_reward: queries, prompts and labels differ in length")
        samples = [{"query": q, "prompt": p, "label": l} for q, p, l in zip(queries, prompts, labels)]
        return self._sharded(samples, lambda sample: str(sample["label"]), self._post_reward,
                             _merge_reward_replies)

    def _evaluate_query(self, deadline_s: Optional[float],
                        stages: Union[str, Sequence[str], None]) -> str:
        params = {}
        if deadline_s is not None:
            params["deadline_s"] = f"{deadline_s:g}"
        if stages is not None:
            params["stages"] = stages if isinstance(stages, str) else ",".join(stages)
        return "?" + urllib.parse.urlencode(params, safe=",") if params else ""

    def _sharded(self, items: Sequence[Any], task_of: Callable[[Any], str],
                 post: Callable[[str, List[Any]], List[Any]],
                 finish: Callable[[List[Any]], Any]) -> Any:
        """Send each server its items at once; results back in input order."""
        positions: Dict[int, List[int]] = {}
        for position, item in enumerate(items):
            positions.setdefault(shard_index(task_of(item), len(self.urls)), []).append(position)
        if not positions:
            return finish([])

        def run(shard: int) -> List[Any]:
            part = [items[p] for p in positions[shard]]
            results = post(self.urls[shard], part)
            if len(results) != len(part):
                raise KevinError(self.urls[shard],
                                 f"{len(results)} results for {len(part)} samples")
            return results

        shards = sorted(positions)
        if len(shards) == 1:
            answers = [run(shards[0])]
        else:
            with ThreadPoolExecutor(max_workers=len(shards)) as pool:
                answers = list(pool.map(run, shards))
        merged: List[Any] = [None] * len(items)
        for shard, results in zip(shards, answers):
            for position, result in zip(positions[shard], results):
                merged[position] = result
        return finish(merged)

    def _post_records(self, url: str, query: str, records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        body = "".join(json.dumps(record) + "\n" for record in records).encode("utf-8")
        reply = self._post(url + "/v1/evaluate" + query, body, "application/x-ndjson")
        return [json.loads(line) for line in reply.decode("utf-8").splitlines() if line.strip()]

    def _post_reward(self, url: str, samples: List[Dict[str, str]]) -> List[Dict[str, Any]]:
        body = json.dumps({"query": [s["query"] for s in samples],
                           "prompts": [s["prompt"] for s in samples],
                           "labels": [s["label"] for s in samples]}).encode("utf-8")
        reply = json.loads(self._post(url + "/get_reward", body, "application/json"))
        logs = reply.get("extra_logs") or {}
        return [{"reward": reply["rewards"][i], "score": reply["scores"][i],
                 "logs": {key: values[i] for key, values in logs.items()}}
                for i in range(len(reply.get("rewards", [])))]

    def _post(self, url: str, body: bytes, content_type: str) -> bytes:
        headers = self._headers()
        headers["Content-Type"] = content_type
        return self._send(urllib.request.Request(url, data=body, headers=headers, method="POST"))

    def _headers(self) -> Dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def _send(self, request: urllib.request.Request) -> bytes:
        """The reply body; retries a 503 or a connection error."""
        url = request.full_url
        attempt = 0
        while True:
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as reply:
                    return reply.read()
            except urllib.error.HTTPError as err:
                if err.code != 503 or attempt >= self.retries:
                    raise KevinError(url, _error_message(err.read()), err.code) from None
                pause = _retry_after(err)
            except socket.timeout:
                raise KevinError(url, f"no reply within {self.timeout:g} s") from None
            except (urllib.error.URLError, ConnectionError) as err:
                if attempt >= self.retries:
                    reason = getattr(err, "reason", err)
                    raise KevinError(url, f"no connection after {attempt + 1} attempts: {reason}") from None
                pause = None
            time.sleep(min(self.backoff * 2 ** attempt if pause is None else pause, MAX_RETRY_PAUSE_S))
            attempt += 1


def _merge_reward_replies(samples: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Per-sample /get_reward results back into OpenRLHF's reply shape."""
    keys = list(samples[0]["logs"]) if samples else []
    return {"rewards": [s["reward"] for s in samples],
            "scores": [s["score"] for s in samples],
            "extra_logs": {key: [s["logs"].get(key) for s in samples] for key in keys}}
