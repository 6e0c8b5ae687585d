"""TableTime's restaurants in the world: the catalogue (``builder/reference/dining/restaurants.yaml``) the world's
restaurant bookings and dinners draw from, so every booking names a restaurant TableTime lists, at its address.

* :func:`catalogue` — every restaurant (dicts, see ``builder/reference/dining/generate.py`` for the fields).
* :func:`home_restaurants` — the persona's cuisine restaurants in the home city, two per cuisine (stream
  ``dining/restaurants``); ``None`` when the home city is not in the catalogue, and no restaurants for a
  cuisine it lacks (the caller names its own; TableTime's seed then lists those too, see
  ``builder/reference/dining/generate.py`` ``world_restaurant``).
* :func:`special_request` — the note a booking carries, or ``None`` (stream ``dining/requests``; the notes are
  ``templates/dining/<locale>.yaml``).

All draws come from these named streams, so other modules' draws never shift.
"""

from __future__ import annotations

import functools

from ..reference import dining as reference_dining
from .locale import phrase_bank


@functools.cache
def catalogue() -> tuple[dict, ...]:
    """Every TableTime restaurant, sorted by (city, slug). Raises ``FileNotFoundError`` if the file is missing."""
    return reference_dining.restaurants()


def in_city(city: str | None) -> list[dict]:
    """The catalogue's restaurants of ``city`` (exact name), sorted by slug; ``[]`` for an unknown city."""
    return [x for x in catalogue() if x["city"] == city]


def by_name(city: str, name: str) -> dict | None:
    """The restaurant called ``name`` in ``city``, or ``None``."""
    return next((x for x in in_city(city) if x["name"] == name), None)


def home_restaurants(sim, exclude: str | None = None) -> list[tuple[str, list[dict]]] | None:
    """Two catalogue restaurants per persona cuisine (``preferences.cuisines``, else American) in the home
    city, never named ``exclude`` (the usual food-order restaurant): ``[(cuisine, restaurants)]`` in the spec's
    cuisine order, ``restaurants`` empty for a cuisine TableTime has none of there (the caller names its own).
    ``None`` when the home city has no TableTime restaurants."""
    p = sim.persona
    city = p.identity.address.city if p.identity.address else None
    listed = in_city(city)
    if not listed:
        return None
    r = sim.rng("dining/restaurants")
    out = []
    for cuisine in p.preferences.cuisines or ["American"]:
        options = [x for x in listed if x["cuisine"] == cuisine.strip().title() and x["name"] != exclude]
        out.append((cuisine, r.sample(options, min(2, len(options))) if options else []))
    return out


def other_restaurants(sim, chosen: list[dict], count: int) -> list[dict]:
    """``count`` more home-city restaurants of other cuisines than ``chosen`` (stream ``dining/others``), by slug."""
    p = sim.persona
    city = p.identity.address.city if p.identity.address else None
    names = {x["name"] for x in chosen}
    cuisines = {x["cuisine"] for x in chosen}
    pool = [x for x in in_city(city) if x["name"] not in names and x["cuisine"] not in cuisines]
    r = sim.rng("dining/others")
    return sorted(r.sample(pool, min(count, len(pool))), key=lambda x: x["slug"])


def special_request(sim, n: int) -> str | None:
    """The special request of the persona's ``n``-th booking (about one in four has one), in the persona's language."""
    r = sim.rng(f"dining/requests/{n}")
    if r.random() >= 0.25:
        return None
    bank = phrase_bank("dining", sim.persona.locale)["requests"]
    return bank[r.randrange(len(bank))]
