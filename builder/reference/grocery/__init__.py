"""The grocery catalogue: ``products.json`` and ``departments.json`` (expanded from ``lines.yaml`` by
``generate.py``, ``python -m builder.reference.grocery.generate``) and the store chains of each locale
(``stores.yaml``, four per locale) and how each locale's shelf tags write sizes and unit prices (``shelves.yaml``).
"""

from __future__ import annotations

import functools

from .. import read_json, read_yaml
from ..locale import in_locale


@functools.cache
def products() -> tuple[dict, ...]:
    """Every product (the shape of ``generate.py``), sorted by id. Raises ``FileNotFoundError`` if products.json
    is missing (run ``generate.py``)."""
    return tuple(read_json("grocery/products.json"))


@functools.cache
def departments() -> tuple[dict, ...]:
    """``departments.json``: ``[{"key", "name": {locale: str}, "aisles": [{"key", "name"}]}]``."""
    return tuple(read_json("grocery/departments.json"))


@functools.cache
def stores() -> dict[str, list[dict]]:
    """``stores.yaml``: locale -> ``[{"key", "name", "tagline", "factor", "spread", "open", "close", "radius",
    "pickup", "colour"}]`` (en_US, en_GB, de_DE)."""
    return read_yaml("grocery/stores.yaml")


@functools.cache
def _shelves() -> dict[str, dict]:
    return read_yaml("grocery/shelves.yaml")


def shelf(locale: str) -> dict:
    """How ``locale``'s shelf tags write a product (``shelves.yaml``, en_US's for a locale it lacks):
    ``{"measure": "us" | "metric", "decimal", "unit_price": {unit: [[from, per, label], ...]}}``."""
    return in_locale(_shelves(), locale)
