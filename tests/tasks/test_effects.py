"""Side effects between apps (``builder/tasks/effects.py``): what each app declares in its ``effects.py``, how an
action task's calls are counted from its own state_diff items, the items the builder adds for the apps they reach
(gated: each must fail on an untouched database), and the shipped tasks' consistency with the declarations.

Whether the declarations match what the apps really write is the oracle run's part (tests/tasks/test_oracles.py:
every app an oracle changed is covered, and every reference solution still scores full).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from builder.apps import discover
from builder.tasks import effects
from builder.tasks.grade import graded_apps, run_check
from builder.tasks.model import Change, Check, RubricItem, Task
from tests.conftest import world_tasks

REPO = Path(__file__).resolve().parents[2]


def _task(*items: RubricItem, apps: tuple[str, ...] = ("dining",), kind: str = "action") -> Task:
    rest = 100 - sum(i.weight for i in items)
    filler = [RubricItem(id="done", weight=rest, requirement="r", check=Check(type="answer_text", any_of=["x"]))][
        : 1 if rest else 0
    ]
    return Task(
        id="p/dining/t",
        persona="p",
        kind=kind,
        instruction="i",
        apps_involved=list(apps),
        difficulty="easy",
        time_limit_seconds=60,
        rubric=[*items, *filler],
        expected={},
    )


def _diff(app: str, *changes: Change, rid: str = "only", weight: int = 30) -> RubricItem:
    return RubricItem(
        id=rid, weight=weight, requirement="r", check=Check(type="state_diff", app=app, changes=list(changes))
    )


BOOKED = _diff("dining", Change(table="reservations", op="insert", min=1, max=1))


def test_every_platform_service_is_declared_by_the_app_that_provides_it():
    """The services of ``@persona/platform/services`` each have the rows one call writes (CALLS), declared by the app
    whose app.yaml provides them, and every cause names a declared call."""
    ts = (REPO / "apps/_platform/src/services.ts").read_text(encoding="utf-8")
    union = re.search(r"export type Service = ([^;]+);", ts).group(1)
    services = re.findall(r'"([a-z-]+)"', union)
    declared = effects.declared()  # raises on a cause naming no call, or a call of a service not provided
    calls = {name.split("/", 1)[0]: e.app for e in declared for name in e.calls}
    provider = {s: a.name for a in discover() for s in a.provides}
    assert sorted(calls) == sorted(services), (calls, services)
    assert all(calls[s] == provider[s] for s in services)


def test_calls_are_counted_from_the_task_own_changes():
    e = effects.declared()
    assert effects.calls([BOOKED], e) == {"mail-delivery": (1, 1, ["TableTime"])}
    # An update makes calls only through the columns it names: a cancellation mails, a party size change does not.
    cancel = _diff(
        "dining", Change(table="reservations", op="update", min=1, max=1, columns=["status", "cancelled_at"])
    )
    assert effects.calls([cancel], e) == {"mail-delivery": (1, 1, ["TableTime"])}
    party = _diff("dining", Change(table="reservations", op="update", min=1, max=1, columns=["party_size"]))
    assert effects.calls([party], e) == {}
    # Columns left open: every cause may fire, none must.
    anyhow = _diff("dining", Change(table="reservations", op="update", min=1, max=1))
    assert effects.calls([anyhow], e)["card-network"] == (0, 1, ["TableTime"])
    rides = _diff("rides", Change(table="rides", op="insert", min=2, max=2), rid="r")
    assert effects.calls([BOOKED, rides], e)["mail-delivery"] == (3, 3, ["TableTime", "ZipRide"])


def test_the_added_item_allows_exactly_the_calls_rows_and_fails_on_an_untouched_database(tmp_path):
    import sqlite3

    task = effects.complete(_task(BOOKED))
    added = [i for i in task.rubric if i.id == "mail-effects"]
    assert len(added) == 1 and added[0].weight == effects.WEIGHT and sum(i.weight for i in task.rubric) == 100
    check = added[0].check
    assert check.app == "mail" and "TableTime" in added[0].requirement
    assert Change(table="messages", op="insert", min=1, max=1) in check.changes
    assert Change(table="messages", op="update", min=0, columns=["is_read"]) in check.changes  # a visit reads mail
    db = tmp_path / "mail.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, is_read INTEGER)")
        con.execute("CREATE TABLE attachments (id INTEGER PRIMARY KEY)")
    assert run_check(check, {"mail": db}, "", initial={"mail": db})[0] is False
    end = tmp_path / "end.sqlite"
    end.write_bytes(db.read_bytes())
    with sqlite3.connect(end) as con:
        con.execute("INSERT INTO messages (is_read) VALUES (0)")
    assert run_check(check, {"mail": end}, "", initial={"mail": db})[0] is True
    with sqlite3.connect(end) as con:  # a second mail: the action was done twice
        con.execute("INSERT INTO messages (is_read) VALUES (0)")
    assert run_check(check, {"mail": end}, "", initial={"mail": db})[0] is False
    assert graded_apps(task) == ["dining", "mail"]


def test_no_item_where_the_task_covers_the_app_or_every_call_may_be_none():
    covered = _task(BOOKED, _diff("mail", Change(table="messages", op="insert"), rid="m", weight=10))
    assert effects.complete(covered) == covered
    maybe = _diff("markets", Change(table="activity", op="insert", min=1, max=1))  # a transfer or a trade
    assert effects.complete(_task(maybe, apps=("markets",))).rubric == _task(maybe, apps=("markets",)).rubric
    lookup = _task(BOOKED, kind="lookup").model_copy(update={"category": "retrieval"})
    assert effects.complete(lookup) is lookup  # answers write nothing


def test_acting_diffs_each_app_with_the_calls_of_the_others():
    task = effects.acting(
        _task(BOOKED, apps=("dining", "mail", "rides")),
        ("mail", "the mail to Sam", (Change(table="messages", op="insert", min=1, max=2),)),
        ("rides", "the ride there", (Change(table="rides", op="insert", min=1, max=1),)),
    )
    by = {i.id: i for i in task.rubric}
    assert sum(i.weight for i in task.rubric) == 100 and by["only-rides"].weight == effects.WEIGHT
    mail = by["only-mail"].check.changes
    # The mail sent and its answer, TableTime's confirmation and ZipRide's.
    assert Change(table="messages", op="insert", min=3, max=4) in mail
    assert "the mail to Sam" in by["only-mail"].requirement and "ZipRide" in by["only-mail"].requirement
    # An act on an app the rubric diffs already replaces that item, keeping its id and weight.
    again = effects.acting(task, ("rides", "two rides", (Change(table="rides", op="insert", min=2, max=2),)))
    assert [i.id for i in again.rubric] == [i.id for i in task.rubric]
    assert {i.id: i.weight for i in again.rubric} == {i.id: i.weight for i in task.rubric}
    with pytest.raises(ValueError):
        effects.acting(task, ("messaging", "nothing", (Change(table="messages", op="insert", min=0),)))


def test_expect_and_reweigh():
    item = effects.expect("bank-transfers", 2, 2, "Hunchline")
    assert (
        item.check.app == "bank" and Change(table="external_transfers", op="insert", min=2, max=2) in item.check.changes
    )
    with pytest.raises(ValueError):
        effects.expect("bank-transfers", 0, 1, "Hunchline")
    assert effects.reweigh([55, 30, 15], 95) == [52, 29, 14]
    assert sum(effects.reweigh([97, 1, 1, 1], 80)) == 80 and min(effects.reweigh([97, 1, 1, 1], 80)) == 1


@pytest.fixture(scope="module", params=["dana-whitfield", "jordan-lee"])
def shipped(request):
    from tests.conftest import _world

    return world_tasks(_world(request.param)[1])


def test_shipped_side_effect_items_are_gated_and_agree_with_the_declarations(shipped):
    """Every state_diff item of a shipped action task demands some change (so doing nothing scores 0), and an app an
    action's own items call into is diffed by an item that allows at least the rows those calls must write."""
    declared = effects.declared()
    by_app = {e.app: e for e in declared}
    for t in (t for t in shipped if t.kind == "action"):
        diffs = {i.check.app: i for i in t.rubric if i.check.type == "state_diff"}
        for app, item in diffs.items():
            assert any(c.min for c in item.check.changes), (t.id, item.id)
        own = [i for i in t.rubric if i.check.type == "state_diff" and not i.id.endswith("-effects")]
        for name, (lo, _, _) in effects.calls(own, declared).items():
            provider = next(e for e in declared if name in e.calls)
            if not lo or provider.app not in diffs:
                continue
            for c in by_app[provider.app].calls[name].changes:
                if not c.min:
                    continue
                allowed = [
                    x
                    for x in diffs[provider.app].check.changes
                    if x.table == c.table and x.op == c.op and (x.max is None or x.max >= lo * c.min)
                ]
                assert allowed, (t.id, provider.app, c.table, c.op, lo)
