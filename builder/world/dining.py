"""TableTime's restaurants in the world: the catalogue (``builder/reference/dining/restaurants.yaml``, and for a
city the file lacks or lists only in part the restaurants ``builder/reference/dining/catalogue.py`` generates for it)
the world's restaurant bookings and dinners draw from, so every booking names a restaurant TableTime lists, at its
address.

* :func:`catalogue` — every restaurant of the file (dicts, see ``builder/reference/dining/generate.py`` for the
  fields); :func:`in_city` those of one city, :func:`at_home` those of the persona's home city.
* :func:`home_restaurants` — the persona's cuisine restaurants in the home city, two per cuisine (stream
  ``dining/restaurants``); ``None`` when TableTime lists no restaurant in the home city, and no restaurants for a
  cuisine it lacks there (the caller names its own; TableTime's seed then lists those too, see
  ``builder/reference/dining/generate.py`` ``world_restaurant``).
* :func:`special_request` — the note a booking carries, or ``None`` (stream ``dining/requests``; the notes are
  ``templates/dining/<locale>.yaml``).

All draws come from these named streams, so other modules' draws never shift.
"""

from __future__ import annotations

import functools

from ..reference import dining as reference_dining
from ..reference.dining.catalogue import listed_in
from .locale import phrase_bank


@functools.cache
def catalogue() -> tuple[dict, ...]:
    """Every TableTime restaurant, sorted by (city, slug). Raises ``FileNotFoundError`` if the file is missing."""
    return reference_dining.restaurants()


def in_city(city: str | None, country: str | None = None, region: str | None = None) -> list[dict]:
    """The restaurants TableTime lists in ``city``, sorted by slug: with ``country`` (and the address's ``region``)
    the city's whole catalogue (``builder.reference.dining.catalogue.listed_in``: generated where the file has
    too few), else the file's rows of that exact name; ``[]`` for an unknown city."""
    if city and country:
        return list(listed_in(city, country, region))
    return [x for x in catalogue() if x["city"] == city]


def at_home(p) -> list[dict]:
    """The restaurants TableTime lists in persona ``p``'s home city (:func:`in_city`), ``[]`` without an address."""
    a = p.identity.address
    return in_city(a.city, a.country, a.region) if a else []


def by_name(city: str, name: str, country: str | None = None, region: str | None = None) -> dict | None:
    """The restaurant called ``name`` in ``city`` (:func:`in_city`), or ``None``."""
    return next((x for x in in_city(city, country, region) if x["name"] == name), None)


def home_restaurants(sim, exclude: str | None = None) -> list[tuple[str, list[dict]]] | None:
    """Two catalogue restaurants per persona cuisine (``preferences.cuisines``, else American) in the home
    city, never named ``exclude`` (the usual food-order restaurant): ``[(cuisine, restaurants)]`` in the spec's
    cuisine order, ``restaurants`` empty for a cuisine TableTime has none of there (the caller names its own).
    ``None`` when the home city has no TableTime restaurants."""
    p = sim.persona
    listed = at_home(p)
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
    names = {x["name"] for x in chosen}
    cuisines = {x["cuisine"] for x in chosen}
    pool = [x for x in at_home(p) if x["name"] not in names and x["cuisine"] not in cuisines]
    r = sim.rng("dining/others")
    return sorted(r.sample(pool, min(count, len(pool))), key=lambda x: x["slug"])


def special_request(sim, n: int) -> str | None:
    """The special request of the persona's ``n``-th booking (about one in four has one), in the persona's language."""
    r = sim.rng(f"dining/requests/{n}")
    if r.random() >= 0.25:
        return None
    bank = phrase_bank("dining", sim.persona.bank)["requests"]
    return bank[r.randrange(len(bank))]
