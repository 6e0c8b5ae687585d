"""Airports the world flies between (:data:`builder.reference.places.AIRPORTS`): great-circle distances, scheduled
block times, zones and labels. It imports nothing of the world, so finance and locale read them without importing
travel back."""

from __future__ import annotations

import math

from ..persona.places import AIRPORT_ZONES
from ..reference.places import AIRPORTS


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
