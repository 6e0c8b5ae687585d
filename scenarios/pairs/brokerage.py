"""Tidewell's two-app answer tasks (ids ``<persona>/brokerage/pair-...``): one question each whose answer needs
exactly the two apps it names (see :mod:`builder.tasks.pairs` for the shared rules)."""

from __future__ import annotations

from apps.brokerage import reader as seen
from apps.brokerage.tasks import in_use
from builder.money import money
from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, reader
from builder.world import World
from scenarios import PAIRS, bankbook


def pair_tasks(world: World) -> list[Task]:
    """Tidewell's pair tasks of ``world`` (empty when the world lacks their material)."""
    return P.collect(world, "brokerage", _build)


def _build(world: World, task) -> None:
    cur, year = world.currency, world.now.year
    div = sum(e.data["amount_cents"] for e in P.done(world, "brokerage_dividend") if e.at.year == year)
    interest = sum(
        e.data["amount_cents"]
        for e in P.done(world, "interest")
        if e.at.year == year and e.data.get("account") == "savings"
    )
    if div and interest and div != interest:
        more = "dividends" if div > interest else "interest"
        task(
            "pair-dividends-vs-interest",
            ["brokerage", "bank"],
            kind="aggregation",
            difficulty="medium",
            time_limit_seconds=480,
            instruction="So far this year, which has paid me more: the dividends in my Tidewell account or the "
            "interest on my savings account at the bank? Give me both amounts and the difference.",
            expected={
                "year": year,
                "dividends_cents": div,
                "interest_cents": interest,
                "more": more,
                "difference_cents": abs(div - interest),
            },
            rubric=[
                RubricItem(id="dividends", weight=30, requirement=f"Dividends {money(div, cur)}", check=A.amount(div)),
                RubricItem(
                    id="interest", weight=30, requirement=f"Interest {money(interest, cur)}", check=A.amount(interest)
                ),
                RubricItem(
                    id="difference",
                    weight=30,
                    requirement=f"Difference {money(abs(div - interest), cur)}",
                    check=A.amount(div - interest),
                ),
                RubricItem(id="verdict", weight=10, requirement=f"Says the {more} paid more"),
            ],
        )


@reader("year")
def read_dividends_vs_interest(see: See, given: dict) -> Reading:
    """Tidewell's dividends paid in the year against the interest lines of the savings account in the year."""
    import datetime as dt

    year = int(given["year"])
    rows, steps = seen.dividends_in(see, year)
    div = sum(r["cents"] for r in rows)
    savings = bankbook.account_of(see, "savings")
    paid = [
        r
        for r in bankbook.lines(see, savings["id"], dt.date(year, 1, 1), dt.date(year, 12, 31))
        if r["category"] == "Interest" and r["cents"] > 0
    ]
    interest = sum(r["cents"] for r in paid)
    return Reading(
        values={"dividends": div, "interest": interest, "difference": div - interest},
        steps=[*steps, f"{savings['name']}: {len(paid)} interest line(s) in {year}, sum {interest} cents"],
    )


SCENARIOS = [
    Scenario(
        home="brokerage",
        apps=("brokerage",),
        tasks=pair_tasks,
        rank=PAIRS,
        when=in_use,
        readers={"pair-dividends-vs-interest": read_dividends_vs_interest},
    )
]
