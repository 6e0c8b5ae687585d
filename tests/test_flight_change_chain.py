"""The long chain the planted schedule change breaks, across six apps: doing nothing scores 0, and the
reference solution, carried out through the apps' own HTTP routes with the persona's cookies (as the pages
post them), scores every machine-checkable point.

The task (``apps/airline/tasks.py: flight_change_task``): move the flight in Daybook, book the airport ride in
ZipRide for the new departure, start the Bramblestay stay the night the persona now arrives, mail the
restaurant of the first evening's dinner, and tell the travel companion in Parley.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import urllib.parse

import pytest

from apps.airline.tasks import flight_change_task
from builder.apps import discover
from builder.tasks.grade import grade

from .app_e2e import Served, post_form

APPS = {a.name: a for a in discover()}
NEEDED = ("airline", "calendar", "rides", "stays", "mail", "messaging", "bank")
pytestmark = pytest.mark.skipif(not set(NEEDED) <= set(APPS),
                                reason="PERSONA_APPS leaves out an app of the chain")


def _post(served: Served, app: str, path: str, fields: list[tuple[str, str]], cookie: str) -> tuple[int, str]:
    """A form post to ``app``'s host as the browser sends it: ``(status, Location)``."""
    return post_form(served, APPS[app].domain, path, fields, cookie)


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
    # Bramblestay: change the stay's dates (inside its free window), then put the changed stay from the mail it
    # sends into Daybook (its .ics carries the calendar's own UID at a higher SEQUENCE, so the entry moves).
    status, location = _post(served, "stays", "/api/change", [("confirmation", exp["confirmation"]),
                                                              ("checkin", exp["check_in"]), ("checkout", exp["check_out"]),
                                                              ("confirm", "yes")], cookies["stays"])
    assert status == 303 and "changed=1" in location, location
    (att,) = _one(served.database("mail"), """SELECT a.id FROM attachments a JOIN messages m ON m.id = a.message_id
                                              WHERE a.filename = ? AND m.world_ref IS NULL ORDER BY a.id DESC LIMIT 1""",
                  f"reservation-{exp['confirmation']}.ics")
    status, location = _post(served, "mail", "/api/calendar-add", [("attachment", str(att)), ("back", "/")], cookies["mail"])
    assert status == 303 and "Updated in Daybook" in urllib.parse.unquote_plus(location), location
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
        # The stay's calendar entry moved with it; a booking paid at the property moves nothing on the card.
        start = _one(served.database("calendar"), "SELECT start_local, start_tz FROM events WHERE source = 'hotel' "
                     "AND ref = ?", task.expected["stay_event"])
        seeded_tz = _one(seeded["calendar"], "SELECT start_tz FROM events WHERE source = 'hotel' AND ref = ?",
                         task.expected["stay_event"])[0]
        lines = _one(served.database("bank"), "SELECT COUNT(*) FROM card_authorizations WHERE app = 'stays'")
    judged = sum(i.weight for i in task.rubric if not i.check.machine)
    assert score == 100 - judged, [(i.item_id, i.status, i.evidence) for i in items]
    # Check-in from 15:00 on the new day, in the hotel's own zone (the file's UTC times are not the persona's zone).
    assert start == (f"{task.expected['check_in']}T15:00:00", seeded_tz), (start, seeded_tz)
    assert lines == (0,), lines
