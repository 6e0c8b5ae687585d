"""World -> rows of the Meridian Air database (``airline.sqlite``).

What is projected, and the rules the app and the tasks rely on:

* Every ``flight_booking`` event is a booking (PNR, fare family from its ``fare_class``, the world's fare per
  passenger split into base fare, taxes and carrier fees by :func:`price_split`), its passengers with the
  world's ticket numbers, and its ``flight`` events as segments with the world's seats (one per passenger,
  in order), boarding group and gate. A booking is ``past`` once its last segment has landed by the
  world's now, else ``upcoming``; the world cancels nothing.
* A flown segment was checked in at ``builder.files.travel_docs.checkin_time`` with the sequence number of
  ``checkin_sequence`` and the name of ``passenger_name`` (so the app and the boarding-pass files agree).
* The schedule: routes from the home airport to every destination of the world and the network's extra
  airports (``network.json``), both ways, plus every leg the world flies; each route's five daily flight
  numbers and departure slots are the world's own (``builder.world.travel`` stream ``travel/route/A-B``),
  block times :func:`builder.world.travel.block_minutes`.
* MileagePass: status miles per flown segment (great-circle miles, at least 500); award miles by fare family;
  the tier of as_of's year earned with the previous calendar year's status miles.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile
from builder.files.travel_docs import checkin_sequence, checkin_time, passenger_name
from builder.persona.places import destinations
from builder.reference import gazetteer
from builder.rng import rng
from builder.world import World, airline_flights, payment_cards
from builder.reference.places import AIRPORTS
from builder.reference.airports import (
    AIRLINES,
    airport_country,
    airport_facts,
    block_minutes,
    distance_km,
    known_airport,
)

from . import models as m

APP = "airline"
NETWORK = json.loads((Path(__file__).parent / "network.json").read_text())
FAMILY_BY_NAME = {f["name"]: f for f in NETWORK["fare_families"]}


def network() -> dict:
    """The parsed ``network.json`` (hubs, aircraft, fare families, fare and price-split rules, loyalty tiers)."""
    return NETWORK


def airline(world: World) -> tuple[str, str, str]:
    """(name, two-letter code, three-digit ticket prefix) of the persona's airline (``Meridian Air``, ``MR``, ``047``)."""
    name = (world.persona.travel.airline if world.persona.travel else None) or "Meridian Air"
    for b in world.of_kind("flight_booking"):
        if b.data["airline"] == name:
            return name, b.data["airline_code"], b.data["ticket_number"][:3]
    code, prefix, _ = AIRLINES.get(name, AIRLINES["Meridian Air"])
    return name, code, prefix


def loyalty_number(world: World) -> str:
    """The persona's MileagePass number (the spec's programme containing the airline's name), else derived."""
    name = airline(world)[0]
    for lo in (world.persona.travel.loyalty if world.persona.travel else None) or []:
        if name.lower() in lo.program.lower():
            return lo.number
    return f"{airline(world)[1]}{rng(world.seed, 'airline/loyalty-number').randint(10**8, 10**9 - 1)}"


def credentials(world: World) -> dict[str, str]:
    """``{"username": the loyalty number, "password", "session_token"}`` (password and token from builder.appkit)."""
    creds = appkit.credentials(world, APP)
    return {**creds, "username": loyalty_number(world)}


def international(world: World, airports: list[str]) -> bool:
    """True when a journey through ``airports`` leaves the home airport's country
    (:func:`builder.reference.airports.airport_country`)."""
    home = airport_country(airports[0])
    return any(airport_country(a) != home for a in airports)


def price_split(fare_cents: int, segments: int, is_international: bool) -> dict[str, int]:
    """Split a fare per passenger (cents) as network.json ``price_split`` documents:
    ``{"base_fare_cents", "taxes_cents", "carrier_fees_cents"}`` summing exactly to ``fare_cents``."""
    rule = NETWORK["price_split"]
    segment_taxes = rule["segment_cents"] * segments
    carrier = round(fare_cents * rule["carrier_percent_international"] / 100) if is_international else 0
    rest = fare_cents - segment_taxes - carrier
    base = round(rest / (1 + rule["excise_percent"] / 100))
    return {"base_fare_cents": base, "taxes_cents": segment_taxes + rest - base, "carrier_fees_cents": carrier}


