"""World look-ups shared by the cross-app answer tasks (a calendar month's window, a past trip's costs): what the
apps show of the world, in one place, so the apps' ``tasks.py`` and the scenarios compute the same sums the same way. (What each
ordering app charged is the bank's: ``apps/bank/spending.py``.)

Every helper is pure: it reads the world (events, postings, the frozen now) and nothing else; no randomness.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


def month_window(world, months_back: int) -> tuple[dt.date, dt.date]:
    """The first and last day of the month ``months_back`` before today's (0: this month up to today)."""
    today = world.now.date()
    first = today.replace(day=1)
    for _ in range(months_back):
        first = (first - dt.timedelta(days=1)).replace(day=1)
    if months_back == 0:
        return first, today
    nxt = (first + dt.timedelta(days=32)).replace(day=1)
    return first, nxt - dt.timedelta(days=1)


@dataclass
class Trip:
    """A past trip as the apps show it: the flights' booking, the hotel's card charge, the rides there, the meals out
    in the trip's city on the card, the card's foreign transaction fees, the parcels delivered at home meanwhile:
    the ``retail_delivery`` events (gifts shipped to others aside) after the persona left home and before they got
    back (:func:`away`: a parcel that came on the day of return before the ride home dropped them off counts)."""

    trip: int
    city: str
    depart: dt.date
    back: dt.date
    year: int
    flights_cents: int
    hotel: str
    hotel_cents: int
    rides: int
    rides_cents: int
    meals: int
    meals_cents: int
    fees: int
    fees_cents: int
    parcels: list

    @property
    def total_cents(self) -> int:
        return self.flights_cents + self.hotel_cents + self.rides_cents + self.meals_cents + self.fees_cents


def away(flights: list, rides: list) -> tuple[dt.datetime, dt.datetime]:
    """When the persona left home for a trip and got back (aware datetimes), as a person tells it: the pickup of the
    ride to the airport before the first flight (else that flight's departure) and the drop-off of the ride from the
    airport after the last flight (else its landing). ``flights`` and ``rides`` are the trip's events, flights in
    order."""
    out_dep = dt.datetime.fromisoformat(flights[0].data["dep_local"])
    back_arr = dt.datetime.fromisoformat(flights[-1].data["arr_local"])
    to_airport = [
        r
        for r in rides
        if r.data.get("dropoff_local") and dt.datetime.fromisoformat(r.data["dropoff_local"]) <= out_dep
    ]
    from_airport = [
        r for r in rides if r.data.get("pickup_local") and dt.datetime.fromisoformat(r.data["pickup_local"]) >= back_arr
    ]
    left = min((dt.datetime.fromisoformat(r.data["pickup_local"]) for r in to_airport), default=out_dep)
    home = max((dt.datetime.fromisoformat(r.data["dropoff_local"]) for r in from_airport), default=back_arr)
    return left, home


def past_trips(world) -> list[Trip]:
    """The trips whose flights, hotel stay and card charges are all in the past, oldest first."""
    out = []
    for b in world.of_kind("flight_booking"):
        t = b.data["trip"]
        flights = [f for f in world.of_kind("flight") if f.data.get("trip") == t]
        stays = [h for h in world.of_kind("hotel_checkout") if h.data.get("trip") == t]
        if (
            b.status != "done"
            or not flights
            or len(stays) != 1
            or stays[0].status != "done"
            or any(f.status != "done" for f in flights)
        ):
            continue
        hotel = stays[0]
        charge = -sum(p.amount_cents for p in hotel.postings)
        depart = dt.date.fromisoformat(flights[0].data["dep_local"][:10])
        back = dt.date.fromisoformat(flights[-1].data["arr_local"][:10])
        if back >= world.now.date() or charge <= 0:
            continue
        rides = [r for r in world.of_kind("ride") if r.data.get("trip") == t and r.status == "done"]
        meals = [
            c
            for c in world.of_kind("card_purchase")
            if c.data.get("trip") == t and c.status == "done" and c.data.get("category") == "restaurants"
        ]
        fees = [c for c in world.of_kind("card_fee") if c.data.get("trip") == t and c.status == "done"]
        left, home = away(flights, rides)
        gifts = {o.data["order_id"] for o in world.of_kind("retail_order") if o.data.get("gift_for")}
        parcels = [
            d
            for d in world.of_kind("retail_delivery")
            if d.status == "done"
            and d.data["order_id"] not in gifts
            and left < dt.datetime.fromisoformat(d.data["delivered_local"]) < home
        ]
        out.append(
            Trip(
                t,
                b.data["destination"],
                depart,
                back,
                depart.year,
                b.data["price_cents"],
                hotel.data["hotel"],
                charge,
                len(rides),
                sum(r.data["total_cents"] for r in rides),
                len(meals),
                sum(c.data["amount_cents"] for c in meals),
                len(fees),
                sum(c.data["amount_cents"] for c in fees),
                parcels,
            )
        )
    return out
