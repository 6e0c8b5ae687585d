"""Reference solutions of Basketful's own action tasks, through its HTTP routes (see builder.tasks.oracle); those of
the tasks with other apps are beside them in scenarios/errands/grocery.py."""

from __future__ import annotations

from builder.tasks.model import Task
from builder.tasks.oracle import Web

from .steps import checkout, make_list, post

APP = "grocery"


def pickup_order(task: Task, web: Web) -> str:
    exp = task.expected
    key = exp["store_key"]
    for n, pid in enumerate(exp["products"]):
        post(web, "/api/cart", [("action", "add"), ("store", key), ("product", pid), ("qty", "1")])
        if n == 0:  # no substitute for the first one
            post(
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
        f"Pickup at {exp['store']} at {exp['window_start'][11:16]}: " + checkout(web, key, "pickup", window, "0") + "."
    )


def camping_list(task: Task, web: Web) -> str:
    exp = task.expected
    return make_list(web, exp["name"], list(zip(exp["products"], exp["qty"])))


SOLVERS = {
    "pickup-order": pickup_order,
    "camping-list": camping_list,
}
