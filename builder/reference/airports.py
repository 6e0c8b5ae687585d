"""Airports the world flies between (:data:`builder.reference.places.AIRPORTS`): great-circle distances, scheduled
block times, zones, labels and countries, and the airline the world books on (:data:`AIRLINES`). Reference data:
the world's travel and the projections (the airline, rides and calendar apps, the travel documents) read the same
functions."""

from __future__ import annotations

import math
from zoneinfo import ZoneInfo

from ..persona.places import AIRPORT_ZONES, DESTINATIONS, HOME_CITIES
from .places import AIRPORTS
from .services import service

#: The airlines trips are booked on: brand -> (IATA-style code, ticket number prefix, home URL). The persona's
#: airline is the one app of role ``airline`` (Meridian Air, ``MR``, tickets ``047-...``).
AIRLINES = {service("airline").title: ("MR", "047", service("airline").url)}


def distance_km(a: str, b: str) -> float:
    """Great-circle distance between two airports (haversine, R = 6371 km)."""
    _, la1, lo1, _ = AIRPORTS[a]
    _, la2, lo2, _ = AIRPORTS[b]
    p1, p2, dl = math.radians(la1), math.radians(la2), math.radians(lo2 - lo1)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(h))


def block_minutes(a: str, b: str) -> int:
    """Scheduled gate-to-gate time (see module rules)."""
    dlon = (AIRPORTS[b][2] - AIRPORTS[a][2] + 540) % 360 - 180
    minutes = (40 + distance_km(a, b) / 13) * (0.96 if dlon > 0 else 1.04)
    return int(round(minutes / 5) * 5)


def airport_zone(code: str, fallback: str) -> str:
    """The IANA zone of an airport (places table first, then ours, then ``fallback``)."""
    return AIRPORT_ZONES.get(code) or (AIRPORTS[code][3] if code in AIRPORTS else fallback)


def airport_label(code: str) -> str:
    """``PDX Portland International Airport``."""
    return f"{code} {AIRPORTS[code][0]}" if code in AIRPORTS else f"{code} Airport"


def airport_tz(code: str | None, default: ZoneInfo | None = None) -> ZoneInfo | None:
    """The zone of airport ``code`` as a :class:`~zoneinfo.ZoneInfo` (:func:`airport_zone`), ``default`` if unknown."""
    name = airport_zone(code or "", "")
    return ZoneInfo(name) if name else default


def airport_country(airport: str) -> str:
    """The ISO country code of ``airport``: the home city or destination it serves (``builder.persona.places``), else
    ``US`` for an airport in an American or Pacific zone and ``XX`` for any other."""
    for cities in HOME_CITIES.values():
        for c in cities:
            if c.airport == airport:
                return c.country
    for _, code, _, country in DESTINATIONS:
        if code == airport:
            return country
    return "US" if AIRPORTS.get(airport, ("", 0, 0, "America/"))[3].startswith(("America/", "Pacific/")) else "XX"
