"""The oracle run: every action task of the default persona, from a fresh copy of the seeded databases,
scores 0 when nothing is done and its full machine weight after its reference solution
(``apps/<app>/oracle.py``) acted through the production build of the apps, and does no harm: no invariant of any
app (a bill paid twice, a table booked twice, money below zero: :mod:`builder.tasks.invariants`) is broken by its
end state, and leaves no app changed that no state_diff check of its task covers (:func:`uncovered`): every side
effect (a confirmation mail, a card payment, :mod:`builder.tasks.effects`) is checked.

One test per app (its action tasks in order), so pytest-xdist spreads the apps over its workers. The other
shipped personas' long-horizon tasks (the chains most likely to name something only one persona's world has) run
the same way, one test per persona, on that persona's own layer.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from builder.apps import discover
from builder.tasks.grade import grade, graded_apps, state_changes
from builder.tasks.invariants import broken
from builder.tasks.reader import NoReader, See, Unreadable, answer_items, compare, find, read
from builder.tasks.oracle import OracleError, Web, solve, task_app

from tests.app_e2e import Served, app, layer
from tests.conftest import DEFAULT_PERSONA, PERSONAS, _world
from builder.tasks.collect import app_tasks

# Every test here serves the site build (tests/app_e2e.py): out of the fast lane.
pytestmark = pytest.mark.usefixtures("site_build")

APPS = [a.name for a in discover()]


def web_for(world, served: Served, home: Path) -> Web:
    """A browser signed in to every served app as the persona (the sessions the layer's Firefox holds)."""
    apps = discover()
    cookies = {a.name: {a.session_cookie: a.module("seed").credentials(world)["session_token"]} for a in apps}
    return Web(
        port=served.port,
        domains={a.name: a.domain for a in apps},
        cookies=cookies,
        databases={a.name: served.database(a.name) for a in apps},
        home=home,
        currency=world.persona.finances.currency,
    )


#: What every episode may change outside the task's own apps: the sign-in sessions.
SESSION_TABLES = frozenset({"sessions"})


def uncovered(task, initial: dict[str, Path], end: dict[str, Path]) -> list[str]:
    """The apps an oracle's end state changed that no state_diff check of the task covers (sign-in sessions aside):
    ``"<app> (<tables>)"``. Each is a side effect (a confirmation mail, a card authorisation, a calendar entry) the
    task lets through unchecked."""
    covered = {i.check.app for i in task.rubric if i.check.type == "state_diff"}
    out = []
    for a in sorted(initial):
        changed = {t for t, *_ in state_changes(initial[a], end[a])} - SESSION_TABLES
        if changed and a not in covered:
            out.append(f"{a} ({', '.join(sorted(changed))})")
    return out


def read_after(task, world, served: Served, home: Path) -> list[str]:
    """Where the independent reader of an action task's answer, reading the end state its oracle left
    (``@reader(after_action=True)``), disagrees with the task (empty: it agrees, or the task has no such reader)."""
    if not answer_items(task):
        return []
    try:
        found = find(task)
    except NoReader:
        return [f"{task.id}: an answer of an action task with no reader"]
    if not found.after_action:
        return []  # read on the seeded desktop (tests/tasks/test_readers.py)
    apps = discover()
    see = See(
        port=served.port,
        domains={a.name: a.domain for a in apps},
        cookies={a.name: {a.session_cookie: a.module("seed").credentials(world)["session_token"]} for a in apps},
        now=world.now.replace(tzinfo=None),
        home=home,
    )
    try:
        return [f"reader after the action: {p}" for p in compare(task, read(task, see), found)]
    except Unreadable as e:
        return [f"reader after the action: {e}"]


def run_oracle(task, world, layer: Path, tmp: Path) -> tuple[int, int, list, list[str], list[str]]:
    """(score before, score after, items after, invariants broken, apps changed unchecked) of ``task`` done by its
    oracle on fresh copies of ``layer``: :func:`builder.tasks.invariants.broken` and :func:`uncovered` over every
    app's database."""
    apps = graded_apps(task)
    every = [a.name for a in discover()]
    seeded = {a: layer / "var/lib/persona-desktop/apps" / app(a).name / app(a).database for a in every}
    initial = {a: seeded[a] for a in apps}
    user = next((layer / "home").iterdir())
    home = tmp / "home"
    shutil.copytree(user, home, symlinks=True)
    with Served(layer, tmp, now=world.now.isoformat()) as served:
        dbs = {a: served.database(a) for a in apps}
        before, _ = grade(task, dbs, "", initial=initial, home=home)
        answer = solve(task, web_for(world, served, home))
        after, items = grade(task, dbs, answer, initial=initial, home=home)
        reread = read_after(task, world, served, home)
        end = {a: served.database(a) for a in every}
        damage, gaps = broken(seeded, end) + reread, uncovered(task, seeded, end)
    return before, after, items, damage, gaps


@pytest.mark.parametrize("name", APPS)
def test_oracles_score_full_and_nothing_scores_zero(name, world, default_layer, tmp_path):
    actions = [t for t in app_tasks(world, name) if t.kind == "action"]
    if not actions:
        pytest.skip(f"{name} has no action tasks for this persona")
    failures, unchecked = [], []
    for t in actions:
        slug = t.id.rsplit("/", 1)[-1]
        assert task_app(t) == name, t.id
        (tmp_path / slug).mkdir()
        before, after, items, damage, gaps = run_oracle(t, world, default_layer, tmp_path / slug)
        unchecked += [f"{t.id}: {g}" for g in gaps]
        if damage:
            failures.append((t.id, "harm", damage))
        if before != 0 or after != t.machine_weight:
            failures.append(
                (
                    t.id,
                    before,
                    after,
                    t.machine_weight,
                    [(i.item_id, i.status, i.evidence[:300]) for i in items if i.status != "met"],
                )
            )
    assert not failures, "\n".join(map(repr, failures))
    assert unchecked == [], unchecked


#: The other persona whose long-horizon oracles CI runs: the German one, whose world, language and tax system differ
#: most from the default persona's; ``PERSONA_ORACLE_ALL=1`` runs every other persona (about 3 minutes each).
OTHER = "jana-petersen"


@pytest.mark.parametrize(
    "stem",
    [p for p in PERSONAS if p != DEFAULT_PERSONA.stem and (p == OTHER or os.environ.get("PERSONA_ORACLE_ALL") == "1")],
)
def test_long_horizon_oracles_of_the_other_personas(stem, tmp_path_factory, tmp_path):
    """Their long-horizon tasks; with ``PERSONA_ORACLE_ALL=1`` every other persona and every action task (about 25
    minutes a persona on 2 cores: a sweep to run by hand after changing oracles or worlds, not in CI)."""
    _, world = _world(stem)
    every = os.environ.get("PERSONA_ORACLE_ALL") == "1"
    tasks = [
        t
        for a in discover()
        for t in app_tasks(world, a.name)
        if t.category == "long_horizon" or (every and t.kind == "action")
    ]
    assert len(tasks) >= 15, (stem, len(tasks))
    lay = layer(world, tmp_path_factory.mktemp(f"layer-{stem}"))
    failures, unchecked = [], []
    for t in tasks:
        slug = t.id.split("/", 1)[1].replace("/", "__")
        (tmp_path / slug).mkdir()
        try:
            before, after, items, damage, gaps = run_oracle(t, world, lay, tmp_path / slug)
            unchecked += [f"{t.id}: {g}" for g in gaps]
        except OracleError as e:  # every task's outcome in one run, not just the first refusal
            failures.append((t.id, "oracle refused", str(e)[:500]))
            continue
        if damage:
            failures.append((t.id, "harm", damage))
        if before != 0 or after != t.machine_weight:
            failures.append(
                (
                    t.id,
                    before,
                    after,
                    t.machine_weight,
                    [(i.item_id, i.status, i.evidence[:300]) for i in items if i.status != "met"],
                )
            )
    assert not failures, "\n".join(map(repr, failures))
    assert unchecked == [], unchecked
