#===-- openrlhf_check.py - /get_reward as OpenRLHF's remote RM calls it --===#
"""Usage: openrlhf_check.py URL_FILE SHARE_DIR

Posts to /get_reward exactly as OpenRLHF's remote reward client does
(requests.post(url, json={"query", "prompts", "labels"}) sends a JSON body
with Content-Type application/json) and prints the reply's lists; then the
same through KevinClient.get_reward.
"""
import json
import sys
import urllib.request

from kevin_client import KevinClient
from serve_support import BROKEN_RESPONSE, RELU, UNKNOWN, honest_response, score_text, server_url

url = server_url(sys.argv[1])
honest = honest_response(sys.argv[2])

# Kevin's prompts show the reference in a fenced python block: only the
# response after the prompt may be parsed for the candidate.
prompt = ("<|im_start|>user\nMake this faster:\n```python\nclass Model:\n    pass\n```\n"
          "<|im_end|>\n<|im_start|>assistant\n")
payload = {"query": [prompt + honest, prompt + BROKEN_RESPONSE, prompt + honest, honest],
           "prompts": [prompt, prompt, prompt, "a prompt the query does not start with"],
           "labels": [RELU, RELU, UNKNOWN, RELU]}
request = urllib.request.Request(url + "/get_reward", data=json.dumps(payload).encode("utf-8"),
                                 headers={"Content-Type": "application/json"}, method="POST")
with urllib.request.urlopen(request, timeout=600) as reply:
    content_type = reply.headers.get("Content-Type", "")
    result = json.loads(reply.read())

print("content-type", content_type.split(";")[0])
print("keys", sorted(result))
print("rewards", [score_text(r) for r in result["rewards"]], "scores==rewards", result["scores"] == result["rewards"])
logs = result["extra_logs"]
print("extra_logs", sorted(logs), "lengths", sorted({len(v) for v in logs.values()}))
print("correct", logs["correct"], "outcome", logs["outcome"])

helper = KevinClient(url).get_reward([prompt + BROKEN_RESPONSE], [prompt], [RELU])
print("helper", helper["rewards"], helper["extra_logs"]["outcome"])
