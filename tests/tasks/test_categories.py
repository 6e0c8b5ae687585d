"""The reasoning categories (contradiction, counterfactual, preference inference) at benchmark scale.

For every shipped persona: every task of these categories passes its machine checks with an answer written from its
checks' expected values and scores 0 for an empty answer; the default persona has at least 15 of each; every planted
item is used by some task; a sample of the expected values, re-derived from the seeded app databases, equals the
world's.
"""

from __future__ import annotations

import datetime as dt
import importlib
import sqlite3
from collections import Counter

import pytest

from tests.conftest import world_tasks
from builder.tasks.grade import grade

CATEGORIES = ("contradiction", "counterfactual", "preference_inference")


def _all_tasks(world) -> list:
    return world_tasks(world)


def _answer(task, currency: str = "USD") -> str:
    """An answer stating every expected value of the task's answer checks (ordered lists first, in their order),
    amounts in ``currency``."""
    from builder.money import money

    parts: list[str] = []
    checks = [i.check for i in task.rubric if i.check.machine]
    for c in sorted(checks, key=lambda c: 0 if c.type == "answer_list" and c.ordered else 1):
        if c.type == "answer_list":
            parts += [x[0] for x in c.items]
        elif c.type == "answer_text":
            parts.append(c.any_of[0])
        elif c.type == "answer_amount":
            parts.append(money(c.cents, currency))
        elif c.type == "answer_number":
            parts.append(str(c.value))
    return "Answer: " + " ; ".join(parts) + " ."


def _reasoning(world) -> list:
    return [t for t in _all_tasks(world) if t.category in CATEGORIES]


def test_answers_from_expected_values_pass_and_empty_answers_fail(any_world):
    _, world = any_world
    tasks = _reasoning(world)
    assert tasks
    for t in tasks:
        assert t.kind in ("lookup", "aggregation"), t.id
        judge = 100 - t.machine_weight
        assert judge <= 10, (t.id, judge)
        answer = _answer(t, world.persona.finances.currency)
        score, results = grade(t, {}, answer)
        assert score == t.machine_weight, (t.id, answer, results)
        assert grade(t, {}, "")[0] == 0, t.id


def test_category_counts(any_world):
    persona, world = any_world
    counts = Counter(t.category for t in _reasoning(world))
    print(persona.id, dict(counts))
    floor = 15 if persona.id == "dana-whitfield" else 12
    for c in CATEGORIES:
        assert counts[c] >= floor, (persona.id, c, counts)


def test_every_planted_item_is_used(any_world):
    _, world = any_world
    used = {pid for t in _all_tasks(world) for pid in t.planted}
    missing = [x["id"] for x in world.planted if x["kind"] != "skipped" and x["id"] not in used]
    assert not missing


def test_ids_unique_and_no_internal_ids_in_instructions(any_world):
    _, world = any_world
    tasks = _all_tasks(world)
    assert len({t.id for t in tasks}) == len(tasks)
    for t in _reasoning(world):
        for x in world.planted:
            assert x["id"] not in t.instruction
            for s in x.get("shows_in", []):
                assert s["event_id"] not in t.instruction, t.id


def _task(world, suffix: str):
    return next((t for t in _all_tasks(world) if t.id.endswith(suffix)), None)


@pytest.fixture(scope="module")
def dbs(world, tmp_path_factory):
    """Seeded databases of the apps the sample reads."""
    root = tmp_path_factory.mktemp("reasoning")
    out = {}
    for app in ("calendar", "delivery", "rides", "dining"):
        seed = importlib.import_module(f"apps.{app}.seed").seed
        out[app] = sqlite3.connect(seed(world, root / f"{app}.sqlite"))
    return out


def test_contradiction_meeting_is_at_the_stale_time_in_the_calendar(world, dbs):
    t = _task(world, "/calendar/cx-meeting-moved")
    assert t is not None
    rows = dbs["calendar"].execute("SELECT start_local FROM events WHERE title = ?", (t.expected["title"],)).fetchall()
    # A recurring meeting is one row (its first occurrence): the calendar keeps the old time of day.
    starts = {r[0][:16] for r in rows}
    assert t.expected["stale"][11:16] in {x[11:16] for x in starts}
    assert t.expected["right"][:16] not in starts


def test_contradiction_booking_time_is_the_dining_database_time(world, dbs):
    t = _task(world, "/dining/cx-booking-vs-chat")
    assert t is not None
    day, time = (
        dbs["dining"]
        .execute("SELECT day, time FROM reservations WHERE confirmation = ?", (t.expected["booking_id"],))
        .fetchone()
    )
    assert f"{day}T{time}"[:16] == t.expected["right"][:16] != t.expected["stale"][:16]


def test_counterfactual_ride_fare_and_comfort_price_match_the_rides_database(world, dbs):
    from apps.rides.seed import fare_parts

    t = _task(world, "/rides/cf-comfort")
    db = dbs["rides"]
    tenths, minutes, fare = db.execute(
        "SELECT CAST(ROUND(distance_miles * 10) AS INTEGER), duration_minutes, fare_cents FROM rides WHERE ride_id = ?",
        (t.expected["ride_id"],),
    ).fetchone()
    (percent,) = db.execute("SELECT price_percent FROM ride_types WHERE code = 'comfort'").fetchone()
    assert fare == t.expected["fare_cents"]
    assert fare_parts(tenths, minutes, percent)["fare_cents"] == t.expected["comfort_cents"]


def test_counterfactual_delivery_tips_match_the_delivery_database(world, dbs):
    t = _task(world, "/delivery/cf-tip-rate")
    today = world.now.date()
    month = (today.replace(day=1) - dt.timedelta(days=1)).strftime("%Y-%m")
    rows = (
        dbs["delivery"]
        .execute(
            "SELECT subtotal_cents, tip_cents FROM orders WHERE world_ref IS NOT NULL "
            "AND status = 'delivered' AND substr(placed_at, 1, 7) = ?",
            (month,),
        )
        .fetchall()
    )
    assert len(rows) == t.expected["orders"]
    assert sum(r[1] for r in rows) == t.expected["tips_cents"]
    assert sum(r[0] * t.expected["alt_percent"] // 100 for r in rows) == t.expected["alt_tips_cents"]


def test_preference_order_day_matches_the_delivery_database(world, dbs):
    t = _task(world, "/delivery/pref-order-day")
    rows = (
        dbs["delivery"]
        .execute("SELECT placed_at FROM orders WHERE world_ref IS NOT NULL AND status = 'delivered'")
        .fetchall()
    )
    days = Counter(dt.datetime.fromisoformat(r[0]).strftime("%A") for r in rows)
    assert days.most_common(1)[0] == (t.expected["weekday"], t.expected["orders"])


def test_preference_cuisine_matches_the_dining_database(world, dbs):
    t = _task(world, "/dining/pref-cuisine")
    today = world.now.date().isoformat()
    rows = (
        dbs["dining"]
        .execute(
            "SELECT r.cuisine FROM reservations v JOIN restaurants r ON r.id = v.restaurant_id "
            "WHERE v.world_ref IS NOT NULL AND v.day < ?",
            (today,),
        )
        .fetchall()
    )
    top = Counter(r[0] for r in rows).most_common(1)[0]
    assert top == (t.expected["cuisine"], t.expected["bookings"])
