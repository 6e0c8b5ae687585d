"""Daybook's two-app questions among its own tasks: what else falls during the next trip, which the confirmation in
the mail dates (id ``<persona>/calendar/trip-overlap``)."""

from __future__ import annotations

from apps.calendar.tasks import KIT
from apps.calendar.worldview import overlapping
from builder.tasks import answers as A
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.world import World


def trip_tasks(world: World) -> list[Task]:
    """What else is on the calendar during the persona's next trip, besides its flights and hotel (the trip's dates
    are in the booking confirmation mail); none without a trip ahead."""
    p = world.persona
    out: list[Task] = []
    task = KIT.adder(world, out)
    upcoming = [t for t in (p.travel.trips if p.travel else []) if t.depart > world.now.date()]
    if upcoming:
        t = upcoming[0]
        during = sorted(
            {o.title for o in overlapping(world, t.depart, t.return_) if o.source not in ("trip", "flight", "hotel")}
        )
        items = during[:4]
        if items:
            weights = [100 // len(items)] * len(items)
            weights[0] += 100 - sum(weights)
            rubric = [
                RubricItem(id=f"event-{i}", weight=w, requirement=f"Names {title}", check=A.text(title))
                for i, (title, w) in enumerate(zip(items, weights))
            ]
        else:
            rubric = [
                RubricItem(
                    id="none",
                    weight=100,
                    requirement="Says nothing else is planned during the trip",
                    check=A.text("nothing", "no other", "no events", "none"),
                )
            ]
        task(
            "trip-overlap",
            ["mail", "calendar"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"My {t.destination} trip is booked (the confirmation is in my mail). Does anything else on my "
            "calendar fall during the trip, besides the flights and the hotel? Name it.",
            expected={"depart": t.depart.isoformat(), "return": t.return_.isoformat(), "events": during},
            rubric=rubric,
        )
    return out


SCENARIOS = [
    Scenario(
        home="calendar",
        apps=("calendar", "mail"),
        tasks=trip_tasks,
        after=(
            "block-flight",
            "delivery-to-calendar",
            "decline-invitation",
            "move-standup",
            "conflicts-next-week",
            "meetings-last-week",
        ),
    )
]
