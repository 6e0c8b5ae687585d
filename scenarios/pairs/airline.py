"""Meridian Air's two-app answer tasks: one question each whose answer needs exactly the two apps it names. The
``pair-...`` ones come after the airline's own tasks (see :mod:`builder.tasks.pairs` for the shared rules); what
the card shows paid for this year's tickets and when the next trip lands at which hotel sit after its status
miles."""

from __future__ import annotations

import re

from apps.airline import reader as air
from apps.airline.tasks import APP, KIT, arrival, in_use, landing, legs
from builder.money import money
from builder.tasks import answers as A
from builder.tasks import kit
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import Dropped, RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.world import World
from scenarios import PAIRS
from scenarios import travel_desktop as desk


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


def pair_tasks(world: World) -> list[Task | Dropped]:
    """Meridian Air's pair tasks of ``world`` (empty when the world lacks their material). The next trip's package
    is left out (a :class:`Dropped` record) when its hotel prices in another currency than the card's: paid at the
    property, what the card will be charged is not known yet, so the flights and the hotel come to no one sum."""
    out: list[Task | Dropped] = list(P.collect(world, "airline", _build))
    nxt = P.next_trip(world)
    if nxt and nxt.get("hotel") and nxt["hotel"].data.get("currency", world.currency) != world.currency:
        hb = nxt["hotel"].data
        out.append(
            kit.dropped(
                world,
                "airline",
                "pair-next-trip-package",
                "aggregation",
                f"the hotel ({hb['hotel']}) prices in {hb['currency']}, the flights in {world.currency}: paid at "
                "the property, its card charge is not known yet, so the two come to no one total",
            )
        )
    return out


def _build(world: World, task) -> None:
    cur = world.currency
    nxt = P.next_trip(world)
    if nxt and nxt.get("hotel") and nxt["hotel"].data.get("currency", cur) == cur:
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
                "destination": fb.data["destination"],
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


# --- independent readers ----------------------------------------------------------------------------


@reader()
def tickets_this_year(see: See, given: dict) -> Reading:
    year = see.now.year
    booked = [t for t in air.trips(see) if t.booked.year == year]
    total = sum(t.total for t in booked)
    card = [x for x in desk.lines(see, "Meridian Air") if x.day.year == year]
    return Reading(
        values={"total": total},
        steps=[
            f"Meridian Air, every tab: {len(booked)} trip(s) booked in {year}: "
            + ", ".join(f"{t.pnr} ({t.status}, booked {t.booked}) {t.total}" for t in booked),
            f"the card's Meridian Air lines of {year}: " + ", ".join(f"{x.day} {x.cents}" for x in card),
        ],
    )


@reader()
def next_arrival_hotel(see: See, given: dict) -> Reading:
    ahead = [t for t in air.trips(see, "upcoming") if any(s.dep > see.now for s in t.outbound)]
    if not ahead:
        raise Unreadable("no trip ahead with its outbound flights still to fly")
    t = min(ahead, key=lambda t: t.segments[0].dep)
    seg = t.arrival
    stay = desk.stay_of(see, t, "upcoming")
    return Reading(
        values={"time": seg.arr_clock, "hotel": stay.property},
        steps=[
            f"Next trip {t.pnr} to {t.destination}: {seg.flight} lands in {seg.dest_city} on {seg.arr_day} at "
            f"{seg.arr_clock} (local)",
            f"Bramblestay {stay.confirmation} in {stay.city}, {stay.check_in} to {stay.check_out}: {stay.property}",
        ],
    )


def _currency(text: str) -> str:
    return re.sub(r"[\d.,\s\u00a0\u202f-]", "", text)


@reader("destination")
def next_trip_package(see: See, given: dict) -> Reading:
    t = air.trip_to(see, given["destination"], "upcoming", latest=False)
    stay = desk.stay_of(see, t, "upcoming")
    fare_text = air.visible_text(air._one(see.page(air.APP, f"/trips/{t.pnr}"), '//*[@data-testid="total"]'))
    if _currency(fare_text) != _currency(stay.total_text):
        raise Unreadable(f"the flights are in {fare_text!r}, the hotel in {stay.total_text!r}: no one sum")
    return Reading(
        values={"flight": t.total, "hotel": stay.total, "total": t.total + stay.total},
        steps=[
            f"Trip {t.pnr} to {t.destination}: total paid {fare_text}",
            f"Bramblestay {stay.confirmation} at {stay.property}: total {stay.total_text}",
            f"together {t.total + stay.total}",
        ],
    )


SCENARIOS = [
    Scenario(
        home="airline",
        apps=("airline",),
        tasks=status_tasks,
        after="status-miles",
        when=in_use,
        readers={"tickets-this-year": tickets_this_year, "next-arrival-hotel": next_arrival_hotel},
    ),
    Scenario(
        home="airline",
        apps=("airline",),
        tasks=pair_tasks,
        rank=PAIRS,
        when=in_use,
        readers={"pair-next-trip-package": next_trip_package},
    ),
]
