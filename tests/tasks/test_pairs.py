"""The two-app answer tasks (``builder/tasks/pairs.py``, ids ``<persona>/<app>/pair-...``).

For every shipped persona: each is an answer task over two or more apps that scores its full machine weight with an
answer written from its checks' expected values and 0 for an empty answer. For the default persona: at least 16 of
them, every owning app's share of the set, and a sample of their expected values re-derived from the seeded app
databases. A persona whose only trip is over gets no trip-companion task, and every other task still builds.
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
import sqlite3

import pytest

from builder.apps import discover
from builder.persona import complete
from builder.persona.model import Persona
from builder.tasks import collect
from builder.tasks.grade import grade
from builder.tasks.model import NOT_APPS
from builder.world import simulate
from scenarios.errands.messaging import trip_ahead
from scenarios.pairs.messaging import companion_tasks

from tests.tasks.test_categories import _all_tasks, _answer


def _pairs(world) -> list:
    return [t for t in _all_tasks(world) if t.id.split("/")[2].startswith("pair-")]


def test_pair_tasks_score_from_expected_values_and_zero_when_empty(any_world):
    _, world = any_world
    tasks = _pairs(world)
    assert len(tasks) >= 10, len(tasks)
    for t in tasks:
        assert t.kind in ("lookup", "aggregation"), t.id
        assert 2 <= len(set(t.apps_involved) - NOT_APPS) <= 4, t.id
        assert 100 - t.machine_weight <= 10, t.id
        answer = _answer(t, world.persona.finances.currency)
        score, results = grade(t, {}, answer)
        assert score == t.machine_weight, (t.id, answer, results)
        assert grade(t, {}, "")[0] == 0, t.id


def test_default_persona_has_sixteen_distinct_pairs(world):
    tasks = _pairs(world)
    assert len(tasks) >= 16, [t.id for t in tasks]
    assert len({t.id.rsplit("/", 1)[1] for t in tasks}) == len(tasks)
    owners = {t.id.split("/")[1] for t in tasks}
    assert {"rides", "airline", "board", "workchat", "network", "taxes", "markets", "brokerage", "messaging"} <= owners


def _task(world, slug: str):
    t = next((t for t in _pairs(world) if t.id.endswith("/" + slug)), None)
    assert t is not None, slug
    return t


@pytest.fixture(scope="module")
def dbs(world, tmp_path_factory):
    root = tmp_path_factory.mktemp("pairs")
    out = {}
    for app in ("brokerage", "markets", "airline", "stays", "rides", "taxes"):
        seed = importlib.import_module(f"apps.{app}.seed").seed
        out[app] = sqlite3.connect(seed(world, root / f"{app}.sqlite"))
    return out


def test_dividends_match_the_brokerage_database(world, dbs):
    t = _task(world, "pair-dividends-vs-interest")
    (cents,) = (
        dbs["brokerage"]
        .execute(
            "SELECT SUM(amount_cents) FROM dividends WHERE substr(paid_on, 1, 4) = ? AND paid_on <= ?",
            (str(t.expected["year"]), world.now.isoformat()),
        )
        .fetchone()
    )
    assert cents == t.expected["dividends_cents"]


def test_money_put_in_matches_the_brokerage_and_markets_databases(world, dbs):
    t = _task(world, "pair-invested-this-year")
    year, now = str(t.expected["year"]), world.now.isoformat()
    (tw,) = (
        dbs["brokerage"]
        .execute(
            "SELECT SUM(amount_cents) FROM transfers WHERE direction = 'deposit' AND substr(at, 1, 4) = ? AND at <= ?",
            (year, now),
        )
        .fetchone()
    )
    (hl,) = (
        dbs["markets"]
        .execute(
            "SELECT SUM(amount_cents) FROM activity WHERE kind = 'deposit' AND substr(at, 1, 4) = ? AND at <= ?",
            (year, now),
        )
        .fetchone()
    )
    assert (tw, hl) == (t.expected["tidewell_cents"], t.expected["hunchline_cents"])


def test_next_trip_package_matches_the_airline_and_stays_databases(world, dbs):
    t = _task(world, "pair-next-trip-package")
    flights = {r[0] for r in dbs["airline"].execute("SELECT total_cents FROM bookings WHERE status = 'upcoming'")}
    assert t.expected["flight_cents"] in flights
    cols = [r[1] for r in dbs["stays"].execute("PRAGMA table_info(bookings)")]
    rows = dbs["stays"].execute("SELECT * FROM bookings").fetchall()
    totals = {r[cols.index("total_cents")] for r in rows}
    assert t.expected["hotel_cents"] in totals


def test_ride_to_dinner_matches_the_rides_database(world, dbs):
    t = _task(world, "pair-ride-to-dinner")
    rows = (
        dbs["rides"]
        .execute(
            "SELECT total_cents FROM rides WHERE substr(dropoff_at, 1, 10) = ? AND world_ref IS NOT NULL",
            (t.expected["day"],),
        )
        .fetchall()
    )
    assert t.expected["ride_total_cents"] in {r[0] for r in rows}


def test_airport_lead_matches_the_rides_database(world, dbs):
    import datetime as dt

    t = _task(world, "pair-airport-lead")
    rows = dbs["rides"].execute("SELECT dropoff_at FROM rides WHERE world_ref IS NOT NULL").fetchall()
    dep = dt.datetime.fromisoformat(t.expected["departure"])
    leads = {
        int((dep - dt.datetime.fromisoformat(r[0])).total_seconds() // 60)
        for r in rows
        if r[0][:10] == t.expected["departure"][:10]
    }
    assert t.expected["minutes"] in leads


def test_1099b_gain_and_sales_match_the_taxes_and_brokerage_databases(world, dbs):
    t = _task(world, "pair-1099b-sales")
    (boxes,) = (
        dbs["taxes"]
        .execute(
            "SELECT boxes FROM issued_forms WHERE form = '1099-B' AND tax_year = ?", (str(t.expected["tax_year"]),)
        )
        .fetchone()
    )
    assert json.loads(boxes)["gain"] == t.expected["gain_cents"]
    syms = {
        r[0]
        for r in dbs["brokerage"].execute(
            "SELECT symbol FROM orders WHERE side = 'sell' AND status = 'filled' AND substr(filled_at, 1, 4) = ?",
            (str(t.expected["tax_year"]),),
        )
    }
    assert syms == set(t.expected["symbols"])


def test_no_trip_ahead_gives_no_companion_task():
    spec = Persona.model_validate(
        {
            "locale": "en_US",
            "identity": {
                "name": "Rosa Lindqvist",
                "address": {
                    "street": "3315 SE Division St",
                    "city": "Portland",
                    "postal_code": "97202",
                    "country": "US",
                },
            },
            "travel": {
                "trips": [{"destination": "Chicago", "airport": "ORD", "depart": "2026-09-10", "return": "2026-09-17"}]
            },
        }
    )
    world = simulate(complete(spec))
    assert [t.depart for t in world.persona.travel.trips] == [dt.date(2026, 9, 10)]
    assert world.now.date() > dt.date(2026, 9, 17)
    assert world.of_kind("flight_booking") and trip_ahead(world) is None
    assert companion_tasks(world) == []
    ids = [t.id for t in collect.tasks(world, list(discover()))]
    assert ids and not [i for i in ids if i.endswith("/trip-companion")]
