"""Food delivery's catalogue: ``cuisines.yaml`` (naming grammar and dishes per cuisine), ``options.yaml`` (item
options), ``cities.yaml`` (neighbourhoods, streets, price level, fees) and ``restaurants.json``, their expansion
for every listed city (:mod:`.catalogue` expands, ``generate.py`` writes: ``python -m builder.reference.delivery.generate``).
"""

from __future__ import annotations

import functools

from .. import path, read_json, read_yaml


@functools.cache
def cuisines() -> dict:
    """``cuisines.yaml``: cuisine -> ``{"de", "words", "kinds", "forms", "dishes"}``; a dish is
    ``[en, de, usd_cents, section, [option keys]]``."""
    return read_yaml("delivery/cuisines.yaml")


@functools.cache
def options() -> dict:
    """``options.yaml``: option key -> ``{"label", "pick", "max"?, "choices": [[id, en, de, usd_cents]]}``."""
    return read_yaml("delivery/options.yaml")


@functools.cache
def cities() -> dict:
    """``cities.yaml``: city -> ``{"country", "region", "currency", "price_factor", "delivery_fees", ...}``."""
    return read_yaml("delivery/cities.yaml")


@functools.cache
def restaurants() -> dict[str, list[dict]]:
    """``restaurants.json``: city -> restaurants (sorted by id, money in cents of the city's currency); ``{}``
    when the file has not been generated."""
    return read_json("delivery/restaurants.json") if path("delivery/restaurants.json").exists() else {}
