"""Restaurants that take reservations: ``restaurants.yaml``, built by ``generate.py`` from ``cuisines.yaml`` and
``cities.yaml`` (``python -m builder.reference.dining.generate``; tests check the committed file is its output).
"""

from __future__ import annotations

import functools

from .. import read_yaml


@functools.cache
def restaurants() -> tuple[dict, ...]:
    """Every restaurant (dicts, fields as ``generate.py`` writes them), sorted by (city, slug). Raises
    ``FileNotFoundError`` if the file is missing."""
    return tuple(read_yaml("dining/restaurants.yaml"))
