"""DashBite's two-app counterfactuals with the bank (ids ``<persona>/delivery/cf-...``): last month's orders had the
persona tipped at another rate, and without the delivery fees. They follow DashBite's last action task."""

from __future__ import annotations

from apps.delivery.steps import KIT
from apps.delivery.tasks import APP, done_orders, in_use
from builder.money import money
from builder.tasks import answers as A
from builder.tasks.collect import Scenario
from builder.tasks.reader import Reading, See, reader
from builder.tasks.model import RubricItem, Task
from builder.tasks.phrasing import last_month, month_phrase
from builder.world import World


def counterfactual_tasks(world: World) -> list[Task]:
    """Last calendar month's orders tipped at 15% (20% for a persona who tips 15%), and without delivery fees;
    none without orders that month."""
    p = world.persona
    cur, today = world.currency, world.now.date()
    out: list[Task] = []
    task = KIT.adder(world, out)
    start, _ = last_month(today)
    month = [e for e in done_orders(world) if start.isoformat()[:7] == e.data["placed_local"][:7]]
    tp = p.preferences.tipping_percent or 15
    alt = 15 if tp != 15 else 20
    if month:
        paid = sum(e.data["tip_cents"] for e in month)
        would = sum(e.data["subtotal_cents"] * alt // 100 for e in month)
        task(
            "cf-tip-rate",
            [APP, "bank"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"Had I tipped exactly {alt}% of the food subtotal (rounded down to the cent) on my DashBite "
            f"orders {month_phrase(start, today)}, what would I have tipped in total, compared with what I "
            "actually tipped? What's the difference?",
            expected={
                "orders": len(month),
                "tips_cents": paid,
                "alt_percent": alt,
                "alt_tips_cents": would,
                "difference_cents": would - paid,
            },
            rubric=[
                RubricItem(id="would", weight=50, requirement=f"States {money(would, cur)}", check=A.amount(would)),
                RubricItem(
                    id="paid", weight=25, requirement=f"States {money(paid, cur)} actually tipped", check=A.amount(paid)
                ),
                RubricItem(
                    id="difference",
                    weight=25,
                    requirement=f"States {money(abs(would - paid), cur)}",
                    check=A.amount(would - paid),
                ),
            ],
        )
        fees = sum(e.data["delivery_fee_cents"] for e in month)
        spent = sum(e.data["total_cents"] for e in month)
        task(
            "cf-no-delivery-fee",
            [APP, "bank"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"If DashBite had waived the delivery fee on all my orders {month_phrase(start, today)}, what "
            "would those orders have cost me in total, and how much of that is the delivery fees?",
            expected={
                "orders": len(month),
                "total_cents": spent,
                "delivery_fees_cents": fees,
                "without_cents": spent - fees,
            },
            rubric=[
                RubricItem(
                    id="without",
                    weight=60,
                    requirement=f"States {money(spent - fees, cur)}",
                    check=A.amount(spent - fees),
                ),
                RubricItem(
                    id="fees",
                    weight=40,
                    requirement=f"States {money(fees, cur)} of delivery fees",
                    check=A.amount(fees),
                ),
            ],
        )
    return out


def _last_month(see: See) -> tuple[str, list[dict]]:
    from apps.delivery.reader import month_details
    from builder.tasks.dates import last_month

    month = last_month(see.now.date())
    return month, month_details(see, month)


@reader("alt_percent")
def read_tip_rate(see: See, given: dict) -> Reading:
    """Last month's order pages: the tips paid, and each subtotal at the other rate, rounded down."""
    month, details = _last_month(see)
    alt = int(given["alt_percent"])
    paid = sum(d["tip"] for d in details)
    would = sum(d["subtotal"] * alt // 100 for d in details)
    return Reading(
        values={"would": would, "paid": paid, "difference": would - paid},
        steps=[
            f"{month}: {len(details)} order pages; tips " + " + ".join(str(d["tip"]) for d in details) + f" = {paid}",
            f"{alt}% of each subtotal, rounded down: {would}; difference {would - paid}",
        ],
    )


@reader()
def read_no_delivery_fee(see: See, given: dict) -> Reading:
    """Last month's order pages: what they came to, and their delivery fees."""
    month, details = _last_month(see)
    total = sum(d["total"] for d in details)
    fees = sum(d["delivery"] for d in details)
    return Reading(
        values={"without": total - fees, "fees": fees},
        steps=[f"{month}: {len(details)} order pages; totals {total}, delivery fees {fees}"],
    )


#: After DashBite's last action task there is, else after the errands and look-ups before it.
_AFTER = (
    "rate-last-order",
    "promo-lunch",
    "reorder-from-mail",
    "sick-day",
    "schedule-usual-dinner",
    "favourite-besides-usual",
    "biggest-order",
    "usual-order",
    "last-month-takeout",
    "usual-tip",
)

SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=counterfactual_tasks,
        after=_AFTER,
        when=in_use,
        readers={"cf-tip-rate": read_tip_rate, "cf-no-delivery-fee": read_no_delivery_fee},
    )
]
