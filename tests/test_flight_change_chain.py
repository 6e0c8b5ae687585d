"""The long chain the planted schedule change breaks, across six apps: doing nothing scores 0, and the
reference solution, carried out through the apps' own HTTP routes with the persona's cookies (as the pages
post them), scores every machine-checkable point.

The task (``apps/airline/tasks.py: flight_change_task``): move the flight in Daybook, book the airport ride in
ZipRide for the new departure, start the Bramblestay stay the night the persona now arrives, mail the
restaurant of the first evening's dinner, and tell the travel companion in Parley.
"""

from __future__ import annotations

import datetime as dt
import http.client
import sqlite3
import urllib.parse

import pytest

from apps.airline.tasks import flight_change_task
from builder.apps import discover
from builder.tasks.grade import grade

from .app_e2e import Served

APPS = {a.name: a for a in discover()}
NEEDED = ("airline", "calendar", "rides", "stays", "mail", "messaging", "bank")
pytestmark = pytest.mark.skipif(not set(NEEDED) <= set(APPS),
                                reason="PERSONA_APPS leaves out an app of the chain")


def _post(served: Served, app: str, path: str, fields: list[tuple[str, str]], cookie: str) -> tuple[int, str]:
    """A form post to ``app``'s host as the browser sends it: ``(status, Location)``."""
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=60)
    conn.request("POST", path, body=urllib.parse.urlencode(fields),
                 headers={"Host": APPS[app].domain, "Content-Type": "application/x-www-form-urlencoded",
                          "Cookie": cookie})
    res = conn.getresponse()
    res.read()
    conn.close()
    return res.status, res.getheader("Location") or ""


def _cookies(world) -> dict[str, str]:
    return {name: f"{a.session_cookie}={a.module('seed').credentials(world)['session_token']}"
            for name, a in APPS.items() if name in NEEDED}


def _dbs(root) -> dict:
    return {name: root(name) for name in NEEDED}


def _one(db, sql: str, *params):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, params).fetchone()
    finally:
        con.close()


def solve(task, served: Served, cookies: dict[str, str]) -> None:
    """The reference solution of the chain, through the apps' routes (asserting each step answered as a page expects)."""
    exp = task.expected
    new = dt.datetime.fromisoformat(exp["new_departure"])
    # Daybook: move the flight to its new day and time (the form takes the persona's local date and HH:MM).
    status, location = _post(served, "calendar", f"/api/events/{exp['calendar_event']}/move",
                             [("date", new.date().isoformat()), ("time", new.strftime("%H:%M"))], cookies["calendar"])
    assert status == 303 and "notice=moved" in location, location
    # ZipRide: the ride to the airport, in the middle of the window.
    lo, hi = (dt.datetime.fromisoformat(x) for x in exp["pickup_window"])
    at = lo + (hi - lo) / 2
    rides = served.database("rides")
    (card,) = _one(rides, "SELECT id FROM cards WHERE is_default = 1")
    status, location = _post(served, "rides", "/api/rides",
                             [("pickup", exp["pickup"]), ("dropoff", exp["dropoff"]), ("ride_type", "zip"),
                              ("when", "later"), ("at", at.strftime("%Y-%m-%dT%H:%M")), ("card", str(card)),
                              ("purpose", "personal")], cookies["rides"])
    assert status == 303 and "/rides/" in location and "error" not in location, location
    # Bramblestay: cancel the stay (inside its free window) and book the same room from the new night.
    stays = served.database("stays")
    slug, room, plan, guests, card = _one(stays, """SELECT p.slug, b.room_id, b.rate_plan, b.guests, b.card_id
                                                   FROM bookings b JOIN properties p ON p.id = b.property_id
                                                   WHERE b.confirmation = ?""", exp["confirmation"])
    status, location = _post(served, "stays", "/api/cancel", [("confirmation", exp["confirmation"]), ("confirm", "yes")],
                             cookies["stays"])
    assert status == 303 and "cancelled=1" in location, location
    status, location = _post(served, "stays", "/api/bookings",
                             [("p", slug), ("room", str(room)), ("plan", plan), ("checkin", exp["check_in"]),
                              ("checkout", exp["check_out"]), ("guests", str(guests)), ("card", str(card)),
                              ("request", "Arriving late, after 10 pm.")], cookies["stays"])
    assert status == 303 and "booked=1" in location, location
    # Mailbox: ask the restaurant to move the table a day.
    dinner = dt.datetime.fromisoformat(exp["dinner"])
    later = dinner + dt.timedelta(days=1)
    body = (f"Hello,\n\nmy flight has been moved a day, so I can't make our table on {dinner:%A, %B %-d} at "
            f"{dinner:%H:%M}. Could you move the reservation to the same time the next evening, {later:%A, %B %-d}?"
            "\n\nThank you!")
    status, location = _post(served, "mail", "/api/compose",
                             [("to", exp["restaurant_email"]), ("subject", "Moving my reservation"), ("body", body)],
                             cookies["mail"])
    assert status == 303 and "error" not in location, location
    # Parley: tell the companion.
    if exp["companion"]:
        (conversation,) = _one(served.database("messaging"), """SELECT c.id FROM conversations c JOIN contacts k
                                                              ON k.id = c.contact_id WHERE c.kind = 'direct'
                                                              AND k.name = ?""", exp["companion"])
        text = f"Our flight moved to {new:%a %b %-d} {new:%H:%M}, {exp['new_flight']}. I've moved the hotel and dinner."
        status, _ = _post(served, "messaging", "/api/messages", [("conversation", str(conversation)), ("body", text)],
                          cookies["messaging"])
        assert status == 303


def test_chain_do_nothing_scores_zero_and_the_reference_solution_scores_every_machine_point(world, default_layer,
                                                                                          tmp_path):
    task = flight_change_task(world)
    assert task is not None, "the default persona's world plants the flight change"
    assert len(task.apps_involved) >= 5
    layer_apps = default_layer / "var/lib/persona-desktop/apps"
    seeded = _dbs(lambda name: layer_apps / APPS[name].guest_database.split("/apps/", 1)[1])
    score, items = grade(task, seeded)
    assert score == 0, [(i.item_id, i.status) for i in items]
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        solve(task, served, _cookies(world))
        score, items = grade(task, _dbs(served.database))
        # The stay's bank side: the cancellation refunded what the first booking charged (if it was prepaid) and
        # the new one is a pending charge or pay-at-property, never both stays charged.
        bank = sqlite3.connect(served.database("bank"))
        lines = bank.execute("SELECT kind, amount_cents FROM card_authorizations WHERE app = 'stays'").fetchall()
        bank.close()
    judged = sum(i.weight for i in task.rubric if i.check is None)
    assert score == 100 - judged, [(i.item_id, i.status, i.evidence) for i in items]
    assert sum(1 for k, _ in lines if k == "charge") <= 1, lines
