"""Geography of the world's addresses: a deterministic point for every place, road distance, ride time, fare.

No road graph can be had on this host (only PyPI, Debian and npm are reachable; OpenStreetMap extracts are
not), so a ride's road distance is the great-circle (haversine) distance between its two points times a
detour (circuity) factor:

* :data:`CIRCUITY` = 1.3. Published circuity factors (network distance / straight-line distance) for road
  travel are about 1.2-1.4: Ballou, Rahardja & Sakai, "Selected country circuity factors for road travel
  distance estimation", Transportation Research Part A 36 (2002) 843-848 (about 1.2 for the United States and
  higher for Europe), and Giacomin & Levinson, "Road network circuity in metropolitan areas", Environment and
  Planning B 42 (2015) 1040-1053 (about 1.2-1.4 across US metropolitan areas, higher for short trips). 1.3 is
  the middle of that range and is used for every city alike.

Points (``(latitude, longitude)`` in degrees, WGS 84):

* An airport's label (``travel.airport_label``: ``"PDX Portland International Airport"``) or bare IATA code is
  the airport's own coordinates (:func:`builder.reference.airports.airport_facts`).
* Any other address is a point inside its city (:func:`city_of`: the caller's ``city`` when the text names it,
  else the last comma-separated part that names a city of the gazetteer, else the caller's ``city``); the point lies
  within :data:`RADIUS_KM` of that city's centre at a bearing and distance read from the SHA-256 of the
  address text (uniform over the disc). It depends on the text alone, never on a random stream, so no draw
  elsewhere moves it.
* A city's centre (:func:`centre`) is the GeoNames coordinates of the city of that name (the middle of the
  neighbourhoods the stays catalogue lists there, where it lists some)
  (:func:`builder.reference.gazetteer.find_city`, in the caller's ``country`` when given), so an address in
  any city of 15,000 people or more has a point. The caller's ``near`` (e.g. the trip's airport) is the centre
  of a city the gazetteer does not know.

Ride time (:func:`ride_minutes`) is an assumed speed model, not a measurement: 2 minutes to pull in and
out, the first 5 road miles at 15 mph (city streets), every mile beyond at 30 mph (arterials and highways).
Fare (:func:`fare_cents`) is ZipRide's tariff: $2.75 base + $1.35 per mile + $0.32 per minute + $2.45
booking fee, in whole cents, rounded half up. The app (``apps/rides/web/lib/geo.ts``) computes the same
functions in TypeScript; ``tests/apps/rides/test_web.py`` checks both on the same places.
"""

from __future__ import annotations

import hashlib
import math
from functools import cache

from . import gazetteer
from .airports import airport_facts

CIRCUITY = 1.3
RADIUS_KM = 7.0
EARTH_RADIUS_KM = 6371.0
KM_PER_MILE = 1.609344

# Fare (cents) and speed model (see the module docstring).
BASE_CENTS, PER_MILE_CENTS, PER_MINUTE_CENTS, BOOKING_FEE_CENTS = 275, 135, 32, 245
PULL_IN_MINUTES, CITY_MILES, CITY_MPH, OPEN_MPH = 2, 5, 15, 30


@cache
def _city_names() -> frozenset[str]:
    """The GeoNames names (own names, as written) of every city of the gazetteer: what an address part is matched
    against in :func:`city_of`."""
    return frozenset(c.name for c in gazetteer.cities())


@cache
def _names_of(city: str) -> frozenset[str]:
    """``city`` and every other name the gazetteer gives the city of that name (``"Lissabon"``: Lisbon's names,
    ``"Lisboa"`` among them); ``city`` alone when the gazetteer does not know it."""
    found = gazetteer.find_city(city) if city.strip() else None
    return frozenset([city, *(found.names if found else ())])


