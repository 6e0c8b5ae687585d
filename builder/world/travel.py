"""Travel: every trip of the persona becomes bookings, flights, a hotel stay and airport rides.

Rules (tasks, apps and tests depend on them):

* A trip is simulated if it departs after the history's first day and no later than the horizon's end;
  ``i`` (its index in ``persona.travel.trips``) keys all its events and is ``data["trip"]``.
* The flights and the hotel are booked together on one evening 21-60 days before departure
  (never before the history's start, never after ``now``): ``flight_booking`` then ``hotel_booking``
  a few minutes later; the fare for every passenger (the persona and its companions) is charged
  at booking on ``sim.card()``.
* Flights are on the persona's airline (Meridian Air, ``MR``): nonstop, or through one of the
  airline's hubs when the great-circle distance is over 6,000 km. Block time = 40 min + 13 km/min,
  4 % shorter eastbound and 4 % longer westbound, rounded to 5 min; a route (origin-destination)
  keeps its flight numbers and departure slots across trips; a trip's own ``flight`` (``Trip.flight``, e.g.
  ``LH401``) numbers its outbound first leg as written (a codeshare on the persona's booking). The outbound leaves
  on ``depart``, the return on ``return``; a connection leaves 75-150 min after the first leg lands.
* Every instant is computed in UTC; an event's ``at`` is that instant in the persona's zone (naive),
  and data carries aware ISO 8601 strings in the zone of the place (``*_local``).
* Hotel: a Bramblestay listing of the destination (``builder.reference.lodging.inventory.city_properties``: hotels of
  several brands and independents, rentals), drawn from stream ``travel/trip/<i>/stay`` among the listings
  with free cancellation that sleep the party: the hotel named by the trip (``Trip.hotel``) if any; on a
  business trip the persona's chain when it has one (``travel.hotel_chain`` or a loyalty programme of it;
  completion gives every persona Harbor & Pine), else a 4-5 star hotel; one draw ``u`` decides the rest:
  for a party of 3+, a stay of 8+ nights or a family trip a rental (one of the two that sleep the fewest)
  when ``u < 0.5``; the persona's chain
  when ``0.5 <= u < 0.8`` (30 % of leisure stays); else any hotel of the city (the chain among them). Room: a king (or queen) room for 1-2
  guests, two queens or a suite for more. Check-in on the outbound arrival date (destination zone),
  checkout on the return date; ``hotel_stay`` at max(15:00, arrival at the hotel), ``hotel_checkout`` at
  11:00 or before the ride to the airport, whichever is earlier. No hotel if the persona lands on the
  return date.
* Hotel price: ``builder.reference.lodging.rates.quote`` of the listing, room and dates (flexible rate) in the hotel's own
  currency (``data["price"]``, ``data["currency"]``): the same function Bramblestay prices with, so the
  booking, the folio and the world agree to the cent. The card is charged the total at checkout in its own
  currency, at ``data["fx_rate"]`` (:func:`hotel_fx_rate`; 1 at home), rounded half up; abroad the posting's
  memo says ``1,234.56 EUR @ 1.086179`` and a ``card_fee`` adds the foreign transaction fee, as for purchases
  abroad. ``total_cents`` is the card's charge, ``rate_cents`` the average nightly room price converted, and
  ``tax_cents`` the rest (``total_cents == rate_cents * nights + tax_cents``).
* Rides (ZipRide): home to the home airport 2.5 h (3 h international) before the first departure,
  destination airport to hotel after landing, hotel to airport before the return, airport to home
  25-50 min after the last landing. Fare = 2.75 + 1.35/mile + 0.32/min + 2.45 booking fee; tip =
  ``tipping_percent`` of the fare.
* Business trips mark their charge-bearing events ``expensable``.
* Departure slots: of a route's five daily slots (07:00-20:59), the drawn one unless another keeps every airport
  ride of the journey out of 00:00-05:59 at home (long journeys try the morning slots first).
* While away (from 30 min after check-in to 30 min before the ride to the airport), ``card_purchase``
  events at destination merchants (``trip`` set, ``city`` the destination, ``local_time``): cafés,
  meals (for the whole party when travelling together), sights, transit, shops, named from
  ``templates/money/merchants.yaml`` by country. In a foreign currency the posting is in the card's
  currency at the day's rate (:func:`builder.reference.fx.per_usd` moved by up to 1.5 %), the data carry ``foreign_currency``,
  ``foreign_amount`` and ``fx_rate`` and the posting's memo says ``44.35 EUR @ 1.086179``; a
  ``card_fee`` event (posting kind ``fee``) adds the card's foreign transaction fee
  (``FOREIGN_FEE_PERCENT`` by locale). Only purchases up to ``now`` are made.
* Companions pay back their fare (1-6 days after booking) and their share of the hotel (1-6 days
  after checkout) as received ``p2p_payment`` events (``trip`` set), unless they forget (10 %), are the
  persona's spouse, or the trip is a business trip.
* A ride's car plate has the form of the country it drives in (:func:`plate`).
"""

from __future__ import annotations

import datetime as dt
import itertools
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from ..money import floor_unit, precision, to_unit, unit_cents
from ..reference import fx, gazetteer, prices
from ..reference.services import service

# Re-exported: the world's modules and the apps still read these names here.
from ..reference.places import AIRPORTS, CITIES, PER_USD  # noqa: F401
from ..reference.addresses import format_address, latin
from ..reference.airports import (
    AIRLINES,
    airport_country,
    airport_label,
    airport_zone,
    block_minutes,
    distance_km,
    known_airport,
)
from ..reference.plates import plate
from ..rng import faker as make_faker
from .calendar import add_all_day, add_entry, aware, booking_uid, first, parse_when, person, trip_of, trips, words
from .calendar import airport_zone as zone_of_airport
from .calendar import zone as home_zone
from .context import Charge, Sim
from .engine import world_step
from .mail import booking_ics, business_sender, mailbox, quoting, render, sent_after, site_domain
from .model import Event

# The apps trips are booked on, by role (brand, home URL): the stays app every hotel (the persona's chain) is booked
# on, and the ride app (the airline: builder.reference.airports.AIRLINES).
STAYS_SITE = (service("lodging").title, service("lodging").url)
ZIPRIDE = (service("rides").title, service("rides").url)
AIRLINE_HUBS = ["JFK", "ORD", "DEN", "SFO", "SEA", "LHR", "AMS"]

_VEHICLES = [
    ("Toyota", "Prius"),
    ("Toyota", "Camry"),
    ("Honda", "Accord"),
    ("Hyundai", "Ioniq 5"),
    ("Kia", "Niro"),
    ("Tesla", "Model 3"),
    ("Nissan", "Leaf"),
    ("Ford", "Escape"),
    ("Subaru", "Outback"),
    ("Chevrolet", "Bolt"),
    ("Volkswagen", "ID.4"),
    ("Honda", "CR-V"),
]
_COLOURS = ["Silver", "White", "Black", "Grey", "Blue", "Red"]
_PNR_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no I, O, 0, 1
_UTC = dt.UTC