def segment_miles(a: str, b: str) -> int:
    """Status miles of one flown segment: great-circle miles (km / 1.609344, rounded), at least 500."""
    return max(NETWORK["loyalty"]["min_segment_miles"], round(distance_km(a, b) / 1.609344))


def tier_for(miles: int) -> str:
    """The MileagePass tier that ``miles`` status miles in a year earn."""
    out = "Member"
    for name, need in NETWORK["loyalty"]["tiers"]:
        if miles >= need:
            out = name
    return out


def world_route(world: World, a: str, b: str) -> tuple[list[int], list[tuple[int, int]]]:
    """A route's five daily flight numbers and (hour, minute) slots, drawn exactly as the world draws them."""
    r = rng(world.seed, f"world/travel/route/{a}-{b}")
    base = r.randrange(100, 2900, 2)
    hours = sorted(r.sample(range(7, 21), 5))
    return [base + 2 * k for k in range(5)], [(h, r.choice([0, 5, 15, 20, 30, 40, 45, 55])) for h in hours]


def aircraft_for(minutes: int) -> str:
    """The type the world flies on a block time (787-9 from 330 min, A321neo from 180, else 737-800)."""
    return next(
        a["name"] for a in sorted(NETWORK["aircraft"], key=lambda a: -a["min_minutes"]) if minutes >= a["min_minutes"]
    )


def _via(a: str, b: str) -> str | None:
    """The hub of a journey over the long-haul distance (the one adding least distance, as the world picks)."""
    if distance_km(a, b) <= NETWORK["long_haul_km"]:
        return None
    direct = distance_km(a, b)
    best = sorted(
        (distance_km(a, h) + distance_km(h, b), h)
        for h in NETWORK["hubs"]
        if h not in (a, b) and distance_km(a, h) >= 600 and distance_km(h, b) >= 600
    )
    return best[0][1] if best and best[0][0] <= 1.2 * direct else None


def _trip_airports(world: World) -> set[str]:
    """The airports of the places a persona at home flies to (:func:`builder.persona.places.destinations` of its home
    city): what the airline's search offers from home besides its own network."""
    a, travel = world.persona.identity.address, world.persona.travel
    home = gazetteer.find_city(a.city, a.country, a.region) if a else None
    if home is None or travel is None or not travel.home_airport:
        return set()
    return {code for _, code, _, _ in destinations(home, travel.home_airport)}


def schedule_pairs(world: World) -> tuple[list[tuple[str, str, str | None]], set[tuple[str, str]]]:
    """(journeys (origin, destination, via), legs) of the schedule, sorted."""
    home = world.persona.travel.home_airport if world.persona.travel else None
    dests = set(NETWORK["extra_destinations"]) | _trip_airports(world)
    journeys: dict[tuple[str, str], str | None] = {}
    legs: set[tuple[str, str]] = set()
    for f in world.of_kind("flight"):
        legs.add((f.data["from"], f.data["to"]))
    if known_airport(home):
        for d in sorted(dests):
            if d == home or not known_airport(d):
                continue
            for a, b in ((home, d), (d, home)):
                via = _via(a, b)
                journeys[(a, b)] = via
                legs.update([(a, via), (via, b)] if via else [(a, b)])
    for a, b in legs:
        journeys[(a, b)] = None  # a leg anyone flies is a nonstop route
    return sorted((a, b, via) for (a, b), via in journeys.items()), legs


def _served(code: str) -> str:
    """The city airport ``code`` names as served (airportsdata's), "" when unknown."""
    found = gazetteer.airport(code)
    return found.city if found else ""


def _passenger_names(full: str) -> tuple[str, str]:
    given, _, surname = full.rpartition(" ")
    return (given, surname) if given else (full, full)


