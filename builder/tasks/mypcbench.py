"""The bundle's tasks as MyPCBench's own harness reads them (``tasks/mypcbench/``).

MyPCBench's runners read one JSON *list* of task objects (``--tasks_dir DIR`` reads
``DIR/all_tasks_with_grading.json``; ``--tasks-file FILE`` reads ``FILE``), refuse an id holding ``/``, ``\\``
or ``..``, and its schema wants ids matching :data:`ID_PATTERN`, ``category``, ``instruction`` and ``grading:
{type: "llm_judge", rubrics: [...]}`` whose items are ``llm_judge`` with a ``weight`` in 0..1 (the weights of a
task sum to 1). Its judges grade each item from the trajectory (screenshots, actions, the agent's final message)
by its ``criterion`` and ``weight`` (the full-trajectory judge also reads ``verification`` and ``rubric_id``).
A ``grading.checks`` list would turn its rubric packaging off, so there is none.

What :func:`write_mypcbench` writes under ``dest/mypcbench/`` (the layout of MyPCBench's ``tasks/final/``):

* ``all_tasks_with_grading.json``: the list of :func:`record` objects, in bundle order;
* ``all_tasks.json``: the same without ``grading`` (MyPCBench's grading-free list);
* ``<app>/<app>.rubrics.json``: the records of the tasks homed in ``<app>`` (the ``<app>`` of our id);
* ``id_map.json``: ``{MyPCBench id: our id}``, sorted (:func:`mypcbench_id` is the rule).

A record::

    {"id": "situated_action-1f0c9a3b7d2e", "category", "instruction", "app", "apps_involved", "difficulty",
     "time_limit_seconds",
     "grading": {"type": "llm_judge", "rubrics": [{"rubric_id", "criterion", "verification", "type": "llm_judge",
                 "weight": 0.35, "persona_check": "<our check type>", "graded_by": "command" | "judge"}]},
     "persona_desktop": {"task_id", "persona", "kind", "split", "machine_weight": 0..1}}

The persona is under ``persona_desktop`` (MyPCBench's optional top-level ``persona`` names its own persona only).
Each criterion is our requirement worded for a judge who sees the trajectory (:func:`judge_wording`): an answer
item is read in the final message, a ``sql`` item in a screenshot of the app, a ``state_diff`` item ("nothing else
changed") in the actions taken in that app, a ``file`` item in the save. ``graded_by: "command"`` marks an item
our grader decides exactly from the end state (``grade TASK --bundle DIR --control URL``, run before the
harness's reset); ``judge`` marks an item only a judge can assess.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from decimal import Decimal
from pathlib import Path

from .model import CATEGORIES, RubricItem, Task

#: MyPCBench's id pattern (its ``tasks/schema.json``): a lower-case word, a hyphen, lower-case letters and digits.
ID_PATTERN = re.compile(r"^[a-z_]+-[a-z0-9]+$")
#: Hex digits of the SHA-256 of our id in a MyPCBench id.
ID_DIGITS = 12
#: The task categories MyPCBench's schema allows (ours are all among them).
MYPCBENCH_CATEGORIES = frozenset(CATEGORIES) | {"cua_only", "hard_app"}
#: Where MyPCBench's runner leaves the agent's final message in the guest (a harness passes it to ``grade
#: --guest-answer``).
GUEST_RESPONSE = "/tmp/mypcbench_agent_response.txt"
FOLDER = "mypcbench"
_TEMPLATE = re.compile(r"\$\{[A-Za-z_]+\}")


def mypcbench_id(task: Task) -> str:
    """The MyPCBench id of ``task``: ``<category>-<first 12 hex digits of the SHA-256 of its id>``.

    Fixed by the id and category alone, so the same task always gets the same one; it matches :data:`ID_PATTERN`
    (``situated_action-1f0c9a3b7d2e``). ``id_map.json`` and ``persona_desktop.task_id`` map it back."""
    digest = hashlib.sha256(task.id.encode("utf-8")).hexdigest()[:ID_DIGITS]
    return f"{task.category}-{digest}"


def _scope(requirement: str) -> str:
    """What a "Nothing else changed in X: only Y" requirement allows (``only Y``), or the requirement itself."""
    head, sep, rest = requirement.partition(":")
    return rest.strip() if sep and head.lower().startswith("nothing else changed") and rest.strip() else requirement


_ANSWER_RULE = {
    "answer_amount": "it must state this amount with its currency",
    "answer_number": "it must state this number",
    "answer_text": "it must say this (in any wording, with the same fact)",
    "answer_list": "it must name every one of them",
}


def judge_wording(item: RubricItem, titles: dict[str, str]) -> tuple[str, str]:
    """``(criterion, verification)`` of ``item`` for a judge who sees the trajectory (screenshots, actions and the
    agent's final message), never a database. ``titles``: app name -> the title it shows (``Larkspur Bank``)."""
    c = item.check
    req = item.requirement.strip().rstrip(".")
    if c.type in _ANSWER_RULE:
        rule = _ANSWER_RULE[c.type] + (" in this order" if c.type == "answer_list" and c.ordered else "")
        return (
            f"The agent's final answer to the user: {req}.",
            f"Read the agent's final message (its last response): {rule}. An answer that also gives another "
            "candidate (another amount, name, day or count of the same kind) fails.",
        )
    if c.type == "sql":
        title = titles.get(c.app, c.app)
        return (
            f"The trajectory shows this done in {title}: {req}.",
            f"Look for a screenshot of {title} after the agent's last submit (a confirmation, or the list or page "
            "that holds it) showing it; a form that was never submitted, or that showed an error, does not count.",
        )
    if c.type == "state_diff":
        title = titles.get(c.app, c.app)
        return (
            f"Nothing in {title} changed beyond what the task needs ({_scope(req)}): the trajectory shows no other "
            f"save, send, payment, booking, deletion or cancellation in {title}.",
            f"Go through every action and screenshot in {title}: each form the agent submitted there must serve the "
            "task; one that changes anything else (a second payment, an edited setting, a deleted item) fails.",
        )
    if c.type == "file":
        kind = f" ({c.kind})" if c.kind and c.kind != "any" else ""
        return (
            f"The trajectory shows the document saved under the home folder as ~/{c.path}{kind}: {req}.",
            "Look for the save (a Save dialog or a window title naming the file) and for its content in the "
            "screenshots.",
        )
    return req, "Evidence: " + "; ".join(c.evidence or ["the trajectory"]) + "."


def record(task: Task, titles: dict[str, str]) -> dict:
    """The MyPCBench task object of ``task`` (the module docstring shows its shape); weights are our integer
    weights / 100, so they sum to exactly 1 as decimals."""
    rubrics = []
    worded = [judge_wording(item, titles) for item in task.rubric]
    seen = Counter(criterion for criterion, _ in worded)
    for item, (criterion, verification) in zip(task.rubric, worded):
        if seen[criterion] > 1:
            # Two items may ask for the same words (two obligations due the same day, an amount that is both what
            # was paid and what would have been): each criterion must be its own, so it names its item.
            criterion = f"{criterion} (item {item.id!r})"
        rubrics.append(
            {
                "rubric_id": item.id,
                "criterion": criterion,
                "verification": verification,
                "type": "llm_judge",
                "weight": item.weight / 100,
                "persona_check": item.check.type,
                "graded_by": "command" if item.check.machine else "judge",
            }
        )
    return {
        "id": mypcbench_id(task),
        "category": task.category,
        "instruction": task.instruction,
        "app": task.id.split("/")[1],
        "apps_involved": task.apps_involved,
        "difficulty": task.difficulty,
        "time_limit_seconds": task.time_limit_seconds,
        "grading": {"type": "llm_judge", "rubrics": rubrics},
        "persona_desktop": {
            "task_id": task.id,
            "persona": task.persona,
            "kind": task.kind,
            "split": task.split,
            "machine_weight": task.machine_weight / 100,
        },
    }


def problems(records: list[dict]) -> list[str]:
    """What in ``records`` MyPCBench's loaders, schema or validator would refuse: an id off :data:`ID_PATTERN` or
    holding a path part, a repeated id, a missing or unknown category, an empty instruction, grading that is not
    ``llm_judge``, a ``grading.checks`` list, an item without a criterion, of another type or with a weight outside
    0..1, weights not summing to 1 (to 0.001, as decimals), a criterion repeated in a task, an unresolved ``${VAR}``
    in the instruction or grading, a top-level ``persona``. One line per problem; ``[]`` when there is none."""
    out: list[str] = []
    seen: set[str] = set()
    for n, r in enumerate(records):
        tid = r.get("id")
        where = f"record {n} ({tid!r})"
        if not isinstance(tid, str) or not ID_PATTERN.match(tid) or any(s in tid for s in ("/", "\\", "..")):
            out.append(f"{where}: id does not match {ID_PATTERN.pattern}")
        if tid in seen:
            out.append(f"{where}: id repeats")
        seen.add(tid)
        if r.get("category") not in MYPCBENCH_CATEGORIES:
            out.append(f"{where}: category {r.get('category')!r} is not one MyPCBench knows")
        if not (isinstance(r.get("instruction"), str) and r["instruction"].strip()):
            out.append(f"{where}: no instruction")
        if "persona" in r:
            out.append(f"{where}: a top-level persona (MyPCBench's schema allows only its own)")
        grading = r.get("grading") or {}
        if grading.get("type") != "llm_judge":
            out.append(f"{where}: grading.type is {grading.get('type')!r}, not 'llm_judge'")
        if grading.get("checks"):
            out.append(f"{where}: grading.checks would turn MyPCBench's rubric bundle off")
        items = grading.get("rubrics") or []
        if not items:
            out.append(f"{where}: no rubrics")
        for item in items:
            if not (isinstance(item.get("criterion"), str) and item["criterion"].strip()):
                out.append(f"{where}: an item without a criterion")
            if item.get("type", "llm_judge") != "llm_judge":
                out.append(f"{where}: item type {item.get('type')!r}")
            w = item.get("weight")
            if isinstance(w, bool) or not isinstance(w, (int, float)) or not 0 <= w <= 1:
                out.append(f"{where}: weight {w!r} outside 0..1")
        total = sum(
            (Decimal(str(i.get("weight"))) for i in items if isinstance(i.get("weight"), (int, float))), Decimal(0)
        )
        if items and abs(total - 1) > Decimal("0.001"):
            out.append(f"{where}: weights sum to {total}")
        texts = [i.get("criterion") for i in items]
        if len(texts) != len(set(texts)):
            out.append(f"{where}: a criterion repeats")
        if _TEMPLATE.search(json.dumps({"instruction": r.get("instruction"), "grading": grading})):
            out.append(f"{where}: an unresolved ${{VAR}} in the instruction or grading")
    return out


def _dump(path: Path, data) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def write_mypcbench(tasks: list[Task], dest: Path, titles: dict[str, str]) -> list[Path]:
    """Write ``dest/mypcbench/`` (the module docstring lists the files) for ``tasks``; return the paths written.

    ``titles``: app name -> its title. Raises ``ValueError`` when two tasks get one MyPCBench id or a record breaks
    a rule of MyPCBench's (:func:`problems`), naming them, before anything is written."""
    records = [record(t, titles) for t in tasks]
    ids: dict[str, str] = {}
    for t, r in zip(tasks, records):
        if r["id"] in ids:
            raise ValueError(f"MyPCBench ids collide: {ids[r['id']]} and {t.id} are both {r['id']}")
        ids[r["id"]] = t.id
    bad = problems(records)
    if bad:
        raise ValueError("the MyPCBench export breaks its rules: " + "; ".join(bad[:5]))
    folder = dest / FOLDER
    out = [
        _dump(folder / "all_tasks_with_grading.json", records),
        _dump(folder / "all_tasks.json", [{k: v for k, v in r.items() if k != "grading"} for r in records]),
    ]
    for app in sorted({r["app"] for r in records}):
        out.append(_dump(folder / app / f"{app}.rubrics.json", [r for r in records if r["app"] == app]))
    out.append(_dump(folder / "id_map.json", dict(sorted(ids.items()))))
    return out
