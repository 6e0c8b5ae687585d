"""Meridian Air's two-app answer tasks: one question each whose answer needs exactly the two apps it names. The
``pair-...`` ones come after the airline's own tasks (see :mod:`builder.tasks.pairs` for the shared rules); what
the card shows paid for this year's tickets and when the next trip lands at which hotel sit after its status
miles."""

from __future__ import annotations

from apps.airline.tasks import APP, KIT, arrival, in_use, landing, legs
from builder.money import money
from builder.tasks import answers as A
from builder.tasks import kit
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.world import World
from scenarios import PAIRS


def status_tasks(world: World) -> list[Task]:
    """What Meridian Air was paid for tickets booked this year (as the card statement shows it, with the bank) and,
    with a trip ahead that has a hotel, when it lands and at which hotel (with the hotel's confirmation mail)."""
    cur = world.currency
    fl = legs(world)
    upcoming, bookings = fl.upcoming, fl.bookings
    out: list[Task] = []
    task = KIT.adder(world, out)

    year = world.persona.as_of.year
    spent = sum(b.data["price_cents"] for b in bookings if b.at.year == year and b.at <= world.now)
    task(
        "tickets-this-year",
        [APP, "bank"],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=600,
        instruction=f"How much have I paid {bookings[0].data['airline']} for tickets booked this year?",
        expected={"total_cents": spent},
        rubric=[RubricItem(id="total", weight=100, requirement=f"States {money(spent, cur)}", check=kit.amount(spent))],
    )

    arrive = arrival(fl) if upcoming else None
    if arrive:
        stay = next((e.data for e in world.of_kind("hotel_booking") if e.data.get("trip") == arrive["trip"]), None)
        if stay:
            task(
                "next-arrival-hotel",
                [APP, "mail"],
                kind="lookup",
                difficulty="medium",
                time_limit_seconds=480,
                instruction="On my next trip, what local time do I land, and which hotel am I staying at?",
                expected={"arr_local": arrive["arr_local"], "hotel": stay["hotel"]},
                rubric=[
                    RubricItem(
                        id="time",
                        weight=50,
                        requirement=f"Lands {arrive['arr_local']}",
                        check=landing(arrive["arr_local"]),
                    ),
                    RubricItem(
                        id="hotel", weight=50, requirement=f"Stays at {stay['hotel']}", check=A.text(stay["hotel"])
                    ),
                ],
            )
    return out


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


SCENARIOS = [
    Scenario(home="airline", apps=("airline",), tasks=status_tasks, after="status-miles", when=in_use),
    Scenario(home="airline", apps=("airline",), tasks=pair_tasks, rank=PAIRS, when=in_use),
]
