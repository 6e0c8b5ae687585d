"""Hunchline's answers summed over several apps (ids ``<persona>/markets/x-...``)."""

from __future__ import annotations

from apps.markets import reader as seen
from apps.markets.tasks import APP
from builder.money import money, to_unit
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, reader
from builder.world import World, forecasts
from scenarios import RECAPS


def crossapp_tasks(world: World) -> list[Task]:
    """This year's money into Tidewell and into Hunchline, and what each account holds now (Tidewell's value with
    cash, Hunchline's cash), for a persona with both accounts."""
    from builder.tasks import answers as A
    from builder.world import brokerage_book, brokerage_value_cents

    p = world.persona
    pid, cur, year = p.id, world.currency, world.now.year
    if not world.of_kind("brokerage_opening") or not world.of_kind("forecast_deposit"):
        return []
    tw_in = sum(
        e.data["amount_cents"]
        for e in world.of_kind("brokerage_transfer")
        if e.status == "done" and e.data["direction"] == "in" and e.at.year == year
    )
    hl_in = sum(
        e.data["amount_cents"] for e in world.of_kind("forecast_deposit") if e.status == "done" and e.at.year == year
    )
    if not tw_in or not hl_in:
        return []
    tw_now = to_unit(brokerage_value_cents(world, world.now.date(), brokerage_book(world)), cur)  # as shown
    hl_now = forecasts.account(world)["cash_cents"]
    return [
        Task(
            id=f"{pid}/markets/x-invested-this-year",
            persona=pid,
            apps_involved=["brokerage", APP],
            kind="aggregation",
            difficulty="medium",
            time_limit_seconds=900,
            instruction="This year, how much have I paid into Tidewell and how much into Hunchline? And what is "
            "each of them worth today (Tidewell with its cash, Hunchline's cash)?",
            expected={
                "year": year,
                "tidewell_in_cents": tw_in,
                "hunchline_in_cents": hl_in,
                "tidewell_now_cents": tw_now,
                "hunchline_now_cents": hl_now,
            },
            rubric=[
                RubricItem(
                    id="tw-in", weight=25, requirement=f"Into Tidewell {money(tw_in, cur)}", check=A.amount(tw_in)
                ),
                RubricItem(
                    id="hl-in", weight=25, requirement=f"Into Hunchline {money(hl_in, cur)}", check=A.amount(hl_in)
                ),
                RubricItem(
                    id="tw-now", weight=25, requirement=f"Tidewell worth {money(tw_now, cur)}", check=A.amount(tw_now)
                ),
                RubricItem(
                    id="hl-now", weight=25, requirement=f"Hunchline cash {money(hl_now, cur)}", check=A.amount(hl_now)
                ),
            ],
        )
    ]


@reader("year")
def read_invested(see: See, given: dict) -> Reading:
    """This year's deposits from the bank at Tidewell and at Hunchline; Tidewell's value with cash, Hunchline's
    cash."""
    from apps.brokerage import reader as tidewell

    year = int(given["year"])
    tw, tw_steps = tidewell.deposits_in(see, year)
    hl, hl_steps = seen.deposits_in(see, year)
    tw_now, tw_shown = tidewell.value(see)
    hl_now, hl_shown = seen.cash(see)
    return Reading(
        values={
            "tw-in": sum(r["cents"] for r in tw),
            "hl-in": sum(r["cents"] for r in hl),
            "tw-now": tw_now,
            "hl-now": hl_now,
        },
        steps=[*tw_steps, *hl_steps, f"Tidewell overview: account value {tw_shown}", f"Hunchline Cash {hl_shown}"],
    )


SCENARIOS = [
    Scenario(
        home="markets",
        apps=("markets",),
        tasks=crossapp_tasks,
        rank=RECAPS,
        readers={"x-invested-this-year": read_invested},
    )
]
