"""Bank tasks: shape, grounding in the world, and grading of the seeded (untouched) database."""

from __future__ import annotations

from apps.bank.seed import seed
from builder.money import money
from builder.tasks.collect import app_tasks, tasks_of
from builder.tasks.grade import amounts_in, grade

tasks = tasks_of("bank")


def test_at_least_eight_tasks_with_rubrics(world):
    ts = tasks(world)
    assert len(ts) >= 8
    assert {t.kind for t in ts} == {"lookup", "aggregation", "action"}
    assert len({t.id for t in ts}) == len(ts)
    for t in ts:
        assert sum(i.weight for i in t.rubric) == 100
        if t.kind == "action":
            assert any(i.check and i.check.type == "sql" for i in t.rubric)


def test_doing_nothing_scores_zero_on_every_action_task(world, tmp_path):
    db = seed(world, tmp_path / "bank.sqlite")
    for t in tasks(world):
        if t.kind == "action":
            score, results = grade(t, {"bank": db}, answer="I did it.")
            assert score == 0, (t.id, results)


def test_checking_balance_task_expects_the_world_closing_balance(world, tmp_path):
    task = next(t for t in tasks(world) if t.id.endswith("/checking-balance"))
    closing = world.closing_balance_cents("checking")
    name = next(a.name for a in world.persona.accounts if a.kind == "checking")
    assert task.expected == {"account": name, "balance_cents": closing}
    db = seed(world, tmp_path / "bank.sqlite")
    assert grade(task, {"bank": db}, f"Your balance is {money(closing)}.")[0] == 100
    assert grade(task, {"bank": db}, f"Your balance is {money(closing + 1)}.")[0] == 0


def test_amount_parsing():
    # Money is a number with its currency; bare numbers (12.50, 7) are not amounts.
    assert amounts_in("You spent $1,234.56 and 12.50, not 7") == {123456}
    assert amounts_in("USD 3 222.31") == {322231}
    assert amounts_in("Sie haben 1.234,56 € bezahlt, davon 12 Euro Trinkgeld") == {123456, 1200}
    assert amounts_in("¥1,850 and £7") == {185000, 700}


def test_largest_purchase_is_the_largest_card_line_in_the_bank(world, tmp_path):
    import sqlite3

    task = next(t for t in tasks(world) if t.id.endswith("/largest-purchase"))
    db = sqlite3.connect(seed(world, tmp_path / "bank.sqlite"))
    month = task.expected["date"][:7]
    (smallest,) = db.execute(
        "SELECT MIN(amount_cents) FROM transactions WHERE kind = 'card_purchase' AND posted_at LIKE ?", (month + "%",)
    ).fetchone()
    assert task.expected["amount_cents"] == -smallest


def test_bundle_leaves_out_tasks_of_apps_not_built(world, tmp_path):
    """A build of some apps ships only the tasks those apps (and the home folder) can carry out and grade."""
    import json

    from builder.apps import discover
    from builder.bundle import write_tasks
    from builder.tasks.model import NOT_APPS

    every = {a.name: a for a in discover(selected=False)}
    chosen = [every["bank"], every["airline"]]
    lines = write_tasks(world, chosen, tmp_path).read_text().splitlines()
    got = [json.loads(x) for x in lines]
    assert got and all(set(t["apps_involved"]) - NOT_APPS <= {"bank", "airline"} for t in got)
    airline_alone = [t for t in app_tasks(world, "airline") if set(t.apps_involved) <= {"airline"}]
    assert {t.id for t in airline_alone} <= {t["id"] for t in got}
    assert len(got) < sum(len(app_tasks(world, a.name)) for a in chosen), "a cross-app task was left out"
