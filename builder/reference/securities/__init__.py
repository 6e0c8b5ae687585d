"""Listed securities: ``securities.yaml`` (invented funds and companies, each with an asset class whose drift
and volatility price it, a dividend yield and a currency)."""

from __future__ import annotations

import functools
from typing import Any

from .. import read_yaml


@functools.cache
def catalogue() -> dict[str, Any]:
    """``securities.yaml``: ``{"classes": {class: {drift, vol, en, de}}, "securities": [...]}`` (dates as
    ``datetime.date``)."""
    return read_yaml("securities/securities.yaml")
