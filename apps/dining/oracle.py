"""Reference solutions of TableTime's own action tasks, through its HTTP routes (see builder.tasks.oracle); those of
the tasks with other apps are beside them in scenarios/errands/dining.py."""

from __future__ import annotations

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

from . import steps

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
    steps.book(web, exp["slug"], exp["day"], exp["time"], exp["party"], occasion=exp.get("occasion", ""))
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


SOLVERS = {
    "cancel-upcoming": cancel_upcoming,
    "bigger-party": bigger_party,
    "book-table": book,
    "review-last": review_last,
}
