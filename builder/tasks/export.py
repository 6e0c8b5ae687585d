"""The bundle's tasks in the formats other harnesses read: OSWorld task JSON (and MyPCBench's, :mod:`.mypcbench`).

* OSWorld (``tasks/osworld/<app>/<slug>.json``): ``id, snapshot, instruction, source, config,
  trajectory, related_apps, evaluator, proxy, fixed_ip, possibility_of_env_change``, the fields of
  OSWorld's ``evaluation_examples``. A task graded on an answer tells the agent, in its instruction,
  to write the answer to ``/tmp/persona-answer.txt`` (:data:`GUEST_ANSWER`). The machine is at its
  reset point when an episode starts, so ``config`` only raises Firefox; the evaluator names the getter ``persona_end_state`` (the app
  databases the checks read, through the control API's ``GET /state/apps/<app>``, the files the
  checks name and the agent's answer) and the metric ``persona_rubric`` (our grader on the task's
  own rubric, score / 100), both in :mod:`builder.tasks.osworld_hooks`, which a harness registers
  beside its own getters and metrics.
* MyPCBench (``tasks/mypcbench/``): written by :func:`builder.tasks.mypcbench.write_mypcbench`.
"""

from __future__ import annotations

import json
from pathlib import Path

from .model import NOT_APPS, Task

#: Where an agent in an OSWorld harness leaves its final answer (OSWorld has no answer channel of its own);
#: the exported instruction of every task that wants an answer says so.
GUEST_ANSWER = "/tmp/persona-answer.txt"


def needs_answer(task: Task) -> bool:
    """Whether ``task`` is graded on an answer the agent gives (a lookup or aggregation, or any answer check)."""
    return task.kind != "action" or any(i.check.type.startswith("answer_") for i in task.rubric)


def osworld_instruction(task: Task) -> str:
    """The task's instruction, plus where to write the answer when it wants one."""
    if not needs_answer(task):
        return task.instruction
    return f"{task.instruction} (When you have the answer, write it as plain text to {GUEST_ANSWER}.)"


def _slug_path(task: Task) -> str:
    """``<app>/<slug>`` of a task id ``<persona>/<app>/<slug>``."""
    return "/".join(task.id.split("/")[1:])


def osworld_task(task: Task, snapshot: str, start_url: str | None = None) -> dict:
    """The OSWorld task JSON of ``task`` on the image ``snapshot`` (the persona id).

    ``start_url``: the page Firefox shows at the start (the first app the task involves).
    """
    apps = [a for a in task.apps_involved if a not in NOT_APPS]
    files = sorted({i.check.path for i in task.rubric if i.check.type == "file"})
    diff_apps = sorted({i.check.app for i in task.rubric if i.check.type == "state_diff"})
    config = (
        [{"type": "launch", "parameters": {"command": ["firefox-esr", "--new-tab", start_url]}}] if start_url else []
    ) + [{"type": "activate_window", "parameters": {"window_name": "Mozilla Firefox"}}]
    return {
        "id": task.id,
        "snapshot": snapshot,
        "instruction": osworld_instruction(task),
        "source": "persona-desktop",
        "config": config,
        "trajectory": "trajectories/",
        "related_apps": ["firefox"] + apps + (["files"] if files else []),
        "evaluator": {
            "func": "persona_rubric",
            "result": {
                "type": "persona_end_state",
                "apps": sorted({i.check.app for i in task.rubric if i.check.type in ("sql", "state_diff")}),
                "initial_apps": diff_apps,
                "files": files,
                "answer": needs_answer(task),
            },
            "expected": {
                "type": "persona_rubric",
                "task_id": task.id,
                "split": task.split,
                "category": task.category,
                "kind": task.kind,
                "rubric": [i.model_dump(exclude_none=True) for i in task.rubric],
            },
        },
        "proxy": False,
        "fixed_ip": False,
        "possibility_of_env_change": "low",
    }


def write_exports(tasks: list[Task], dest: Path, snapshot: str, urls: dict[str, str]) -> list[Path]:
    """Write ``dest/osworld/<app>/<slug>.json`` per task; return the paths.

    ``urls``: app name -> its start URL in the guest (``http://<domain>/``).
    """
    out = []
    for task in tasks:
        path = dest / "osworld" / f"{_slug_path(task)}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        first = next((urls[a] for a in task.apps_involved if a in urls), None)
        path.write_text(
            json.dumps(osworld_task(task, snapshot, first), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        out.append(path)
    return out