def _checkin(world: World, data: dict, passenger: str) -> tuple[str, int]:
    """(checked_in_at local ISO, sequence) of ``passenger`` on a flown segment, as the boarding-pass files have it
    (:func:`builder.files.travel_docs.checkin_time` and ``checkin_sequence``)."""
    at = checkin_time(world, data).astimezone(_zone(world.persona.timezone)).replace(tzinfo=None, microsecond=0)
    return at.isoformat(), int(checkin_sequence(world, data, passenger))


def _zone(name: str):
    from zoneinfo import ZoneInfo

    return ZoneInfo(name)


SITE = "http://meridianair.test/"


def bookmarks(world: World) -> list[dict[str, str]]:
    """My Trips in the Travel folder of the bookmarks menu (only when the world books a flight)."""
    return (
        [{"title": "My Trips | Meridian Air", "url": SITE, "folder": "menu/Travel"}]
        if world.of_kind("flight_booking")
        else []
    )


def visits(world: World) -> list[dict]:
    """History visits the world's own browsing does not make: each booking's trip page a few minutes after the
    booking, and for every flown leg the trip page at its check-in time
    (``builder.files.travel_docs.checkin_time``). ``{"url", "title", "at": naive local, "transition"}``, at or
    before ``world.now``, sorted; draws from stream ``airline/visits``."""
    r = rng(world.seed, "airline/visits")
    zone = _zone(world.persona.timezone)
    out = []
    for b in world.of_kind("flight_booking"):
        pnr = b.data["pnr"]
        out.append(
            {
                "url": f"{SITE}trips/{pnr}",
                "title": "Trip details · Meridian Air",
                "at": b.at + dt.timedelta(minutes=r.randint(2, 9)),
                "transition": "link",
            }
        )
    seen = set()
    for f in world.of_kind("flight"):
        d = f.data
        if (
            dt.datetime.fromisoformat(d["dep_utc"]).astimezone(zone).replace(tzinfo=None) > world.now
            or (d["pnr"], d["direction"]) in seen
        ):
            continue
        seen.add((d["pnr"], d["direction"]))
        at = checkin_time(world, d).astimezone(zone).replace(tzinfo=None, microsecond=0)
        out.append(
            {
                "url": f"{SITE}trips/{d['pnr']}",
                "title": "Trip details · Meridian Air",
                "at": at - dt.timedelta(minutes=r.randint(1, 3)),
                "transition": "typed",
            }
        )
    return sorted((v for v in out if v["at"] <= world.now), key=lambda v: (v["at"], v["url"]))


