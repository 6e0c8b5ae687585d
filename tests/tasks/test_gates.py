"""Quality gates on the generated task set of every shipped persona (the benchmark issue's floors).

For every shipped persona: at least 200 tasks, every category at least 15, at least 60 % of tasks in two
or more apps and 10 % in five or more, at least 70 % of all rubric weight machine-checkable; unique instructions, no internal ids in them, every planted item of the world used by a task,
varied openings, dates said relative to today in some of them.
"""

from __future__ import annotations

import re
from collections import Counter

from builder.tasks.model import CATEGORIES, NOT_APPS
from tests.conftest import world_tasks

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}")
INTERNAL = re.compile(r"\b(world_ref|event_id|planted|contradiction/|pending/|unread/|chain/|own_event)\b|_id\b")
RELATIVE = re.compile(
    r"\b(today|tomorrow|yesterday|tonight|(last|this|next) (week|month|year|Monday|Tuesday|Wednesday|"
    r"Thursday|Friday|Saturday|Sunday))\b",
    re.IGNORECASE,
)


def all_tasks(world):
    return world_tasks(world)


def apps_of(task) -> set[str]:
    return set(task.apps_involved) - NOT_APPS


def test_every_persona_meets_the_benchmark_floors(any_world):
    _, world = any_world
    ts = all_tasks(world)
    cats = Counter(t.category for t in ts)
    assert len(ts) >= 200, len(ts)
    assert all(cats[c] >= 15 for c in CATEGORIES), dict(cats)
    multi = sum(len(apps_of(t)) >= 2 for t in ts)
    five = sum(len(apps_of(t)) >= 5 for t in ts)
    assert multi >= 0.6 * len(ts), (multi, len(ts))
    assert five >= 0.1 * len(ts), (five, len(ts))
    machine = sum(t.machine_weight for t in ts)
    assert machine >= 0.7 * 100 * len(ts), machine / len(ts)


def test_every_persona_tasks_read_like_requests(any_world):
    _, world = any_world
    ts = all_tasks(world)
    assert ts
    instructions = Counter(t.instruction for t in ts)
    assert not [i for i, n in instructions.items() if n > 1], "the same instruction twice"
    for t in ts:
        assert not UUID.search(t.instruction), (t.id, t.instruction)
        assert not INTERNAL.search(t.instruction), (t.id, t.instruction)
        assert t.category in CATEGORIES and sum(i.weight for i in t.rubric) == 100
    openings = Counter(" ".join(t.instruction.split()[:3]).lower() for t in ts)
    assert openings.most_common(1)[0][1] <= max(6, len(ts) // 15), openings.most_common(3)
    assert sum(bool(RELATIVE.search(t.instruction)) for t in ts) >= len(ts) // 10


def test_every_contradiction_task_says_which_source_wins(any_world):
    """A contradiction task carries the rule a careful person would use to decide which source is right."""
    _, world = any_world
    missing = [t.id for t in all_tasks(world) if t.category == "contradiction" and not (t.rule or "").strip()]
    assert not missing, missing


def test_every_planted_item_is_used_by_a_task(any_world):
    _, world = any_world
    ts = all_tasks(world)
    used = {p for t in ts for p in t.planted}
    planted = [p["id"] for p in world.planted if p.get("kind") != "skipped"]  # "skipped": material the world lacks
    assert not set(used) - set(planted), f"tasks name planted items the world lacks: {sorted(set(used) - set(planted))}"
    assert not [p for p in planted if p not in used], (
        f"planted items no task uses: {[p for p in planted if p not in used]}"
    )


# Every answer task's expected values are re-derived from the desktop by its independent reader: tests/tasks/
# test_readers.py (the shipped personas) and tests/tasks/test_population_readers.py (a generated population).
