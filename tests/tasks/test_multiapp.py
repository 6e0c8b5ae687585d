"""The cross-app answer tasks (``scenarios/recaps/<app>.py``, ids ``<persona>/<app>/x-...``).

For every shipped persona: each is an answer task over two or more apps that scores its full machine weight with an
answer written from its checks' expected values and 0 for an empty answer. For the default persona: enough of them,
enough over five or more apps, and a sample of their expected values re-derived from the seeded app databases.
"""

from __future__ import annotations

import datetime as dt
import importlib
import sqlite3

import pytest

from builder.tasks.grade import grade
from builder.tasks.model import NOT_APPS

from tests.tasks.test_categories import _all_tasks, _answer


def _crossapp(world) -> list:
    return [t for t in _all_tasks(world) if t.id.split("/")[2].startswith("x-")]


def _apps(t) -> set[str]:
    return set(t.apps_involved) - NOT_APPS


def test_crossapp_tasks_score_from_expected_values_and_zero_when_empty(any_world):
    _, world = any_world
    tasks = _crossapp(world)
    assert len(tasks) >= 20, len(tasks)
    for t in tasks:
        assert t.kind in ("lookup", "aggregation"), t.id
        assert len(_apps(t)) >= 2, t.id
        assert 100 - t.machine_weight <= 10, t.id
        answer = _answer(t, world.persona.finances.currency)
        score, results = grade(t, {}, answer)
        assert score == t.machine_weight, (t.id, answer, results)
        assert grade(t, {}, "")[0] == 0, t.id


def test_default_persona_has_many_five_app_tasks(world):
    tasks = _crossapp(world)
    assert len(tasks) >= 30, len(tasks)
    assert sum(len(_apps(t)) >= 5 for t in tasks) >= 16


def _task(world, slug: str):
    t = next((t for t in _all_tasks(world) if t.id.endswith("/" + slug)), None)
    assert t is not None, slug
    return t


@pytest.fixture(scope="module")
def dbs(world, tmp_path_factory):
    root = tmp_path_factory.mktemp("crossapp")
    out = {}
    for app in ("shop", "delivery", "grocery", "rides", "bank"):
        seed = importlib.import_module(f"apps.{app}.seed").seed
        out[app] = sqlite3.connect(seed(world, root / f"{app}.sqlite"))
    return out


_ORDERS = {
    "shop": "SELECT placed_at, total_cents, shipping_cents, 0, 0, delivered_at FROM orders WHERE world_ref IS NOT NULL",
    "delivery": "SELECT placed_at, total_cents, delivery_fee_cents + service_fee_cents + small_order_fee_cents, "
    "tip_cents, 0, delivered_at FROM orders WHERE world_ref IS NOT NULL",
    "grocery": "SELECT placed_at, total_cents, delivery_fee_cents + service_fee_cents, tip_cents, 0, window_start "
    "FROM orders WHERE world_ref IS NOT NULL",
    "rides": "SELECT pickup_at, total_cents, 0, tip_cents, 0, dropoff_at FROM rides WHERE world_ref IS NOT NULL "
    "AND status != 'scheduled'",
}


def _rows(dbs, app: str, start: dt.date, end: dt.date, now: dt.datetime, col: int = 0) -> list[tuple]:
    return [
        r
        for r in dbs[app].execute(_ORDERS[app]).fetchall()
        if r[col] and start.isoformat() <= r[col][:10] <= end.isoformat() and r[0][:19] <= now.isoformat()
    ]


