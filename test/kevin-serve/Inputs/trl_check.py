#===-- trl_check.py - kevin_client.trl against a live kevin-serve --------===#
"""Usage: trl_check.py URL_FILE SHARE_DIR

Calls the TRL reward functions as GRPOTrainer does: keyword arguments only,
prompts=, completions= and the dataset's other columns as lists (task_id
among them), and counts the HTTP requests each batch costs.
"""
import os
import sys
import urllib.request

from kevin_client.trl import make_reward_func, reward_func
from serve_support import BROKEN_RESPONSE, RELU, UNKNOWN, honest_response, score_text, server_url

url = server_url(sys.argv[1])
honest = honest_response(sys.argv[2])

requests = []
real_urlopen = urllib.request.urlopen


def counting_urlopen(request, *args, **kwargs):
    requests.append(request.full_url)
    return real_urlopen(request, *args, **kwargs)


urllib.request.urlopen = counting_urlopen

# Conversational dataset: prompts and completions are message lists.
kevin_reward = make_reward_func(url)
prompt = [{"role": "user", "content": "Write a faster ReLU."}]
rewards = kevin_reward(
    prompts=[prompt] * 3,
    completions=[[{"role": "assistant", "content": honest}],
                 [{"role": "assistant", "content": BROKEN_RESPONSE}],
                 [{"role": "assistant", "content": honest}]],
    completion_ids=[[1], [2], [3]], task_id=[RELU, RELU, UNKNOWN], trainer_state=None)
print(kevin_reward.__name__, [score_text(r) for r in rewards], "requests", len(requests))

# Standard dataset, another column name, the servers from the environment.
os.environ["KEVIN_SERVER_URLS"] = url
by_problem = make_reward_func(None, task_id_column="problem")
print("problem", [score_text(r) for r in by_problem(
    prompts=["p", "p"], completions=[BROKEN_RESPONSE, honest], problem=[RELU, UNKNOWN])])
print("reward_func", [score_text(r) for r in reward_func(
    prompts=["p"], completions=[BROKEN_RESPONSE], task_id=[RELU])], "requests", len(requests))
