"""Reference solutions of Bramblestay's own action tasks, through its HTTP routes (see builder.tasks.oracle); its
tasks with other apps have theirs beside them in ``scenarios/``."""

from __future__ import annotations

from builder.tasks.model import Task
from builder.tasks.oracle import Web

from .steps import change_dates, expect_confirmed

APP = "stays"


def cancel_upcoming(task: Task, web: Web) -> str:
    exp = task.expected
    _, location = web.post_form(APP, "/api/cancel", [("confirmation", exp["confirmation"]), ("confirm", "yes")])
    expect_confirmed(location, "cancelled=1")
    return f"Cancelled booking {exp['confirmation']}."


def leave_a_night_early(task: Task, web: Web) -> str:
    """The booking a night shorter (its calendar entry, when it has one, is the errand's: scenarios/errands/stays.py,
    whose solver does this and then that)."""
    exp = task.expected
    change_dates(web, exp["confirmation"], exp["check_in"], exp["check_out"])
    return f"Your stay now ends on {exp['check_out']}."


def review_stay(task: Task, web: Web) -> str:
    fields = [
        ("confirmation", task.expected["confirmation"]),
        ("rating", "4"),
        ("body", "Comfortable room and friendly front desk; would stay again."),
    ]
    web.post_form(APP, "/api/reviews", fields, expect=(303,))
    return "Review posted."


SOLVERS = {
    "cancel-upcoming": cancel_upcoming,
    "leave-a-night-early": leave_a_night_early,
    "review-stay": review_stay,
}
