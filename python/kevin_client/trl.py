#===-- trl.py - TRL reward function for kevin ----------------------------===#
"""A reward function for TRL's GRPOTrainer (`reward_funcs=`).

GRPOTrainer calls a reward function with keyword arguments only:
prompts=, completions=, and every other dataset column as a list (plus
completion_ids=, trainer_state=, ... in newer versions), and wants one float
per completion. A completion is a string (standard datasets) or a list of
{"role", "content"} messages (conversational datasets); the last assistant
message is the model's answer. The task ids come from a dataset column,
`task_id` unless make_reward_func is told otherwise.

    reward_funcs=[kevin_client.trl.make_reward_func("http://gpu-node-1:8765")]

`reward_func` itself reads the servers from KEVIN_SERVER_URLS. Either sends
the whole batch in one request per server.
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Union

from .client import KevinClient, client_from_options, evaluation_options, summarize


def completion_text(completion: Any) -> str:
    """The model's answer: the string, or the last assistant message's text."""
    if isinstance(completion, str):
        return completion
    messages = [m for m in completion if isinstance(m, dict)]
    answers = [m for m in messages if m.get("role") == "assistant"] or messages
    content = answers[-1].get("content", "") if answers else ""
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content)


def _scores(client: KevinClient, task_id_column: str, completions: Sequence[Any],
            columns: dict, options: dict) -> List[float]:
    task_ids = columns.get(task_id_column)
    if task_ids is None or len(task_ids) != len(completions):
        raise ValueError(f"kevin_client.trl: the dataset needs a column '{task_id_column}' "
                         "with the task id of every prompt")
    records = [{"task_id": str(t), "response": completion_text(c)}
               for t, c in zip(task_ids, completions)]
    replies = client.evaluate(records, **evaluation_options(options))
    return [summarize(reply)["score"] for reply in replies]


def make_reward_func(urls: Union[str, Sequence[str], None] = None, task_id_column: str = "task_id",
                     token: Optional[str] = None, **options: Any) -> Callable[..., List[float]]:
    """A GRPOTrainer reward function scoring with kevin serve at urls.

    urls: as KevinClient takes them (None: KEVIN_SERVER_URLS). options:
    deadline_s, stages, timeout, retries. TRL logs the rewards under the
    function's __name__, "kevin_reward".
    """
    config = dict(options, server_urls=urls, token=token)
    client = client_from_options(config)

    def kevin_reward(prompts: Optional[Sequence[Any]] = None,
                     completions: Sequence[Any] = (), **columns: Any) -> List[float]:
        return _scores(client, task_id_column, completions, columns, config)

    kevin_reward.__qualname__ = kevin_reward.__name__
    return kevin_reward


def reward_func(prompts: Optional[Sequence[Any]] = None, completions: Sequence[Any] = (),
                **columns: Any) -> List[float]:
    """kevin's score S per completion; servers from KEVIN_SERVER_URLS, task ids
    from the `task_id` column."""
    return _scores(client_from_options({}), "task_id", completions, columns, {})
