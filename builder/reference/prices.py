"""One price level: a US-dollar reference price in the persona's (or a place's) currency.

Every catalogue of the project holds US prices (cents) and turns them into the home currency through
:func:`local`; every table of amounts written per currency (a budget, a fare) through :func:`local_amount`.

* A catalogue keeps its own numbers for the currencies it was written for (its ``factors``: a pound or a euro buys
  a little more on a shelf than a dollar, and each catalogue has its own; USD, GBP and EUR) and its own way of
  writing a price (``written``: ending in 9, in .99, to a quarter...). The shipped worlds were made with those.
* **Any other currency: the US price converted at the exchange rate** (:func:`builder.reference.fx.per_usd` on
  :data:`PRICED_ON`) **and rounded to the currency's precision** (:func:`builder.money.to_unit`: whole yen). This is
  a documented assumption, not a purchasing-power comparison: a coffee costs in Tokyo what it costs in the US at
  the exchange rate. A purchasing-power table can replace :func:`fx_price` later without touching a catalogue.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from decimal import Decimal

from ..money import to_unit
from . import fx

#: The day whose exchange rate prices a catalogue in a currency it was not written for (catalogues are undated).
PRICED_ON = dt.date(2026, 1, 1)


def fx_price(usd_cents: int | float | Decimal, currency: str) -> int:
    """A US price (cents) in ``currency`` at the exchange rate of :data:`PRICED_ON`, rounded half-up to the
    currency's precision: ``fx_price(450, "JPY") == 68000`` (¥680 at 151 yen a dollar)."""
    value = Decimal(str(usd_cents)) if isinstance(usd_cents, float) else Decimal(usd_cents)
    return to_unit(value * fx.per_usd(currency, PRICED_ON), currency)


def local(
    usd_cents: int | float,
    currency: str,
    factors: Mapping[str, float],
    written: Callable[[float], int] = round,
) -> int:
    """A catalogue's US price (cents) in ``currency`` (cents): for a currency of the catalogue's ``factors``,
    ``written(usd_cents * factor)`` (the catalogue's own numbers and rounding); for any other, :func:`fx_price`."""
    if currency in factors:
        return written(usd_cents * factors[currency])
    return fx_price(usd_cents, currency)


def factor(currency: str, factors: Mapping[str, float]) -> float:
    """The multiplier from US cents to cents of ``currency``: the catalogue's own ``factors`` where it has the
    currency, else the exchange rate of :data:`PRICED_ON` (a float, for catalogues that scale then round)."""
    if currency in factors:
        return factors[currency]
    return float(fx.per_usd(currency, PRICED_ON))


def local_amount(amounts: Mapping[str, int], currency: str) -> int:
    """An amount a table writes per currency (``{"USD": 42_000, "GBP": 26_000, ...}``) in ``currency``: the
    table's own number, else its US number at the exchange rate (:func:`fx_price`)."""
    if currency in amounts:
        return amounts[currency]
    return fx_price(amounts["USD"], currency)
