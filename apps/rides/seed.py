"""World -> rows of ZipRide's database (``rides.sqlite``).

What the seed writes, and the rules it keeps (tests and tasks depend on them):

* **Rides**: every world ``ride`` event up to the world's now (``status == "done"``) is a ``completed``
  ride, verbatim (ride id, pickup/dropoff text and local times, duration, distance, fare, tip, total,
  driver, vehicle, plate, card), ``world_ref`` = the event id. The fare parts follow the world's tariff
  (``builder.reference.geo``): base 275, distance ``(135 x tenths + 5) // 10``, time ``32 x minutes``, booking
  fee 245; they sum to the world's fare. ``purpose`` is the world's, ``trip`` for airport and hotel rides.
  Rides the world has ahead (an upcoming trip's airport rides) are not in the app (the rider has not requested
  them yet), except those the rider booked ahead (:func:`booked_ahead`: the airport ride a planted flight change
  names, booked before the airline moved the flight): each a ``scheduled`` ride on the Scheduled rides page as the
  world has it (the world's ride id, places, pickup time, fare; no tip, no driver yet: one is matched shortly
  before pickup), requested when the flight was booked, paid at the ride (``charge_auth`` NULL: cancelling it
  refunds nothing).
* **Ratings**: the rider rated the rides that ended more than 14 days before now (stream
  ``rides/ratings``: 5 stars 80 %, 4 stars 15 %, 3 stars 5 %), ``rated_at`` 5-90 minutes after the dropoff.
  Newer rides are unrated (the app's "Rate your ride").
* **Places** (:func:`known_places`): every address the rides name, the persona's home and work, contacts'
  homes in the home city, restaurants booked in the home city, the hotels of trips, and the airports the
  trips use; each with the point of ``builder.reference.geo.point`` in its city, located as the world's rides
  locate it (a trip's city by its airport's country, and by the airport itself where geo knows no centre).
* **Saved places**: Home and Work from the spec, then up to three places other than home and work the
  persona rode to (or from) at least three times, most rides first (ties by address).
* **Cards on file**: ``builder.world.accounts.payment_cards``; the first is the default; each ride's card is
  the one of its account.
* **Ride types** from ``data/ride_types.yaml``; the **driver pool** for new requests: six drivers per ride
  type in the home city (stream ``rides/drivers``, names from the persona's locale, cars from
  ``data/fleet.yaml``, plates as ``builder.world.travel.plate``).
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from pathlib import Path

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile, yamlfile
from builder.money import unit_cents
from builder.rng import rng
from builder.reference import geo, people, prices
from builder.reference.locale import in_language
from builder.world import World
from builder.world import payment_cards
from builder.reference.addresses import format_address
from builder.reference.airports import airport_country, airport_facts, airport_label, known_airport
from builder.reference.plates import plate

from . import models as m

HERE = Path(__file__).resolve().parent
DOMAIN = "zipride.test"
RATED_AFTER_DAYS = 14
DRIVERS_PER_TYPE = 6


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (see builder.appkit)."""
    return appkit.credentials(world, "rides")


def ride_types() -> list[dict]:
    """``data/ride_types.yaml``: ``[{"code", "name", "description", "capacity", "price_percent", "eta_extra_minutes"}]``."""
    return yamlfile.safe_load((HERE / "data" / "ride_types.yaml").read_text(encoding="utf-8"))


def home_city(world: World) -> str:
    """The persona's home city (the address's city)."""
    a = world.persona.identity.address
    return a.city if a else ""


def done_rides(world: World) -> list:
    """The world's rides up to now (``status == "done"``), in timeline order: the app's history."""
    return [e for e in world.of_kind("ride") if e.status == "done"]


def booked_ahead(world: World) -> list:
    """The world's rides ahead that the rider has already scheduled in ZipRide, in timeline order: the rides a planted
    item's ``airport_ride`` step names (builder/world/planted.py flight change: the airport ride booked for the
    flight's old day)."""
    named = {s.get("event_id") for x in world.planted for s in x.get("steps", []) if s.get("step") == "airport_ride"}
    return [e for e in world.of_kind("ride") if e.status == "scheduled" and e.id in named]


def _route(world: World, ride, place_id: dict[str, int]) -> dict:
    """The columns of a ``rides`` row that a ride event states whatever its status: its id, type, places and times,
    duration and distance (``place_id``: place name -> its ``places`` row)."""
    d = ride.data
    return {
        "ride_id": d["ride_id"],
        "ride_type": "zip",
        "pickup_place_id": place_id[d["pickup"]],
        "dropoff_place_id": place_id[d["dropoff"]],
        "pickup": d["pickup"],
        "dropoff": d["dropoff"],
        "city": _ride_city(world, ride),
        "pickup_at": d["pickup_local"],
        "dropoff_at": d["dropoff_local"],
        "duration_minutes": d["duration_minutes"],
        "distance_miles": d["distance_miles"],
    }


