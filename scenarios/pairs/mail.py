"""Mailbox's two-app questions among its own tasks: the latest flight's confirmation code in the mail and its charge
in the bank (id ``<persona>/mail/flight-pnr``, first of the mailbox's tasks)."""

from __future__ import annotations

import datetime as dt

from apps.mail.reader import booking_to
from apps.mail.tasks import KIT
from builder.money import money
from builder.tasks import answers as A
from builder.tasks.collect import FIRST, Scenario
from builder.tasks.model import Check, RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.world import World
from scenarios.views import bank_rows


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
            expected={"destination": d["destination"], "pnr": d["pnr"], "total_cents": total},
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


@reader("destination")
def read_flight_pnr(see: See, given: dict) -> Reading:
    """The booking confirmation in the mail (its code and total) and the airline's charge on the card in the bank
    around the day it was booked."""
    b = booking_to(see, given["destination"])
    day = b["at"].date()
    rows = [
        r
        for r in bank_rows(see, q="Meridian", since=day - dt.timedelta(days=1), until=day + dt.timedelta(days=3))
        if r["cents"] < 0
    ]
    if not rows:
        raise Unreadable(f"no Meridian Air charge in the bank around {day}")
    match = [r for r in rows if -r["cents"] == b["total"]] or rows
    charge = -match[0]["cents"]
    return Reading(
        values={"pnr": b["pnr"], "charge": charge},
        steps=[
            f"~/Mail {b['at']:%Y-%m-%d}: \u201c{b['subject']}\u201d, PNR {b['pnr']}, total {b['total'] / 100:.2f}",
            f"bank {match[0]['day']}: {match[0]['description']} {match[0]['cents'] / 100:.2f}",
        ],
    )


SCENARIOS = [
    Scenario(
        home="mail", apps=("mail", "bank"), tasks=flight_tasks, readers={"flight-pnr": read_flight_pnr}, after=FIRST
    )
]
