"""Tax rules and charities: ``rules.json`` (brackets, allowances and tariffs per country and year, each with its
source; the web side computes with the same file, ``@reference/tax/rules.json``) and ``charities.yaml``."""

from __future__ import annotations

import functools
from typing import Any

from .. import read_json, read_yaml


@functools.cache
def rules() -> dict[str, Any]:
    """The rule sets of ``rules.json``: ``{country: {"years": {year: {...}}, ...}}`` (amounts in integer cents
    of the country's currency, rates as fractions)."""
    return read_json("tax/rules.json")


@functools.cache
def charities() -> dict[str, list[dict[str, str]]]:
    """Invented charities per locale: ``{locale: [{"name", "kind"}]}``."""
    return read_yaml("tax/charities.yaml")
