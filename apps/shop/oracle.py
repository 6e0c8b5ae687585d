"""Reference solutions of Shopwell's own action tasks, through its HTTP routes (see builder.tasks.oracle); those of
the tasks with other apps are beside them in scenarios/errands/shop.py."""

from __future__ import annotations

from builder.tasks.model import Task
from builder.tasks.oracle import Web

from .steps import confirm

APP = "shop"


def subscribe(task: Task, web: Web) -> str:
    exp = task.expected
    confirm(
        web,
        "/api/subscriptions",
        [("action", "subscribe"), ("sku", exp["sku"]), ("weeks", str(exp["every_weeks"])), ("qty", "1")],
        "subscribed=",
    )
    return f"Subscribed, delivered every {exp['every_weeks']} weeks."


def review_product(task: Task, web: Web) -> str:
    exp = task.expected
    confirm(
        web,
        "/api/reviews",
        [
            ("product", exp["product_id"]),
            ("rating", str(exp["rating"])),
            ("headline", "Does the job well"),
            ("body", "Used it every day since it arrived; solid and well made."),
        ],
        "reviewed=1",
    )
    return f"Posted a {exp['rating']}-star review."


SOLVERS = {
    "subscribe": subscribe,
    "review-product": review_product,
}
