"""The optional judge hook: an OpenAI-compatible chat endpoint assesses ``judge`` rubric items.

Only items whose check is ``judge`` go to it; machine items are always scored by the program.
``openai_judge("http://127.0.0.1:8000/v1", "some-model")`` returns a :data:`builder.tasks.grade.Judge`:
for each item it POSTs ``{base_url}/chat/completions`` (the OpenAI Chat Completions request:
``model``, ``messages``, ``temperature: 0``; ``Authorization: Bearer <key>`` when a key is given)
with the task's instruction, the requirement, what the item's check says to look at and the evidence
(the agent's final answer and each app's changed rows), and reads a verdict from the reply's first
choice: a JSON object ``{"met": true|false, "reason": "..."}`` (or the first line starting ``MET`` or
``NOT MET``). A reply it cannot read, or a failed request, gives no verdict: the item stays
``not_assessable`` and the reason is logged on standard error.
"""

from __future__ import annotations

import json
import re
import sys

import requests

from .model import RubricItem, Task

SYSTEM = (
    "You grade one requirement of a task a computer-use assistant did for a person. Read the task, the "
    "requirement and the evidence, then answer with one JSON object and nothing else: "
    '{"met": true or false, "reason": "one sentence"}. Judge only this requirement, strictly on the evidence.'
)


def _verdict(text: str) -> tuple[bool, str] | None:
    m = re.search(r"\{.*\}", text, re.DOTALL)
    if m:
        try:
            data = json.loads(m.group())
            if isinstance(data.get("met"), bool):
                return data["met"], str(data.get("reason", ""))[:500]
        except ValueError:
            pass
    for line in text.splitlines():
        head = line.strip().upper()
        if head.startswith("NOT MET"):
            return False, line.strip()[:500]
        if head.startswith("MET"):
            return True, line.strip()[:500]
    return None


def openai_judge(base_url: str, model: str, api_key: str | None = None, timeout: float = 120.0):
    """A judge calling ``{base_url}/chat/completions``; see the module docstring for the exchange."""
    url = base_url.rstrip("/") + "/chat/completions"
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {api_key}"} if api_key else {})}

    def judge(task: Task, item: RubricItem, evidence: str) -> tuple[bool, str] | None:
        look_at = "; ".join(item.check.evidence or [])
        user = (
            f"Task given to the assistant:\n{task.instruction}\n\nRequirement to judge:\n{item.requirement}\n\n"
            f"Look at: {look_at}\n\nEvidence:\n{evidence}"
        )
        body = {
            "model": model,
            "temperature": 0,
            "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}],
        }
        try:
            r = requests.post(url, json=body, headers=headers, timeout=timeout)
            r.raise_for_status()
            text = r.json()["choices"][0]["message"]["content"] or ""
        except (requests.RequestException, ValueError, KeyError, IndexError, TypeError) as e:
            print(f"judge: {task.id} {item.id}: no verdict ({type(e).__name__}: {e})", file=sys.stderr)
            return None
        verdict = _verdict(text)
        if verdict is None:
            print(f"judge: {task.id} {item.id}: unreadable reply {text[:200]!r}", file=sys.stderr)
        return verdict

    return judge