def zone(name: str) -> ZoneInfo:
    """The IANA zone ``name`` (cached by zoneinfo)."""
    return ZoneInfo(name)


def to_local(sim: Sim, instant: dt.datetime) -> dt.datetime:
    """An aware instant as the naive wall-clock time of the persona's zone (an event's ``at``)."""
    return instant.astimezone(zone(sim.persona.timezone)).replace(tzinfo=None)


def from_local(sim: Sim, at: dt.datetime) -> dt.datetime:
    """A naive time of the persona's zone as an aware UTC instant."""
    return at.replace(tzinfo=zone(sim.persona.timezone)).astimezone(_UTC)


def iso(instant: dt.datetime, zone_name: str) -> str:
    """An aware instant as ISO 8601 with the offset of ``zone_name`` (seconds dropped)."""
    return instant.astimezone(zone(zone_name)).replace(second=0, microsecond=0).isoformat()


def card_description(sim: Sim, account: str, text: str) -> str:
    """The statement line of a card charge: ``text`` on the credit card, the locale's debit prefix on checking."""
    if account == "credit_card":
        return text.upper()
    from . import finance

    if hasattr(finance, "label"):
        try:
            return finance.label(sim, "debit", text)
        except (KeyError, TypeError):
            pass
    return f"DEBIT CARD {text.upper()}"


