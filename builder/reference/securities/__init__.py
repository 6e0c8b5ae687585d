"""Listed securities and the broker's rules: ``securities.yaml`` (invented funds and companies, each with an asset
class whose drift and volatility price it, a dividend yield and a currency, for a few a split), what the broker
lists in a currency (:func:`listed`), its split rule (:func:`split_of`), how an order's amount is rounded
(:func:`amount_of`), the account's name per locale (:func:`account_name`) and how the bank names the broker
(:data:`COUNTERPARTY`).

The broker is the app that provides the ``brokerage`` role (:func:`builder.reference.services.service`). The world's
investing module (:mod:`builder.world.investing`) walks the prices and simulates the account from these; the
broker's seed lists them.
"""

from __future__ import annotations

import datetime as dt
import functools
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .. import read_yaml
from ...money import to_unit, unit_cents
from ..services import service

#: The broker's brand (its ``app.yaml`` title) and the name its transfers carry on a bank statement.
BROKER = service("brokerage").title
COUNTERPARTY = f"{BROKER} Securities"
#: The account's name by the persona's locale (any other locale reads ``en_US``'s): :func:`account_name`.
ACCOUNT_NAMES = {"en_US": "Individual brokerage", "en_GB": "Stocks and Shares ISA", "de_DE": "Depot"}


@functools.cache
def catalogue() -> dict[str, Any]:
    """``securities.yaml``: ``{"classes": {class: {drift, vol, en, de}}, "securities": [...]}`` (dates as
    ``datetime.date``)."""
    return read_yaml("securities/securities.yaml")


def account_name(locale: str) -> str:
    """The broker's account name in ``locale`` (``"Stocks and Shares ISA"`` for en_GB; en_US's for a locale the
    table lacks)."""
    return ACCOUNT_NAMES.get(locale, ACCOUNT_NAMES["en_US"])


@functools.lru_cache(maxsize=16)
def listed(currency: str, extra: tuple[tuple[str, str], ...] = ()) -> tuple[dict[str, Any], ...]:
    """What the broker lists for an account in ``currency``: the catalogue's securities quoted in it, in catalogue
    order, then each ``(symbol, cost basis in currency units as a decimal string)`` of ``extra`` not yet listed: the
    catalogue's entry re-quoted in ``currency``, or for a symbol the catalogue lacks an index fund of that name
    priced at 110 % of the cost basis. Each a dict of ``symbol, name, class, sector, currency, price (float units),
    yield (percent), pay (months), split?`` (``split``: ``{date, ratio}``). Cached: do not modify the dicts."""
    secs = catalogue()["securities"]
    out = [s for s in secs if s["currency"] == currency]
    if not out and currency not in ("USD", "GBP", "EUR"):
        # A currency the catalogue quotes nothing in: its US-dollar listings at the exchange rate (a security trades
        # at the market's rate, not at a price level), to the currency's precision.
        from ...money import to_unit
        from .. import fx, prices

        rate = fx.per_usd(currency, prices.PRICED_ON)
        out = [
            {**s, "currency": currency, "price": to_unit(Decimal(round(s["price"] * 100)) * rate, currency) / 100}
            for s in secs
            if s["currency"] == "USD"
        ]
    have = {s["symbol"] for s in out}
    by_symbol = {s["symbol"]: s for s in secs}
    for symbol, basis in extra:
        if symbol in have:
            continue
        have.add(symbol)
        if symbol in by_symbol:
            out.append({**by_symbol[symbol], "currency": currency})
        else:
            out.append(
                {
                    "symbol": symbol,
                    "name": f"{symbol} Index Fund",
                    "class": "index_etf",
                    "sector": "Broad market",
                    "currency": currency,
                    "price": round(float(basis) * 1.1, 2),
                    "yield": 1.5,
                    "pay": [3, 6, 9, 12],
                }
            )
    return tuple(out)


def split_of(sec: dict[str, Any], start: dt.date) -> tuple[dt.date, int] | None:
    """(date, ratio) of the security's split when it falls after ``start`` (the history's first day), else None:
    from that date on a share is ``ratio`` shares and every close is divided by ``ratio``."""
    sp = sec.get("split")
    if sp and sp["date"] > start:
        return sp["date"], int(sp["ratio"])
    return None


def amount_of(shares: Decimal, price_cents: int, currency: str | None = None) -> int:
    """Cents of ``shares`` at ``price_cents`` a share, rounded half up (an order's amount, a holding's value); with
    a ``currency`` without cents, to its smallest unit (whole yen)."""
    if currency is not None and unit_cents(currency) != 1:
        return to_unit(shares * price_cents, currency)
    return int((shares * price_cents).quantize(Decimal(1), ROUND_HALF_UP))
