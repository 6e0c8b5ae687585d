"""Tidewell's steps in the scenarios that chain apps: the actions that move money in and out and buy, through
Tidewell's own routes (see builder.tasks.steps for the shared rules). The app's whole testing interface: its
oracle.py uses these too, and it imports no other app.
"""

from __future__ import annotations

import urllib.parse

from builder.tasks.model import Change
from builder.tasks.oracle import OracleError, Web

APP = "brokerage"


def deposit_and_buy() -> tuple[Change, ...]:
    """The rows a deposit from checking spent on one market buy writes in Tidewell (for a state_diff item): the
    transfer, the order, their two cash lines, the holding bought into or opened."""
    return (
        Change(table="transfers", op="insert", min=1, max=1),
        Change(table="orders", op="insert", min=1, max=1),
        Change(table="cash_ledger", op="insert", min=2, max=2),
        Change(table="holdings", op="update", min=0, max=1, columns=["shares_e4", "cost_cents"]),
        Change(table="holdings", op="insert", min=0, max=1),
    )


def money_field(cents: int) -> str:
    """``cents`` as Tidewell's amount fields take it: ``1234.50``."""
    return f"{cents // 100}.{cents % 100:02d}"


def post(web: Web, path: str, fields: list[tuple[str, str]], marker: str) -> None:
    """Post ``fields`` to Tidewell's ``path``; its 303 must carry ``marker`` (``done=deposit``, ``done=filled``...).
    Raises :class:`OracleError` otherwise."""
    _, location = web.post_form(APP, path, fields, expect=(303,))
    if marker not in location:
        raise OracleError(f"Tidewell did not confirm {path} ({marker!r}): {urllib.parse.unquote_plus(location)}")


def deposit(web: Web, amount: str) -> None:
    """Move ``amount`` (a :func:`money_field`) from the bank's checking account into Tidewell."""
    post(web, "/api/transfers", [("direction", "deposit"), ("amount", amount)], "done=deposit")


def withdraw(web: Web, amount: str) -> None:
    """Send ``amount`` (a :func:`money_field`) of Tidewell's cash back to checking."""
    post(web, "/api/transfers", [("direction", "withdrawal"), ("amount", amount)], "done=withdrawal")


def buy_for(web: Web, symbol: str, amount: str) -> None:
    """A market buy of ``symbol`` for ``amount`` (a :func:`money_field`) of cash."""
    post(
        web,
        "/api/orders",
        [
            ("symbol", symbol),
            ("side", "buy"),
            ("type", "market"),
            ("shares", ""),
            ("amount", amount),
            ("confirm", "yes"),
        ],
        "done=filled",
    )
