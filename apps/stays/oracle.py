"""Reference solutions of Bramblestay's action tasks, through its HTTP routes (see builder.tasks.oracle)."""

from __future__ import annotations

import urllib.parse

from apps.calendar import steps as daybook
from apps.messaging import steps as parley
from apps.rides import steps as zipride
from apps.workchat import steps as huddle
from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "stays"


def _expect(location: str, marker: str) -> None:
    if marker not in location:
        raise OracleError(f"Bramblestay did not confirm ({marker!r} not in {location!r})")


def cancel_upcoming(task: Task, web: Web) -> str:
    exp = task.expected
    _, location = web.post_form(APP, "/api/cancel", [("confirmation", exp["confirmation"]), ("confirm", "yes")])
    _expect(location, "cancelled=1")
    return f"Cancelled booking {exp['confirmation']}."


def leave_a_night_early(task: Task, web: Web) -> str:
    exp = task.expected
    _, location = web.post_form(
        APP,
        "/api/change",
        [
            ("confirmation", exp["confirmation"]),
            ("checkin", exp["check_in"]),
            ("checkout", exp["check_out"]),
            ("confirm", "yes"),
        ],
    )
    _expect(location, "changed=1")
    if exp["uid"]:  # Add to Daybook from the change mail, as a person would
        att = web.one(
            "mail",
            "SELECT a.id FROM attachments a JOIN messages m ON m.id = a.message_id "
            "WHERE a.filename = ? AND m.world_ref IS NULL ORDER BY a.id DESC LIMIT 1",
            (f"reservation-{exp['confirmation']}.ics",),
        )
        _, location = web.post_form("mail", "/api/calendar-add", [("attachment", str(att)), ("back", "/")])
        if "Updated in Daybook" not in urllib.parse.unquote_plus(location):
            raise OracleError(f"Mailbox did not update Daybook: {location!r}")
    return f"Your stay now ends on {exp['check_out']}."


def review_stay(task: Task, web: Web) -> str:
    fields = [
        ("confirmation", task.expected["confirmation"]),
        ("rating", "4"),
        ("body", "Comfortable room and friendly front desk; would stay again."),
    ]
    web.post_form(APP, "/api/reviews", fields, expect=(303,))
    return "Review posted."


def book_rental(task: Task, web: Web) -> str:
    exp = task.expected
    room = web.one(
        APP, "SELECT r.id FROM rooms r JOIN properties p ON p.id = r.property_id WHERE p.slug = ?", (exp["slug"],)
    )
    policy = web.one(APP, "SELECT policy FROM properties WHERE slug = ?", (exp["slug"],))
    card = web.one(APP, "SELECT id FROM cards WHERE account = ?", (exp["card_account"],))
    fields = [
        ("p", exp["slug"]),
        ("room", str(room)),
        ("plan", policy),
        ("checkin", exp["check_in"]),
        ("checkout", exp["check_out"]),
        ("guests", str(exp["guests"])),
        ("card", str(card)),
        ("request", ""),
    ]
    _, location = web.post_form(APP, "/api/bookings", fields, expect=(303,))
    _expect(location, "booked=1")
    conf = location.split("/trips/")[1].split("?")[0]
    web.post_form(APP, "/api/messages", [("confirmation", conf), ("body", exp["message"])], expect=(303,))
    return f"Booked, confirmation {conf}."


SOLVERS = {
    "cancel-upcoming": cancel_upcoming,
    "leave-a-night-early": leave_a_night_early,
    "review-stay": review_stay,
    "book-rental": book_rental,
}


def trip_arrival_prep(task: Task, web: Web) -> str:
    """Late arrival to the hotel, the ride home, the ride in Daybook, the companion in Parley, the Huddle status."""
    import datetime as dt

    exp = task.expected
    land = dt.datetime.fromisoformat(exp["landing"])
    web.post_form(
        APP,
        "/api/messages",
        [
            ("confirmation", exp["confirmation"]),
            (
                "body",
                (
                    f"Hello! My flight was changed: I land on {land:%B %-d} at "
                    f"{land:%H:%M}, so I'll check in late that night."
                ),
            ),
        ],
        expect=(303,),
    )
    zipride.schedule(web, exp["pickup"], "Home", exp["ride_at"])
    at = dt.datetime.fromisoformat(exp["ride_at"])
    end = at + dt.timedelta(minutes=45)
    daybook.create(
        web,
        title="ZipRide home from the airport",
        date=f"{at:%Y-%m-%d}",
        start_time=f"{at:%H:%M}",
        end_date=f"{end:%Y-%m-%d}",
        end_time=f"{end:%H:%M}",
    )
    parley.send(web, exp["companion"], f"Hotel: {exp['hotel']}, confirmation {exp['confirmation']}.")
    huddle.set_status(web, ":airplane:", "Traveling", exp["back"])
    return "Messaged the hotel, booked the ride home and put it in the calendar, told my companion, set my status."


SOLVERS.update({"trip-arrival-prep": trip_arrival_prep})