def test_month_breakdown_matches_the_app_databases(world, dbs):
    t = next(t for t in _crossapp(world) if "/x-apps-per-app-" in t.id)
    start = dt.date.fromisoformat(t.expected["month"] + "-01")
    end = (start + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
    for app in ("shop", "delivery", "grocery", "rides"):
        rows = _rows(dbs, app, start, end, world.now)
        assert len(rows) == t.expected["counts"][app], app
        assert sum(r[1] for r in rows) == t.expected["totals_cents"][app], app


def test_month_extras_match_the_app_databases(world, dbs):
    t = next(t for t in _crossapp(world) if "/x-apps-extras-" in t.id)
    start = dt.date.fromisoformat(t.expected["month"] + "-01")
    end = (start + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
    for app in ("shop", "delivery", "grocery", "rides"):
        rows = _rows(dbs, app, start, end, world.now)
        assert sum(r[2] + r[3] for r in rows) == t.expected["extras_cents"][app], app
    fx = (
        dbs["bank"]
        .execute(
            "SELECT -SUM(amount_cents) FROM transactions WHERE description = ? AND substr(posted_at, 1, 7) = ?",
            ("FOREIGN TRANSACTION FEE", t.expected["month"]),
        )
        .fetchone()[0]
    )
    assert fx == t.expected["fx_fees_cents"]


def test_doorstep_week_matches_the_app_databases(world, dbs):
    t = _task(world, "x-doorstep-last-week")
    monday = dt.date.fromisoformat(t.expected["week"])
    sunday = monday + dt.timedelta(days=6)
    for app, n in t.expected["counts"].items():
        assert len(_rows(dbs, app, monday, sunday, world.now, col=5)) == n, app


def test_tips_this_year_match_the_app_databases(world, dbs):
    t = _task(world, f"x-tips-{world.now.year}")
    start, end = dt.date(world.now.year, 1, 1), world.now.date()
    for app, cents in t.expected["tips_cents"].items():
        assert sum(r[3] for r in _rows(dbs, app, start, end, world.now)) == cents, app


def test_fees_this_year_match_the_app_databases(world, dbs):
    t = _task(world, "x-fees-this-year")
    start, end = dt.date(world.now.year, 1, 1), world.now.date()
    for app, cents in t.expected["fees_cents"].items():
        assert sum(r[2] for r in _rows(dbs, app, start, end, world.now)) == cents, app


def test_year_counts_match_the_app_databases(world, dbs):
    t = _task(world, f"x-year-in-numbers-{world.now.year}")
    start, end = dt.date(world.now.year, 1, 1), world.now.date()
    for app in ("shop", "delivery", "grocery", "rides"):
        assert len(_rows(dbs, app, start, end, world.now)) == t.expected["counts"][app], app


def test_largest_charges_match_the_app_databases(world, dbs):
    t = _task(world, f"x-largest-charge-{world.now.year}")
    start, end = dt.date(world.now.year, 1, 1), world.now.date()
    for app in ("shop", "delivery", "grocery", "rides"):
        assert max(r[1] for r in _rows(dbs, app, start, end, world.now)) == t.expected["largest_cents"][app], app


def test_net_worth_bank_balances_match_the_bank_database(world, dbs):
    t = _task(world, "x-net-worth")
    for kind in world.account_kinds():
        if kind == "brokerage":  # the bank lists Tidewell's cash, counted once in Tidewell's value
            assert kind not in t.expected["parts_cents"]
            continue
        (bal,) = dbs["bank"].execute("SELECT balance_cents FROM accounts WHERE kind = ?", (kind,)).fetchone()
        assert bal == t.expected["parts_cents"][kind], kind


def test_trip_recap_rides_and_hotel_charge_match_the_databases(world, dbs):
    from builder.tasks.crossapp import past_trips

    for trip in past_trips(world):
        t = _task(world, f"x-trip-recap-{trip.trip}")
        rows = _rows(dbs, "rides", trip.depart, trip.back, world.now)
        assert sum(r[1] for r in rows) == t.expected["parts_cents"].get("rides", 0)
        (n,) = (
            dbs["bank"]
            .execute(
                "SELECT COUNT(*) FROM transactions WHERE amount_cents = ? AND instr(upper(description), ?) = 1",
                (-t.expected["parts_cents"]["hotel"], trip.hotel.upper()),
            )
            .fetchone()
        )
        assert n == 1, trip.hotel
