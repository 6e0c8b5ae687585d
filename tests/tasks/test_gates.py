"""Quality gates on the generated task set of every shipped persona (the benchmark issue's floors).

For every shipped persona: at least 200 tasks, every category at least 15, at least 60 % of tasks in two
or more apps and 10 % in five or more, at least 70 % of all rubric weight machine-checkable; unique instructions, no internal ids in them, every planted item of the world used by a task,
varied openings, dates said relative to today in some of them.
"""

from __future__ import annotations

import re
from collections import Counter

from builder.apps import discover
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


def test_every_planted_item_is_used_by_a_task(any_world):
    _, world = any_world
    ts = all_tasks(world)
    used = {p for t in ts for p in t.planted}
    planted = [p["id"] for p in world.planted if p.get("kind") != "skipped"]  # "skipped": material the world lacks
    assert not set(used) - set(planted), f"tasks name planted items the world lacks: {sorted(set(used) - set(planted))}"
    assert not [p for p in planted if p not in used], (
        f"planted items no task uses: {[p for p in planted if p not in used]}"
    )


# Retrieval answers a page computes rather than stores; how each is derived (the app's own tests check the page).
COMPUTED = {
    "airline/status-miles": "the flown segments' status miles, summed",
    "brokerage/portfolio-value": "shares × the as_of prices, plus cash",
    "markets/cash-balance": "the account's activity, summed",
    "markets/market-odds": "the market's last price (a fraction, shown in ¢ and %)",
    "stays/stay-cost-per-night": "the stay's charge over its nights",
    "stays/longest-stay": "check-out day minus check-in day",
    "rides/pair-airport-lead": "the flight's departure minus the airport ride's drop-off, in minutes",
    "taxes/standard-deduction": "the app's rule set for the tax year, not a row",
}


def _database_text_and_numbers(path) -> tuple[str, set[int]]:
    """Every text value (lowercased, one per line) and every integer (and its negative) in a SQLite file."""
    import sqlite3

    con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    texts, ints = [], set()
    try:
        for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            for row in con.execute(f'SELECT * FROM "{table}"'):
                for v in row:
                    if isinstance(v, str):
                        texts.append(v.lower())
                    elif isinstance(v, int):
                        ints.update((v, -v))
                    elif isinstance(v, bytes):
                        texts.append(v.decode("utf-8", "replace").lower())
    finally:
        con.close()
    return "\n".join(texts), ints


def test_every_retrieval_answer_is_in_the_seeded_databases(any_world, tmp_path_factory):
    """The expected value of every retrieval task's answer check, looked up in the seeded databases of the apps
    the task names (as a stored amount, number or text), equals the world's: a value the seeds did not write
    could not be found by anyone. Values a page computes are listed in COMPUTED with their derivation."""
    from tests.app_e2e import layer

    persona, world = any_world
    lay = layer(world, tmp_path_factory.mktemp(f"gate-{persona.id}"), home=False)  # the databases are enough
    apps = {a.name: a for a in discover()}
    cache: dict[str, tuple[str, set[int]]] = {}

    def data(app: str) -> tuple[str, set[int]]:
        if app not in cache:
            cache[app] = _database_text_and_numbers(lay / apps[app].guest_database.lstrip("/"))
        return cache[app]

    checked, missing = 0, []
    for t in all_tasks(world):
        slug = t.id.split("/", 1)[1]
        if t.category != "retrieval" or "files" in t.apps_involved or slug in COMPUTED:
            continue
        named = sorted(apps_of(t))

        def found_text(form: str) -> bool:
            return any(form.lower() in data(a)[0] for a in named)

        for i in t.rubric:
            c = i.check
            if c.type == "answer_text":
                ok = any(found_text(f) for f in c.any_of)
            elif c.type == "answer_amount":
                ok = any(c.cents in data(a)[1] for a in named) or any(
                    found_text(f) for f in (f"{c.cents / 100:,.2f}", f"{c.cents / 100:.2f}", str(c.cents))
                )
            elif c.type == "answer_number":
                ok = any(c.value in data(a)[1] for a in named) or found_text(str(c.value))
            elif c.type == "answer_list":
                ok = all(any(found_text(s) for s in item) for item in c.items)
            else:
                continue
            checked += 1
            if not ok:
                missing.append((slug, i.id, i.requirement))
    assert checked >= 80, checked
    assert not missing, missing
