"""Money formatting shared by files, tasks and summaries (amounts are integer cents)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

_SYMBOL = {"USD": "$", "GBP": "£", "EUR": "€"}


def money(cents: int, currency: str = "USD") -> str:
    """Format integer cents as ``$1,234.56`` / ``-$5.00`` (symbol by ISO 4217 code, else the code)."""
    symbol = _SYMBOL.get(currency, currency + " ")
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{symbol}{cents // 100:,}.{cents % 100:02d}"


def cents(amount: Decimal) -> int:
    """Currency units (Decimal) to integer cents, half-up."""
    return int((amount * 100).to_integral_value(rounding=ROUND_HALF_UP))
