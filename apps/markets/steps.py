"""Hunchline's steps in the scenarios that chain apps: the actions that move money in and out and trade, through
Hunchline's own routes (see builder.tasks.steps for the shared rules). The app's whole testing interface: its
oracle.py uses these too, and it imports no other app.
"""

from __future__ import annotations

import urllib.parse

from builder.tasks.oracle import OracleError, Web

APP = "markets"


def money_field(cents: int) -> str:
    """``cents`` as Hunchline's amount field takes it: ``1234.50``."""
    return f"{cents // 100}.{cents % 100:02d}"


def post(web: Web, path: str, fields: list[tuple[str, str]], marker: str) -> None:
    """Post ``fields`` to Hunchline's ``path``; its 303 must carry ``marker`` (``traded=``, ``moved=``...) and no
    ``error=``. Raises :class:`OracleError` otherwise."""
    _, location = web.post_form(APP, path, fields, expect=(303,))
    if marker not in location or "error=" in location:
        raise OracleError(f"Hunchline did not confirm {path} ({marker!r}): {urllib.parse.unquote_plus(location)}")


def trade(web: Web, ticker: str, side: str, action: str, shares: int) -> int:
    """Buy or sell ``shares`` of ``ticker``'s ``side`` at the price the market page shows; that price in cents."""
    yes = web.one(APP, "SELECT yes_cents FROM markets WHERE ticker = ?", (ticker,))
    price = yes if side == "yes" else 100 - yes
    post(
        web,
        "/api/trades",
        [("ticker", ticker), ("side", side), ("action", action), ("shares", str(shares)), ("price_cents", str(price))],
        "traded=",
    )
    return price


def transfer(web: Web, direction: str, cents: int) -> None:
    """Move ``cents`` between checking and Hunchline: ``direction`` ``deposit`` (in) or ``withdraw`` (out)."""
    post(web, "/api/transfers", [("direction", direction), ("amount", money_field(cents))], "moved=")
