"""Reference solutions of Meridian Air's action tasks, through its HTTP routes (see builder.tasks.oracle)."""

from __future__ import annotations

import datetime as dt
import html
import re
import urllib.parse

from apps.mail import steps as mailbox
from apps.messaging import steps as parley
from apps.rides import steps as zipride
from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "airline"


def _expect(location: str, marker: str) -> None:
    if marker not in location:
        raise OracleError(f"Meridian Air did not confirm ({marker!r} not in {location!r})")


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
    _expect(location, "saved=")
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
    _expect(location, "cancelled=")
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
    _expect(location, "booked=1")
    pnr, total = web.query(
        APP, "SELECT pnr, total_cents FROM bookings WHERE world_ref IS NULL ORDER BY id DESC LIMIT 1"
    )[0]
    return f"Booked {exp['flight_number']}, confirmation {pnr}; {total / 100:,.2f} was charged to the card."


def flight_change_fallout(task: Task, web: Web) -> str:
    """The chain the schedule change breaks: Daybook, ZipRide, Bramblestay (and its change mail into Daybook),
    the restaurant by mail, the companion in Parley."""
    exp = task.expected
    new = dt.datetime.fromisoformat(exp["new_departure"])
    # Daybook: move the flight to its new day and time (the form takes the persona's local date and HH:MM).
    _, location = web.post_form(
        "calendar",
        f"/api/events/{exp['calendar_event']}/move",
        [("date", new.date().isoformat()), ("time", new.strftime("%H:%M"))],
        expect=(303,),
    )
    _expect(location, "notice=moved")
    # ZipRide: the ride to the airport, in the middle of the window.
    lo, hi = (dt.datetime.fromisoformat(x) for x in exp["pickup_window"])
    zipride.schedule(web, exp["pickup"], exp["dropoff"], (lo + (hi - lo) / 2).strftime("%Y-%m-%dT%H:%M"))
    # Bramblestay: change the stay's dates (inside its free window), then put the changed stay from the mail it
    # sends into Daybook (its .ics carries the calendar's own UID at a higher SEQUENCE, so the entry moves).
    _, location = web.post_form(
        "stays",
        "/api/change",
        [
            ("confirmation", exp["confirmation"]),
            ("checkin", exp["check_in"]),
            ("checkout", exp["check_out"]),
            ("confirm", "yes"),
        ],
        expect=(303,),
    )
    _expect(location, "changed=1")
    att = web.one(
        "mail",
        "SELECT a.id FROM attachments a JOIN messages m ON m.id = a.message_id WHERE a.filename = ? "
        "AND m.world_ref IS NULL ORDER BY a.id DESC LIMIT 1",
        (f"reservation-{exp['confirmation']}.ics",),
    )
    _, location = web.post_form("mail", "/api/calendar-add", [("attachment", str(att)), ("back", "/")], expect=(303,))
    if "Updated in Daybook" not in urllib.parse.unquote_plus(location):
        raise OracleError(f"Mailbox did not update Daybook: {location!r}")
    # Mailbox: ask the restaurant to move the table a day.
    dinner = dt.datetime.fromisoformat(exp["dinner"])
    later = dinner + dt.timedelta(days=1)
    mailbox.send(
        web,
        exp["restaurant_email"],
        "Moving my reservation",
        f"Hello,\n\nmy flight has been moved a day, so I can't make our table on {dinner:%A, %B %-d} at "
        f"{dinner:%H:%M}. Could you move the reservation to the same time the next evening, {later:%A, %B %-d}?"
        "\n\nThank you!",
    )
    if exp["companion"]:
        parley.send(
            web,
            exp["companion"],
            f"Our flight moved to {new:%a %b %-d} {new:%H:%M}, {exp['new_flight']}. I've moved the hotel and dinner.",
        )
    return (
        f"Done: the flight is now {exp['new_flight']} on {new:%A, %B %-d} at {new:%H:%M}; calendar, airport ride, "
        f"hotel (from {exp['check_in']}) and the dinner request are sorted."
    )


SOLVERS = {
    "flight-change-fallout": flight_change_fallout,
    "aisle-seat-tell": aisle_seat,
    "aisle-seat": aisle_seat,
    "cancel-next-trip": cancel_next_trip,
    "book-flight": book_flight,
}
