"""Money: formatting shared by files, tasks and summaries, and the currency facts every price obeys.

The convention, everywhere in the project: **every amount is an integer in hundredths of the currency's major
unit** ("cents"), whatever the currency. The apps' TypeScript formats ``cents / 100`` with ``Intl.NumberFormat``,
which drops the decimals of a currency without minor units, so an amount in a currency of precision 0 (yen) is always
a multiple of 100 (whole yen): ``¥1,850`` is ``185000``. :func:`precision` and :func:`symbol` come from CLDR
(Babel); :func:`to_unit` rounds a computed price to the currency's smallest unit and is what every code path that
makes a price in a home or foreign currency calls last.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from functools import cache


# Currencies CLDR versions disagree on: CLDR 48 (ICU 78, the apps' Node) writes whole Pakistani rupees, Babel 2.19's
# CLDR 47 two decimals. A price is made in the coarser unit, so that every version shows it exactly.
WHOLE_IN_NEWER_CLDR = frozenset({"PKR"})


@cache
def precision(currency: str) -> int:
    """Digits after the decimal point of ``currency`` (CLDR via Babel, 0 for :data:`WHOLE_IN_NEWER_CLDR`):
    ``precision("USD") == 2``, ``precision("JPY") == 0``, ``precision("PKR") == 0``."""
    from babel.numbers import get_currency_precision

    return 0 if currency in WHOLE_IN_NEWER_CLDR else get_currency_precision(currency)


@cache
def symbol(currency: str) -> str | None:
    """The symbol English text writes for ``currency`` (``$``, ``£``, ``€``, ``¥``, ``CA$``), or None when CLDR has
    none but the code itself (``NGN``): Babel's English symbols, the ones the project always wrote for USD, GBP and
    EUR."""
    from babel.numbers import get_currency_symbol

    found = get_currency_symbol(currency, "en")
    return None if found == currency else found


def unit_cents(currency: str) -> int:
    """The currency's smallest unit in cents: 1 for two decimals, 100 for whole units (yen)."""
    return 10 ** max(0, 2 - precision(currency))


def to_unit(amount: int | float | Decimal, currency: str) -> int:
    """``amount`` (cents, any number) rounded half-up to the currency's smallest unit, as integer cents:
    ``to_unit(1234.5, "USD") == 1235``, ``to_unit(123_450, "JPY") == 123_500`` (whole yen)."""
    step = unit_cents(currency)
    value = Decimal(str(amount)) if isinstance(amount, float) else Decimal(amount)
    return int((value / step).to_integral_value(rounding=ROUND_HALF_UP)) * step


def floor_unit(amount: int, currency: str) -> int:
    """Integer cents floored to the currency's smallest unit (a tip "floored"): ``floor_unit(1_299, "JPY") ==
    1_200``; unchanged in a currency with cents."""
    step = unit_cents(currency)
    return amount // step * step


def money(cents: int, currency: str = "USD") -> str:
    """Format integer cents as ``$1,234.56`` / ``-$5.00`` / ``¥1,235`` (symbol by ISO 4217 code from CLDR, else the
    code and a space; no decimals for a currency without minor units, rounded half-up)."""
    sym = symbol(currency)
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    prefix = sym if sym is not None else currency + " "
    if precision(currency) == 0:
        return f"{sign}{prefix}{(cents + 50) // 100:,}"
    return f"{sign}{prefix}{cents // 100:,}.{cents % 100:02d}"


def cents(amount: Decimal, currency: str | None = None) -> int:
    """Currency units (Decimal) to integer cents, half-up; with ``currency``, to its smallest unit
    (:func:`to_unit`: whole yen)."""
    if currency is not None:
        return to_unit(amount * 100, currency)
    return int((amount * 100).to_integral_value(rounding=ROUND_HALF_UP))
