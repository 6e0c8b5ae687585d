"""Reference solutions of Basketful's action tasks, through its HTTP routes (see builder.tasks.oracle)."""

from __future__ import annotations

import urllib.parse

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "grocery"


def _ok(web: Web, path: str, fields: list[tuple[str, str]]) -> str:
    """Post a Basketful form; its redirect, refused when it carries an error."""
    _, location = web.post_form(APP, path, fields, expect=(303,))
    if "error=" in location:
        raise OracleError(f"Basketful refused {path}: {urllib.parse.unquote_plus(location)}")
    return location


def _card(web: Web) -> str:
    return str(web.one(APP, "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1"))


def _checkout(web: Web, store_key: str, fulfilment: str, window: int, tip: str) -> str:
    _ok(
        web,
        "/api/checkout",
        [
            ("store", store_key),
            ("fulfilment", fulfilment),
            ("window", str(window)),
            ("tip", tip),
            ("card", _card(web)),
            ("instructions", ""),
        ],
    )
    number, total = web.query(
        APP, "SELECT order_id, total_cents FROM orders WHERE world_ref IS NULL ORDER BY id DESC LIMIT 1"
    )[0]
    return f"order {number}, total {total / 100:,.2f}"


def reorder_last_basket(task: Task, web: Web) -> str:
    exp = task.expected
    key = web.one(APP, "SELECT key FROM stores WHERE id = ?", (exp["store_id"],))
    _ok(web, "/api/reorder", [("order", exp["order_id"])])
    window = web.one(
        APP,
        "SELECT w.id FROM windows w WHERE w.store_id = ? AND w.kind = 'delivery' "
        "AND date(w.starts_at) > (SELECT date(value) FROM meta WHERE key = 'now') "
        "AND (SELECT COUNT(*) FROM window_seats s WHERE s.window_id = w.id) < w.capacity "
        "ORDER BY w.starts_at LIMIT 1",
        (exp["store_id"],),
    )
    return f"Reordered {exp['order_id']} from {exp['store']}: " + _checkout(web, key, "delivery", window, "500") + "."


def pickup_order(task: Task, web: Web) -> str:
    exp = task.expected
    key = exp["store_key"]
    for n, pid in enumerate(exp["products"]):
        _ok(web, "/api/cart", [("action", "add"), ("store", key), ("product", pid), ("qty", "1")])
        if n == 0:  # no substitute for the first one
            _ok(
                web,
                "/api/cart",
                [
                    ("action", "update"),
                    ("store", key),
                    ("product", pid),
                    ("qty", "1"),
                    ("substitution", "none"),
                    ("substitute", ""),
                ],
            )
    window = web.one(
        APP,
        "SELECT id FROM windows WHERE store_id = ? AND kind = 'pickup' AND starts_at = ?",
        (exp["store_id"], exp["window_start"]),
    )
    return (
        f"Pickup at {exp['store']} at {exp['window_start'][11:16]}: " + _checkout(web, key, "pickup", window, "0") + "."
    )


def _new_list(web: Web, name: str, items: list[tuple[str, int]]) -> str:
    location = _ok(web, "/api/lists", [("action", "create"), ("name", name)])
    list_id = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)["list"][0]
    for pid, qty in items:
        _ok(web, "/api/lists", [("action", "add"), ("list", list_id), ("product", pid), ("qty", str(qty))])
    return f"Made the list “{name}” with {len(items)} products."


def camping_list(task: Task, web: Web) -> str:
    exp = task.expected
    return _new_list(web, exp["name"], list(zip(exp["products"], exp["qty"])))


def first_order_to_list(task: Task, web: Web) -> str:
    return _new_list(web, "Favourites", [(pid, 1) for pid in task.expected["products"]])


def staples_around_calendar(task: Task, web: Web) -> str:
    from .seed import STAPLES_LIST

    exp = task.expected
    key = exp["store_key"]
    staples = web.one(APP, "SELECT id FROM lists WHERE name = ?", (STAPLES_LIST,))
    _ok(web, "/api/lists", [("action", "to_cart"), ("list", str(staples)), ("store", key)])
    window = web.one(
        APP,
        "SELECT id FROM windows WHERE store_id = ? AND kind = 'delivery' AND starts_at = ?",
        (exp["store_id"], exp["window_start"]),
    )
    return f"Delivery at {exp['window_start'][11:16]}: " + _checkout(web, key, "delivery", window, "300") + "."


SOLVERS = {
    "reorder-last-basket": reorder_last_basket,
    "pickup-order": pickup_order,
    "camping-list": camping_list,
    "first-order-to-list": first_order_to_list,
    "staples-around-calendar": staples_around_calendar,
}
