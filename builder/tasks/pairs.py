"""The shared rules and world look-ups of the two-app answer tasks (``scenarios/pairs/<app>.py``, ids
``<persona>/<app>/pair-...``): one question each whose answer needs exactly the two apps it names.

Each of those modules has ``pair_tasks(world)`` (its scenario's task builder), which hands its builder to
:func:`collect`. Every expected value comes from the world's events, the same records the apps' seeds write; a task
whose material the world lacks is not generated. Pure and deterministic: no randomness, no wall clock.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from builder.world import World

from .kit import adder
from .model import Task


def ts(s: str) -> dt.datetime:
    """An ISO local time with offset, as an aware datetime (naive ones are left naive)."""
    return dt.datetime.fromisoformat(s)


def done(world: World, kind: str) -> list:
    """The world's events of ``kind`` that are done by now."""
    return [e for e in world.of_kind(kind) if e.status == "done" and e.at <= world.now]


def trips(world: World) -> dict[int, dict]:
    """Trip index -> {"booking", "flights" (by departure), "hotel"} for trips with a flight booking."""
    out: dict[int, dict] = {}
    for e in world.of_kind("flight_booking"):
        out.setdefault(e.data["trip"], {})["booking"] = e
    for e in world.of_kind("flight"):
        if e.data["trip"] in out:
            out[e.data["trip"]].setdefault("flights", []).append(e)
    for e in world.of_kind("hotel_booking"):
        if e.data.get("trip") in out:
            out[e.data["trip"]]["hotel"] = e
    for t in out.values():
        t["flights"] = sorted(t.get("flights", []), key=lambda f: ts(f.data["dep_utc"].replace("Z", "+00:00")))
    return {k: v for k, v in out.items() if v["flights"]}


def utc(f, which: str) -> dt.datetime:
    """A flight's ``dep_utc``/``arr_utc`` as an aware datetime."""
    return ts(f.data[which].replace("Z", "+00:00"))


def past_trip(world: World) -> dict | None:
    """The latest trip (as :func:`trips` gives it) whose flights are all flown, or None."""
    now = world.now
    past = [t for t in trips(world).values() if all(f.status == "done" and f.at <= now for f in t["flights"])]
    return max(past, key=lambda t: t["flights"][0].at) if past else None


def next_trip(world: World) -> dict | None:
    """The soonest trip whose flights are all still scheduled, or None."""
    nxt = [t for t in trips(world).values() if all(f.status == "scheduled" for f in t["flights"])]
    return min(nxt, key=lambda t: t["flights"][0].at) if nxt else None


def collect(world: World, app: str, build: Callable[[World, Callable[..., None]], None]) -> list[Task]:
    """The tasks ``build(world, task)`` makes for ``app``; ``task(slug, apps, **fields)`` adds one
    (id ``<persona>/<app>/<slug>``)."""
    out: list[Task] = []
    build(world, adder(world, app, out))
    return out
