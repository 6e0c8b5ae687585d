"""Meridian Air's answers summed over several apps: what the last trip cost all in (after the airline's seat on
it), and a recap of every past trip (ids ``<persona>/airline/x-...``, after its own tasks)."""

from __future__ import annotations


from apps.airline import reader as air
from apps.airline.tasks import APP, KIT, in_use, last_trip, legs
from builder.money import money
from builder.tasks import kit
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.world import World
from scenarios import RECAPS
from scenarios import travel_desktop as desk


def last_trip_tasks(world: World) -> list[Task]:
    """What the whole last trip cost: the flights, the hotel and the rides (the world's sums), with the bank's card
    lines. None before the first flight."""
    cur = world.currency
    fl = legs(world)
    if not fl.flown:
        return []
    trip, city = last_trip(fl)
    fare = sum(b.data["price_cents"] for b in fl.bookings if b.data["trip"] == trip)
    hotel = sum(e.data["total_cents"] for e in world.of_kind("hotel_checkout") if e.data.get("trip") == trip)
    rides = sum(e.data["total_cents"] for e in world.of_kind("ride") if e.data.get("trip") == trip)
    total = fare + hotel + rides
    out: list[Task] = []
    KIT.adder(world, out)(
        "last-trip-cost",
        [APP, "bank"],
        kind="aggregation",
        difficulty="hard",
        time_limit_seconds=900,
        instruction=f"What did my whole {city} trip cost: the flights, the hotel and the rides together?",
        expected={
            "city": city,
            "flights_cents": fare,
            "hotel_cents": hotel,
            "rides_cents": rides,
            "total_cents": total,
        },
        rubric=[
            RubricItem(id="flights", weight=25, requirement=f"Flights {money(fare, cur)}", check=kit.amount(fare)),
            RubricItem(id="hotel", weight=25, requirement=f"Hotel {money(hotel, cur)}", check=kit.amount(hotel)),
            RubricItem(
                id="total",
                weight=50,
                requirement=f"Total {money(total, cur)} (rides {money(rides, cur)})",
                check=kit.amount(total),
            ),
        ],
    )
    return out


