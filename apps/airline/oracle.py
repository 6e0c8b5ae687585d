"""Reference solutions of Meridian Air's action tasks, through its HTTP routes (see builder.tasks.oracle)."""

from __future__ import annotations

import html
import re
import urllib.parse

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

from .steps import expect_confirmed

APP = "airline"


def _testid_text(page: str, testid: str) -> str:
    """The visible text of the element with ``data-testid=testid`` (tags and React's comment markers dropped)."""
    m = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</', page, re.DOTALL)
    if not m:
        raise OracleError(f"Meridian Air's page shows no {testid!r}")
    return html.unescape(re.sub(r"<!--.*?-->|<[^>]+>", "", m.group(1))).strip()


def aisle_seat(task: Task, web: Web) -> str:
    exp = task.expected
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
    if exp.get("contact"):  # text the travel companion in Parley
        conv = web.one(
            "messaging",
            "SELECT c.id FROM conversations c JOIN contacts k ON k.id = c.contact_id "
            "WHERE k.name = ? AND c.kind = 'direct'",
            (exp["contact"],),
        )
        web.post_form(
            "messaging",
            "/api/messages",
            [("conversation", str(conv)), ("body", f"I'm in seat {seat} now on {exp['flight_number']}.")],
            expect=(303,),
        )
    return f"Your seat on {exp['flight_number']} is now {seat}, an aisle seat."


def cancel_next_trip(task: Task, web: Web) -> str:
    pnr = task.expected["pnr"]
    _, location = web.post_form(APP, "/api/cancel", [("pnr", pnr), ("confirm", "yes")], expect=(303,))
    expect_confirmed(location, "cancelled=")
    url = urllib.parse.urlsplit(location)
    said = _testid_text(web.get(APP, f"{url.path}?{url.query}").text, "cancelled")
    if "no value" in said:
        said += " So you get nothing back: no credit and no refund."
    return f"Trip {pnr} is cancelled. {said}"


def book_flight(task: Task, web: Web) -> str:
    exp = task.expected
    card = web.one(APP, "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1")
    _, location = web.post_form(
        APP,
        "/api/bookings",
        [
            ("origin", exp["origin"]),
            ("destination", exp["destination"]),
            ("out", exp["option"]),
            ("family", exp["family"]),
            ("card", str(card)),
        ],
        expect=(303,),
    )
    expect_confirmed(location, "booked=1")
    pnr, total = web.query(
        APP, "SELECT pnr, total_cents FROM bookings WHERE world_ref IS NULL ORDER BY id DESC LIMIT 1"
    )[0]
    return f"Booked {exp['flight_number']}, confirmation {pnr}; {total / 100:,.2f} was charged to the card."


SOLVERS = {
    "aisle-seat-tell": aisle_seat,
    "aisle-seat": aisle_seat,
    "cancel-next-trip": cancel_next_trip,
    "book-flight": book_flight,
}
