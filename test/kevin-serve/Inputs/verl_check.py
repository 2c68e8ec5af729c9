#===-- verl_check.py - kevin_client.verl against a live kevin-serve ------===#
"""Usage: verl_check.py URL_FILE SHARE_DIR

Calls the veRL shims as veRL does: compute_score with positional arguments
(and keywords, as NaiveRewardManager passes them), compute_score_async
awaited, compute_score_batch with BatchRewardManager's list keywords, and
KevinInteraction's coroutines in the order veRL's agent loop runs them.
"""
import asyncio
import os
import sys

from kevin_client.verl import (KevinInteraction, compute_score, compute_score_async,
                               compute_score_batch)
from serve_support import (BROKEN_RESPONSE, RELU, UNKNOWN, describe, honest_response, score_text,
                           server_url)

url = server_url(sys.argv[1])
honest = honest_response(sys.argv[2])

print("sync", describe(compute_score("kernelbench", honest, RELU, None, url=url)))
print("unknown", describe(compute_score(data_source="kernelbench", solution_str=honest,
                                        ground_truth=UNKNOWN, extra_info={}, server_urls=[url])))

# The task id from extra_info; the server from the environment.
os.environ["KEVIN_SERVER_URLS"] = url
print("async", describe(asyncio.run(compute_score_async(
    "kernelbench", BROKEN_RESPONSE, None, {"task_id": RELU}))))

batch = compute_score_batch(data_sources=["kernelbench"] * 3,
                            solution_strs=[honest, BROKEN_RESPONSE, honest],
                            ground_truths=[RELU, RELU, UNKNOWN],
                            extra_infos=[None, None, None], stages="check,run")
for i, summary in enumerate(batch):
    print(f"batch{i}", describe(summary))


async def trajectory() -> None:
    interaction = KevinInteraction({"name": "kevin", "url": url, "max_turns": 3,
                                    "stop_when_correct": True})
    kwargs = {"name": "kevin", "ground_truth": RELU}
    instance = await interaction.start_interaction("traj-1", **kwargs)
    messages = [{"role": "user", "content": "Write a faster ReLU."},
                {"role": "assistant", "content": BROKEN_RESPONSE}]
    for turn in (1, 2):
        done, feedback, score, metadata = await interaction.generate_response(instance, messages, **kwargs)
        print(f"turn{turn} done={done} score={score_text(score)} feedback={bool(feedback)} "
              f"turn={metadata['turn']} outcome={metadata['outcome']}")
        messages += [{"role": "user", "content": feedback},
                     {"role": "assistant", "content": [{"type": "text", "text": honest}]}]
    final = await interaction.calculate_score(instance)
    print(f"final score={score_text(final)}")
    await interaction.finalize_interaction(instance)
    print("after finalize", await interaction.calculate_score(instance))


asyncio.run(trajectory())
