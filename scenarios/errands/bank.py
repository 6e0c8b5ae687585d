"""Larkspur Bank's errands with other apps: lock the card the last Shopwell order was paid with (Shopwell's order
names the card), leaving the other card working; with its reference solution."""

from __future__ import annotations

from apps.bank import steps as larkspur
from apps.shop.seed import orders
from apps.shop.tasks import in_use
from builder.tasks import kit
from builder.tasks.collect import Scenario
from builder.tasks.model import Change, RubricItem, Task
from builder.tasks.oracle import Web
from builder.world import World
from builder.world.accounts import payment_cards

APP = "bank"
#: The bank account row whose card ends in the bound four digits.
CARD = "substr(card_number, -4) = ?"


def card_tasks(world: World) -> list[Task]:
    """Lock the card of the last Shopwell order placed by now; none for a persona with one card or no order."""
    cards = {c["account"]: c for c in payment_cards(world)}
    placed = [o for o in orders(world) if o["placed_at"] <= world.now.isoformat()]
    if len(cards) < 2 or not placed or placed[-1]["account"] not in cards:
        return []
    card = cards[placed[-1]["account"]]
    other = next(c for k, c in cards.items() if k != card["account"])
    out: list[Task] = []
    kit.adder(world, APP, out)(
        "lock-lost-card",
        [APP, "shop"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=480,
        instruction=(
            "I can't find the card I paid for my last Shopwell order with. Lock that card at Larkspur Bank, "
            "but leave my other card working."
        ),
        expected={"order": placed[-1]["order_id"], "card": card["label"], "last4": card["last4"]},
        rubric=[
            RubricItem(
                id="locked",
                weight=60,
                requirement=f"The card ending {card['last4']} is locked",
                check=kit.sql(
                    APP, f"SELECT card_locked_at IS NOT NULL FROM accounts WHERE {CARD}", [card["last4"]], [[1]]
                ),
            ),
            RubricItem(
                id="other-works",
                weight=25,
                requirement=f"It is locked and the card ending {other['last4']} is not",
                check=kit.sql(
                    APP,
                    f"""SELECT (SELECT card_locked_at IS NOT NULL FROM accounts WHERE {CARD})
                           AND (SELECT card_locked_at IS NULL FROM accounts WHERE {CARD})""",
                    [card["last4"], other["last4"]],
                    [[1]],
                ),
            ),
            kit.only(
                APP,
                f"Nothing else changed at Larkspur Bank: only the card ending {card['last4']} locked",
                Change(table="accounts", op="update", min=1, max=1, columns=["card_locked_at"]),
            ),
        ],
    )
    return out


def lock_lost_card(task: Task, web: Web) -> str:
    """Lock the card Shopwell's last order names (its last four digits)."""
    larkspur.lock_card(web, task.expected["last4"])
    return f"Locked your {task.expected['card']}; your other card still works."


SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, "shop"),
        tasks=card_tasks,
        solvers={"lock-lost-card": lock_lost_card},
        when=in_use,
    ),
]
