"""Meridian Air's contradictions and counterfactuals with other apps (ids ``<persona>/airline/cx-...``,
``cf-...``): the booking mail against the airline's changed schedule, when the original flight would have landed,
the plans still on the old day, what a one-seat booking would have cost."""

from __future__ import annotations

import datetime as dt

from apps.airline.tasks import KIT, in_use
from builder.money import money
from builder.tasks import answers as A
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.phrasing import day_phrase
from builder.world import World


def insight_tasks(world: World) -> list[Task]:
    """The airline's schedule change against the booking mail and the trip's other plans (a planted
    ``chain/flight-change``), and a past booking for several passengers against one seat alone. Items the world
    lacks give no task."""
    p = world.persona
    cur, today = world.currency, world.now.date()
    out: list[Task] = []
    by_id = {e.id: e for e in world.events}

    task = KIT.adder(world, out)

    it = A.planted(world, "chain/flight-change")
    steps = {s["step"]: s for s in (it or {}).get("steps", [])}
    if it and "airline_change" in steps and "booking" in steps:
        old_dep, new_dep = (
            dt.datetime.fromisoformat(it["old_departure"]),
            dt.datetime.fromisoformat(it["new_departure"]),
        )
        new_arr = dt.datetime.fromisoformat(it["new_arrival"])
        old_arr = new_arr - (new_dep - old_dep)
        flight = by_id[it["flight_id"]]
        old_no, new_no = flight.data["flight_number"], steps["airline_change"]["new_flight"]
        dest = it["destination"]
        task(
            "cx-confirmation-vs-airline",
            ["airline", "mail"],
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"My booking confirmation email for {dest} says I'm on {old_no} "
            f"{day_phrase(old_dep.date(), today)}. Is that still what Meridian Air has? Give me the flight "
            "number and departure day I'm actually on now, and what the confirmation said.",
            expected={
                "pnr": it["pnr"],
                "right": {"flight": new_no, "departure": it["new_departure"]},
                "stale": {"flight": old_no, "departure": it["old_departure"]},
                "truth": "airline",
            },
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="flight",
                    weight=35,
                    requirement=f"Gives the new flight {new_no}",
                    check=A.text(new_no, new_no.replace(" ", "")),
                ),
                RubricItem(
                    id="day",
                    weight=35,
                    requirement=f"Gives the new day {new_dep:%B %-d}",
                    check=A.text(*A.date_forms(new_dep)),
                ),
                RubricItem(
                    id="order",
                    weight=30,
                    requirement="Names the new day before the old one",
                    check=A.names([A.date_forms(new_dep), A.date_forms(old_dep)], ordered=True),
                ),
            ],
        )
        task(
            "cf-original-arrival",
            ["airline", "mail"],
            kind="lookup",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Meridian Air changed my flight to {dest}. Had they kept my original flight, on what day and "
            f"at what local time would I have landed in {dest}?",
            expected={"arrival": old_arr.isoformat(), "flight": old_no},
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="day", weight=50, requirement=f"Says {old_arr:%A, %B %-d}", check=A.text(*A.date_forms(old_arr))
                ),
                RubricItem(
                    id="time",
                    weight=50,
                    requirement=f"Says {A.clock(old_arr)} local time",
                    check=A.text(*A.time_forms(old_arr)),
                ),
            ],
        )
        stale = []
        if "calendar_flight" in steps:
            stale.append(("calendar", ["calendar", "Daybook"], "the calendar's flight entry"))
        if "airport_ride" in steps:
            stale.append(("ride", ["ZipRide", "ride"], "the ZipRide airport ride"))
        if "hotel_check_in" in steps:
            h = steps["hotel_check_in"].get("hotel") or by_id[steps["hotel_check_in"]["event_id"]].data["hotel"]
            stale.append(("hotel", [h, "hotel"], f"the hotel ({h})"))
        if "dinner_reservation" in steps and steps["dinner_reservation"].get("restaurant"):
            r = steps["dinner_reservation"]["restaurant"]
            stale.append(("dinner", [r], f"the dinner at {r}"))
        if len(stale) >= 3:
            apps = ["airline", "mail", "calendar", "rides", "stays"]
            w_each = 60 // len(stale)
            rubric = [
                RubricItem(
                    id="new-day",
                    weight=100 - w_each * len(stale),
                    requirement=f"Says the flight now leaves {new_dep:%B %-d}",
                    check=A.text(*A.date_forms(new_dep)),
                )
            ]
            rubric += [
                RubricItem(id=k, weight=w_each, requirement=f"Names {label}", check=A.text(*forms))
                for k, forms, label in stale
            ]
            task(
                "cx-plans-on-old-day",
                apps,
                kind="aggregation",
                category="contradiction",
                difficulty="hard",
                time_limit_seconds=900,
                instruction=f"Meridian Air moved my {dest} flight. Which of my other plans for that trip (calendar, "
                "rides, hotel, restaurant reservations) still assume the old day? List each one, and tell "
                "me the day I actually fly now.",
                expected={"new_departure": it["new_departure"], "stale": [k for k, _, _ in stale]},
                planted=[it["id"]],
                rubric=rubric,
            )

    # A past booking for several passengers: what one seat alone would have cost.
    past = [
        b
        for b in world.of_kind("flight_booking")
        if b.status == "done"
        and len(b.data.get("passengers", [])) > 1
        and b.data["fare_per_passenger_cents"] * len(b.data["passengers"]) == b.data["total_cents"]
        and all(dt.datetime.fromisoformat(x["dep_local"]).replace(tzinfo=None) < world.now for x in b.data["itinerary"])
    ]
    if past:
        b = past[-1].data
        others = [n for n in b["passengers"] if n != p.identity.name]
        task(
            "cf-solo-ticket",
            ["airline", "bank"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"For my {b['destination']} trip I booked the flights for {' and '.join(others)} too. Had I "
            "booked only my own ticket, what would the booking have cost, and what did I actually pay?",
            expected={"pnr": b["pnr"], "solo_cents": b["fare_per_passenger_cents"], "paid_cents": b["total_cents"]},
            rubric=[
                RubricItem(
                    id="solo",
                    weight=70,
                    requirement=f"States {money(b['fare_per_passenger_cents'], cur)}",
                    check=A.amount(b["fare_per_passenger_cents"]),
                ),
                RubricItem(
                    id="paid",
                    weight=30,
                    requirement=f"States the {money(b['total_cents'], cur)} paid",
                    check=A.amount(b["total_cents"]),
                ),
            ],
        )
    return out


#: They follow the errands of the trip ahead (scenarios/errands/airline.py, placed after the pairs): placed after
#: them.
AFTER_ERRANDS = 2
SCENARIOS = [
    Scenario(
        home="airline",
        apps=("airline",),
        tasks=insight_tasks,
        after=("flight-change-fallout", "book-flight", "cancel-next-trip", "tickets-this-year"),
        rank=AFTER_ERRANDS,
        when=in_use,
    )
]
