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

With a trajectory (:func:`read_trajectory`: the folder run-task and fleet keep per episode, ``traj.jsonl`` and
its step PNGs in OSWorld's runners' shape) the judge also reads the agent's actions, one line each (at most
:data:`MAX_ACTIONS`), and sees its last :data:`MAX_IMAGES` screenshots, sent as the Chat Completions API's
``image_url`` content parts (``data:image/png;base64,...``) after the text.
"""

from __future__ import annotations

import base64
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

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


#: Screenshots of a trajectory a judge sees: the last ones, where the end state shows.
MAX_IMAGES = 4
#: Actions of a trajectory listed for a judge; a longer one keeps its first and last halves and says how many it left out.
MAX_ACTIONS = 200
#: Characters of one action's arguments listed for a judge.
ARGUMENT_CHARS = 300


@dataclass(frozen=True)
class TrajectoryEvidence:
    """What a judge reads of one episode's trajectory: ``actions`` one line each, in order; ``screenshots`` the
    paths of the last :data:`MAX_IMAGES` step PNGs, in order; ``total`` the number of actions recorded."""

    actions: list[str]
    screenshots: list[Path]
    total: int

    def text(self) -> str:
        if not self.actions:
            return "Actions of the agent: (none recorded)"
        return f"Actions of the agent ({self.total} recorded, in order):\n" + "\n".join(self.actions)


def read_trajectory(folder: Path) -> TrajectoryEvidence:
    """Read a trajectory folder (``traj.jsonl``, ``step_<n>_<timestamp>.png``; :mod:`builder.runtime.trajectory`).

    Raises ``ValueError`` when ``folder`` has no ``traj.jsonl`` or a line is not JSON.
    """
    folder = Path(folder)
    path = folder / "traj.jsonl"
    if not path.is_file():
        raise ValueError(f"{folder}: no traj.jsonl (not a trajectory folder)")
    lines = []
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip():
            continue
        try:
            step = json.loads(raw)
        except ValueError as e:
            raise ValueError(f"{path}:{n}: not JSON ({e})") from None
        if not isinstance(step, dict):
            raise ValueError(f"{path}:{n}: not a JSON object")
        action = step.get("action")
        if isinstance(action, dict):  # ours: the control API request
            args = json.dumps(action.get("arguments"), ensure_ascii=False)
            if len(args) > ARGUMENT_CHARS:
                args = args[:ARGUMENT_CHARS] + "..."
            what = (
                f"{action.get('method')} {action.get('path')} {args} -> {step.get('status')} in {step.get('seconds')} s"
            )
        else:  # OSWorld's runners write the agent's action as it gave it (pyautogui code, a string)
            what = str(action)
            if len(what) > ARGUMENT_CHARS:
                what = what[:ARGUMENT_CHARS] + "..."
        lines.append(f"{step.get('step_num', n)}. {what}")
    total = len(lines)
    if total > MAX_ACTIONS:
        half = MAX_ACTIONS // 2
        lines = lines[:half] + [f"... {total - 2 * half} actions left out ..."] + lines[-half:]

    def order(p: Path) -> tuple[int, str]:
        m = re.match(r"step_(\d+)_", p.name)
        return (int(m.group(1)) if m else -1, p.name)

    shots = sorted(folder.glob("step_*.png"), key=order)
    return TrajectoryEvidence(lines, shots[-MAX_IMAGES:], total)


def openai_judge(
    base_url: str,
    model: str,
    api_key: str | None = None,
    timeout: float = 120.0,
    trajectory: TrajectoryEvidence | None = None,
):
    """A judge calling ``{base_url}/chat/completions``; see the module docstring for the exchange.

    ``trajectory``: the episode's actions and last screenshots, added to every item's request."""
    url = base_url.rstrip("/") + "/chat/completions"
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {api_key}"} if api_key else {})}

    def judge(task: Task, item: RubricItem, evidence: str) -> tuple[bool, str] | None:
        look_at = "; ".join(item.check.evidence or [])
        user = (
            f"Task given to the assistant:\n{task.instruction}\n\nRequirement to judge:\n{item.requirement}\n\n"
            f"Look at: {look_at}\n\nEvidence:\n{evidence}"
        )
        content: str | list = user
        if trajectory is not None:
            content = [{"type": "text", "text": f"{user}\n\n{trajectory.text()}"}] + [
                {"type": "image_url", "image_url": {"url": "data:image/png;base64," + _b64(p)}}
                for p in trajectory.screenshots
            ]
        body = {
            "model": model,
            "temperature": 0,
            "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": content}],
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


def _b64(path: Path) -> str:
    return base64.b64encode(Path(path).read_bytes()).decode("ascii")
