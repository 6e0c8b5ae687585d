"""Money formatting shared by files, tasks and summaries (amounts are integer cents)."""

from __future__ import annotations

_SYMBOL = {"USD": "$", "GBP": "£", "EUR": "€"}


def money(cents: int, currency: str = "USD") -> str:
    """Format integer cents as ``$1,234.56`` / ``-$5.00`` (symbol by ISO 4217 code, else the code)."""
    symbol = _SYMBOL.get(currency, currency + " ")
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{symbol}{cents // 100:,}.{cents % 100:02d}"
