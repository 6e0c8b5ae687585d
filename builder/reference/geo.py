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
* Any other address is a point inside its city: the city is the last comma-separated part of the text that
  names a city of :data:`CENTRES` or the caller's ``city`` (else the caller's ``city``), and the point lies
  within :data:`RADIUS_KM` of that city's centre at a bearing and distance read from the SHA-256 of the
  address text (uniform over the disc). It depends on the text alone, never on a random stream, so no draw
  elsewhere moves it.
* A city's centre (:func:`centre`) is its hand-written point in :data:`CENTRES` when it has one (those points
  shape the shipped personas' rides and fares), else the GeoNames coordinates of the city of that name
  (:func:`builder.reference.gazetteer.find_city`, in the caller's ``country`` when given), so an address in
  any city of 15,000 people or more has a point. The caller's ``near`` (e.g. the trip's airport) is the centre
  of a city neither knows.

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

# City centres (city hall or main square, rounded public coordinates): the home cities of
# builder/persona/places.py HOME_CITIES, the trip destinations of places.CITIES, and the towns of places.TOWNS
# where contacts live.
CENTRES: dict[str, tuple[float, float]] = {
    # Home cities (en_US, en_GB, de_DE)
    "Portland": (45.5152, -122.6784),
    "Seattle": (47.6062, -122.3321),
    "Denver": (39.7392, -104.9903),
    "Chicago": (41.8781, -87.6298),
    "Austin": (30.2672, -97.7431),
    "Boston": (42.3601, -71.0589),
    "Philadelphia": (39.9526, -75.1652),
    "Manchester": (53.4808, -2.2426),
    "Bristol": (51.4545, -2.5879),
    "Edinburgh": (55.9533, -3.1883),
    "Leeds": (53.8008, -1.5491),
    "Hamburg": (53.5511, 9.9937),
    "Köln": (50.9375, 6.9603),
    "Leipzig": (51.3397, 12.3731),
    "München": (48.1351, 11.5820),
    # Trip destinations
    "New York": (40.7580, -73.9855),
    "San Francisco": (37.7879, -122.4075),
    "Honolulu": (21.2906, -157.8410),
    "Mexico City": (19.4326, -99.1332),
    "Toronto": (43.6532, -79.3832),
    "London": (51.5074, -0.1278),
    "Lisbon": (38.7223, -9.1393),
    "Barcelona": (41.3874, 2.1686),
    "Rome": (41.9028, 12.4964),
    "Amsterdam": (52.3676, 4.9041),
    "Vienna": (48.2082, 16.3738),
    "Copenhagen": (55.6761, 12.5683),
    "Berlin": (52.5200, 13.4050),
    "Tokyo": (35.6812, 139.7671),
    # Towns where contacts live
    "Eugene": (44.0521, -123.0868),
    "Spokane": (47.6588, -117.4260),
    "Sacramento": (38.5816, -121.4944),
    "Boise": (43.6150, -116.2023),
    "Columbus": (39.9612, -82.9988),
    "Madison": (43.0731, -89.4012),
    "Tucson": (32.2226, -110.9747),
    "Albany": (42.6526, -73.7562),
    "Richmond": (37.5407, -77.4360),
    "Ann Arbor": (42.2808, -83.7430),
    "York": (53.9600, -1.0873),
    "Sheffield": (53.3811, -1.4701),
    "Norwich": (52.6309, 1.2974),
    "Cardiff": (51.4816, -3.1791),
    "Nottingham": (52.9548, -1.1581),
    "Brighton": (50.8225, -0.1372),
    "Newcastle upon Tyne": (54.9783, -1.6178),
    "Exeter": (50.7184, -3.5339),
    "Glasgow": (55.8642, -4.2518),
    "Chester": (53.1934, -2.8931),
    "Lüneburg": (53.2464, 10.4115),
    "Kiel": (54.3233, 10.1228),
    "Bremen": (53.0793, 8.8017),
    "Hannover": (52.3759, 9.7320),
    "Münster": (51.9607, 7.6261),
    "Freiburg im Breisgau": (47.9990, 7.8421),
    "Dresden": (51.0504, 13.7373),
    "Nürnberg": (49.4521, 11.0767),
    "Rostock": (54.0924, 12.0991),
    "Kassel": (51.3127, 9.4797),
    "Osnabrück": (52.2799, 8.0472),
}
# Other spellings of the same cities (a persona's spec may name a destination in its own language).
ALIASES: dict[str, str] = {
    "Lissabon": "Lisbon",
    "Lisboa": "Lisbon",
    "Wien": "Vienna",
    "Kopenhagen": "Copenhagen",
    "København": "Copenhagen",
    "Rom": "Rome",
    "Roma": "Rome",
    "Munich": "München",
    "Cologne": "Köln",
    "Tokio": "Tokyo",
    "Mexiko-Stadt": "Mexico City",
    "Ciudad de México": "Mexico City",
    "New York City": "New York",
}
_CITY_NAMES = frozenset([*CENTRES, *ALIASES])


