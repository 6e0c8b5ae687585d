"""The shop's catalogue: ``products.json``, expanded from the grammar in ``lines.yaml`` and ``books.yaml`` by
``generate.py`` (``python -m builder.reference.retail.generate``; committed, so it changes only with the grammar).
"""

from __future__ import annotations

import functools

from .. import read_json, read_yaml

#: The catalogue's languages in the order of its bilingual columns: a product's ``use`` pairs ``[en, de]``, its
#: ``specs`` ``[key_en, key_de, value_en, value_de]``.
LANGUAGES = ("en", "de")


@functools.cache
def products() -> tuple[dict, ...]:
    """Every product (the shape :func:`builder.reference.retail.generate.generate` writes), sorted by id; prices
    in US cents. Raises ``FileNotFoundError`` if products.json is missing (run ``generate.py``)."""
    return tuple(read_json("retail/products.json"))


@functools.cache
def grammar() -> dict:
    """``lines.yaml``: ``{"departments": {key: {"en", "de", ...}}, ...}``, the grammar the products come from."""
    return read_yaml("retail/lines.yaml")