def ride(
    sim: Sim,
    r,
    fake,
    pickup_instant: dt.datetime,
    minutes: int,
    pickup: str,
    dropoff: str,
    zone_name: str,
    key: object,
    trip: int | None,
    extra: dict | None = None,
    country: str | None = None,
    city: str | None = None,
) -> None:
    """Record one ZipRide ride (fare by distance and time, tip by preference) charged to ``sim.card()``.

    Distance, duration and fare are :func:`geo.estimate` of ``pickup`` -> ``dropoff`` in ``city`` of ``country``
    (road distance by circuity factor, duration by the speed model, ZipRide's tariff); the ride starts at
    ``pickup_instant`` and its dropoff follows from the duration. ``minutes`` (the caller's drawn duration) is no
    longer used: its draw and this function's old distance draw are kept so that no later draw of ``r`` shifts.
    ``country``/``city`` (ISO code, city name) say where the ride is and the car is registered (default: the
    persona's home).
    """
    from ..reference import geo

    r.uniform(0.38, 0.72)  # the old distance draw, kept so that later draws do not shift
    route = geo.estimate(pickup, dropoff, city or _home_city(sim), country or _home_country(sim))
    miles, minutes = route["distance_miles"], route["duration_minutes"]
    cur = sim.persona.finances.currency
    fare = prices.figure(route["fare_cents"], cur)  # the tariff's dollars, at the exchange rate in another currency
    tip = floor_unit(fare * sim.persona.preferences.tipping_percent // 100, cur)
    if r.random() < 0.08:
        tip = 0
    total = fare + tip
    account = sim.card()
    make, model = _VEHICLES[r.randrange(len(_VEHICLES))]
    dropoff_instant = pickup_instant + dt.timedelta(minutes=minutes)
    ride_id = f"ZR{r.randint(10**9, 10**10 - 1)}"
    data = {
        "ride_id": ride_id,
        "provider": ZIPRIDE[0],
        "trip": trip,
        "pickup": pickup,
        "dropoff": dropoff,
        "pickup_local": iso(pickup_instant, zone_name),
        "dropoff_local": iso(dropoff_instant, zone_name),
        "duration_minutes": minutes,
        "distance_miles": miles,
        "fare_cents": fare,
        "tip_cents": tip,
        "total_cents": total,
        "driver": f"{fake.first_name()} {fake.last_name()}",
        "vehicle": f"{_COLOURS[r.randrange(len(_COLOURS))]} {make} {model}",
        "plate": plate(r, country or _home_country(sim), city or _home_city(sim)),
        "account": account,
        "site_url": ZIPRIDE[1],
        "site_title": ZIPRIDE[0],
        **(extra or {}),
    }
    sim.event(
        "ride",
        to_local(sim, pickup_instant),
        data,
        [
            Charge(
                account, -total, card_description(sim, account, f"{ZIPRIDE[0].upper()} TRIP"), ZIPRIDE[0], "transport"
            )
        ],
        key,
    )


def _home_country(sim: Sim) -> str:
    a = sim.persona.identity.address
    return a.country if a else "US"


def _home_city(sim: Sim) -> str:
    a = sim.persona.identity.address
    return a.city if a else ""


def _legs(origin: str, dest: str) -> list[str]:
    """The airports of a one-way journey: nonstop, or via the hub that adds the least distance."""
    if not known_airport(origin) or not known_airport(dest) or distance_km(origin, dest) <= 6000:
        return [origin, dest]
    direct = distance_km(origin, dest)
    best = sorted(
        (distance_km(origin, h) + distance_km(h, dest), h)
        for h in AIRLINE_HUBS
        if h not in (origin, dest) and distance_km(origin, h) >= 600 and distance_km(h, dest) >= 600
    )
    if best and best[0][0] <= 1.2 * direct:
        return [origin, best[0][1], dest]
    return [origin, dest]


def _route(sim: Sim, a: str, b: str) -> tuple[list[int], list[tuple[int, int]]]:
    """A route's daily flight numbers and departure slots (stable across trips: stream ``travel/route/A-B``)."""
    r = sim.rng(f"travel/route/{a}-{b}")
    base = r.randrange(100, 2900, 2)
    hours = sorted(r.sample(range(7, 21), 5))
    return [base + 2 * k for k in range(5)], [(h, r.choice([0, 5, 15, 20, 30, 40, 45, 55])) for h in hours]


def _seats(r, pref: str, passengers: int, widebody: bool) -> list[str]:
    """Adjacent seats, the persona's first (window/aisle/middle per preference)."""
    row = r.randint(8, 38 if widebody else 32)
    if widebody:
        order = {"window": "ABC", "aisle": "CBA", "middle": "BAC"}[pref]
        order = order if r.random() < 0.5 else order.translate(str.maketrans("ABC", "KJH"))
    else:
        order = {"window": "ABC", "aisle": "CBA", "middle": "BAC"}[pref]
        order = order if r.random() < 0.5 else order.translate(str.maketrans("ABC", "FED"))
    return [f"{row + k // 3}{order[k % 3]}" for k in range(passengers)]


def hotel_fx_rate(sim: Sim, i: int, currency: str) -> Decimal:
    """Card-currency units per unit of the hotel's ``currency`` for trip ``i``'s hotel charge: 1 at home, else
    the reference rate (:func:`builder.reference.fx.rate` on the day of departure) moved by up to 1.5 % (stream ``travel/trip/<i>/hotel/fx``), six
    decimals, as the purchases abroad are converted."""
    home_cur = sim.persona.finances.currency
    if currency == home_cur or not fx.known(currency) or not fx.known(home_cur):
        return Decimal(1)
    r = sim.rng(f"travel/trip/{i}/hotel/fx")
    on = sim.persona.travel.trips[i].depart
    rate = fx.per_usd(home_cur, on) / fx.per_usd(currency, on) * Decimal(str(1 + r.uniform(-0.015, 0.015)))
    return rate.quantize(Decimal("0.000001"))


def minor_units(cents: int, currency: str) -> int:
    """Cents (hundredths of a unit) as the currency's minor units: yen have none (``minor_units(330000, "JPY")
    == 3300``)."""
    return cents // unit_cents(currency)


def _stay(sim: Sim, i: int, trip, party: int, check_in: dt.date, nights: int, business: bool) -> dict:
    """Where trip ``i`` stays: a Bramblestay property of the destination (``builder.reference.lodging.inventory``) and its
    price (``builder.reference.lodging.rates.quote``, flexible rate, in the hotel's currency), drawn from stream
    ``travel/trip/<i>/stay`` (see the module rules). Returns ``{"property", "kind", "hotel", "chain",
    "neighbourhood", "host", "address", "lat", "lon", "room", "currency", "fx_rate" (str), "price" (the
    quote), "total_cents", "rate_cents", "tax_cents"}``; the last three in the card's currency."""
    from ..reference.lodging.inventory import chain_names, city_info, city_properties
    from ..reference.lodging.rates import card_cents, quote

    p = sim.persona
    r = sim.rng(f"travel/trip/{i}/stay")
    info = city_info(trip.destination)
    props = city_properties(sim.seed, p, trip.destination)
    chain, short = chain_names(p.travel.hotel_chain)
    member = p.travel.hotel_chain is not None or _loyalty(sim, short) is not None

    def fits(prop: dict) -> bool:
        return any(room["sleeps"] >= party for room in prop["rooms"])

    # Free cancellation up to 48 h (the confirmation mail's promise): flexible listings that sleep the party.
    pool = [x for x in props if x["policy"] == "flexible" and fits(x)] or [x for x in props if fits(x)] or props
    hotels = [x for x in pool if x["kind"] == "hotel"] or pool
    rentals = [x for x in pool if x["kind"] == "rental"]
    chain_hotel = next((x for x in hotels if x["chain"] == chain), None)
    fixed = next((x for x in props if trip.hotel and x["name"] == trip.hotel), None)
    roll = r.random()
    if fixed:
        prop = fixed
    elif business:
        good = [x for x in hotels if (x["stars"] or 0) >= 4] or hotels
        prop = chain_hotel if chain_hotel and (member or roll < 0.4) else good[r.randrange(len(good))]
    elif rentals and (party >= 3 or nights >= 8 or trip.purpose == "family") and roll < 0.5:
        snug = sorted(rentals, key=lambda x: (min(room["sleeps"] for room in x["rooms"]), x["slug"]))[:2]
        prop = snug[r.randrange(len(snug))]
    elif chain_hotel and member and 0.5 <= roll < 0.8:
        prop = chain_hotel
    else:
        prop = hotels[r.randrange(len(hotels))]
    rooms = [x for x in prop["rooms"] if x["sleeps"] >= party] or prop["rooms"]
    wanted = ("King Room", "Queen Room") if party <= 2 else ("Two Queen Beds", "Junior Suite")
    room = next((x for name in wanted for x in rooms if x["name"] == name), rooms[0])
    price = quote(prop, room, info, check_in, nights, "flexible")
    currency = info["currency"]
    rate = hotel_fx_rate(sim, i, currency)
    home_cur = sim.persona.finances.currency
    total = card_cents(price["total_cents"], rate, home_cur)
    nightly = card_cents(price["nightly_cents"], rate, home_cur)
    return {
        "property": prop["slug"],
        "kind": prop["kind"],
        "hotel": prop["name"],
        "chain": prop["chain"],
        "neighbourhood": prop["neighbourhood"],
        "host": prop["host_name"],
        "address": prop["address"],
        "lat": prop["lat"],
        "lon": prop["lon"],
        "room": room["name"],
        "currency": currency,
        "fx_rate": str(rate),
        "price": price,
        "total_cents": total,
        "rate_cents": nightly,
        "tax_cents": total - nightly * nights,
    }


def _checkout(
    sim: Sim,
    i: int,
    hotel_data: dict,
    pick: dict,
    account: str,
    expensable: bool,
    at: dt.datetime,
    at_local: str,
    confirmation: str,
) -> None:
    """The ``hotel_checkout`` event (the card is charged the stay's total in its own currency; abroad the memo
    gives the hotel's amount and the rate, and a ``card_fee`` adds the card's foreign transaction fee)."""
    from .finance import label

    total, cur, rate = pick["total_cents"], pick["currency"], pick["fx_rate"]
    foreign = cur != sim.persona.finances.currency
    memo = f"{foreign_amount(minor_units(pick['price']['total_cents'], cur), cur)} {cur} @ {rate}" if foreign else None
    rental = pick["kind"] == "rental"
    merchant = pick["chain"] or (STAYS_SITE[0] if rental else pick["hotel"])
    text = f"{STAYS_SITE[0]} {confirmation}" if rental else pick["hotel"]
    text = card_description(sim, account, text) + (f" {_country_code(hotel_data['city'])}" if foreign else "")
    ev = sim.event(
        "hotel_checkout",
        at,
        {
            **hotel_data,
            "check_out_local": at_local,
            "folio": f"F{confirmation[-6:]}",
            "account": account,
            "expensable": expensable,
            **({"provider": STAYS_SITE[0]} if rental else {}),
        },  # a rental's receipt comes from the site
        [Charge(account, -total, text, merchant, "travel", "card_purchase", None, memo)],
        key=(i, confirmation),
    )
    if foreign:
        pct = FOREIGN_FEE_PERCENT.get(sim.persona.bank, Decimal(3)) if account == "credit_card" else Decimal(2)
        fee = to_unit(Decimal(total) * pct / 100, sim.persona.finances.currency)
        if fee > 0:
            sim.event(
                "card_fee",
                at,
                {"purchase": ev.id, "amount_cents": fee, "account": account, "percent": str(pct), "trip": i},
                [Charge(account, -fee, label(sim, "fx_fee"), None, "fees", "fee", None, f"{pick['hotel']} {memo}")],
                (i, "hotel_fee"),
            )


def _country_code(city: str) -> str:
    """ISO code of a destination city's country (``"PT"`` for Lisbon), from the stays catalog's country names."""
    from ..reference.lodging.inventory import city_info

    return gazetteer.country_code(city_info(city)["country"]) or ""


def _loyalty(sim: Sim, name: str) -> str | None:
    """The persona's loyalty number for a programme whose name contains ``name``."""
    for lo in sim.persona.travel.loyalty:
        if name.lower() in lo.program.lower():
            return lo.number
    return None


def _airline(sim: Sim) -> tuple[str, str, str, str]:
    """(name, IATA-style code, ticket prefix, site) of the persona's airline."""
    name = sim.persona.travel.airline or service("airline").title
    if name in AIRLINES:
        return (name, *AIRLINES[name])
    words = [w for w in name.replace("-", " ").split() if w[:1].isalpha()]
    code = (words[0][0] + words[1][0] if len(words) > 1 else name[:2]).upper()
    slug = "".join(ch for ch in name.lower() if ch.isalnum())
    return name, code, f"{sim.rng(f'travel/airline/{name}').randint(100, 999)}", f"http://{slug}.test/"


def _night_rides(
    sim: Sim, direction: str, legs: list[str], day: dt.date, slot: tuple[int, int], dep_zone: str, international: bool
) -> int:
    """How many of a journey's rides and connecting departures would fall between 00:00 and 05:59 if it left at
    ``slot``, each in the local time of the place it happens (the ride to the first airport there, the rides from
    the last airport at the arrival, a connection at its hub): a slot that lands in Lisbon at 08:00 is not a night
    arrival because it is midnight in Portland."""
    dep = dt.datetime.combine(day, dt.time(*slot), zone(airport_zone(legs[0], dep_zone))).astimezone(_UTC)
    blocks = [
        block_minutes(a, b) if known_airport(a) and known_airport(b) else 180 for a, b in itertools.pairwise(legs)
    ]
    arr = dep + dt.timedelta(minutes=sum(blocks) + 110 * (len(legs) - 2))
    wiggle = 40 * (len(legs) - 2)
    if direction == "outbound":
        lead = 180 if international else 150
        leaving = [dep - dt.timedelta(minutes=lead + 10), dep - dt.timedelta(minutes=lead - 10)]
        landed = [arr + dt.timedelta(minutes=25 - wiggle), arr + dt.timedelta(minutes=70 + 25 * international + wiggle)]
    else:
        lead = 170 if international else 120
        leaving = [dep - dt.timedelta(minutes=lead + 65), dep - dt.timedelta(minutes=lead + 22)]
        landed = [arr + dt.timedelta(minutes=25 - wiggle), arr + dt.timedelta(minutes=50 + 20 * international + wiggle)]
    at = [(x, legs[0]) for x in leaving] + [(x, legs[-1]) for x in landed]
    for n in range(1, len(legs) - 1):  # a connection leaves about 110 minutes after the leg before it lands
        at.append((dep + dt.timedelta(minutes=sum(blocks[:n]) + 110 * n), legs[n]))
    return sum(x.astimezone(zone(airport_zone(code, dep_zone))).hour < 6 for x, code in at)


# The card's foreign transaction fee by the issuing bank's country (percent of the converted amount).
FOREIGN_FEE_PERCENT = {"en_US": Decimal(3), "en_GB": Decimal("2.99"), "de_DE": Decimal("1.75")}
# What a visitor's day costs, in US dollars: (category, bank key, local hours, chance on a full day, min, max).
_ABROAD = [
    ("coffee", "coffee", (8, 0), (10, 30), 0.8, 4, 9),
    ("restaurants", "restaurants", (12, 0), (14, 30), 0.85, 12, 32),
    ("entertainment", "museums", (10, 0), (16, 30), 0.5, 14, 32),
    ("transport", "transit", (9, 0), (18, 0), 0.7, 3, 9),
    ("shopping", "shops", (11, 0), (18, 30), 0.3, 8, 60),
    ("restaurants", "restaurants", (18, 30), (21, 30), 0.9, 25, 70),
]
_DEST_FAKER = {"JP": "ja_JP"}


def _legal_tender(country: str, on: dt.date, fallback: str) -> str:
    """The currency of ``country`` (ISO code) on ``on`` (CLDR through the gazetteer) when the world can rate it
    (:func:`builder.reference.fx.known`: a won, a real, a rupee), else ``fallback`` (the card's own: a peso the ECB
    does not publish is charged as if at home, as before)."""
    found = gazetteer.currency(country, on) if len(country) == 2 else None
    return found if found and fx.known(found) else fallback


def _latin_faker(country: str, fallback: str) -> str:
    """The Faker locale that names ``country``'s merchants (:func:`~builder.reference.gazetteer.faker_locale`) when
    it writes surnames in Latin letters or romanizes them, else ``fallback`` (the persona's locale)."""
    from faker import Faker

    locale = gazetteer.faker_locale(country)
    fake = Faker(locale)
    if hasattr(fake, "last_romanized_name"):
        return locale
    fake.seed_instance(0)
    return locale if latin(fake.last_name()) else fallback


def foreign_amount(minor: int, currency: str) -> str:
    """``1,850`` JPY or ``12.40`` EUR: a foreign amount as a statement memo writes it (``minor`` units)."""
    if unit_cents(currency) == 100:
        return f"{minor:,}"
    return f"{minor // 100:,}.{minor % 100:02d}"


def _spend_abroad(
    sim: Sim,
    i: int,
    trip,
    country: str,
    dest_zone: str,
    after: dt.datetime,
    before: dt.datetime,
    people: int,
    expensable: bool,
) -> None:
    """Card purchases at the destination between ``after`` and ``before`` (aware instants), up to ``now``:
    cafés, meals, sights, transit and shops, in the destination's currency converted on the card."""
    from ..reference.lodging.inventory import canonical_city
    from ..rng import derived_id
    from .finance import bank, label

    p = sim.persona
    home_cur = p.finances.currency
    cur = _legal_tender(country, sim.now.date(), home_cur)
    r = sim.rng(f"travel/trip/{i}/abroad")
    names_r = sim.rng(f"travel/trip/{i}/abroad/names")
    fake = make_faker(
        sim.seed,
        f"world/travel/trip/{i}/merchants",
        _DEST_FAKER.get(country) or _latin_faker(country, p.bank),
    )
    surname = getattr(fake, "last_romanized_name", fake.last_name)  # Japan's and China's in Latin letters
    dest = bank()["destination"]
    # The default patterns, the country's, then the city's own sights (only in that city: Porto has no Oceanário de
    # Lisboa).
    patterns = {**dest["default"], **dest.get(country, {}), **dest["cities"].get(canonical_city(trip.destination), {})}
    transit = bank()["transit"].get(trip.destination)
    pools: dict[str, list[str]] = {}
    for key in ("coffee", "restaurants", "museums", "shops"):
        picks = names_r.sample(patterns[key], min(len(patterns[key]), 3 if key != "restaurants" else 4))
        pools[key] = sorted({pt.format(surname=surname(), city=trip.destination) for pt in picks})
    pools["transit"] = [transit[1] if transit else f"{trip.destination} Transit"]
    account = sim.card()
    fee_pct = FOREIGN_FEE_PERCENT.get(p.bank, Decimal(3)) if account == "credit_card" else Decimal(2)
    tz = zone(dest_zone)
    day = after.astimezone(tz).date()
    last = before.astimezone(tz).date()
    n = 0
    while day <= last:
        # One rate per day: the reference rate moved by up to 1.5 %.
        rate = (
            (fx.per_usd(home_cur, day) / fx.per_usd(cur, day) * Decimal(str(1 + r.uniform(-0.015, 0.015))))
            if cur != home_cur and fx.known(cur) and fx.known(home_cur)
            else Decimal(1)
        )
        rate = rate.quantize(Decimal("0.000001"))
        for category, key, lo, hi, chance, usd_lo, usd_hi in _ABROAD:
            go = r.random()
            minute = r.randint(lo[0] * 60 + lo[1], hi[0] * 60 + hi[1])
            usd = Decimal(str(r.uniform(usd_lo, usd_hi)))
            pick = r.randrange(64)
            at = dt.datetime.combine(day, dt.time(minute // 60, minute % 60), tz).astimezone(_UTC)
            if go >= chance or not after <= at <= before:
                continue
            at_local = to_local(sim, at)
            if at_local > sim.now:
                continue
            # Meals and sights for everyone when travelling together.
            party = people if category in ("restaurants", "entertainment") and people > 1 else 1
            # At home the home's price level (a Fukuoka ramen for a Tokyo resident at the yen's living rate); abroad
            # the day's exchange rate for the fixed table's currencies (their cities' prices were written at it), else
            # the destination's own price level (a Bangkok dinner at Thai prices).
            if cur == home_cur or (cur not in PER_USD and fx.known(cur)):
                level = prices.living_rate(cur)
            else:
                level = fx.per_usd(cur, day) if fx.known(cur) else 1
            local = usd * Decimal(level) * party
            digits = min(2, precision(cur))
            minor = int((local * (10**digits)).quantize(Decimal(1)))
            minor = max(1, minor // (10 if digits == 0 else 5) * (10 if digits == 0 else 5))
            home = to_unit(Decimal(minor) / (10**digits) * rate * 100, home_cur)
            pool = pools[key]
            name = pool[pick % len(pool)]
            merchant_id = derived_id(sim.seed, "merchant", trip.destination, name)
            data = {
                "merchant": name,
                "merchant_id": merchant_id,
                "category": category,
                "amount_cents": home,
                "account": account,
                "city": trip.destination,
                "country": country,
                "trip": i,
                "local_time": iso(at, dest_zone),
                "expensable": expensable,
            }
            text = (name if trip.destination.lower() in name.lower() else f"{name} {trip.destination}").upper()
            memo = None
            if cur != home_cur:
                data.update(foreign_currency=cur, foreign_amount=foreign_amount(minor, cur), fx_rate=str(rate))
                memo = f"{foreign_amount(minor, cur)} {cur} @ {rate}"
                text = f"{text} {country}"
            if account == "checking":
                text = label(sim, "debit", text)
            ev = sim.event(
                "card_purchase",
                at_local,
                data,
                [Charge(account, -home, text, name, category, "card_purchase", None, memo)],
                (i, "abroad", n),
            )
            if cur != home_cur and fee_pct:
                fee = to_unit(Decimal(home) * fee_pct / 100, home_cur)
                if fee > 0:
                    sim.event(
                        "card_fee",
                        at_local,
                        {
                            "purchase": ev.id,
                            "amount_cents": fee,
                            "account": account,
                            "percent": str(fee_pct),
                            "trip": i,
                        },
                        [Charge(account, -fee, label(sim, "fx_fee"), None, "fees", "fee", None, f"{name} {memo}")],
                        (i, "fee", n),
                    )
            n += 1
        day += dt.timedelta(days=1)


_PAYBACK_MEMO = {
    "en_US": {"flights": "flights to {}", "hotel": "hotel in {}"},
    "en_GB": {"flights": "flights to {}", "hotel": "hotel in {}"},
    "de_DE": {"flights": "Flüge nach {}", "hotel": "Hotel in {}"},
}


def _paid_back(sim: Sim, i: int, trip, what: str, amount: int, after: dt.datetime) -> None:
    """Companions pay the persona back their share (``amount`` cents each) 1-6 days after ``after`` (local):
    a received ``p2p_payment`` per companion who is a contact (a spouse shares the money, so pays nothing)."""
    from .finance import label

    if trip.purpose == "business":  # colleagues' fares are the employer's business
        return
    r = sim.rng(f"travel/trip/{i}/payback/{what}")
    memo = _PAYBACK_MEMO.get(sim.persona.bank, _PAYBACK_MEMO["en_US"])[what].format(trip.destination)
    for name in trip.companions:
        when = after + dt.timedelta(days=r.randint(1, 6))
        when = dt.datetime.combine(when.date(), dt.time(r.randint(9, 21), r.randint(0, 59)))
        late = r.random() < 0.1  # now and then someone forgets
        try:
            c = sim.contact(name)
        except KeyError:
            continue
        if c.relationship == "spouse" or late or when > sim.now or amount <= 0:
            continue
        sim.event(
            "p2p_payment",
            when,
            {
                "direction": "received",
                "contact": c.name,
                "contact_email": c.email,
                "contact_phone": c.phone,
                "amount_cents": amount,
                "memo": memo,
                "trip": i,
            },
            [Charge("checking", amount, label(sim, "p2p_from", c.name), c.name, "p2p", "p2p_received", None, memo)],
            ("payback", i, what, name),
        )


@world_step(
    rank=40,
    writes=(
        "flight_booking",
        "flight",
        "hotel_booking",
        "hotel_stay",
        "hotel_checkout",
        "ride",
        "card_purchase",
        "card_fee",
        "p2p_payment",
        "ledger",
    ),
)
def simulate_travel(sim: Sim) -> None:
    """Append each trip's bookings, flights, hotel stay and rides (see module rules)."""
    p = sim.persona
    travel = p.travel
    if not travel or not travel.trips or not travel.home_airport:
        return
    airline, code, prefix, airline_site = _airline(sim)
    chain = travel.hotel_chain or "Harbor & Pine Hotels"
    chain_short = chain.removesuffix(" Hotels").removesuffix(" Hotel").removesuffix(" Resorts")
    miles_no, hotel_no = _loyalty(sim, airline), _loyalty(sim, chain_short)
    seat_pref = travel.seat or p.preferences.seat or "window"
    home = travel.home_airport
    home_zone = p.timezone
    home_address = format_address(p.identity.address)
    pnrs: set[str] = set()
    for i, trip in enumerate(travel.trips):
        if trip.depart <= sim.start.date() or trip.depart > sim.end.date() or trip.airport == home:
            continue
        r = sim.rng(f"travel/trip/{i}")
        fake = sim.people(f"travel/trip/{i}")  # drivers of the rides to and from the home airport
        dest_zone = airport_zone(trip.airport, p.timezone)
        dest_country = airport_country(trip.airport)
        local_fake = (  # drivers at the destination: the home country's people on a trip at home
            sim.people(f"travel/trip/{i}/local")
            if dest_country == sim.country
            else sim.people(f"travel/trip/{i}/local", dest_country)
        )
        international = dest_country != airport_country(home)
        expensable = trip.purpose == "business"
        passengers = [p.identity.name, *trip.companions]

        # Flights: outbound on depart, return on return_.
        flights = []
        for direction, legs, day in (
            ("outbound", _legs(home, trip.airport), trip.depart),
            ("return", _legs(trip.airport, home), trip.return_),
        ):
            numbers, slots = _route(sim, legs[0], legs[1])
            drawn = r.randrange(len(slots))
            dep_zone = home_zone if direction == "outbound" else dest_zone
            # Long journeys leave in the morning; any journey takes the first slot whose rides fall in waking hours.
            order = list(range(len(slots))) if len(legs) > 2 else [drawn] + [j for j in range(len(slots)) if j != drawn]
            k = min(
                order,
                key=lambda j: (
                    _night_rides(sim, direction, legs, day, slots[j], dep_zone, international),
                    order.index(j),
                ),
            )
            hour, minute = slots[k]
            dep = dt.datetime.combine(day, dt.time(hour, minute), zone(airport_zone(legs[0], dep_zone)))
            dep = dep.astimezone(_UTC)
            for n, (a, b) in enumerate(itertools.pairwise(legs)):
                if n:
                    dep = flights[-1]["arr"] + dt.timedelta(minutes=5 * r.randint(15, 30))
                    number = _route(sim, a, b)[0][0]
                else:
                    number = numbers[k]
                fixed = trip.flight if direction == "outbound" and not n else None  # the spec's own flight number
                minutes = block_minutes(a, b) if known_airport(a) and known_airport(b) else 180
                flights.append(
                    {
                        "direction": direction,
                        "leg": n + 1,
                        "from": a,
                        "to": b,
                        "dep": dep,
                        "arr": dep + dt.timedelta(minutes=minutes),
                        "minutes": minutes,
                        "number": f"{fixed[:2]} {fixed[2:]}" if fixed else f"{code} {number}",
                        "widebody": minutes >= 330,
                    }
                )
        outbound = [f for f in flights if f["direction"] == "outbound"]
        inbound = [f for f in flights if f["direction"] == "return"]

        # Booking: one evening 21-60 days before departure, within [start, now).
        lo = max(sim.start.date(), trip.depart - dt.timedelta(days=60))
        hi = min(trip.depart - dt.timedelta(days=21), sim.now.date() - dt.timedelta(days=1))
        day = lo + dt.timedelta(days=r.randint(0, max(0, (hi - lo).days)))
        booked = dt.datetime.combine(day, dt.time(r.randint(19, 22), r.randint(0, 59)))
        booked = min(booked, to_local(sim, outbound[0]["dep"]) - dt.timedelta(hours=8))

        pnr = "".join(r.choice(_PNR_ALPHABET) for _ in range(6))
        while pnr in pnrs:
            pnr = "".join(r.choice(_PNR_ALPHABET) for _ in range(6))
        pnrs.add(pnr)
        tickets = [f"{prefix}{r.randint(10**9, 10**10 - 1)}" for _ in passengers]
        roundtrip_km = sum(
            distance_km(f["from"], f["to"]) if known_airport(f["from"]) and known_airport(f["to"]) else 2000
            for f in flights
        )
        fare_class = "Economy Flex" if expensable else ("Basic Economy" if r.random() < 0.25 else "Economy")
        fare = (
            (9000 + 7 * roundtrip_km)
            * r.uniform(0.85, 1.25)
            * {"Economy Flex": 1.3, "Basic Economy": 0.85}.get(fare_class, 1.0)
        )
        fare = prices.figure(int(fare) // 100 * 100 + r.randint(0, 99), p.finances.currency)
        price = fare * len(passengers)
        account = sim.card()
        seats = {f["number"] + f["from"]: _seats(r, seat_pref, len(passengers), f["widebody"]) for f in flights}
        sim.event(
            "flight_booking",
            booked,
            {
                "trip": i,
                "pnr": pnr,
                "airline": airline,
                "airline_code": code,
                "passengers": passengers,
                "purpose": trip.purpose,
                "destination": trip.destination,
                "fare_class": fare_class,
                "fare_per_passenger_cents": fare,
                "price_cents": price,
                "total_cents": price,
                "flights": [f["number"] for f in flights],
                "itinerary": [
                    {
                        "flight_number": f["number"],
                        "from": f["from"],
                        "to": f["to"],
                        "dep_local": iso(f["dep"], airport_zone(f["from"], p.timezone)),
                        "arr_local": iso(f["arr"], airport_zone(f["to"], p.timezone)),
                    }
                    for f in flights
                ],
                "ticket_number": tickets[0],
                "ticket_numbers": tickets,
                "seat_preference": seat_pref,
                "loyalty_number": miles_no,
                "account": account,
                "expensable": expensable,
                "site_url": airline_site,
                "site_title": airline,
            },
            [Charge(account, -price, card_description(sim, account, f"{airline} {tickets[0]}"), airline, "travel")],
            (i, pnr),
        )
        _paid_back(sim, i, trip, "flights", fare, booked)

        for f in flights:
            seat_list = seats[f["number"] + f["from"]]
            dep_local = to_local(sim, f["dep"])
            gate = None
            if dep_local <= sim.now:
                gate = f"{'ABCDE'[r.randrange(5)]}{r.randint(1, 28)}"
            sim.event(
                "flight",
                dep_local,
                {
                    "trip": i,
                    "pnr": pnr,
                    "airline": airline,
                    "flight_number": f["number"],
                    "direction": f["direction"],
                    "leg": f["leg"],
                    "from": f["from"],
                    "to": f["to"],
                    "from_name": airport_label(f["from"]),
                    "to_name": airport_label(f["to"]),
                    "dep_local": iso(f["dep"], airport_zone(f["from"], p.timezone)),
                    "arr_local": iso(f["arr"], airport_zone(f["to"], p.timezone)),
                    "dep_utc": f["dep"].strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "arr_utc": f["arr"].strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "duration_minutes": f["minutes"],
                    "aircraft": (
                        "Boeing 787-9"
                        if f["widebody"]
                        else "Airbus A321neo"
                        if f["minutes"] >= 180
                        else "Boeing 737-800"
                    ),
                    "seat": seat_list[0],
                    "seats": seat_list,
                    "passengers": passengers,
                    "boarding_group": 2 if miles_no else r.randint(3, 6),
                    "gate": gate,
                },
                key=(i, f["direction"], f["leg"]),
            )

        # Rides to and from the home airport.
        first_dep, last_arr = outbound[0]["dep"], inbound[-1]["arr"]
        lead = 180 if international else 150
        pickup = first_dep - dt.timedelta(minutes=lead + 5 * r.randint(-2, 2))
        ride(
            sim,
            r,
            fake,
            pickup,
            r.randint(24, 38),
            home_address,
            airport_label(home),
            home_zone,
            (i, "to_airport"),
            i,
            {"expensable": expensable},
        )
        back = last_arr + dt.timedelta(minutes=r.randint(25, 50) + (20 if international else 0))
        ride(
            sim,
            r,
            fake,
            back,
            r.randint(24, 38),
            airport_label(home),
            home_address,
            home_zone,
            (i, "home"),
            i,
            {"expensable": expensable},
        )

        # Hotel.
        arrival = outbound[-1]["arr"]
        check_in = arrival.astimezone(zone(dest_zone)).date()
        nights = (trip.return_ - check_in).days
        if nights < 1:
            continue
        stay_pick = _stay(sim, i, trip, len(passengers), check_in, nights, expensable)
        hotel, address = stay_pick["hotel"], stay_pick["address"]
        to_hotel = arrival + dt.timedelta(minutes=r.randint(25, 45) + (25 if international else 0))
        ride_minutes = r.randint(22, 45)
        ride(
            sim,
            r,
            local_fake,
            to_hotel,
            ride_minutes,
            airport_label(trip.airport),
            f"{hotel}, {address}",
            dest_zone,
            (i, "to_hotel"),
            i,
            {"expensable": expensable},
            dest_country,
            trip.destination,
        )
        out_minutes = r.randint(22, 45)  # sets the pickup; the ride's own duration comes from geo (see ride)
        leave = inbound[0]["dep"] - dt.timedelta(
            minutes=(170 if international else 120) + out_minutes + 5 * r.randint(0, 4)
        )
        ride(
            sim,
            r,
            local_fake,
            leave,
            out_minutes,
            f"{hotel}, {address}",
            airport_label(trip.airport),
            dest_zone,
            (i, "from_hotel"),
            i,
            {"expensable": expensable},
            dest_country,
            trip.destination,
        )

        r.uniform(0.9, 1.15)  # the old nightly-rate draw, kept so that later draws do not shift
        total = stay_pick["total_cents"]
        confirmation = f"{r.randint(10**7, 10**8 - 1)}"
        hotel_data = {
            "trip": i,
            "hotel": hotel,
            "chain": stay_pick["chain"],
            "city": trip.destination,
            "address": address,
            "confirmation": confirmation,
            "check_in": check_in.isoformat(),
            "check_out": trip.return_.isoformat(),
            "nights": nights,
            "room": stay_pick["room"],
            "guests": len(passengers),
            "rate_cents": stay_pick["rate_cents"],
            "tax_cents": stay_pick["tax_cents"],
            "total_cents": total,
            "loyalty_number": hotel_no if stay_pick["chain"] == chain else None,
            **{
                k: stay_pick[k]
                for k in ("property", "kind", "neighbourhood", "host", "lat", "lon", "currency", "fx_rate", "price")
            },
        }
        sim.event(
            "hotel_booking",
            booked + dt.timedelta(minutes=r.randint(8, 40)),
            {**hotel_data, "site_url": STAYS_SITE[1], "site_title": STAYS_SITE[0]},
            key=(i, confirmation),
        )
        stay = max(
            dt.datetime.combine(check_in, dt.time(15, 0), zone(dest_zone)).astimezone(_UTC),
            to_hotel + dt.timedelta(minutes=ride_minutes + 5),
        )
        sim.event(
            "hotel_stay",
            to_local(sim, stay),
            {**hotel_data, "check_in_local": iso(stay, dest_zone)},
            key=(i, confirmation),
        )
        _spend_abroad(
            sim,
            i,
            trip,
            dest_country,
            dest_zone,
            stay + dt.timedelta(minutes=30),
            leave - dt.timedelta(minutes=30),
            len(passengers),
            expensable,
        )
        out = min(
            dt.datetime.combine(trip.return_, dt.time(11, 0), zone(dest_zone)).astimezone(_UTC),
            leave - dt.timedelta(minutes=10),
        )
        _checkout(
            sim, i, hotel_data, stay_pick, account, expensable, to_local(sim, out), iso(out, dest_zone), confirmation
        )
        share = floor_unit(total // len(passengers), p.finances.currency)
        _paid_back(sim, i, trip, "hotel", share, to_local(sim, out))


# --- what this domain enters in the calendar (the calendar channel, builder/world/calendar.py) -----


@world_step(
    rank=61,
    reads=("flight_booking", "hotel_booking", "flight", "hotel_stay"),
    writes=("calendar_event",),
)
def calendar_trips(sim: Sim) -> None:
    """Enter every trip (all day), flight leg and hotel stay in the calendar, with the booking site's UIDs (see
    builder/world/calendar.py's rules)."""
    home = home_zone(sim)
    bookings = sim.of_kind("flight_booking")
    flight_sites = {b.data.get("pnr"): b.data.get("site_url") for b in bookings}
    hotel_sites = {b.data.get("confirmation"): b.data.get("site_url") for b in sim.of_kind("hotel_booking")}
    for i, t in enumerate(trips(sim)):
        if t.return_ < sim.start.date() or t.depart > sim.end.date():
            continue
        ref = None
        for b in bookings:
            if b.data.get("trip") == i:
                ref = b.id
                break
        people = [person(sim, n) for n in t.companions]
        add_all_day(
            sim,
            t.depart,
            t.return_,
            title=words(sim)["trip"].format(dest=t.destination),
            calendar="work" if t.purpose == "business" else "personal",
            location=t.destination,
            attendees=people,
            source="trip",
            ref=ref,
            description=words(sim)["purpose"][t.purpose],
            key=("trip", i),
        )
    for f in sim.of_kind("flight"):
        d = f.data
        dep, arr = first(d, "dep_local", "departure_local", "depart_local"), first(d, "arr_local", "arrival_local")
        at = parse_when(sim, dep) or f.at
        if not dep:
            dep = aware(sim, at)
        if not arr:
            arr = aware(sim, at + dt.timedelta(hours=2))
        origin, dest = first(d, "from", "origin", default=""), first(d, "to", "destination", default="")
        number = first(d, "flight_number", "flight", default="")
        t = (
            trips(sim)[d["trip"]]
            if isinstance(d.get("trip"), int) and d["trip"] < len(trips(sim))
            else trip_of(sim, at.date())
        )
        w = words(sim)
        desc = "\n".join(
            x
            for x in [
                w["confirmation"].format(code=d["pnr"]) if d.get("pnr") else "",
                w["seat"].format(seat=d["seat"]) if d.get("seat") else "",
            ]
            if x
        )
        add_entry(
            sim,
            at,
            title=w["flight"].format(number=number, origin=origin, dest=dest).replace("  ", " "),
            start=dep,
            end=arr,
            calendar="work" if t is not None and t.purpose == "business" else "personal",
            location=w["airport"].format(code=origin) if origin else "",
            source="flight",
            ref=f.id,
            description=desc,
            key=("flight", f.id),
            uid=booking_uid(f.id, flight_sites.get(d.get("pnr"))),
        )
    for h in sim.of_kind("hotel_stay"):
        d = h.data
        check_in = first(d, "check_in_local", "check_in", "checkin", "start")
        check_out = first(d, "check_out", "checkout", "end")
        ci, co = parse_when(sim, check_in), parse_when(sim, check_out)
        if ci is None:
            ci = h.at
        t = (
            trips(sim)[d["trip"]]
            if isinstance(d.get("trip"), int) and d["trip"] < len(trips(sim))
            else trip_of(sim, ci.date())
        )
        tz = zone_of_airport(t.airport if t else first(d, "airport"), home)
        if isinstance(check_in, str) and "T" in check_in and dt.datetime.fromisoformat(check_in).tzinfo:
            start_iso = check_in
        else:
            start_iso = aware(sim, dt.datetime.combine(ci.date(), dt.time(15, 0)), tz)
        if isinstance(check_out, str) and "T" in check_out and dt.datetime.fromisoformat(check_out).tzinfo:
            end_iso = check_out
        else:
            co_day = co.date() if co else ci.date() + dt.timedelta(days=1)
            end_iso = aware(sim, dt.datetime.combine(co_day, dt.time(11, 0)), tz)
        at = parse_when(sim, start_iso)
        name = first(d, "hotel", "hotel_name", "name", default="Hotel")
        conf = first(d, "confirmation", "confirmation_number", "booking_ref")
        add_entry(
            sim,
            at,
            title=words(sim)["stay"].format(name=name),
            start=start_iso,
            end=end_iso,
            calendar="work" if t is not None and t.purpose == "business" else "personal",
            location=first(d, "address", "city", default=name),
            source="hotel",
            ref=h.id,
            description=words(sim)["confirmation"].format(code=conf) if conf else "",
            key=("hotel", h.id),
            uid=booking_uid(h.id, hotel_sites.get(conf)),
        )


# --- what this domain mails (through the mail channel, builder/world/mail.py) --------------------


@world_step(
    rank=64,
    reads=("flight_booking", "flight", "hotel_booking", "hotel_stay", "hotel_checkout", "ride", "calendar_event"),
    writes=("email",),
)
def mail_bookings(sim: Sim) -> None:
    """Mail the confirmation of every flight and hotel booking (with the calendar's ``.ics`` of the legs or the
    stay), the hotel's folio at check-out and every ride's receipt, minutes after each (see builder/world/mail.py's
    rules)."""
    box = mailbox(sim)
    hotel_sites = {h.data.get("confirmation"): h.data.get("site_url") for h in sim.of_kind("hotel_booking")}
    for e in sim.of_kind("flight_booking", "hotel_booking", "hotel_checkout", "ride"):
        if e.at > sim.now:
            continue
        d = e.data
        r, base = quoting(box, e)
        if e.kind == "flight_booking":
            flights = _flights_for(sim, e)
            sender = business_sender(
                d, ("airline", "provider"), sim.persona.travel.airline or "Airline", "reservations"
            )
            subject, body = render("flight_booking", **base, flights=flights, airline=sender["name"])
            at = sent_after(box, e, r)
            legs = {f.id for f in sim.of_kind("flight") if f.data.get("pnr") and f.data.get("pnr") == d.get("pnr")}
            box.single(
                ("confirm", e.id),
                at,
                sender,
                subject,
                body,
                labels=["travel"],
                ref=e.id,
                r=r,
                series="booking_confirmation",
                attachments=booking_ics(box, "flight", legs, at, f"{d.get('pnr') or 'itinerary'}.ics"),
            )
        elif e.kind in ("hotel_booking", "hotel_checkout"):
            # The booking is confirmed by the site it was made on; the folio comes from the hotel's front desk.
            booked = e.kind == "hotel_booking"
            sender = business_sender(
                {**d, "site_url": hotel_sites.get(d.get("confirmation")) if booked else None},
                ("site_title",) if booked else ("chain", "provider", "hotel"),
                sim.persona.travel.hotel_chain or "Hotel",
                "reservations" if booked else "frontdesk",
            )
            subject, body = render(
                e.kind,
                **base,
                chain=d.get("chain") or sender["name"],
                site=sender["name"],
                check_in=parse_when(sim, first(d, "check_in", "checkin")),
                check_out=parse_when(sim, first(d, "check_out", "checkout")),
            )
            at = sent_after(box, e, r, 60, 1800)
            stays = {
                h.id
                for h in sim.of_kind("hotel_stay")
                if booked and h.data.get("confirmation") == d.get("confirmation")
            }
            box.single(
                (e.kind, e.id),
                at,
                sender,
                subject,
                body,
                labels=["travel"],
                ref=e.id,
                r=r,
                series="booking_confirmation" if e.kind == "hotel_booking" else "hotel_folio",
                attachments=booking_ics(box, "hotel", stays, at, f"reservation-{d.get('confirmation')}.ics")
                if booked
                else (),
            )
        elif e.kind == "ride":
            sender = business_sender(d, ("provider",), "Ride", "receipts")
            subject, body = render(
                "ride",
                **base,
                provider=sender["name"],
                pickup=parse_when(sim, d.get("pickup_local")) or e.at,
                dropoff=parse_when(sim, d.get("dropoff_local")),
            )
            after = parse_when(sim, d.get("dropoff_local")) or e.at
            at = min(max(after, e.at) + dt.timedelta(seconds=r.randint(60, 900)), sim.now)
            box.single(
                ("receipt", e.id),
                at,
                sender,
                subject,
                body,
                labels=["receipts"],
                ref=e.id,
                r=r,
                read_p=0.7,
                archive_p=0.5,
                series="receipt",
            )


def _flights_for(sim: Sim, booking: Event) -> list[dict[str, Any]]:
    """The flight legs of a booking: its itinerary, else the ``flight`` events with its PNR."""
    d = booking.data
    segs = first(d, "itinerary", "segments", "flights")
    if isinstance(segs, list) and segs and isinstance(segs[0], dict):
        return segs
    pnr = d.get("pnr")
    return [f.data for f in sim.of_kind("flight") if pnr and f.data.get("pnr") == pnr]


@world_step(rank=65, reads=("flight_booking", "flight"), writes=("email",))
def mail_checkins(sim: Sim) -> None:
    """A check-in mail for every flight leg (outbound, return, connections) 24 hours before it departs, from the
    airline of its booking; ``series`` ``checkin`` and ``flight_id`` = the leg's ``flight`` event id. A leg booked
    less than a day ahead gets it minutes after the booking."""
    box = mailbox(sim)
    bookings = {b.data.get("pnr"): b for b in sim.of_kind("flight_booking") if b.data.get("pnr")}
    for leg in sim.of_kind("flight"):
        d = leg.data
        booking = bookings.get(d.get("pnr"))
        bd = booking.data if booking else {}
        r = sim.rng(f"mail/checkin/{leg.id}")
        at = leg.at - dt.timedelta(hours=24) + dt.timedelta(seconds=r.randint(0, 900))
        if booking is not None and at <= booking.at:
            at = booking.at + dt.timedelta(minutes=r.randint(3, 20))
        if leg.at - dt.timedelta(hours=24) > sim.now:
            continue
        at = min(at, sim.now)
        airline = first(bd, "airline", default=first(d, "airline", default=sim.persona.travel.airline or "Airline"))
        sender = {"name": airline, "email": f"checkin@{site_domain(bd.get('site_url'), airline)}"}
        subject, body = render(
            "flight_checkin", fmt=box.fmt, me=box.me, first=box.first, d={**bd, **d}, f=d, airline=airline, r=r
        )
        box.single(
            ("checkin", leg.id),
            at,
            sender,
            subject,
            body,
            labels=["travel"],
            ref=booking.id if booking else leg.id,
            r=r,
            series="checkin",
            extra={"flight_id": leg.id},
            read_p=0.9,
        )
