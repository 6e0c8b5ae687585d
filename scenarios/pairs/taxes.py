"""Ledgerleaf's two-app answer tasks (ids ``<persona>/taxes/pair-...``, and the form checks against the bank or the
broker among Ledgerleaf's own tasks): one question each whose answer needs exactly the two apps it names (see
:mod:`builder.tasks.pairs` for the shared rules)."""

from __future__ import annotations

from apps.taxes.tasks import APP, KIT, WAGES, in_use
from builder.money import money
from builder.tasks import answers as A
from builder.tasks import kit
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


def form_checks(world: World) -> list[Task]:
    """The savings interest of the tax year as the bank paid it (with a savings account), and last year's refund or
    payment and its bank line (when the filed return had one)."""
    from builder.world import tax_year as ty

    p = world.persona
    cur = world.currency
    country = ty.regime(p)
    year = ty.tax_year(p)
    out: list[Task] = []
    task = KIT.adder(world, out)

    # Savings interest: the bank's postings against the form (bank + taxes).
    interest = ty.savings_interest(world.events, year)
    if "savings" in [a.kind for a in p.accounts]:
        task(
            "savings-interest",
            [APP, "bank"],
            kind="aggregation",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"How much interest did my savings account earn in tax year {year.label}? Add up the interest "
            "the bank paid in that year" + (" and check it against the 1099-INT." if country == "US" else "."),
            expected={"interest_cents": interest},
            rubric=[
                RubricItem(
                    id="interest", weight=100, requirement=f"States {money(interest, cur)}", check=kit.amount(interest)
                )
            ],
        )

    # Last year's return: the refund or payment and its bank line.
    filed = ty.filed_return(world)
    if filed and filed["refund_cents"]:
        amount = abs(filed["refund_cents"])
        what = "refund" if filed["refund_cents"] > 0 else "payment"
        task(
            "last-year-return",
            [APP, "bank"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"What was the result of my {filed['tax_year']} tax return (a refund or an amount owed), and "
            "did the money show up in my checking account?",
            expected={"refund_cents": filed["refund_cents"], "kind": what},
            rubric=[
                RubricItem(
                    id="amount",
                    weight=70,
                    requirement=f"States the {what} of {money(amount, cur)}",
                    check=kit.amount(amount),
                ),
                RubricItem(id="bank", weight=30, requirement="Confirms the matching line in the bank account"),
            ],
        )
    return out


def income_check(world: World) -> list[Task]:
    """The 1099-DIV's dividends against the broker's (with that form), else the gross pay per paycheck of the wage
    form against the paychecks the bank shows."""
    from builder.world import tax_year as ty

    p = world.persona
    cur = world.currency
    country = ty.regime(p)
    year = ty.tax_year(p)
    forms = {f["form"]: f for f in ty.tax_forms(world)}
    wage_form = WAGES[country][1]
    main = forms[wage_form]
    out: list[Task] = []
    task = KIT.adder(world, out)

    # Dividends at the broker against the 1099-DIV (brokerage + taxes).
    if "1099-DIV" in forms:
        div = forms["1099-DIV"]["boxes"]["1a"]
        task(
            "dividends",
            [APP, "brokerage"],
            kind="aggregation",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"How much did I receive in dividends at {forms['1099-DIV']['issuer']} in {year.label}? "
            "Does it match the 1099-DIV?",
            expected={"dividends_cents": div},
            rubric=[
                RubricItem(id="dividends", weight=100, requirement=f"States {money(div, cur)}", check=kit.amount(div))
            ],
        )
    else:  # the last paycheck's withholding, bank deposit against the form's figures
        gross = main["boxes"][{"US": "1", "GB": "pay", "DE": "3"}[country]]
        task(
            "paycheck-count",
            [APP, "bank"],
            kind="aggregation",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"My {wage_form} for {year.label} shows my pay for the year. How much gross pay is that per "
            "paycheck, given how often I am paid?",
            expected={"per_paycheck_cents": gross // len(ty.payroll(p, world.events, year))},
            rubric=[
                RubricItem(
                    id="per",
                    weight=100,
                    requirement="States the gross pay per paycheck",
                    check=kit.amount(gross // len(ty.payroll(p, world.events, year))),
                )
            ],
        )

    return out


SCENARIOS = [
    Scenario(home="taxes", apps=("taxes",), tasks=pair_tasks, rank=PAIRS, when=in_use),
    Scenario(home="taxes", apps=("taxes", "bank"), tasks=form_checks, after="form-pdf-withheld", when=in_use),
    Scenario(home="taxes", apps=("taxes",), tasks=income_check, after="file-return", when=in_use),
]
