"""Bramblestay's inventory for one world: the reference lodging inventory (:mod:`builder.reference.lodging.inventory`)
of every city the world may visit, each listing marked with the world booking made there.
"""

from __future__ import annotations

from typing import Any

from builder.reference.lodging.inventory import canonical_city, city_info, city_properties
from builder.reference.places import CITIES
from builder.world import World


def inventory(world: World) -> list[dict[str, Any]]:
    """Every city with its properties, sorted by city name: the :func:`city_info` fields plus ``properties``
    (:func:`city_properties`), whose ``world_ref`` is the latest world ``hotel_booking`` there, if any.

    Cities: ``places.CITIES`` plus every destination of the persona's trips (as the catalog names it)."""
    p = world.persona
    trips = (p.travel.trips or []) if p.travel else []
    names = sorted(set(CITIES) | {canonical_city(t.destination) for t in trips})
    refs = {e.data.get("property"): e.id for e in world.of_kind("hotel_booking")}
    out = []
    for name in names:
        props = city_properties(world.seed, p, name)
        for prop in props:
            prop["world_ref"] = refs.get(prop["slug"])
        out.append({**city_info(name), "properties": props})
    return out