def airport_code(text: str) -> str | None:
    """The IATA code if ``text`` is an airport label (``"PDX Portland International Airport"``) or a bare
    code (any airport of :func:`builder.reference.airports.airport_facts`), else None."""

    code = text.strip()[:3]
    facts = airport_facts(code) if len(code) == 3 else None
    if facts and (text.strip() == code or text.strip() == f"{code} {facts[0]}"):
        return code
    return None


def city_of(address: str, default: str | None = None) -> str | None:
    """The city an address names, else ``default``.

    A comma-separated part names a city when it equals the name, or starts or ends with it next to a space
    (``"Portland"``, ``"Manchester M1 4BT"``, ``"20095 Hamburg"``). ``default`` wins when any part names it by any
    of the gazetteer's names for it (``"Rua Augusta 12, Lisboa"``, default ``"Lisbon"``: ``"Lisbon"``), so an address
    in the caller's city is never taken for another city an earlier part happens to name (``"Hotel Berlin, ..."``).
    Else the last part that names a city of the gazetteer (its GeoNames name as written; a part that is a
    country's name is skipped: ``"..., Lebanon"`` is the country, not Lebanon, Pennsylvania, unless nothing else
    names a city and there is no ``default``: ``"..., Singapore"``); of several in one part, the longest (then the
    first in alphabetical order)."""
    parts = [p.strip() for p in address.split(",")]

    def named(part: str, names: frozenset[str]) -> list[str]:
        # The texts a city can be: the whole part, or its words up to or from a space. Looking those up (instead of
        # trying every city on every part) matters: stays' listing placement calls this ~70k times.
        words = part.split(" ")
        texts = {
            part,
            *(" ".join(words[:k]) for k in range(1, len(words))),
            *(" ".join(words[k:]) for k in range(1, len(words))),
        }
        return [t for t in texts if t and t in names]

    if default:
        mine = _names_of(default)
        if any(named(part, mine) for part in parts):
            return default
    known, country = _city_names(), None
    for part in reversed(parts):
        found = named(part, known)
        if found and gazetteer.country_code(part) is None:
            return min(found, key=lambda c: (-len(c), c))
        country = country or (min(found, key=lambda c: (-len(c), c)) if found else None)
    return default or country  # "..., Singapore": the city-state, when nothing else names a city


@cache
def centre(name: str, country: str | None = None) -> tuple[float, float] | None:
    """The centre ``(latitude, longitude)`` of the city called ``name`` (any of its names): the gazetteer's
    (GeoNames) coordinates of the city of that name in ``country`` (ISO alpha-2), or in any country when ``country``
    is None or the gazetteer has no such city there; None when it does not know the city. Cached: :func:`point`
    asks for every address."""
    if not name.strip():
        return None
    city = (gazetteer.find_city(name, country) if country else None) or gazetteer.find_city(name)
    if city is None:
        return None
    return _neighbourhood_middles().get(city.geonameid, (city.latitude, city.longitude))


@cache
def _neighbourhood_middles() -> dict[int, tuple[float, float]]:
    """GeoNames id -> the mean point of the neighbourhoods the stays catalogue lists in that city (its ``districts``),
    rounded to 6 decimals: where a city that has them is centred, so that the disc of :data:`RADIUS_KM` covers
    them (GeoNames puts Tokyo at the metropolitan government in Shinjuku, 9.8 km from Asakusa)."""
    from .lodging.inventory import catalog  # the catalogue reads geo: imported when first asked

    out: dict[int, tuple[float, float]] = {}
    for name, districts in sorted(catalog().get("districts", {}).items()):
        city = gazetteer.find_city(name)
        points = [(float(d["at"][0]), float(d["at"][1])) for d in districts.values()]
        if city is not None and points:
            lat = sum(p[0] for p in points) / len(points)
            lon = sum(p[1] for p in points) / len(points)
            out[city.geonameid] = (round(lat, 6), round(lon, 6))
    return out


