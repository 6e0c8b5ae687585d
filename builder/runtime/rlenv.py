"""``PersonaDesktopEnv``: one persona desktop as a Gymnasium-style environment for RL rollouts.

The environment drives a machine's control API (``run-image``'s or a ``persona-host`` VM's): ``reset(task)``
restores the reset point and returns the first observation; ``step(action)`` acts and returns ``(observation,
reward, terminated, truncated, info)``. The reward is 0 on every step but the last; when the episode ends (the
agent says ``DONE`` or ``FAIL``, gives an answer, or runs out of ``max_steps``) the end state is graded with the
task's own rubric (:func:`builder.runtime.episode.finish_episode`) and the reward is the score as a fraction
(0.0..1.0), with the whole result in ``info["result"]``.

Actions, as OSWorld's ``pyautogui`` action space has them:

* a string of Python using ``pyautogui`` (``"pyautogui.click(640, 400)"``), run in the guest's session;
* ``"WAIT"`` (nothing, one second), ``"DONE"`` (the task is done), ``"FAIL"`` (the agent gives up);
* ``{"answer": "..."}``: the final answer of a task that wants one (ends the episode).

Observations: ``{"screenshot": PNG bytes, "instruction": str, "step": int}`` plus ``"accessibility_tree"`` (the
guest's XML) when made with ``a11y=True``. Use it as a Ray actor with ``ray.remote(PersonaDesktopEnv)``.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from ..tasks.model import Task
from .episode import Control, EpisodeError, find_task, finish_episode, load_tasks, start_episode


class PersonaDesktopEnv:
    """A persona desktop at ``control_url`` with the tasks of ``tasks`` (a bundle folder or its ``tasks.jsonl``).
    ``max_steps``: actions before the episode is truncated. Raises :class:`EpisodeError` on a control API that
    does not answer."""

    metadata = {"render_modes": []}

    def __init__(self, control_url: str, tasks: str | Path, *, max_steps: int = 30, a11y: bool = False):
        path = Path(tasks)
        self.tasks = load_tasks(path / "tasks" / "tasks.jsonl" if path.is_dir() else path)
        self.control = Control(control_url)
        self.max_steps, self.a11y = max_steps, a11y
        self.task: Task | None = None
        self.steps = 0
        self._work: Path | None = None
        self._initial: dict = {}
        self._done = True

    def _observe(self) -> dict:
        r = self.control.http.get(self.control.url + "/screenshot", timeout=60)
        if r.status_code != 200:
            raise EpisodeError(f"GET /screenshot: HTTP {r.status_code}")
        obs = {"screenshot": r.content, "instruction": self.task.instruction if self.task else "", "step": self.steps}
        if self.a11y:
            a = self.control.http.get(self.control.url + "/accessibility", timeout=120)
            obs["accessibility_tree"] = a.json().get("AT") if a.status_code == 200 else None
        return obs

    def reset(self, task: str | None = None, *, seed: int | None = None, options: dict | None = None):
        """Restore the reset point and start ``task`` (an id, a unique suffix such as ``bank/bill-pay``, or
        ``options["task"]``); returns ``(observation, info)`` with ``info["task_id"]``. ``seed`` is accepted for
        the Gymnasium signature; the desktop itself is deterministic."""
        task_id = task or (options or {}).get("task")
        if not task_id:
            raise ValueError("reset(task=...) needs a task id")
        self.task = find_task(self.tasks, task_id)
        self._work = Path(tempfile.mkdtemp(prefix="persona-env-"))
        self._initial, reset_s = start_episode(self.task, self.control, self._work, reset=True)
        self.steps, self._done = 0, False
        return self._observe(), {"task_id": self.task.id, "reset_seconds": reset_s}

    def step(self, action):
        """Act (see the module docstring); returns ``(observation, reward, terminated, truncated, info)``."""
        if self._done or self.task is None:
            raise RuntimeError("call reset(task) first: the episode is over")
        self.steps += 1
        answer, terminated, info = "", False, {}
        if isinstance(action, dict) and "answer" in action:
            answer, terminated = str(action["answer"]), True
        elif action in ("DONE", "FAIL"):
            terminated = True
            info["agent_said"] = action
        elif action == "WAIT":
            time.sleep(1)
        elif isinstance(action, str):
            code = f"import pyautogui, time; pyautogui.FAILSAFE = False; {action}"
            r = self.control.http.post(
                self.control.url + "/execute", json={"command": ["python3", "-c", code], "shell": False}, timeout=120
            )
            info["execute"] = r.json() if r.headers.get("Content-Type", "").startswith("application/json") else {}
        else:
            raise ValueError(f"not an action: {action!r} (pyautogui code, WAIT, DONE, FAIL or {{'answer': ...}})")
        truncated = not terminated and self.steps >= self.max_steps
        reward = 0.0
        if terminated or truncated:
            result = finish_episode(self.task, self.control, answer, self._work, self._initial)
            reward = result["score"] / 100
            info["result"] = result
            self._done = True
            (self._work / "result.json").write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
        return self._observe(), reward, terminated, truncated, info

    def close(self) -> None:
        self._done = True
