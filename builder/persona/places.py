"""The home city, contacts' towns and trip destinations a persona is completed with, all cities of the gazetteer
(:mod:`builder.reference.gazetteer`: GeoNames cities, airportsdata airports, IANA zones); no table of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..reference import gazetteer


@dataclass(frozen=True)
class City:
    """A city with its main airport (IATA code) and IANA time zone; ``region`` is a state/county/Land."""

    name: str
    region: str | None
    country: str
    airport: str
    timezone: str
    postcode: str | None = None  # a postcode of the city (a spec's address): others are drawn near it


@dataclass(frozen=True)
class Town:
    """A place a contact may live, with the postcodes it really has.

    ``postcodes``: a postcode of the place (a spec's), near which others are drawn (its last two digits); None,
    the place's own (:func:`builder.reference.addresses.city_postcode`: near a base drawn per city).
    """

    name: str
    region: str | None
    country: str
    postcodes: str | None


#: Trips are flights: a place nearer than this (km, great circle) is one people reach by train or car (Tokyo to
#: Nagoya, 260 km; London to Paris, 344 km), so it is no trip destination.
MIN_FLIGHT_KM = 350.0


def flown(home: gazetteer.City, there: gazetteer.City) -> bool:
    """Whether a trip from ``home`` to ``there`` is one people fly: at least :data:`MIN_FLIGHT_KM` apart."""
    return gazetteer.distance_km(home.latitude, home.longitude, there.latitude, there.longitude) >= MIN_FLIGHT_KM


#: Trip destinations are cities of this many people or more with a large airport (Lisbon, Amsterdam, Copenhagen).
TRIP_CITY_POPULATION = 500_000


def destinations(home: gazetteer.City, home_airport: str) -> list[tuple[str, str, str, str]]:
    """Trip destinations from ``home`` as ``(city, IATA, IANA zone, country)``: the country's six most populous big
    cities, then the eight big cities abroad that draw most, two a country at most: population over the square of
    the distance, the gravity model of travel demand (Paris, Brussels and Berlin from Manchester before the larger
    but farther Lagos and Cairo). Big cities are :func:`~builder.reference.gazetteer.big_cities` of
    :data:`TRIP_CITY_POPULATION` people or more (a large airport near them) that are :func:`flown` to; never one
    flown from ``home_airport``."""
    big = [
        (c, a)
        for c, a in gazetteer.big_cities(TRIP_CITY_POPULATION)
        if a.iata != home_airport and c != home and flown(home, c)
    ]
    domestic = [x for x in big if x[0].country == home.country][:6]
    drawn = sorted(
        (x for x in big if x[0].country != home.country),
        key=lambda x: (
            -x[0].population / gazetteer.distance_km(home.latitude, home.longitude, x[0].latitude, x[0].longitude) ** 2,
            x[1].iata,
        ),
    )
    abroad = [x for i, x in enumerate(drawn) if sum(y[0].country == x[0].country for y in drawn[:i]) < 2][:8]
    return [(c.name, a.iata, c.timezone, c.country) for c, a in domestic + abroad]
