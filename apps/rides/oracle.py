"""Reference solutions of ZipRide's action tasks, through its HTTP routes (see builder.tasks.oracle)."""

from __future__ import annotations


from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "rides"


def _expect(location: str, marker: str) -> None:
    if marker not in location or "error=" in location:
        raise OracleError(f"ZipRide did not confirm ({marker!r} not in {location!r})")


def _schedule(task: Task, web: Web, ride_type: str) -> str:
    exp = task.expected
    card = web.one(APP, "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1")
    fields = [
        ("pickup", exp["pickup"]),
        ("dropoff", exp["dropoff"]),
        ("ride_type", ride_type),
        ("when", "later"),
        ("at", exp["pickup_at"][:16]),
        ("card", str(card)),
        ("purpose", "personal"),
    ]
    _, location = web.post_form(APP, "/api/rides", fields, expect=(303,))
    _expect(location, "/rides/")
    return (
        f"Scheduled a ZipRide from {exp['pickup']} to {exp['dropoff']}, pickup at {exp['pickup_at'][11:16]} "
        f"on {exp['pickup_at'][:10]}."
    )


def airport_ride_next_flight(task: Task, web: Web) -> str:
    return _schedule(task, web, "zip")


def ride_home_after_return(task: Task, web: Web) -> str:
    return _schedule(task, web, task.expected["ride_type"])


def _ride(web: Web, ride_id: str) -> int:
    return web.one(APP, "SELECT id FROM rides WHERE ride_id = ?", (ride_id,))


def tip_last_ride(task: Task, web: Web) -> str:
    rid = _ride(web, task.expected["ride_id"])
    _, location = web.post_form(APP, f"/api/rides/{rid}/tip", [("ride", str(rid)), ("percent", "20")], expect=(303,))
    _expect(location, "tipped=1")
    return f"Tipped the driver 20%: {task.expected['tip_cents'] / 100:,.2f}."


def rate_ride(task: Task, web: Web) -> str:
    exp = task.expected
    rid = _ride(web, exp["ride_id"])
    fields = [("ride", str(rid)), ("stars", str(exp["stars"]))] + [("compliment", c) for c in exp["compliments"]]
    _, location = web.post_form(APP, f"/api/rides/{rid}/rate", fields, expect=(303,))
    _expect(location, "rated=1")
    return f"Rated the ride {exp['stars']} stars with “{'” and “'.join(exp['compliments'])}”."


def save_place(task: Task, web: Web) -> str:
    exp = task.expected
    _, location = web.post_form(
        APP, "/api/places", [("label", exp["label"]), ("address", exp["address"])], expect=(303,)
    )
    _expect(location, "saved=1")
    return f"Saved {exp['address']} as “{exp['label']}”."


SOLVERS = {
    "airport-ride-next-flight": airport_ride_next_flight,
    "ride-home-after-return": ride_home_after_return,
    "tip-last-ride": tip_last_ride,
    "rate-ride": rate_ride,
    "save-place": save_place,
}
