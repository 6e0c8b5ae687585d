"""Meridian Air's two-app answer tasks (ids ``<persona>/airline/pair-...``): one question each whose answer needs
exactly the two apps it names (see :mod:`builder.tasks.pairs` for the shared rules)."""

from __future__ import annotations

from apps.airline.tasks import in_use
from builder.money import money
from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.world import World
from scenarios import PAIRS


def pair_tasks(world: World) -> list[Task]:
    """Meridian Air's pair tasks of ``world`` (empty when the world lacks their material)."""
    return P.collect(world, "airline", _build)


def _build(world: World, task) -> None:
    cur = world.currency
    nxt = P.next_trip(world)
    if nxt and nxt.get("hotel"):
        fb, hb = nxt["booking"], nxt["hotel"]
        total = fb.data["total_cents"] + hb.data["total_cents"]
        task(
            "pair-next-trip-package",
            ["airline", "stays"],
            kind="aggregation",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"For my upcoming trip to {fb.data['destination']}, what do the flights and the hotel come "
            "to together? Give me each part and the combined total.",
            expected={
                "flight_cents": fb.data["total_cents"],
                "hotel_cents": hb.data["total_cents"],
                "total_cents": total,
                "hotel": hb.data["hotel"],
            },
            rubric=[
                RubricItem(id="total", weight=50, requirement=f"States {money(total, cur)}", check=A.amount(total)),
                RubricItem(
                    id="flight",
                    weight=25,
                    requirement=f"Flights {money(fb.data['total_cents'], cur)}",
                    check=A.amount(fb.data["total_cents"]),
                ),
                RubricItem(
                    id="hotel",
                    weight=25,
                    requirement=f"Hotel {money(hb.data['total_cents'], cur)}",
                    check=A.amount(hb.data["total_cents"]),
                ),
            ],
        )


SCENARIOS = [Scenario(home="airline", apps=("airline",), tasks=pair_tasks, rank=PAIRS, when=in_use)]
