#===-- __init__.py - Python clients of kevin serve -----------------------===#
"""Python clients of `kevin serve` for RL engines (docs/Integration.md).

  kevin_client.KevinClient   the HTTP client: /v1/evaluate sharded by task id,
                             /healthz, and OpenRLHF's /get_reward
  kevin_client.verl          compute_score, compute_score_async,
                             compute_score_batch, KevinInteraction
  kevin_client.trl           reward_func, make_reward_func (GRPOTrainer)

OpenRLHF needs no shim: pass http://HOST:PORT/get_reward as its remote
reward URL. Standard library only; Python 3.8 or newer.
"""
from .client import KevinClient, KevinError, shard_index, summarize
from .trl import make_reward_func, reward_func
from .verl import KevinInteraction, compute_score, compute_score_async, compute_score_batch

__all__ = [
    "KevinClient", "KevinError", "KevinInteraction", "compute_score", "compute_score_async",
    "compute_score_batch", "make_reward_func", "reward_func", "shard_index", "summarize",
]
