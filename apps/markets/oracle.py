"""Reference solutions of Hunchline's action tasks, through its HTTP routes (see builder.tasks.oracle)."""

from __future__ import annotations

from builder.tasks.model import Task
from builder.tasks.oracle import Web

from .steps import post, trade


def buy_shares(task: Task, web: Web) -> str:
    exp = task.expected
    price = trade(web, exp["ticker"], exp["side"], "buy", exp["shares"])
    return f"Bought {exp['shares']} {exp['side'].upper()} shares of {exp['ticker']} at {price}¢."


def sell_position(task: Task, web: Web) -> str:
    exp = task.expected
    price = trade(web, exp["ticker"], exp["side"], "sell", exp["shares"])
    return f"Sold all {exp['shares']} {exp['side'].upper()} shares of {exp['ticker']} at {price}¢."


def watch_local(task: Task, web: Web) -> str:
    post(web, "/api/watch", [("ticker", task.expected["ticker"]), ("on", "1"), ("back", "/watchlist")], "")
    return f"{task.expected['ticker']} is on your watchlist."


SOLVERS = {
    "buy-shares": buy_shares,
    "sell-position": sell_position,
    "watch-local": watch_local,
}
