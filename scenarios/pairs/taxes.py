"""Ledgerleaf's two-app answer tasks (ids ``<persona>/taxes/pair-...``): one question each whose answer needs
exactly the two apps it names (see :mod:`builder.tasks.pairs` for the shared rules)."""

from __future__ import annotations

from apps.taxes.tasks import in_use
from builder.money import money
from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.world import World
from scenarios import PAIRS


def pair_tasks(world: World) -> list[Task]:
    """Ledgerleaf's pair tasks of ``world`` (empty when the world lacks their material)."""
    return P.collect(world, "taxes", _build)


def _build(world: World, task) -> None:
    from builder.world import tax_year as ty

    cur = world.currency
    forms = ty.tax_forms(world)
    b = next((f for f in forms if f["form"] == "1099-B" and "gain" in f["boxes"]), None)
    if b:
        year = int(b["tax_year"])
        sells = [
            e for e in P.done(world, "brokerage_trade") if e.data["side"] == "sell" and int(e.data["tax_year"]) == year
        ]
        if sells:
            syms = sorted({e.data["symbol"] for e in sells})
            gain = int(b["boxes"]["gain"])
            task(
                "pair-1099b-sales",
                ["taxes", "brokerage"],
                kind="lookup",
                difficulty="medium",
                time_limit_seconds=480,
                instruction=f"My {year} 1099-B is in Ledgerleaf. What net gain does it report, and which holdings did "
                "I actually sell in Tidewell that year to produce it?",
                expected={"tax_year": year, "gain_cents": gain, "symbols": syms, "sales": len(sells)},
                rubric=[
                    RubricItem(
                        id="gain", weight=55, requirement=f"States {money(abs(gain), cur)}", check=A.amount(gain)
                    ),
                    RubricItem(id="symbols", weight=45, requirement="Names " + ", ".join(syms), check=A.names(syms)),
                ],
            )
    w2 = next((f for f in forms if f["form"] in ("W-2",) and "1" in f["boxes"]), None)
    if w2:
        year = int(w2["tax_year"])
        pays = [e for e in P.done(world, "paycheck") if e.at.year == year]
        net = sum(p.amount_cents for e in pays for p in e.postings if p.amount_cents > 0)
        if pays and net:
            wages = int(w2["boxes"]["1"])
            gap = wages - net
            task(
                "pair-w2-vs-deposits",
                ["taxes", "bank"],
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=600,
                instruction=f"Compare the wages on my {year} W-2 in Ledgerleaf with what my paychecks actually put "
                f"into my bank that year, as far as the bank's history shows. Give me both figures and the difference.",
                expected={
                    "tax_year": year,
                    "wages_cents": wages,
                    "deposited_cents": net,
                    "gap_cents": gap,
                    "paychecks": len(pays),
                },
                rubric=[
                    RubricItem(
                        id="deposited", weight=40, requirement=f"Deposits {money(net, cur)}", check=A.amount(net)
                    ),
                    RubricItem(
                        id="wages", weight=25, requirement=f"W-2 wages {money(wages, cur)}", check=A.amount(wages)
                    ),
                    RubricItem(
                        id="gap", weight=35, requirement=f"Difference {money(abs(gap), cur)}", check=A.amount(gap)
                    ),
                ],
            )


SCENARIOS = [Scenario(home="taxes", apps=("taxes",), tasks=pair_tasks, rank=PAIRS, when=in_use)]