def _booked_at(world: World, ride) -> dt.datetime:
    """When a ride booked ahead was requested (naive local): an hour after its trip's flight was booked, and before
    now."""
    trip = ride.data.get("trip")
    booked = [e.at for e in world.of_kind("flight_booking") if e.status == "done" and e.data.get("trip") == trip]
    at = (min(booked) if booked else world.now - dt.timedelta(days=7)) + dt.timedelta(hours=1)
    return min(at, world.now - dt.timedelta(hours=1))


def tariff_meta(currency: str) -> dict[str, str]:
    """The ``meta`` rows that tell the app how the tariff's US figures read in ``currency`` (web/lib/geo.ts
    ``Tariff``): none in USD, GBP and EUR (the figures as they are); else ``fare_rate``, the units of ``currency`` a
    dollar's worth buys (:func:`builder.reference.prices.living_rate`, written out in full), and ``unit_cents``, the
    currency's smallest unit in cents (:func:`builder.money.unit_cents`), so the request page prices a ride as
    :func:`fare_parts` does."""
    if currency in prices.WRITTEN:
        return {}
    return {"fare_rate": format(prices.living_rate(currency), "f"), "unit_cents": str(unit_cents(currency))}


def fare_parts(tenths: int, minutes: int, percent: int = 100, currency: str = "USD") -> dict[str, int]:
    """Fare breakdown in cents for ``tenths`` of a mile and ``minutes`` at ``percent`` of the Zip price:
    ``{"base_cents", "distance_cents", "time_cents", "booking_fee_cents", "fare_cents"}``; at 100 % the fare
    equals ``geo.fare_cents``. Parts are scaled half up: ``(x * percent + 50) // 100``. In a currency other than
    USD, GBP and EUR the tariff's dollars are at the exchange rate (``builder.reference.prices.figure``, as the
    world's fares): the fare is the converted dollar fare, the booking fee what the converted parts leave of it."""
    if currency not in prices.WRITTEN:
        usd = fare_parts(tenths, minutes, percent)
        parts = {k: prices.figure(usd[k], currency) for k in ("base_cents", "distance_cents", "time_cents")}
        fare = prices.figure(usd["fare_cents"], currency)
        return {**parts, "booking_fee_cents": fare - sum(parts.values()), "fare_cents": fare}

    def scale(x: int) -> int:
        return (x * percent + 50) // 100

    base = scale(geo.BASE_CENTS)
    distance = scale((geo.PER_MILE_CENTS * tenths + 5) // 10)
    time = scale(geo.PER_MINUTE_CENTS * minutes)
    return {
        "base_cents": base,
        "distance_cents": distance,
        "time_cents": time,
        "booking_fee_cents": geo.BOOKING_FEE_CENTS,
        "fare_cents": base + distance + time + geo.BOOKING_FEE_CENTS,
    }


def _ride_city(world: World, e) -> str:
    if e.data.get("trip") is not None and (
        code := geo.airport_code(e.data["pickup"]) or geo.airport_code(e.data["dropoff"])
    ):
        home_airport = _home_airport(world)
        if code != home_airport:
            return _airport_city(world).get(code, home_city(world))
    return home_city(world)


def _home_airport(world: World) -> str:
    return world.persona.travel.home_airport if world.persona.travel else ""


def _airport_city(world: World) -> dict[str, str]:
    """IATA code -> the city a trip's rides there belong to (the home airport -> the home city)."""
    out = {}
    rides = world.of_kind("ride")
    for e in world.of_kind("hotel_booking"):
        trip = e.data["trip"]
        for r in rides:
            if r.data.get("trip") == trip:
                for text in (r.data["pickup"], r.data["dropoff"]):
                    code = geo.airport_code(text)
                    if code and code != _home_airport(world):
                        out[code] = e.data["city"]
    if _home_airport(world):
        out[_home_airport(world)] = home_city(world)
    return out


def _city_places(world: World) -> dict[str, tuple[str, tuple[float, float] | None]]:
    """City -> ``(country, near)``: what the world's rides locate an address of that city by (the country picks
    among the gazetteer's cities of its name; ``near`` is the airport at the ride's other end, the centre of a city
    neither geo nor the gazetteer knows). The home city: the address's country; a trip's city: its airport's."""
    p = world.persona
    out = {}
    trips = p.travel.trips if p.travel else []
    for e in world.of_kind("hotel_booking"):
        code = trips[e.data["trip"]].airport
        near = tuple(airport_facts(code)[1:3]) if known_airport(code) else None
        out.setdefault(e.data["city"], (airport_country(code), near))
    out[home_city(world)] = (p.identity.address.country if p.identity.address else "US", None)
    return out


def known_places(world: World) -> list[dict]:
    """Every place ZipRide knows, sorted by (city, kind, address): ``[{"name", "address", "city", "kind",
    "lat", "lon", "world_ref"}]`` (see the module docstring for the sources)."""
    p = world.persona
    city = home_city(world)
    airports = _airport_city(world)
    where = _city_places(world)
    places: dict[str, dict] = {}

    def add(address: str, name: str, kind: str, in_city: str, ref: str) -> None:
        if not address or address in places:
            return
        code = geo.airport_code(address)
        if code:
            kind, name, in_city = "airport", airport_label(code), airports.get(code, in_city)
        country, near = where.get(in_city, (None, None))
        lat, lon = geo.point(address, in_city, near, country)
        places[address] = {
            "name": name,
            "address": address,
            # An airport is in the city it serves: its label names no city ("ORY Paris-Orly Airport" would read as
            # the gazetteer's town called Airport).
            "city": in_city if code else (geo.city_of(address, in_city) or in_city),
            "kind": kind,
            "lat": lat,
            "lon": lon,
            "world_ref": ref,
        }

    home = format_address(p.identity.address)
    add(home, "Home", "home", city, "seed:home")
    if p.work and p.work.office_address:
        add(format_address(p.work.office_address), p.work.employer or "Work", "work", city, "seed:work")
    for code, c in sorted(airports.items()):
        if known_airport(code):
            add(airport_label(code), airport_label(code), "airport", c, f"seed:airport/{code}")
    for c in p.contacts:
        if c.address and c.address.city == city and format_address(c.address) != home:
            add(format_address(c.address), format_address(c.address), "contact", city, f"seed:contact/{c.name}")
    for e in world.of_kind("restaurant_booking"):
        if geo.city_of(e.data["address"], city) == city:
            add(e.data["address"], e.data["restaurant"], "venue", city, e.id)
    for e in world.of_kind("hotel_booking"):
        add(f"{e.data['hotel']}, {e.data['address']}", e.data["hotel"], "hotel", e.data["city"], e.id)
    for e in done_rides(world) + booked_ahead(world):
        rc = _ride_city(world, e)
        for text in (e.data["pickup"], e.data["dropoff"]):
            add(text, text.split(",")[0], "venue", rc, e.id)
    return sorted(places.values(), key=lambda x: (x["city"], x["kind"], x["address"]))


def frequent_places(world: World, places: list[dict]) -> list[dict]:
    """Up to three places (not home or work) in at least three of the persona's rides, most rides first."""
    skip = {x["address"] for x in places if x["kind"] in ("home", "work", "airport")}
    counts = Counter(t for e in done_rides(world) for t in {e.data["pickup"], e.data["dropoff"]} if t not in skip)
    ranked = sorted((n, a) for a, n in counts.items() if n >= 3)
    ranked.sort(key=lambda x: (-x[0], x[1]))
    by_address = {x["address"]: x for x in places}
    return [by_address[a] for _, a in ranked[:3]]


def _label(world: World, place: dict, full: bool = False) -> str:
    name = place["world_ref"].removeprefix("seed:contact/") if place["world_ref"].startswith("seed:contact/") else None
    if name:
        words = in_language(
            yamlfile.safe_load((HERE / "data" / "words.yaml").read_text(encoding="utf-8")), world.persona.bank
        )
        return words["contact_place"].format(first=name if full else name.split()[0])
    return place["name"]


def saved_labels(world: World, frequent: list[dict], taken: list[str]) -> list[str]:
    """The saved-place labels of the ``frequent`` places after the ``taken`` ones (Home, Work): a contact's place
    by first name (``Lucas's``), by full name when that label is taken (two friends called Lucas), and any label
    still taken numbered (``Lucas Coelho's (2)``): labels are unique in ``saved_places``."""
    used, out = set(taken), []
    for n, x in enumerate(frequent):
        label = _label(world, x)
        if label in used:
            label = _label(world, x, full=True)
        if label in used:
            label = f"{label} ({n + 1})"
        used.add(label)
        out.append(label)
    return out


def driver_pool(world: World) -> list[dict]:
    """The drivers assignable to new requests: ``[{"name", "rating_x100", "trips", "vehicle", "plate", "ride_type"}]``
    (stream ``rides/drivers``; six per ride type, in ride-type order)."""
    r = rng(world.seed, "rides/drivers")
    country = world.persona.identity.address.country if world.persona.identity.address else "US"
    home = world.persona.identity.address
    # The home country's people (the locale's without an address).
    fake = people.names(world.seed, "rides/drivers", world.persona.bank, home.country if home else None)
    fleet = yamlfile.safe_load((HERE / "data" / "fleet.yaml").read_text(encoding="utf-8"))
    out = []
    for t in ride_types():
        for _ in range(DRIVERS_PER_TYPE):
            make, model = fleet[t["code"]][r.randrange(len(fleet[t["code"]]))]
            colour = fleet["colours"][r.randrange(len(fleet["colours"]))]
            out.append(
                {
                    "name": f"{fake.first_name()} {fake.last_name()}",
                    "rating_x100": r.randint(472, 499),
                    "trips": r.randint(300, 9000),
                    "vehicle": f"{colour} {make} {model}",
                    "plate": plate(r, country, home_city(world)),
                    "ride_type": t["code"],
                }
            )
    return out


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as ZipRide's database for ``world`` and return it.

    Written through :mod:`builder.dbfile`, so the bytes depend only on the world. Raises ``FileExistsError``
    if ``path`` exists.
    """
    p = world.persona
    ident = p.identity
    creds = credentials(world)
    city = home_city(world)
    places = known_places(world)
    place_id = {x["address"]: i for i, x in enumerate(places, start=1)}
    cards = payment_cards(world)
    card_id = {c["account"]: i for i, c in enumerate(cards, start=1)}
    rides = done_rides(world)
    ahead = booked_ahead(world)
    r_rate = rng(world.seed, "rides/ratings")
    r_user = rng(world.seed, "rides/rider")
    engine = dbfile.create(path, m.Base.metadata)
    with OrmSession(engine) as db:
        first = rides[0].at.date() if rides else world.start.date()
        db.add(
            m.User(
                id=1,
                username=creds["username"],
                full_name=ident.name,
                email=ident.email or "",
                phone=ident.phone or "",
                rating_x100=r_user.randint(488, 499),
                member_since=(first - dt.timedelta(days=r_user.randint(40, 400))).isoformat(),
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, "rides")),
            )
        )
        db.add(
            m.Session(
                token=creds["session_token"],
                user_id=1,
                created_at=world.now.isoformat(),
                expires_at=appkit.session_expiry(world),
            )
        )
        for i, x in enumerate(places, start=1):
            db.add(m.Place(id=i, **x))
        for i, c in enumerate(cards, start=1):
            db.add(
                m.Card(
                    id=i,
                    account=c["account"],
                    brand=c["brand"],
                    last4=c["last4"],
                    holder=c["holder"],
                    expiry=c["expiry"],
                    label=c["label"],
                    is_default=int(i == 1),
                )
            )
        for i, t in enumerate(ride_types(), start=1):
            db.add(m.RideType(position=i, **t))
        db.flush()
        saved = [x for x in places if x["kind"] == "home"] + [x for x in places if x["kind"] == "work"]
        labels = ["Home", "Work"] if len(saved) == 2 else ["Home"]
        icons = ["home", "work"]
        for k, x in enumerate(saved):
            db.add(
                m.SavedPlace(
                    id=k + 1,
                    label=labels[k],
                    place_id=place_id[x["address"]],
                    icon=icons[k],
                    position=k + 1,
                    created_at=first.isoformat() + "T08:00:00",
                    world_ref=f"seed:{icons[k]}",
                )
            )
        frequent = frequent_places(world, places)
        for n, (x, label) in enumerate(zip(frequent, saved_labels(world, frequent, labels[: len(saved)]))):
            k = len(saved) + n + 1
            db.add(
                m.SavedPlace(
                    id=k,
                    label=label,
                    place_id=place_id[x["address"]],
                    icon="star",
                    position=k,
                    created_at=first.isoformat() + "T08:00:00",
                    world_ref=f"seed:frequent/{n}",
                )
            )
        driver_id = 0
        for d in driver_pool(world):
            driver_id += 1
            db.add(m.Driver(id=driver_id, city=city, pool=1, **d))
        db.flush()
        rated_before = world.now - dt.timedelta(days=RATED_AFTER_DAYS)
        for i, e in enumerate(rides, start=1):
            d = e.data
            driver_id += 1
            db.add(
                m.Driver(
                    id=driver_id,
                    name=d["driver"],
                    rating_x100=r_rate.randint(470, 499),
                    trips=r_rate.randint(200, 12000),
                    vehicle=d["vehicle"],
                    plate=d["plate"],
                    ride_type="zip",
                    city=_ride_city(world, e),
                    pool=0,
                )
            )
            tenths = round(d["distance_miles"] * 10)
            parts = fare_parts(tenths, d["duration_minutes"], currency=world.currency)
            if parts["fare_cents"] != d["fare_cents"]:
                raise ValueError(
                    f"ride {d['ride_id']}: fare {d['fare_cents']} is not the tariff's {parts['fare_cents']}"
                )
            dropoff = dt.datetime.fromisoformat(d["dropoff_local"])
            rating = rated_at = None
            u = r_rate.random()
            minutes = r_rate.randint(5, 90)
            if e.at < rated_before:
                rating = 5 if u < 0.80 else 4 if u < 0.95 else 3
                rated_at = (dropoff.replace(tzinfo=None) + dt.timedelta(minutes=minutes)).isoformat()
            purpose = d.get("purpose") or ("trip" if d.get("trip") is not None else None)
            db.add(
                m.Ride(
                    id=i,
                    status="completed",
                    requested_at=(dt.datetime.fromisoformat(d["pickup_local"]) - dt.timedelta(minutes=4)).isoformat(),
                    **_route(world, e, place_id),
                    **parts,
                    tip_cents=d["tip_cents"],
                    total_cents=d["total_cents"],
                    driver_id=driver_id,
                    card_id=card_id.get(d["account"], 1),
                    trip=d.get("trip"),
                    purpose=purpose,
                    expensable=int(bool(d.get("expensable"))),
                    rating=rating,
                    compliments=json.dumps([]) if rating else None,
                    rated_at=rated_at,
                    cancel_fee_cents=0,
                    refund_cents=0,
                    world_ref=e.id,
                )
            )
        for k, e in enumerate(ahead, start=len(rides) + 1):
            d = e.data
            parts = fare_parts(round(d["distance_miles"] * 10), d["duration_minutes"], currency=world.currency)
            if parts["fare_cents"] != d["fare_cents"]:
                raise ValueError(
                    f"ride {d['ride_id']}: fare {d['fare_cents']} is not the tariff's {parts['fare_cents']}"
                )
            db.add(
                m.Ride(
                    id=k,
                    status="scheduled",
                    requested_at=_booked_at(world, e).isoformat(),
                    **_route(world, e, place_id),
                    **parts,
                    tip_cents=0,
                    total_cents=d["fare_cents"],
                    driver_id=None,
                    card_id=card_id.get(d["account"], 1),
                    trip=d.get("trip"),
                    purpose=d.get("purpose") or ("trip" if d.get("trip") is not None else None),
                    expensable=int(bool(d.get("expensable"))),
                    rating=None,
                    compliments=None,
                    rated_at=None,
                    cancel_fee_cents=0,
                    refund_cents=0,
                    world_ref=e.id,
                )
            )
        for key, value in appkit.meta_rows(
            world,
            city=city,
            seed=str(world.seed),
            user_name=ident.name,
            country=ident.address.country if ident.address else "US",
            **tariff_meta(world.currency),
        ).items():
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path


# --- layer hooks ------------------------------------------------------------------------------------


def form_history(world: World) -> list[dict]:
    """What the rider typed into ZipRide's route form: each ride's drop-off (the ``dropoff`` field) and its pickup
    when it was not home (``pickup``; the form starts from home), as the app stores them, when the ride was requested
    (4 minutes before a ride taken at once, :func:`_booked_at` for one booked ahead). ``[{"field", "value", "at":
    naive local}]``, at or before ``world.now``."""
    home = format_address(world.persona.identity.address)
    out = []
    for e, at in [(e, e.at - dt.timedelta(minutes=4)) for e in done_rides(world)] + [
        (e, _booked_at(world, e)) for e in booked_ahead(world)
    ]:
        if at > world.now:
            continue
        out.append({"field": "dropoff", "value": e.data["dropoff"], "at": at})
        if e.data["pickup"] != home:
            out.append({"field": "pickup", "value": e.data["pickup"], "at": at})
    return out


def bookmarks(world: World) -> list[dict]:
    """ZipRide in the Firefox bookmarks menu (travel): ``[{"title", "url", "folder"}]``."""
    return [{"title": "ZipRide", "url": f"http://{DOMAIN}/", "folder": "menu/Travel"}]
