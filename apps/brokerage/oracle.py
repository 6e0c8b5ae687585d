"""Reference solutions of Tidewell's action tasks, through its HTTP routes (see builder.tasks.oracle)."""

from __future__ import annotations

import urllib.parse
from decimal import Decimal

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "brokerage"


def _money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def _ok(web: Web, path: str, fields: list[tuple[str, str]], marker: str) -> None:
    _, location = web.post_form(APP, path, fields, expect=(303,))
    if marker not in location:
        raise OracleError(f"Tidewell did not confirm {path} ({marker!r}): {urllib.parse.unquote_plus(location)}")


def deposit_and_buy(task: Task, web: Web) -> str:
    exp = task.expected
    amount = _money(exp["amount_cents"])
    _ok(web, "/api/transfers", [("direction", "deposit"), ("amount", amount)], "done=deposit")
    _ok(
        web,
        "/api/orders",
        [
            ("symbol", exp["symbol"]),
            ("side", "buy"),
            ("type", "market"),
            ("shares", ""),
            ("amount", amount),
            ("confirm", "yes"),
        ],
        "done=filled",
    )
    return f"Moved {amount} into Tidewell and bought {exp['symbol']} with it."


def withdraw_cash(task: Task, web: Web) -> str:
    amount = _money(task.expected["amount_cents"])
    _ok(web, "/api/transfers", [("direction", "withdrawal"), ("amount", amount)], "done=withdrawal")
    return f"Sent {amount} back to checking."


def limit_buy(task: Task, web: Web) -> str:
    exp = task.expected
    lo, hi = exp["limit_between_cents"]
    limit = _money((lo + hi) // 2)
    _ok(
        web,
        "/api/orders",
        [
            ("symbol", exp["symbol"]),
            ("side", "buy"),
            ("type", "limit"),
            ("shares", str(exp["shares"])),
            ("limit", limit),
            ("confirm", "yes"),
        ],
        "done=open",
    )
    return f"Placed a limit order for {exp['shares']} {exp['symbol']} at {limit}."


def sell_worst(task: Task, web: Web) -> str:
    exp = task.expected
    shares = format((Decimal(exp["shares_e4"]) / 10000).normalize(), "f")
    _ok(
        web,
        "/api/orders",
        [("symbol", exp["symbol"]), ("side", "sell"), ("type", "market"), ("shares", shares), ("confirm", "yes")],
        "done=filled",
    )
    return f"Sold all {shares} shares of {exp['symbol']}."


def watchlist_swap(task: Task, web: Web) -> str:
    exp = task.expected
    _ok(web, "/api/watchlist", [("symbol", exp["add"]), ("on", "1")], "done=watch")
    _ok(web, "/api/watchlist", [("symbol", exp["remove"]), ("on", "0")], "done=watch")
    return f"Removed {exp['remove']} and added {exp['add']} to the watchlist."


SOLVERS = {
    "deposit-and-buy": deposit_and_buy,
    "withdraw-cash": withdraw_cash,
    "limit-buy": limit_buy,
    "sell-worst": sell_worst,
    "watchlist-swap": watchlist_swap,
}
