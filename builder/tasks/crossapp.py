"""World look-ups shared by the cross-app answer tasks (a month's spending across the ordering apps, a past trip's
costs, a year in numbers): what each app shows of the world, in one place, so the apps' ``tasks.py`` compute the
same sums the same way.

Every helper is pure: it reads the world (events, postings, the frozen now) and nothing else; no randomness.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

# The ordering apps whose charges reach the card, in the order a person lists them: (app, brand, noun, extra).
# ``extra`` names what the app shows on top of the goods (fees and tips, shipping, the tip).
SERVICES = (("shop", "Shopwell", "orders", "shipping"),
            ("delivery", "DashBite", "orders", "fees and tips"),
            ("grocery", "Basketful", "orders", "fees and tips"),
            ("rides", "ZipRide", "rides", "tips"),
            ("dining", "TableTime", "meals", "tips"))


@dataclass
class Spend:
    """One app's charges in a window: how many, their total, the extra part (fees, tips, shipping), the largest."""

    app: str
    brand: str
    noun: str
    extra_name: str
    count: int = 0
    total_cents: int = 0
    extra_cents: int = 0
    largest_cents: int = 0
    events: list = field(default_factory=list)


def _in(day: dt.date, start: dt.date, end: dt.date) -> bool:
    return start <= day <= end


def service_spend(world, start: dt.date, end: dt.date) -> list[Spend]:
    """What each ordering app charged between ``start`` and ``end`` (local days, both included, up to now), in
    :data:`SERVICES` order; an app with nothing in the window is left out."""
    out = []
    for app, brand, noun, extra in SERVICES:
        s = Spend(app, brand, noun, extra)
        if app == "shop":
            evs = [(e, e.data["total_cents"], e.data["shipping_cents"]) for e in world.of_kind("retail_order")]
        elif app in ("delivery", "grocery"):
            kind = "food_order" if app == "delivery" else "grocery_order"
            evs = [(e, e.data["total_cents"], e.data["fees_cents"] + e.data["tip_cents"]) for e in world.of_kind(kind)]
        elif app == "rides":
            evs = [(e, e.data["total_cents"], e.data["tip_cents"]) for e in world.of_kind("ride")]
        else:
            evs = [(e, e.data["amount_cents"], e.data.get("tip_cents", 0)) for e in world.of_kind("card_purchase")
                   if e.data.get("restaurant_booking")]
        for e, total, x in evs:
            if e.status == "done" and e.at <= world.now and _in(e.at.date(), start, end):
                s.count += 1
                s.total_cents += total
                s.extra_cents += x
                s.largest_cents = max(s.largest_cents, total)
                s.events.append(e)
        if s.count:
            out.append(s)
    return out


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
    in the trip's city on the card, the card's foreign transaction fees, the parcels delivered at home meanwhile."""

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


def past_trips(world) -> list[Trip]:
    """The trips whose flights, hotel stay and card charges are all in the past, oldest first."""
    out = []
    for b in world.of_kind("flight_booking"):
        t = b.data["trip"]
        flights = [f for f in world.of_kind("flight") if f.data.get("trip") == t]
        stays = [h for h in world.of_kind("hotel_checkout") if h.data.get("trip") == t]
        if (b.status != "done" or not flights or len(stays) != 1 or stays[0].status != "done"
                or any(f.status != "done" for f in flights)):
            continue
        hotel = stays[0]
        charge = -sum(p.amount_cents for p in hotel.postings)
        depart = dt.date.fromisoformat(flights[0].data["dep_local"][:10])
        back = dt.date.fromisoformat(flights[-1].data["arr_local"][:10])
        if back >= world.now.date() or charge <= 0:
            continue
        rides = [r for r in world.of_kind("ride") if r.data.get("trip") == t and r.status == "done"]
        meals = [c for c in world.of_kind("card_purchase") if c.data.get("trip") == t and c.status == "done"
                 and c.data.get("category") == "restaurants"]
        fees = [c for c in world.of_kind("card_fee") if c.data.get("trip") == t and c.status == "done"]
        parcels = [d for d in world.of_kind("retail_delivery") if d.status == "done"
                   and depart < dt.date.fromisoformat(d.data["delivered_local"][:10]) < back]
        out.append(Trip(t, b.data["destination"], depart, back, depart.year, b.data["price_cents"], hotel.data["hotel"],
                        charge, len(rides), sum(r.data["total_cents"] for r in rides), len(meals),
                        sum(c.data["amount_cents"] for c in meals), len(fees),
                        sum(c.data["amount_cents"] for c in fees), parcels))
    return out


def year_counts(world, year: int) -> dict[str, int]:
    """How often each app was used in ``year`` up to now: appointments in the calendar, flights flown, hotel nights, rides, TableTime meals, DashBite
    orders, Basketful orders, Shopwell orders (the apps' own histories)."""
    now = world.now

    def past(e) -> bool:
        return e.status == "done" and e.at <= now and e.at.year == year

    flights = [f for f in world.of_kind("flight") if f.status == "done"
               and dt.datetime.fromisoformat(f.data["dep_local"]).replace(tzinfo=None) < now
               and f.data["dep_local"][:4] == str(year)]
    nights = sum(h.data["nights"] for h in world.of_kind("hotel_checkout") if past(h))
    meals = [r for r in world.of_kind("restaurant_booking")
             if dt.datetime.fromisoformat(r.data["reservation_local"]).replace(tzinfo=None) < now
             and r.data["reservation_local"][:4] == str(year)]
    appointments = [e for e in world.of_kind("calendar_event") if past(e) and e.data.get("source") == "appointment"]
    return {"calendar": len(appointments), "airline": len(flights), "stays": nights,
            "rides": sum(past(e) for e in world.of_kind("ride")),
            "dining": len(meals),
            "delivery": sum(past(e) for e in world.of_kind("food_order")),
            "grocery": sum(past(e) for e in world.of_kind("grocery_order")),
            "shop": sum(past(e) for e in world.of_kind("retail_order"))}