def crossapp_tasks(world: World) -> list[Task]:
    """A recap of every past trip across Meridian Air (the flights), Bramblestay (the hotel), ZipRide (the rides there),
    the bank (the hotel's and the meals' card charges, foreign transaction fees) and Shopwell (parcels delivered at
    home while away). A trip without a hotel charge gives no task."""
    from builder.tasks import answers as A
    from builder.tasks.crossapp import past_trips

    p = world.persona
    pid, cur = p.id, world.currency
    out: list[Task] = []
    openings = [
        "Give me the full damage for my {city} trip",
        "Do a cost recap of my {city} trip",
        "I'm doing my travel expenses for my {city} trip",
        "Put together what my {city} trip cost me",
    ]
    for i, t in enumerate(past_trips(world)):
        parts = [
            ("flights", "the flights (the whole booking)", t.flights_cents, "airline"),
            ("hotel", f"the hotel ({t.hotel}) as charged to my card", t.hotel_cents, "stays"),
        ]
        if t.rides:
            parts.append(("rides", "the ZipRides there", t.rides_cents, "rides"))
        if t.meals:
            parts.append(("meals", f"what I spent at restaurants in {t.city} on my card", t.meals_cents, "bank"))
        if t.fees:
            parts.append(("fees", "the foreign transaction fees", t.fees_cents, "bank"))
        total = sum(x[2] for x in parts)
        apps = sorted({x[3] for x in parts} | {"bank"} | ({"shop"} if t.parcels else set()))
        when = f"in {t.depart:%B %Y}"
        ask = ", ".join(x[1] for x in parts[:-1]) + f" and {parts[-1][1]}"
        instruction = openings[i % len(openings)].format(city=t.city) + f" {when}: {ask}, each, and the total. "
        weight_parts = 60 if t.parcels else 75
        ws = [weight_parts // len(parts)] * len(parts)
        ws[0] += weight_parts - sum(ws)
        rubric = [
            RubricItem(
                id=k, weight=w, requirement=f"{label[0].upper() + label[1:]}: {money(c, cur)}", check=A.amount(c)
            )
            for (k, label, c, _), w in zip(parts, ws)
        ]
        rubric.append(
            RubricItem(id="total", weight=25, requirement=f"Total {money(total, cur)}", check=A.amount(total))
        )
        expected = {
            "trip": t.trip,
            "city": t.city,
            "month": f"{t.depart:%Y-%m}",
            "hotel": t.hotel,
            "parts_cents": {x[0]: x[2] for x in parts},
            "total_cents": total,
        }
        if t.parcels:
            # While away: from leaving home (the ride to the airport) to getting back (the ride home's drop-off); a
            # parcel of the day of return that came before the persona got home counts (crossapp.away).
            instruction += "Also, how many Shopwell parcels were delivered at home while I was away?"
            rubric.append(
                RubricItem(
                    id="parcels",
                    weight=15,
                    requirement=f"{len(t.parcels)} Shopwell parcels arrived",
                    check=A.number(len(t.parcels)),
                )
            )
            expected["parcels"] = [d.data["order_id"] for d in t.parcels]
        out.append(
            Task(
                id=f"{pid}/airline/x-trip-recap-{t.trip}",
                persona=pid,
                apps_involved=apps,
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=1500,
                instruction=instruction.strip(),
                expected=expected,
                rubric=rubric,
            )
        )
    return out


# --- independent readers ----------------------------------------------------------------------------


def _costs(see: See, t: air.Trip) -> tuple[dict[str, int], list[str]]:
    """What trip ``t`` cost, part by part (cents, the card's currency): the booking's total paid (Meridian Air), the
    hotel's card charge (its Bramblestay booking, found in the bank), the Trip rides of its days (ZipRide), the
    card's restaurant lines of its days (bank; Dashbite deliveries are home meals) and the card's foreign
    transaction fees of its days (the Fees lines of a purchase abroad: their memo gives its rate)."""
    start, end = desk.window(t)
    stay = desk.stay_of(see, t, "past")
    charge = desk.hotel_charge(see, stay)
    rides = desk.trip_rides(see, start, end)
    days = desk.lines(see, "", start, end)
    meals = [
        x for x in days if x.category == "Restaurants" and x.cents < 0 and not x.description.startswith("DASHBITE")
    ]
    fees = [x for x in days if x.category == "Fees" and x.cents < 0 and " @ " in x.memo]
    parts = {
        "flights": t.total,
        "hotel": -charge.cents,
        "rides": sum(r.cents for r in rides),
        "meals": -sum(x.cents for x in meals),
        "fees": -sum(x.cents for x in fees),
    }
    steps = [
        f"Meridian Air trip {t.pnr} to {t.destination}, {start} to {end}: total paid {t.total}",
        f"Bramblestay {stay.confirmation} at {stay.property}; the card's line {charge.description!r} on {charge.day}: "
        f"{-charge.cents}",
        f"ZipRide Trip rides from {start} to the morning after {end}: "
        + ", ".join(f"{r.when:%m-%d} {r.to} {r.cents}" for r in rides),
        f"restaurant lines {start} to {end}: " + ", ".join(f"{x.description} {-x.cents}" for x in meals),
        f"foreign transaction fees {start} to {end}: {len(fees)} lines, {parts['fees']}",
    ]
    return parts, steps


@reader("city")
def last_trip_cost(see: See, given: dict) -> Reading:
    t = air.trip_to(see, given["city"], "past")
    parts, steps = _costs(see, t)
    total = parts["flights"] + parts["hotel"] + parts["rides"]
    return Reading(
        values={"flights": parts["flights"], "hotel": parts["hotel"], "rides": parts["rides"], "total": total},
        steps=[*steps[:3], f"flights + hotel + rides = {total}"],
    )


@reader("city", "month", "hotel")
def trip_recap(see: See, given: dict) -> Reading:
    found = [
        t
        for t in air.trips(see, "past")
        if given["city"].casefold() in t.names() and f"{t.segments[0].dep_day:%Y-%m}" == given["month"]
    ]
    if len(found) != 1:
        raise Unreadable(f"{len(found)} past trips to {given['city']} leaving in {given['month']}")
    t = found[0]
    parts, steps = _costs(see, t)
    stay = desk.stay_of(see, t, "past")
    if stay.property != given["hotel"]:
        raise Unreadable(f"the trip's stay is at {stay.property}, not {given['hotel']}")
    start, end = desk.away(see, t)
    name = air.me(see)
    when = desk.delivered_mail(see)
    parcels = [
        (n, when[n]) for n, _, who in desk.deliveries(see) if who == name and n in when and start < when[n] < end
    ]
    return Reading(
        values={**parts, "total": sum(parts.values()), "parcels": len(parcels)},
        steps=[
            *steps,
            f"total {sum(parts.values())}",
            f"away from {start} (ride to the airport or take-off) to {end} (home); Shopwell's Delivered mails "
            f"of orders to {name} in between: " + ", ".join(f"{n} {d}" for n, d in parcels),
        ],
    )


#: The recap readers by slug: one per past trip (``x-trip-recap-<trip>``, the world's trip numbers).
RECAP_READERS = {"x-trip-recap-*": trip_recap}

SCENARIOS = [
    Scenario(
        home="airline",
        apps=("airline", "bank"),
        tasks=last_trip_tasks,
        after="last-trip-seat",
        when=in_use,
        readers={"last-trip-cost": last_trip_cost},
    ),
    Scenario(home="airline", apps=("airline",), tasks=crossapp_tasks, rank=RECAPS, when=in_use, readers=RECAP_READERS),
]
