"""Mailbox's two-app questions among its own tasks: the latest flight's confirmation code in the mail and its charge
in the bank (id ``<persona>/mail/flight-pnr``, first of the mailbox's tasks)."""

from __future__ import annotations

from apps.mail.tasks import KIT
from builder.money import money
from builder.tasks import answers as A
from builder.tasks.collect import FIRST, Scenario
from builder.tasks.model import Check, RubricItem, Task
from builder.world import World


def flight_tasks(world: World) -> list[Task]:
    """The PNR of the latest flight booking (its confirmation mail) and what the card was charged for it (the bank);
    none without a booking."""
    cur = world.currency
    out: list[Task] = []
    task = KIT.adder(world, out)
    flights = [e for e in world.of_kind("flight_booking") if e.status == "done" and e.data.get("pnr")]
    if flights:
        f = flights[-1]
        d = f.data
        total = d.get("total_cents") or d.get("price_cents")
        task(
            "flight-pnr",
            ["mail", "bank"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=300,
            instruction=f"Find the booking confirmation for my flight to {d['destination']}. What is the confirmation "
            "code (PNR), and how much did the card get charged for it?",
            expected={"pnr": d["pnr"], "total_cents": total},
            rubric=[
                RubricItem(id="pnr", weight=60, requirement=f"States the PNR {d['pnr']}", check=A.text(d["pnr"])),
                RubricItem(
                    id="charge",
                    weight=40,
                    requirement=f"States the charge {money(total, cur)}",
                    check=Check(type="answer_amount", cents=total),
                ),
            ],
        )
    return out


SCENARIOS = [Scenario(home="mail", apps=("mail", "bank"), tasks=flight_tasks, after=FIRST)]