def home_files(world: World, home: Path) -> list[Path]:
    """Boarding passes and itineraries in the persona's home ``home`` (written by ``builder.files.travel_docs``);
    returns the paths they return."""
    from builder.files.travel_docs import boarding_passes, itineraries

    return [*boarding_passes(world, home), *itineraries(world, home)]


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as the airline database for ``world`` and return it.

    Byte-identical for the same world (builder.dbfile). Raises ``FileExistsError`` if ``path`` exists.
    """
    p = world.persona
    ident = p.identity
    name, code, prefix = airline(world)
    creds = credentials(world)
    number = creds["username"]
    travel = p.travel
    home = (travel.home_airport if travel else None) or ""
    seat_pref = (travel.seat if travel else None) or p.preferences.seat or "window"
    now_utc = world.now.replace(tzinfo=_zone(p.timezone)).astimezone(dt.UTC)
    moved = airline_flights(world)
    given, surname = _passenger_names(ident.name)
    engine = dbfile.create(path, m.Base.metadata)
    with OrmSession(engine) as db:
        db.add(
            m.User(
                id=1,
                username=number,
                full_name=ident.name,
                given_name=given,
                surname=surname,
                email=ident.email,
                phone=ident.phone,
                home_airport=home,
                seat_preference=seat_pref,
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, APP)),
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
        cities = dict(NETWORK["cities"])
        # The network's airports, and any other the persona's flights, home and trips use (from the gazetteer).
        own = {f.data[k] for f in world.of_kind("flight") for k in ("from", "to")}
        travel = world.persona.travel
        own |= {travel.home_airport, *(t.airport for t in travel.trips)} if travel else set()
        for ap in sorted(set(AIRPORTS) | {c for c in own if known_airport(c)}):
            full, lat, lon, zone = airport_facts(ap)
            db.add(
                m.Airport(
                    code=ap,
                    name=full,
                    city=cities.get(ap) or _served(ap) or full.split(" ")[0],
                    latitude=lat,
                    longitude=lon,
                    timezone=zone,
                )
            )
        for a in NETWORK["aircraft"]:
            db.add(
                m.Aircraft(
                    name=a["name"],
                    business_rows=a["business_rows"],
                    business_letters=a["business_letters"],
                    economy_rows=a["economy_rows"],
                    economy_letters=a["economy_letters"],
                    exit_rows=a["exit_rows"],
                )
            )
        for i, f in enumerate(NETWORK["fare_families"]):
            db.add(m.FareFamily(position=i, **{k: v for k, v in f.items()}))
        journeys, _ = schedule_pairs(world)
        for rid, (a, b, via) in enumerate(journeys, start=1):
            if via:
                numbers, slots, minutes = [], [], block_minutes(a, via) + block_minutes(via, b)
            else:
                numbers, slots = world_route(world, a, b)
                minutes = block_minutes(a, b)
            km = distance_km(a, b)
            db.add(
                m.Route(
                    id=rid,
                    origin=a,
                    destination=b,
                    via=via,
                    numbers=",".join(map(str, numbers)),
                    slots=",".join(f"{h:02d}:{mi:02d}" for h, mi in slots),
                    minutes=minutes,
                    distance_km=round(km),
                    aircraft=None if via else aircraft_for(minutes),
                    base_fare_cents=int(NETWORK["fare"]["fixed_cents"] + NETWORK["fare"]["per_km_cents"] * km),
                )
            )
        cards = payment_cards(world)
        card_ids = {}
        for i, c in enumerate(cards, start=1):
            card_ids[c["account"]] = i
            db.add(
                m.Card(
                    id=i,
                    user_id=1,
                    account=c["account"],
                    brand=c["brand"],
                    last4=c["last4"],
                    holder=c["holder"],
                    expiry=c["expiry"],
                    label=c["label"],
                    is_default=int(i == 1),
                )
            )

        flights_by_pnr: dict[str, list] = {}
        for f in world.of_kind("flight"):
            flights_by_pnr.setdefault(f.data["pnr"], []).append(f)
        pid = sid = seat_id = 0
        status_by_year: dict[int, int] = {}
        award = 0
        activity = []
        for bid, b in enumerate(world.of_kind("flight_booking"), start=1):
            d = b.data
            flights = sorted(flights_by_pnr.get(d["pnr"], []), key=lambda f: (f.data["dep_utc"], f.data["leg"]))
            last_arr = max(dt.datetime.fromisoformat(f.data["arr_utc"]) for f in flights)
            family = FAMILY_BY_NAME.get(d["fare_class"], FAMILY_BY_NAME["Economy"])
            codes = [d["itinerary"][0]["from"], *[leg["to"] for leg in d["itinerary"]]]
            split = price_split(d["fare_per_passenger_cents"], len(flights), international(world, codes))
            db.add(
                m.Booking(
                    id=bid,
                    user_id=1,
                    pnr=d["pnr"],
                    status="past" if last_arr <= now_utc else "upcoming",
                    fare_family=family["code"],
                    destination=d["destination"],
                    trip_type="round_trip" if any(f.data["direction"] == "return" for f in flights) else "one_way",
                    passengers=len(d["passengers"]),
                    fare_per_passenger_cents=d["fare_per_passenger_cents"],
                    total_cents=d["price_cents"],
                    card_id=card_ids.get(d["account"], 1),
                    booked_at=b.at.isoformat(),
                    credit_cents=0,
                    refund_cents=0,
                    world_ref=b.id,
                    **split,
                )
            )
            db.add(
                m.Payment(
                    id=bid,
                    booking_id=bid,
                    kind="charge",
                    amount_cents=d["price_cents"],
                    card_id=card_ids.get(d["account"], 1),
                    reference=f"{d['pnr']}-world",
                    authorization=None,
                    description=f"{name.upper()} {d['ticket_number']}",
                    at=b.at.isoformat(),
                    world_ref=b.id,
                )
            )
            pax_ids = []
            for k, full in enumerate(d["passengers"]):
                pid += 1
                pax_ids.append(pid)
                g, s = _passenger_names(full)
                db.add(
                    m.Passenger(
                        id=pid,
                        booking_id=bid,
                        position=k,
                        full_name=full,
                        given_name=g,
                        surname=s,
                        ticket_number=d["ticket_numbers"][k],
                        loyalty_number=d.get("loyalty_number") if k == 0 else None,
                        bcbp_name=passenger_name(world, full),
                        world_ref=f"{b.id}:{k}",
                    )
                )
            for pos, f in enumerate(flights):
                # The airline's record of a leg it rebooked (the world's planted schedule change) is the new one.
                fd = moved.get(f.id, f.data)
                sid += 1
                dep = dt.datetime.fromisoformat(fd["dep_utc"])
                flown = dep <= now_utc
                miles = segment_miles(fd["from"], fd["to"])
                db.add(
                    m.Segment(
                        id=sid,
                        booking_id=bid,
                        position=pos,
                        direction=fd["direction"],
                        leg=fd["leg"],
                        flight_number=fd["flight_number"],
                        origin=fd["from"],
                        destination=fd["to"],
                        dep_local=fd["dep_local"],
                        arr_local=fd["arr_local"],
                        dep_utc=fd["dep_utc"],
                        arr_utc=fd["arr_utc"],
                        duration_minutes=fd["duration_minutes"],
                        distance_miles=miles,
                        aircraft=fd["aircraft"],
                        gate=fd.get("gate"),
                        boarding_group=fd["boarding_group"],
                        status="flown" if flown else "scheduled",
                        was_flight_number=fd.get("original_flight_number") if f.id in moved else None,
                        was_dep_local=fd.get("original_dep_local") if f.id in moved else None,
                        world_ref=f.id,
                    )
                )
                for k, seat in enumerate(fd["seats"][: len(pax_ids)]):
                    seat_id += 1
                    at, seq = _checkin(world, fd, d["passengers"][k]) if flown else (None, None)
                    db.add(
                        m.Seat(
                            id=seat_id,
                            segment_id=sid,
                            passenger_id=pax_ids[k],
                            seat=seat,
                            checked_in_at=at,
                            sequence=seq,
                            world_ref=f"{f.id}:{k}",
                        )
                    )
                if flown:
                    earned = miles * family["miles_percent"] // 100
                    year = dep.astimezone(_zone(p.timezone)).year
                    status_by_year[year] = status_by_year.get(year, 0) + miles
                    award += earned
                    activity.append(
                        (
                            fd["dep_local"][:10],
                            f"{fd['flight_number']} {fd['from']}-{fd['to']} · {d['pnr']}",
                            sid,
                            miles,
                            earned,
                        )
                    )
        for i, (day, text, seg, miles, earned) in enumerate(sorted(activity), start=1):
            db.add(
                m.MilesActivity(
                    id=i,
                    user_id=1,
                    posted_on=day,
                    description=text,
                    segment_id=seg,
                    status_miles=miles,
                    award_miles=earned,
                )
            )
        year = p.as_of.year
        db.add(
            m.Loyalty(
                user_id=1,
                number=number,
                program=NETWORK["loyalty"]["program"],
                tier=tier_for(status_by_year.get(year - 1, 0)),
                member_since=world.start.date().isoformat(),
                miles_balance=award,
                status_miles=status_by_year.get(year, 0),
                status_year=year,
            )
        )
        salt = rng(world.seed, "airline/seats").randrange(1, 2**31)
        for key, value in appkit.meta_rows(
            world,
            airline=name,
            airline_code=code,
            ticket_prefix=prefix,
            seat_salt=str(salt),
            home_airport=home,
            user_name=ident.name,
        ).items():
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path


def signed_in_text(world: World) -> str:
    """What the signed-in My Trips page shows for sure: the PNR of the next (or last) booking."""
    bookings = world.of_kind("flight_booking")
    return bookings[-1].data["pnr"] if bookings else "My Trips"
