"""Meridian Air's steps in the scenarios that chain apps: checks of what the persona did here and the actions
that do it through its own routes (see builder.tasks.steps for the shared rules). The app's whole testing interface:
its tasks.py and oracle.py use these too, and it imports no other app.
"""

from __future__ import annotations

import re

from builder.tasks.oracle import OracleError, Web

APP = "airline"


def expect_confirmed(location: str, marker: str) -> None:
    """Raise :class:`OracleError` unless Meridian Air's redirect ``location`` carries ``marker`` (its confirmation)."""
    if marker not in location:
        raise OracleError(f"Meridian Air did not confirm ({marker!r} not in {location!r})")


def change_to_aisle(web: Web, exp: dict) -> str:
    """Move the persona's seat (the seat row ``exp["world_ref"]``) on booking ``exp["pnr"]`` to the first free seat
    of the seat map whose letter is one of ``exp["aisle_letters"]``, as the seat map's form does; return that seat."""
    seg, pax = web.query(APP, "SELECT segment_id, passenger_id FROM seats WHERE world_ref = ?", (exp["world_ref"],))[0]
    page = web.get(APP, f"/trips/{exp['pnr']}/seats", {"segment": seg, "passenger": pax}).text
    seat = next(
        (s for s in re.findall(r'data-seat="(\d+[A-K])" data-state="free"', page) if s[-1] in exp["aisle_letters"]),
        None,
    )
    if seat is None:
        raise OracleError(f"no free aisle seat on the seat map of {exp['flight_number']}")
    _, location = web.post_form(
        APP,
        "/api/seat",
        [("pnr", exp["pnr"]), ("segment", str(seg)), ("passenger", str(pax)), ("seat", seat)],
        expect=(303,),
    )
    expect_confirmed(location, "saved=")
    return seat
