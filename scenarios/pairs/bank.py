"""Larkspur Bank's two-app answer tasks (ids ``<persona>/bank/cx-...`` and ``cf-...``): a friend's paid-back claim
the bank does not show (and the balance had it been true), a mailed bill the autopay will not cover, the balance once
the friends who asked are paid back, the foreign fees a trip cost. Each needs the bank and one other app (chat,
mail, the airline); see :mod:`builder.tasks.pairs` for the shared rules."""

from __future__ import annotations

import datetime as dt

from builder.money import money
from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.world import World

#: Their place: right after the bank's own tasks, the last of them the world has (the bank's tasks() order,
#: backwards); the bank's preference tasks follow them.
AFTER = (
    "pay-card-in-full",
    "send-money",
    "bill-pay",
    "transfer-to-savings",
    "largest-purchase",
    "p2p-total",
    "card-statement",
    "coffee-last-month",
)


def pair_tasks(world: World) -> list[Task]:
    """The bank's pair tasks of ``world`` (empty when the world lacks their material)."""
    return P.collect(world, "bank", _build)


def _build(world: World, task) -> None:
    from builder.tasks.phrasing import day_phrase

    p = world.persona
    cur, today = world.currency, world.now.date()
    checking = world.closing_balance_cents("checking") if "checking" in world.account_kinds() else None
    it = A.planted(world, "contradiction/paid-back-claim")
    if it and checking is not None:
        first = it["contact"].split()[0]
        claimed = dt.datetime.fromisoformat(it["claimed_at"])
        task(
            "cx-paid-back-claim",
            ["bank", "messaging"],
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"{first} messaged me {day_phrase(claimed.date(), today)} saying they'd paid me back for "
            f"{it['owed_for']}. Has that money actually reached my checking account? How much did they "
            "say they sent?",
            expected={"contact": it["contact"], "claimed_cents": it["amount_cents"], "arrived": False, "truth": "bank"},
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="amount",
                    weight=50,
                    requirement=f"States the claimed {money(it['amount_cents'], cur)}",
                    check=A.amount(it["amount_cents"]),
                ),
                RubricItem(
                    id="who", weight=20, requirement=f"Names {it['contact']}", check=A.names([A.person(it["contact"])])
                ),
                RubricItem(
                    id="not-arrived",
                    weight=20,
                    requirement="Says no such payment has arrived",
                    check=A.text(
                        "not arrived",
                        "hasn't arrived",
                        "hasn’t arrived",
                        "has not arrived",
                        "no payment",
                        "not received",
                        "haven't received",
                        "haven’t received",
                        "have not received",
                        "hasn't",
                        "hasn’t",
                        "has not",
                        "didn't",
                        "didn’t",
                        "nothing",
                        "no such",
                        "not there",
                        "not in",
                    ),
                ),
                RubricItem(id="verdict", weight=10, requirement="Concludes the bank is right and the claim is not"),
            ],
        )
        task(
            "cf-claim-true",
            ["bank", "messaging"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"{first} says they already paid me back for {it['owed_for']}. If that money really had come "
            "in, what would my checking balance be right now?",
            expected={
                "balance_now_cents": checking,
                "claimed_cents": it["amount_cents"],
                "balance_if_cents": checking + it["amount_cents"],
            },
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="balance",
                    weight=70,
                    requirement=f"States {money(checking + it['amount_cents'], cur)}",
                    check=A.amount(checking + it["amount_cents"]),
                ),
                RubricItem(
                    id="claimed",
                    weight=30,
                    requirement=f"Uses the claimed {money(it['amount_cents'], cur)}",
                    check=A.amount(it["amount_cents"]),
                ),
            ],
        )

    it = A.planted(world, "contradiction/bill-amount")
    if it:
        at = dt.datetime.fromisoformat(it["autopay_at"])
        short = it["bill_cents"] - it["autopay_cents"]
        task(
            "cx-autopay-vs-bill",
            ["bank", "mail"],
            kind="aggregation",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"{it['payee']} sent me my latest bill by email. Will the autopay my bank has scheduled "
            f"{day_phrase(at.date(), today)} cover it? Tell me the bill amount, the autopay amount and how "
            "much would be left unpaid.",
            expected={
                "payee": it["payee"],
                "bill_cents": it["bill_cents"],
                "autopay_cents": it["autopay_cents"],
                "short_cents": short,
                "truth": "mail",
            },
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="bill",
                    weight=30,
                    requirement=f"States the bill {money(it['bill_cents'], cur)}",
                    check=A.amount(it["bill_cents"]),
                ),
                RubricItem(
                    id="autopay",
                    weight=30,
                    requirement=f"States the autopay {money(it['autopay_cents'], cur)}",
                    check=A.amount(it["autopay_cents"]),
                ),
                RubricItem(
                    id="short",
                    weight=40,
                    requirement=f"States the shortfall {money(short, cur)}",
                    check=A.amount(short),
                ),
            ],
        )

    owed = A.planted_of(world, "pending", "pay_back")
    if owed and checking is not None:
        total = sum(x["amount_cents"] for x in owed)
        task(
            "cf-after-paybacks",
            ["bank", "messaging"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=480,
            instruction="A few friends have asked me to pay them back and I haven't yet. If I sent every one of them "
            "what they asked for from my checking account today, what would my checking balance be after?",
            expected={
                "people": [x["contact"] for x in owed],
                "total_cents": total,
                "balance_after_cents": checking - total,
            },
            planted=[x["id"] for x in owed],
            rubric=[
                RubricItem(
                    id="after",
                    weight=60,
                    requirement=f"States {money(checking - total, cur)}",
                    check=A.amount(checking - total),
                ),
                RubricItem(
                    id="total",
                    weight=20,
                    requirement=f"States the {money(total, cur)} owed in all",
                    check=A.amount(total),
                ),
                RubricItem(
                    id="who",
                    weight=20,
                    requirement="Names " + ", ".join(x["contact"] for x in owed),
                    check=A.names([A.person(x["contact"]) for x in owed]),
                ),
            ],
        )

    fees = [e for e in world.of_kind("card_fee") if e.status == "done" and e.data.get("trip") is not None]
    if fees:
        trip_i = fees[-1].data["trip"]
        on = [e for e in fees if e.data["trip"] == trip_i]
        fee_total = sum(e.data["amount_cents"] for e in on)
        dest = p.travel.trips[trip_i].destination
        task(
            "cf-foreign-fees",
            ["bank", "airline"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"If I had paid on my {dest} trip with a card that charges no foreign transaction fees, how "
            "much would I have saved? And how many fee charges was that?",
            expected={"trip": trip_i, "fees_cents": fee_total, "fees": len(on)},
            rubric=[
                RubricItem(
                    id="saved", weight=80, requirement=f"States {money(fee_total, cur)}", check=A.amount(fee_total)
                ),
                RubricItem(id="count", weight=20, requirement=f"Says {len(on)} fee charges", check=A.number(len(on))),
            ],
        )


SCENARIOS = [Scenario(home="bank", apps=("bank",), tasks=pair_tasks, after=AFTER)]
