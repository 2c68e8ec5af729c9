#===-- verl.py - veRL reward functions and interaction for kevin ---------===#
"""veRL's side of kevin serve: reward functions and a multi-turn interaction.

Reward functions (`custom_reward_function.path` = this file, `.name` = one of):
  compute_score        veRL's NaiveRewardManager calls it once per sample as
                       compute_score(data_source=, solution_str=, ground_truth=,
                       extra_info=); returns {"score": S, "correct", "speedup",
                       "outcome"}: veRL takes "score" as the reward and keeps
                       every key in reward_extra_info, so all four are always
                       present and numeric except outcome (a string, which
                       veRL's validation metrics skip).
  compute_score_async  the same as a coroutine, for veRL's reward loop, which
                       awaits a reward function that is `async def`.
  compute_score_batch  for reward_model.reward_manager=batch: veRL's
                       BatchRewardManager calls it once per batch with lists
                       (data_sources=, solution_strs=, ground_truths=,
                       extra_infos=); one HTTP request per server.
The task id is `ground_truth` (reward_model.ground_truth of the row) when it is
a string, else extra_info["task_id"]. Servers come from the keyword arguments
server_urls= or url= (custom_reward_function.reward_kwargs), else from the
environment variable KEVIN_SERVER_URLS (comma-separated); token=, deadline_s=,
stages= and timeout= are passed on too.

KevinInteraction is shaped like veRL's BaseInteraction (verl.interactions.base)
and subclasses it when veRL is importable; veRL is never required.

veRL loads the file named by custom_reward_function.path as a module of its
own, outside this package, so the imports below work in both ways.
"""
from __future__ import annotations

import os
import sys
import uuid
from typing import Any, Dict, List, Optional, Sequence, Tuple

if __package__:
    from .client import client_from_options, evaluation_options, summarize
else:  # loaded by file path: make the package importable from its parent
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from kevin_client.client import client_from_options, evaluation_options, summarize

try:
    from verl.interactions.base import BaseInteraction as _InteractionBase
except ImportError:
    _InteractionBase = object


def task_id_of(ground_truth: Any, extra_info: Optional[Dict[str, Any]]) -> str:
    """The kevin task id of a veRL row (see the module comment)."""
    if isinstance(ground_truth, str) and ground_truth:
        return ground_truth
    if isinstance(extra_info, dict) and extra_info.get("task_id"):
        return str(extra_info["task_id"])
    raise ValueError("kevin_client.verl: no task id: set reward_model.ground_truth to the task id "
                     "(e.g. 'level1/19_ReLU') or extra_info['task_id']")


def _record(solution_str: str, ground_truth: Any, extra_info: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    return {"task_id": task_id_of(ground_truth, extra_info), "response": solution_str}


def compute_score(data_source: Any, solution_str: str, ground_truth: Any,
                  extra_info: Optional[Dict[str, Any]] = None, **kwargs: Any) -> Dict[str, Any]:
    """kevin's reward for one response: {"score", "correct", "speedup", "outcome"}."""
    client = client_from_options(kwargs)
    [reply] = client.evaluate([_record(solution_str, ground_truth, extra_info)],
                              **evaluation_options(kwargs))
    return summarize(reply)


async def compute_score_async(data_source: Any, solution_str: str, ground_truth: Any,
                              extra_info: Optional[Dict[str, Any]] = None,
                              **kwargs: Any) -> Dict[str, Any]:
    """compute_score as a coroutine (veRL's reward loop awaits it)."""
    client = client_from_options(kwargs)
    [reply] = await client.evaluate_async([_record(solution_str, ground_truth, extra_info)],
                                          **evaluation_options(kwargs))
    return summarize(reply)


def compute_score_batch(data_sources: Sequence[Any], solution_strs: Sequence[str],
                        ground_truths: Sequence[Any], extra_infos: Optional[Sequence[Any]] = None,
                        **kwargs: Any) -> List[Dict[str, Any]]:
    """compute_score over a whole batch, in one request per server."""
    infos = list(extra_infos) if extra_infos is not None else [None] * len(solution_strs)
    records = [_record(s, g, e) for s, g, e in zip(solution_strs, ground_truths, infos)]
    replies = client_from_options(kwargs).evaluate(records, **evaluation_options(kwargs))
    return [summarize(reply) for reply in replies]


def _text_of(content: Any) -> str:
    """A message's text: a string, or the text parts of a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


class KevinInteraction(_InteractionBase):
    """kevin as veRL's multi-turn environment: each assistant turn is judged,
    and kevin's feedback becomes the next user turn.

    Config (the `config` of the interaction config file): server_urls or url
    (else KEVIN_SERVER_URLS), token, max_turns (default 4), stop_when_correct
    (default false: Kevin keeps refining a correct kernel for speed),
    deadline_s, stages. Start kwargs (veRL passes extra_info.interaction_kwargs):
    task_id or ground_truth.
    """

    def __init__(self, config: Dict[str, Any]):
        # What BaseInteraction.__init__ does; also right when it is absent.
        self.config = config
        self.name = config.get("name", "kevin")
        self._client = client_from_options(config)
        self._max_turns = int(config.get("max_turns", 4))
        self._stop_when_correct = bool(config.get("stop_when_correct", False))
        self._instances: Dict[str, Dict[str, Any]] = {}

    async def start_interaction(self, instance_id: Optional[str] = None, **kwargs: Any) -> str:
        """Begins a trajectory of the task kwargs["task_id"] (or ["ground_truth"])."""
        task_id = kwargs.get("task_id") or kwargs.get("ground_truth")
        if not isinstance(task_id, str) or not task_id:
            raise ValueError("KevinInteraction: interaction_kwargs need task_id or ground_truth")
        instance_id = instance_id or str(uuid.uuid4())
        self._instances[instance_id] = {"task_id": task_id, "turn": 0, "score": 0.0}
        return instance_id

    async def generate_response(self, instance_id: str, messages: List[Dict[str, Any]],
                                **kwargs: Any) -> Tuple[bool, str, float, Dict[str, Any]]:
        """Judges the last assistant message: (done, feedback, score, metadata)."""
        state = self._instances[instance_id]
        response = next((_text_of(m.get("content")) for m in reversed(messages)
                         if m.get("role") == "assistant"), "")
        state["turn"] += 1
        record = {"id": f"{instance_id}#{state['turn']}", "task_id": state["task_id"],
                  "response": response}
        [reply] = await self._client.evaluate_async([record], **evaluation_options(self.config))
        summary = summarize(reply)
        state["score"] = summary["score"]
        done = state["turn"] >= self._max_turns or (self._stop_when_correct and summary["correct"])
        metadata = dict(summary, turn=state["turn"])
        return done, str(reply.get("feedback", "")), summary["score"], metadata

    async def calculate_score(self, instance_id: Optional[str] = None, **kwargs: Any) -> float:
        """The score of the trajectory's latest turn (0.0 before the first)."""
        return float(self._instances.get(instance_id, {}).get("score", 0.0))

    async def finalize_interaction(self, instance_id: Optional[str] = None, **kwargs: Any) -> None:
        """Forgets the trajectory."""
        self._instances.pop(instance_id, None)
