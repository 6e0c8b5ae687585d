"""Reference solutions of Tidewell's action tasks, through its HTTP routes (see builder.tasks.oracle)."""

from __future__ import annotations

from decimal import Decimal

from builder.tasks.model import Task
from builder.tasks.oracle import Web

from .steps import money_field, post


def limit_buy(task: Task, web: Web) -> str:
    exp = task.expected
    lo, hi = exp["limit_between_cents"]
    limit = money_field((lo + hi) // 2)
    post(
        web,
        "/api/orders",
        [
            ("symbol", exp["symbol"]),
            ("side", "buy"),
            ("type", "limit"),
            ("shares", str(exp["shares"])),
            ("limit", limit),
            ("tif", exp["time_in_force"]),
            ("confirm", "yes"),
        ],
        "done=open",
    )
    return f"Placed a good-'til-canceled limit order for {exp['shares']} {exp['symbol']} at {limit}."


def sell_worst(task: Task, web: Web) -> str:
    exp = task.expected
    shares = format((Decimal(exp["shares_e4"]) / 10000).normalize(), "f")
    post(
        web,
        "/api/orders",
        [("symbol", exp["symbol"]), ("side", "sell"), ("type", "market"), ("shares", shares), ("confirm", "yes")],
        "done=filled",
    )
    return f"Sold all {shares} shares of {exp['symbol']}."


def watchlist_swap(task: Task, web: Web) -> str:
    exp = task.expected
    post(web, "/api/watchlist", [("symbol", exp["add"]), ("on", "1")], "done=watch")
    post(web, "/api/watchlist", [("symbol", exp["remove"]), ("on", "0")], "done=watch")
    return f"Removed {exp['remove']} and added {exp['add']} to the watchlist."


SOLVERS = {
    "limit-buy": limit_buy,
    "sell-worst": sell_worst,
    "watchlist-swap": watchlist_swap,
}
