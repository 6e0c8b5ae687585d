"""Shopwell's answers summed over several apps (ids ``<persona>/shop/x-...``)."""

from __future__ import annotations

import datetime as dt

from apps.shop.tasks import in_use
from builder.money import money
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.world import World
from scenarios import RECAPS


def crossapp_tasks(world: World) -> list[Task]:
    """A year's Shopwell shipping and DashBite and Basketful delivery and service fees (tips aside), each and the sum,
    for this year and last."""
    from apps.bank.spending import service_spend
    from builder.tasks import answers as A

    p = world.persona
    pid, cur, today = p.id, world.currency, world.now.date()
    out: list[Task] = []
    for year in (today.year, today.year - 1):
        spends = service_spend(world, dt.date(year, 1, 1), min(dt.date(year, 12, 31), today))
        parts = []
        for s in spends:
            if s.app == "shop":
                parts.append(("shop", "Shopwell shipping", s.extra_cents))
            elif s.app in ("delivery", "grocery"):
                parts.append((s.app, f"{s.brand} fees", sum(e.data["fees_cents"] for e in s.events)))
        parts = [x for x in parts if x[2]]
        if len(parts) < 2 or "shop" not in {x[0] for x in parts}:
            continue
        total = sum(x[2] for x in parts)
        when = "This year so far" if year == today.year else f"Over {year}"
        slug = "x-fees-this-year" if year == today.year else f"x-fees-{year}"
        opening = (
            "Am I paying too much just to get things delivered? " if year == today.year else "Delivery costs check: "
        )
        out.append(
            Task(
                id=f"{pid}/shop/{slug}",
                persona=pid,
                apps_involved=sorted(x[0] for x in parts),
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=1200,
                instruction=f"{opening}{when}, add up the shipping I paid on Shopwell and the delivery and "
                "service fees on DashBite and Basketful (not the tips): each, and the total.",
                expected={"year": year, "fees_cents": {k: c for k, _, c in parts}, "total_cents": total},
                rubric=[
                    RubricItem(
                        id=k,
                        weight=70 // len(parts) + (70 % len(parts) if i == 0 else 0),
                        requirement=f"{label}: {money(c, cur)}",
                        check=A.amount(c),
                    )
                    for i, (k, label, c) in enumerate(parts)
                ]
                + [RubricItem(id="total", weight=30, requirement=f"Total {money(total, cur)}", check=A.amount(total))],
            )
        )
    return out


SCENARIOS = [Scenario(home="shop", apps=("shop",), tasks=crossapp_tasks, rank=RECAPS, when=in_use)]
