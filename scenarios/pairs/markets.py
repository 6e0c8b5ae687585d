"""Hunchline's two-app answer tasks (ids ``<persona>/markets/pair-...``): one question each whose answer needs
exactly the two apps it names (see :mod:`builder.tasks.pairs` for the shared rules)."""

from __future__ import annotations

from builder.money import money
from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, reader
from builder.world import World
from scenarios import PAIRS


def pair_tasks(world: World) -> list[Task]:
    """Hunchline's pair tasks of ``world`` (empty when the world lacks their material)."""
    return P.collect(world, "markets", _build)


def _build(world: World, task) -> None:
    cur, year = world.currency, world.now.year
    tw = sum(
        e.data["amount_cents"]
        for e in P.done(world, "brokerage_transfer")
        if e.data["direction"] == "in" and e.at.year == year
    )
    hl = sum(e.data["amount_cents"] for e in P.done(world, "forecast_deposit") if e.at.year == year)
    if tw and hl:
        task(
            "pair-invested-this-year",
            ["markets", "brokerage"],
            kind="aggregation",
            difficulty="medium",
            time_limit_seconds=480,
            instruction="Between Tidewell and Hunchline, how much new money have I put in since January? Break it "
            "down by account and give me the total.",
            expected={"year": year, "tidewell_cents": tw, "hunchline_cents": hl, "total_cents": tw + hl},
            rubric=[
                RubricItem(id="total", weight=50, requirement=f"States {money(tw + hl, cur)}", check=A.amount(tw + hl)),
                RubricItem(id="tidewell", weight=25, requirement=f"Tidewell {money(tw, cur)}", check=A.amount(tw)),
                RubricItem(id="hunchline", weight=25, requirement=f"Hunchline {money(hl, cur)}", check=A.amount(hl)),
            ],
        )


@reader("year")
def read_invested(see: See, given: dict) -> Reading:
    """The deposits from the bank dated in the year at Tidewell and at Hunchline, and their sum."""
    from apps.brokerage import reader as tidewell
    from apps.markets import reader as hunchline

    year = int(given["year"])
    tw, tw_steps = tidewell.deposits_in(see, year)
    hl, hl_steps = hunchline.deposits_in(see, year)
    a, b = sum(r["cents"] for r in tw), sum(r["cents"] for r in hl)
    return Reading(values={"total": a + b, "tidewell": a, "hunchline": b}, steps=[*tw_steps, *hl_steps])


SCENARIOS = [
    Scenario(
        home="markets",
        apps=("markets",),
        tasks=pair_tasks,
        rank=PAIRS,
        readers={"pair-invested-this-year": read_invested},
    )
]
