"""Bramblestay's contradiction and counterfactual with other apps (ids ``<persona>/stays/cx-...``, ``cf-...``): the
stay still starting the night before the airline's changed arrival, what a late cancellation of the upcoming stay
would have cost (the stay's page states the late fee while free cancellation still applies)."""

from __future__ import annotations

import datetime as dt

from apps.airline import reader as air
from apps.stays import reader as bs
from apps.stays.seed import bookings
from apps.stays.tasks import KIT
from builder.money import money, to_unit
from builder.tasks import answers as A
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.world import World
from scenarios import travel_desktop as desk
from scenarios.errands.stays import BEFORE_RENTAL


def insight_tasks(world: World) -> list[Task]:
    """The check-in day against the flight the airline moved (a planted ``chain/flight-change``), and the fee for
    cancelling the upcoming stay late. Items the world lacks give no task."""
    cur = world.currency
    out: list[Task] = []

    task = KIT.adder(world, out)

    it = A.planted(world, "chain/flight-change")
    step = next((s for s in (it or {}).get("steps", []) if s["step"] == "hotel_check_in"), None)
    if it and step:
        arr = dt.datetime.fromisoformat(it["new_arrival"])
        old, new = dt.date.fromisoformat(step["old"]), dt.date.fromisoformat(step["new"])
        hotel = step.get("hotel") or ""
        task(
            "cx-check-in",
            ["stays", "airline", "mail"],
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Does my hotel booking in {it['destination']} still line up with my flight there? Tell me the "
            "day I actually arrive first, then the check-in day the hotel booking has.",
            rule="the airline's newer schedule-change notice beats the hotel booking made for the old flight",
            expected={
                "destination": it["destination"],
                "hotel": hotel,
                "check_in": step["old"],
                "arrival": it["new_arrival"],
                "right": step["new"],
                "truth": "airline",
            },
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="arrival", weight=40, requirement=f"Says I arrive {arr:%B %-d}", check=A.text(*A.date_forms(new))
                ),
                RubricItem(
                    id="check-in",
                    weight=20,
                    requirement=f"Says the booking checks in {old:%B %-d}",
                    check=A.text(*A.date_forms(old)),
                ),
                RubricItem(
                    id="order",
                    weight=40,
                    requirement="Names the arrival day before the booked check-in",
                    check=A.names([A.date_forms(new), A.date_forms(old)], ordered=True),
                ),
            ],
        )

    bs = bookings(world)
    upcoming = [b for b in bs if dt.date.fromisoformat(b["check_in"]) > world.now.date()]
    if upcoming:
        b = upcoming[0]
        price = b["price"]
        # web/lib/stays.ts cancelTerms: JavaScript's Math.round (half up) of the first night and its tax share (the
        # seeded bookings are paid at the property; the stay's page states this fee while cancelling is free).
        first = int(price["subtotal_cents"] / b["nights"] + 0.5)
        fee = first + int(price["taxes_cents"] * first / price["subtotal_cents"] + 0.5)
        # As the page shows it: in the stay's currency, whole units where it has no minor ones (dong, yen).
        stay_cur = b.get("currency") or cur
        fee = to_unit(fee, stay_cur)
        task(
            "cf-late-cancel",
            ["stays", "mail"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Say I had missed the free-cancellation deadline of my upcoming {b['city']} hotel and then "
            "cancelled it. What would Bramblestay have charged me for cancelling late, and how much would "
            "I have saved against paying the whole stay?",
            expected={
                "city": b["city"],
                "confirmation": b["confirmation"],
                "fee_cents": fee,
                "total_cents": price["total_cents"],
                "saved_cents": price["total_cents"] - fee,
            },
            rubric=[
                RubricItem(
                    id="fee",
                    weight=60,
                    requirement=f"States the fee {money(fee, stay_cur)} (first night with tax)",
                    check=A.amount(fee),
                ),
                RubricItem(
                    id="saved",
                    weight=40,
                    requirement=f"States {money(price['total_cents'] - fee, stay_cur)} saved",
                    check=A.amount(price["total_cents"] - fee),
                ),
            ],
        )
    return out


# --- independent readers ----------------------------------------------------------------------------


@reader("destination")
def check_in_vs_flight(see: See, given: dict) -> Reading:
    t = air.trip_to(see, given["destination"], "upcoming", latest=False)
    seg = t.arrival
    stay = desk.stay_of(see, t, "upcoming")
    return Reading(
        values={
            "arrival": seg.arr_day.isoformat(),
            "check-in": stay.check_in.isoformat(),
            "order": [seg.arr_day.isoformat(), stay.check_in.isoformat()],
        },
        steps=[
            f"Meridian Air trip {t.pnr}: " + (t.changes[0] if t.changes else "no schedule change"),
            f"{seg.flight} lands in {seg.dest_city} on {seg.arr_day} at {seg.arr_clock}",
            f"Bramblestay {stay.confirmation} at {stay.property} checks in {stay.check_in}",
        ],
    )


@reader("city")
def late_cancel(see: See, given: dict) -> Reading:
    s = bs.stay_in(see, given["city"], "upcoming", latest=False)
    if s.late_fee is None:
        raise Unreadable(f"stay {s.confirmation} states no late-cancellation fee ({s.cancel!r})")
    return Reading(
        values={"fee": s.late_fee, "saved": s.total - s.late_fee},
        steps=[
            f"Bramblestay {s.confirmation} at {s.property}: total {s.total_text}; {s.cancel}",
            f"after the deadline cancelling costs {s.late_fee}; against the whole stay that saves {s.total - s.late_fee}",
        ],
    )


#: They follow the rental (scenarios/errands/stays.py, placed after the pairs): placed after it.
AFTER_ERRANDS = 2
SCENARIOS = [
    Scenario(
        home="stays",
        apps=("stays",),
        tasks=insight_tasks,
        after=("book-rental", *BEFORE_RENTAL),
        rank=AFTER_ERRANDS,
        readers={"cx-check-in": check_in_vs_flight, "cf-late-cancel": late_cancel},
    )
]