def airport_code(text: str) -> str | None:
    """The IATA code if ``text`` is an airport label (``"PDX Portland International Airport"``) or a bare
    code (any airport of :func:`builder.reference.airports.airport_facts`), else None."""

    code = text.strip()[:3]
    facts = airport_facts(code) if len(code) == 3 else None
    if facts and (text.strip() == code or text.strip() == f"{code} {facts[0]}"):
        return code
    return None


def city_of(address: str, default: str | None = None) -> str | None:
    """The city of :data:`CENTRES` (or ``default``) an address names (its last comma-separated part that names one),
    else ``default``.

    A part names a city when it equals it, or starts or ends with it next to a space
    (``"Portland"``, ``"Manchester M1 4BT"``, ``"20095 Hamburg"``); of several, the longest (then the first
    in alphabetical order) wins. ``default`` counts as a city here too, so an address in a city only the
    gazetteer knows (``"12 Marina Road, Lagos"``, default ``"Lagos"``) is not taken for a :data:`CENTRES` city an
    earlier part happens to name (``"Hotel Berlin, ..."``)."""
    for part in reversed([p.strip() for p in address.split(",")]):
        # The texts a city can be: the whole part, or its words up to or from a space. Looking those up
        # (instead of trying every city on every part) matters: stays' listing placement calls this ~70k times.
        words = part.split(" ")
        found = [
            c
            for c in {
                part,
                *(" ".join(words[:k]) for k in range(1, len(words))),
                *(" ".join(words[k:]) for k in range(1, len(words))),
            }
            if c in _CITY_NAMES or (c and c == default)
        ]
        if found:
            city = min(found, key=lambda c: (-len(c), c))
            return ALIASES.get(city, city)
    return ALIASES.get(default, default) if default else default


@cache
def centre(name: str, country: str | None = None) -> tuple[float, float] | None:
    """The centre ``(latitude, longitude)`` of the city called ``name``: :data:`CENTRES`' point (or its
    :data:`ALIASES`'), else the gazetteer's coordinates of the city of that name in ``country`` (ISO alpha-2), or
    in any country when ``country`` is None or the gazetteer has no such city there; None when neither knows it.
    Cached: :func:`point` asks for every address."""
    name = ALIASES.get(name, name)
    if name in CENTRES:
        return CENTRES[name]
    if not name.strip():
        return None
    city = (gazetteer.find_city(name, country) if country else None) or gazetteer.find_city(name)
    return (city.latitude, city.longitude) if city else None


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
    neither :data:`CENTRES` nor the gazetteer knows the city. Raises ``ValueError`` (naming the city) when there
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
                f"no centre known for the city {name!r} (address {address!r}): neither geo.CENTRES nor the "
                "gazetteer (GeoNames cities of 15,000+ people) has it"
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
    city neither :data:`CENTRES` nor the gazetteer knows, an airport at the other end serves as the centre. Raises
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
