"""Reference solutions of ZipRide's own action tasks, through its HTTP routes (see builder.tasks.oracle); its tasks
with other apps have theirs beside them in ``scenarios/``."""

from __future__ import annotations

from builder.tasks.model import Task
from builder.tasks.oracle import Web

from .steps import expect_confirmed, ride_row

APP = "rides"


def rate_ride(task: Task, web: Web) -> str:
    exp = task.expected
    rid = ride_row(web, exp["ride_id"])
    fields = [("ride", str(rid)), ("stars", str(exp["stars"]))] + [("compliment", c) for c in exp["compliments"]]
    _, location = web.post_form(APP, f"/api/rides/{rid}/rate", fields, expect=(303,))
    expect_confirmed(location, "rated=1")
    return f"Rated the ride {exp['stars']} stars with “{'” and “'.join(exp['compliments'])}”."


def save_place(task: Task, web: Web) -> str:
    exp = task.expected
    _, location = web.post_form(
        APP, "/api/places", [("label", exp["label"]), ("address", exp["address"])], expect=(303,)
    )
    expect_confirmed(location, "saved=1")
    return f"Saved {exp['address']} as “{exp['label']}”."


SOLVERS = {
    "rate-ride": rate_ride,
    "save-place": save_place,
}