def point(
    address: str,
    city: str | None = None,
    near: tuple[float, float] | None = None,
    country: str | None = None,
) -> tuple[float, float]:
    """The point of ``address``: ``(latitude, longitude)`` in degrees, rounded to 6 decimals.

    Airports exact; any other address within :data:`RADIUS_KM` of its city's :func:`centre` (see the module
    docstring); ``city`` is the fallback when the text names no known city, ``country`` (ISO alpha-2) picks among
    the gazetteer's cities of that name, ``near`` (a point, e.g. the trip's airport) is the centre used when
    the gazetteer does not know the city. Raises ``ValueError`` (naming the city) when there
    is no centre at all."""

    code = airport_code(address)
    if code:
        _, lat, lon, _ = airport_facts(code)
        return lat, lon
    name = city_of(address, city)
    at = centre(name, country) if name else None
    if at is None:
        if near is None:
            raise ValueError(
                f"no centre known for the city {name!r} (address {address!r}): the gazetteer (GeoNames cities of "
                "15,000+ people) does not have it"
                if name
                else f"no city named in {address!r} and no fallback city"
            )
        at = near
    lat0, lon0 = at
    digest = hashlib.sha256(address.strip().encode("utf-8")).digest()
    u = int.from_bytes(digest[0:8], "big") / 2**64
    v = int.from_bytes(digest[8:16], "big") / 2**64
    d = RADIUS_KM * math.sqrt(u)
    bearing = 2 * math.pi * v
    lat = lat0 + math.degrees(d * math.cos(bearing) / EARTH_RADIUS_KM)
    lon = lon0 + math.degrees(d * math.sin(bearing) / (EARTH_RADIUS_KM * math.cos(math.radians(lat0))))
    return round(lat, 6), round(lon, 6)


def haversine_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance in km between two ``(lat, lon)`` points (R = 6371 km)."""
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def road_tenths(a: tuple[float, float], b: tuple[float, float]) -> int:
    """Road distance between two points in tenths of a mile: haversine x :data:`CIRCUITY`, at least 0.5 mi."""
    return max(5, round(haversine_km(a, b) * CIRCUITY / KM_PER_MILE * 10))


def ride_minutes(tenths: int) -> int:
    """Ride time in whole minutes for a road distance in tenths of a mile (speed model of the module docstring)."""
    city = min(tenths, CITY_MILES * 10)
    rest = tenths - city
    # tenths x 60 / mph / 10 minutes, kept in tenths of a minute: 15 mph -> 4, 30 mph -> 2 per tenth of a mile.
    tenth_minutes = PULL_IN_MINUTES * 10 + city * 60 // CITY_MPH + rest * 60 // OPEN_MPH
    return (tenth_minutes + 5) // 10


def fare_cents(tenths: int, minutes: int) -> int:
    """ZipRide's fare in cents: base + per mile (half up to the cent) + per minute + booking fee."""
    return BASE_CENTS + (PER_MILE_CENTS * tenths + 5) // 10 + PER_MINUTE_CENTS * minutes + BOOKING_FEE_CENTS


def estimate(pickup: str, dropoff: str, city: str | None = None, country: str | None = None) -> dict:
    """A ride between two addresses: ``{"distance_miles": float, "duration_minutes": int, "fare_cents": int,
    "pickup_point": (lat, lon), "dropoff_point": (lat, lon)}``; ``city`` and ``country`` as in :func:`point`. In a
    city the gazetteer does not know, an airport at the other end serves as the centre. Raises
    ``ValueError`` as :func:`point` does."""
    airports = [point(t) for t in (pickup, dropoff) if airport_code(t)]
    near = airports[0] if airports else None
    a, b = point(pickup, city, near, country), point(dropoff, city, near, country)
    tenths = road_tenths(a, b)
    minutes = ride_minutes(tenths)
    return {
        "distance_miles": tenths / 10,
        "duration_minutes": minutes,
        "fare_cents": fare_cents(tenths, minutes),
        "pickup_point": a,
        "dropoff_point": b,
    }
