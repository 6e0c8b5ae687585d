"""The bundle's tasks in the formats other harnesses read: OSWorld task JSON (and MyPCBench's, :mod:`.mypcbench`).

* OSWorld, two layouts of the same task JSON (``id, snapshot, instruction, source, config, trajectory,
  related_apps, evaluator, proxy, fixed_ip, possibility_of_env_change``, the fields of OSWorld's
  ``evaluation_examples``):

  - ``tasks/osworld/examples/<domain>/<example id>.json`` with ``tasks/osworld/test_all.json``
    (``{domain: [example id, ...]}``, the index OSWorld's runners read; ``split_<train|dev|test>.json`` the same
    for one split) and ``tasks/osworld/id_map.json`` (``{example id: task id}``): the layout OSWorld's runners
    load as it is (``--test_config_base_dir tasks/osworld --test_all_meta_path tasks/osworld/test_all.json``).
    The domain is the task's app (``bank``, ``scenarios`` ...); the example id is the task id with ``/`` as
    ``__`` (:func:`example_id`), since the runners use it as a file and folder name.
  - ``tasks/osworld/<app>/<slug>.json``: the same JSON under our own ids (``id`` is the task id).

  A task graded on an answer tells the agent, in its instruction, to write the answer to
  ``/tmp/persona-answer.txt`` (:data:`GUEST_ANSWER`). The machine is at its reset point when an episode
  starts, so ``config`` only raises Firefox. The evaluator is ``metric(getter(result), getter(expected),
  **options)`` in OSWorld's own terms: ``result`` names our getter ``persona_end_state`` (the app databases
  the checks read, through run-image's ``GET /state/apps/<app>``, their start state for state-diff checks,
  the files the checks name and the agent's answer); ``expected`` is OSWorld's built-in ``rule`` getter,
  whose ``rules`` are the task's id, kind and rubric; ``func`` is our metric ``persona_rubric`` (our grader
  on that rubric, a fraction 0..1), with ``options`` ``{"judge": "machine_share"}``: without a judge the
  score is the met share of the machine-checked weight (:mod:`builder.tasks.osworld_hooks` says how it is
  reported). The getter and metric are registered into OSWorld's modules by
  :func:`builder.tasks.osworld_hooks.register`.
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


def example_id(task_id: str) -> str:
    """The OSWorld example id of a task id: ``/`` as ``__`` (``dana-whitfield/bank/bill-pay`` ->
    ``dana-whitfield__bank__bill-pay``), a name OSWorld's runners can use as a file and folder name.

    Raises ``ValueError`` for an id that already holds ``__`` or a character a file name cannot carry
    (the map back would not be one-to-one)."""
    if "__" in task_id or any(c in task_id for c in "\\\0") or task_id.startswith("/") or not task_id:
        raise ValueError(f"task id {task_id!r} cannot be an OSWorld example id")
    return task_id.replace("/", "__")


def osworld_domain(task: Task) -> str:
    """The OSWorld domain of ``task``: the app segment of its id (``bank`` of ``<persona>/bank/<slug>``)."""
    parts = task.id.split("/")
    if len(parts) < 3:
        raise ValueError(f"task id {task.id!r} is not <persona>/<app>/<slug>")
    return parts[1]


def osworld_task(task: Task, snapshot: str, start_url: str | None = None, example: str | None = None) -> dict:
    """The OSWorld task JSON of ``task`` on the image ``snapshot`` (the persona id).

    ``start_url``: the page Firefox shows at the start (the first app the task involves); ``example``: the
    ``id`` to give it (default the task id; the ``examples/`` layout gives :func:`example_id`). The task id
    itself is always in ``evaluator.expected.rules.task_id``.
    """
    apps = [a for a in task.apps_involved if a not in NOT_APPS]
    files = sorted({i.check.path for i in task.rubric if i.check.type == "file"})
    diff_apps = sorted({i.check.app for i in task.rubric if i.check.type == "state_diff"})
    config = (
        [{"type": "launch", "parameters": {"command": ["firefox-esr", "--new-tab", start_url]}}] if start_url else []
    ) + [{"type": "activate_window", "parameters": {"window_name": "Mozilla Firefox"}}]
    return {
        "id": example or task.id,
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
                "type": "rule",
                "rules": {
                    "task_id": task.id,
                    "split": task.split,
                    "category": task.category,
                    "kind": task.kind,
                    "instruction": task.instruction,
                    "rubric": [i.model_dump(exclude_none=True) for i in task.rubric],
                },
            },
            "options": {"judge": "machine_share"},
        },
        "proxy": False,
        "fixed_ip": False,
        "possibility_of_env_change": "low",
    }


def _write_json(path: Path, obj) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def write_exports(tasks: list[Task], dest: Path, snapshot: str, urls: dict[str, str]) -> list[Path]:
    """Write ``dest/osworld/<app>/<slug>.json`` per task, OSWorld's runner layout (``dest/osworld/examples/<domain>/
    <example id>.json``, ``test_all.json``, ``split_<split>.json``, ``id_map.json``); return the paths (the MyPCBench
    export: :func:`builder.tasks.mypcbench.write_mypcbench`).

    ``urls``: app name -> its start URL in the guest (``http://<domain>/``). Raises ``ValueError`` when two
    tasks would get one example id.
    """
    out = []
    index: dict[str, list[str]] = {}
    splits: dict[str, dict[str, list[str]]] = {}
    id_map: dict[str, str] = {}
    for task in tasks:
        first = next((urls[a] for a in task.apps_involved if a in urls), None)
        out.append(_write_json(dest / "osworld" / f"{_slug_path(task)}.json", osworld_task(task, snapshot, first)))
        ex, domain = example_id(task.id), osworld_domain(task)
        if ex in id_map:
            raise ValueError(f"tasks {id_map[ex]!r} and {task.id!r} share the OSWorld example id {ex!r}")
        id_map[ex] = task.id
        index.setdefault(domain, []).append(ex)
        splits.setdefault(task.split or "train", {}).setdefault(domain, []).append(ex)
        out.append(
            _write_json(
                dest / "osworld" / "examples" / domain / f"{ex}.json", osworld_task(task, snapshot, first, example=ex)
            )
        )
    out.append(_write_json(dest / "osworld" / "test_all.json", index))
    for split in sorted(splits):
        out.append(_write_json(dest / "osworld" / f"split_{split}.json", splits[split]))
    out.append(_write_json(dest / "osworld" / "id_map.json", id_map))
    return out
