"""Reference solutions of Hunchline's action tasks, through its HTTP routes (see builder.tasks.oracle)."""

from __future__ import annotations

import urllib.parse

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "markets"


def _money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def _ok(web: Web, path: str, fields: list[tuple[str, str]], marker: str) -> None:
    _, location = web.post_form(APP, path, fields, expect=(303,))
    if marker not in location or "error=" in location:
        raise OracleError(f"Hunchline did not confirm {path} ({marker!r}): {urllib.parse.unquote_plus(location)}")


def _trade(web: Web, ticker: str, side: str, action: str, shares: int) -> int:
    """Buy or sell at the price the market page shows; that price in cents."""
    yes = web.one(APP, "SELECT yes_cents FROM markets WHERE ticker = ?", (ticker,))
    price = yes if side == "yes" else 100 - yes
    _ok(
        web,
        "/api/trades",
        [("ticker", ticker), ("side", side), ("action", action), ("shares", str(shares)), ("price_cents", str(price))],
        "traded=",
    )
    return price


def _transfer(web: Web, direction: str, cents: int) -> None:
    _ok(web, "/api/transfers", [("direction", direction), ("amount", _money(cents))], "moved=")


def buy_shares(task: Task, web: Web) -> str:
    exp = task.expected
    price = _trade(web, exp["ticker"], exp["side"], "buy", exp["shares"])
    return f"Bought {exp['shares']} {exp['side'].upper()} shares of {exp['ticker']} at {price}¢."


def sell_position(task: Task, web: Web) -> str:
    exp = task.expected
    price = _trade(web, exp["ticker"], exp["side"], "sell", exp["shares"])
    return f"Sold all {exp['shares']} {exp['side'].upper()} shares of {exp['ticker']} at {price}¢."


def deposit(task: Task, web: Web) -> str:
    _transfer(web, "deposit", task.expected["amount_cents"])
    return f"Moved {_money(task.expected['amount_cents'])} into Hunchline."


def withdraw_winnings(task: Task, web: Web) -> str:
    _transfer(web, "withdraw", task.expected["amount_cents"])
    return f"Withdrew {_money(task.expected['amount_cents'])} to checking."


def fund_and_buy(task: Task, web: Web) -> str:
    exp = task.expected
    _transfer(web, "deposit", exp["amount_cents"])
    price = _trade(web, exp["ticker"], "yes", "buy", exp["shares"])
    return (
        f"Moved {_money(exp['amount_cents'])} in and bought {exp['shares']} YES shares of {exp['ticker']} at {price}¢."
    )


def watch_local(task: Task, web: Web) -> str:
    _ok(web, "/api/watch", [("ticker", task.expected["ticker"]), ("on", "1"), ("back", "/watchlist")], "")
    return f"{task.expected['ticker']} is on your watchlist."


SOLVERS = {
    "buy-shares": buy_shares,
    "sell-position": sell_position,
    "deposit": deposit,
    "withdraw-winnings": withdraw_winnings,
    "fund-and-buy": fund_and_buy,
    "watch-local": watch_local,
}


def winnings_to_index(task: Task, web: Web) -> str:
    """Hunchline -> checking -> Tidewell -> the fund."""
    exp = task.expected
    amount = f"{exp['amount_cents'] // 100}.{exp['amount_cents'] % 100:02d}"
    _, location = web.post_form(APP, "/api/transfers", [("direction", "withdraw"), ("amount", amount)], expect=(303,))
    if "moved=" not in location:
        raise OracleError(f"Hunchline did not pay out: {location!r}")
    for path, fields, marker in (
        ("/api/transfers", [("direction", "deposit"), ("amount", amount)], "done=deposit"),
        (
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
        ),
    ):
        _, location = web.post_form("brokerage", path, fields, expect=(303,))
        if marker not in location:
            raise OracleError(f"Tidewell did not confirm {path}: {location!r}")
    return f"Moved {amount} from Hunchline to checking, into Tidewell, and bought {exp['symbol']} with it."


SOLVERS.update({"winnings-to-index": winnings_to_index})
