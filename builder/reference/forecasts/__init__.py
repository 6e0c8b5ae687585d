"""The prediction markets' question grammar: ``questions.yaml`` (weather and goings-on in a city, invented
sports leagues, prices and indices), which the world's forecasts and the markets app both expand, and the markets'
payout rule (:data:`SHARE_PAYS_CENTS`)."""

from __future__ import annotations

import functools

from .. import read_yaml

#: What one share of a market's winning side pays when it resolves, in cents of the persona's currency (a share's
#: price is 1-99 cents: the market's probability in percent).
SHARE_PAYS_CENTS = 100


@functools.cache
def grammar() -> dict:
    """The parsed ``questions.yaml`` (categories, question templates and their outcome models)."""
    return read_yaml("forecasts/questions.yaml")
