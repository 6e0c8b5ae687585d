"""Reference solutions of Bramblestay's action tasks, through its HTTP routes (see builder.tasks.oracle)."""

from __future__ import annotations

import urllib.parse

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
