"""Reference solutions of TableTime's action tasks, through its HTTP routes (see builder.tasks.oracle)."""

from __future__ import annotations

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "dining"


def _expect(location: str, marker: str) -> None:
    if marker not in location:
        raise OracleError(f"TableTime did not confirm ({marker!r} not in {location!r})")


def cancel_upcoming(task: Task, web: Web) -> str:
    conf = task.expected["confirmation"]
    _, location = web.post_form(APP, "/api/reservations/cancel", [("confirmation", conf), ("confirm", "yes")])
    _expect(location, "done=cancelled")
    return f"Cancelled reservation {conf}."


def bigger_party(task: Task, web: Web) -> str:
    exp = task.expected
    fields = [
        ("confirmation", exp["confirmation"]),
        ("date", exp["day"]),
        ("time", exp["time"]),
        ("party", str(exp["party"])),
    ]
    _, location = web.post_form(APP, "/api/reservations/modify", fields)
    _expect(location, "done=modified")
    return f"The reservation is now for {exp['party']} at {exp['time']}."


def book(task: Task, web: Web) -> str:
    exp = task.expected
    fields = [
        ("r", exp["slug"]),
        ("date", exp["day"]),
        ("time", exp["time"]),
        ("party", str(exp["party"])),
        ("request", ""),
    ]
    _, location = web.post_form(APP, "/api/reservations", fields)
    _expect(location, "done=booked")
    return f"Booked {exp['restaurant']} for {exp['party']} on {exp['day']} at {exp['time']}."


def review_last(task: Task, web: Web) -> str:
    exp = task.expected
    fields = [
        ("confirmation", exp["confirmation"]),
        ("rating", str(exp["rating"])),
        ("body", "Lovely evening: great food and friendly service."),
    ]
    _, location = web.post_form(APP, "/api/reviews", fields)
    _expect(location, "done=reviewed")
    return "Review posted."


def save_top_spend(task: Task, web: Web) -> str:
    exp = task.expected
    _, location = web.post_form(APP, "/api/favorites", [("slug", exp["slug"]), ("on", "1")])
    _expect(location, "saved=1")
    return f"Saved {exp['restaurant']} ({exp['spend_cents'] / 100:,.2f} this year) to your favourites."


def split_the_bill(task: Task, web: Web) -> str:
    exp = task.expected
    share = f"{exp['share_cents'] // 100}.{exp['share_cents'] % 100:02d}"
    for name in exp["companions"]:
        conv = web.one(
            "messaging",
            "SELECT c.id FROM conversations c JOIN contacts k ON k.id = c.contact_id "
            "WHERE c.kind = 'direct' AND k.name = ?",
            (name,),
        )
        text = f"Dinner came to {exp['charged_cents'] / 100:.2f} for the {exp['party']} of us, so {share} each. Thanks!"
        web.post_form("messaging", "/api/messages", [("conversation", str(conv)), ("body", text)], expect=(303,))
    return (
        f"{exp['charged_cents'] / 100:.2f} split {exp['party']} ways is {share} each; asked "
        f"{', '.join(exp['companions'])}."
    )


SOLVERS = {
    "cancel-upcoming": cancel_upcoming,
    "bigger-party": bigger_party,
    "book-table": book,
    "book-friends": book,
    "review-last": review_last,
    "save-top-spend": save_top_spend,
    "split-the-bill": split_the_bill,
}
