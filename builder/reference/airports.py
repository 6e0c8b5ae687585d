"""Airports the world flies between: great-circle distances, scheduled block times, zones, labels and countries, and
the airline the world books on (:data:`AIRLINES`). Reference data: the world's travel and the projections (the
airline, rides and calendar apps, the travel documents) read the same functions.

Any airport with an IATA code is known (:func:`airport_facts`): the hand table
:data:`builder.reference.places.AIRPORTS` first (its names and rounded points shape the shipped personas' bytes),
then the gazetteer's data (:mod:`builder.reference.gazetteer`)."""

from __future__ import annotations

import math
from zoneinfo import ZoneInfo

from . import gazetteer
from .places import AIRPORTS
from .services import service

#: The airlines trips are booked on: brand -> (IATA-style code, ticket number prefix, home URL). The persona's
#: airline is the one app of role ``airline`` (Meridian Air, ``MR``, tickets ``047-...``).
AIRLINES = {service("airline").title: ("MR", "047", service("airline").url)}


def airport_facts(code: str) -> tuple[str, float, float, str] | None:
    """``(name, latitude, longitude, IANA zone)`` of the airport of IATA ``code``: :data:`~.places.AIRPORTS`'s entry,
    else the gazetteer's (``airportsdata``), else None for a code no airport has."""
    if code in AIRPORTS:
        return AIRPORTS[code]
    found = gazetteer.airport(code) if len(code) == 3 and code.isalpha() and code.isupper() else None
    return (found.name, found.latitude, found.longitude, found.timezone) if found else None


def known_airport(code: str | None) -> bool:
    """Whether IATA ``code`` names an airport (:func:`airport_facts`)."""
    return bool(code) and airport_facts(code) is not None


def distance_km(a: str, b: str) -> float:
    """Great-circle distance between two airports (haversine, R = 6371 km). Raises ``KeyError`` for an unknown
    code."""
    _, la1, lo1, _ = _facts(a)
    _, la2, lo2, _ = _facts(b)
    p1, p2, dl = math.radians(la1), math.radians(la2), math.radians(lo2 - lo1)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(h))


def _facts(code: str) -> tuple[str, float, float, str]:
    facts = airport_facts(code)
    if facts is None:
        raise KeyError(code)
    return facts


def block_minutes(a: str, b: str) -> int:
    """Scheduled gate-to-gate time (see module rules)."""
    dlon = (_facts(b)[2] - _facts(a)[2] + 540) % 360 - 180
    minutes = (40 + distance_km(a, b) / 13) * (0.96 if dlon > 0 else 1.04)
    return int(round(minutes / 5) * 5)


def airport_zone(code: str, fallback: str) -> str:
    """The IANA zone of an airport (:func:`airport_facts`: airportsdata's), else ``fallback``."""
    facts = airport_facts(code)
    return facts[3] if facts else fallback


def airport_label(code: str) -> str:
    """``PDX Portland International Airport``."""
    facts = airport_facts(code)
    return f"{code} {facts[0]}" if facts else f"{code} Airport"


def airport_tz(code: str | None, default: ZoneInfo | None = None) -> ZoneInfo | None:
    """The zone of airport ``code`` as a :class:`~zoneinfo.ZoneInfo` (:func:`airport_zone`), ``default`` if unknown."""
    name = airport_zone(code or "", "")
    return ZoneInfo(name) if name else default


def airport_country(airport: str) -> str:
    """The ISO country code of ``airport``: the gazetteer's country of the airport (airportsdata), else ``US`` for a
    code in an American or Pacific zone and ``XX``."""
    found = gazetteer.airport(airport) if airport and len(airport) == 3 else None
    if found:
        return found.country
    return "US" if AIRPORTS.get(airport, ("", 0, 0, "America/"))[3].startswith(("America/", "Pacific/")) else "XX"
