"""Ledgerleaf's two-app answer tasks (ids ``<persona>/taxes/pair-...``, and the form checks against the bank or the
broker among Ledgerleaf's own tasks): one question each whose answer needs exactly the two apps it names (see
:mod:`builder.tasks.pairs` for the shared rules)."""

from __future__ import annotations

from apps.taxes import reader as seen
from apps.taxes.tasks import APP, KIT, WAGES, in_use
from builder.money import money
from builder.tasks import answers as A
from builder.tasks import kit
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader
from builder.world import World
from scenarios import PAIRS, bankbook


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
            expected={"year": year.label, "interest_cents": interest},
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
            expected={"tax_year": filed["tax_year"], "refund_cents": filed["refund_cents"], "kind": what},
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
            expected={"issuer": forms["1099-DIV"]["issuer"], "year": year.label, "dividends_cents": div},
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
            expected={
                "form": wage_form,
                "year": year.label,
                "per_paycheck_cents": gross // len(ty.payroll(p, world.events, year)),
            },
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


# --- independent readers (builder.tasks.reader) ------------------------------------------------------------------


def _employer(text: str) -> str:
    """The employer a wage form names (the line under ``Employer`` / ``Arbeitgeber``)."""
    from builder.tasks.seen import line_after

    for label in ("Employer", "Arbeitgeber"):
        try:
            return line_after(text, label)
        except Unreadable:
            continue
    raise Unreadable("the wage form names no employer")


def _paychecks(see: See, employer: str, start=None, end=None) -> list[dict]:
    """The bank's lines paying in from ``employer`` (its name in the description), every account, oldest first."""
    out = []
    for a in bankbook.accounts(see):
        out += [
            r
            for r in bankbook.lines(see, a["id"], start, end, q=employer)
            if r["cents"] > 0 and employer.upper() in r["description"].upper()
        ]
    return sorted(out, key=lambda r: r["day"])


def _per_year(days: list) -> int:
    """Paychecks a year from the days the bank shows them: every 7 days 52, every 14 days 26, about twice a month
    24, about monthly 12. Raises :class:`Unreadable` for another rhythm or too few paychecks."""
    gaps = sorted({(b - a).days for a, b in zip(days, days[1:])})
    if not gaps:
        raise Unreadable("fewer than two paychecks in the bank's history")
    if gaps == [7]:
        return 52
    if gaps == [14]:
        return 26
    if min(gaps) >= 12 and max(gaps) <= 19:
        return 24
    if min(gaps) >= 26 and max(gaps) <= 35:
        return 12
    raise Unreadable(f"paychecks {gaps} days apart: no schedule the reader knows")


@reader("year")
def read_savings_interest(see: See, given: dict) -> Reading:
    """The savings account's interest lines in the tax year, added up (the 1099-INT beside them)."""
    start, end = seen.span(given["year"])
    savings = bankbook.account_of(see, "savings")
    paid = [r for r in bankbook.lines(see, savings["id"], start, end) if r["category"] == "Interest" and r["cents"] > 0]
    total = sum(r["cents"] for r in paid)
    steps = [f"{savings['name']}, {start} to {end}: {len(paid)} interest line(s), sum {total} cents"]
    try:
        path, text = seen.document(see, "1099-INT", given["year"])
        steps.append(f"~/{path.relative_to(see.home)}: box 1 {seen.box(text, '1099-INT', 'interest')[1]}")
    except Unreadable:
        pass
    return Reading(values={"interest": total}, steps=steps)


@reader("tax_year")
def read_last_year_return(see: See, given: dict) -> Reading:
    """The result of the year's return on Ledgerleaf (and the checking line of that amount)."""
    year = str(given["tax_year"])
    rows = [r for r in seen.returns(see) if r["year"] == year]
    if len(rows) != 1 or not rows[0]["result"]:
        raise Unreadable(f"Ledgerleaf lists {len(rows)} return(s) for {year} with a result")
    cents = parse_money(rows[0]["result"])
    checking = bankbook.account_of(see, "checking")
    start = seen.span(year)[1]
    match = [r for r in bankbook.lines(see, checking["id"], start) if abs(r["cents"]) == cents]
    return Reading(
        values={"amount": cents},
        steps=[
            f"Ledgerleaf, Your returns: {year} {rows[0]['status']} {rows[0]['result']}",
            f"{checking['name']} after {start}: "
            + ("; ".join(f"{r['day']} {r['description']} {r['amount']}" for r in match) or "no line of that amount"),
        ],
    )


@reader("tax_year")
def read_1099b_sales(see: See, given: dict) -> Reading:
    """The 1099-B's realized gain, and the holdings sold on Tidewell's Orders that year."""
    from apps.brokerage import reader as tidewell

    year = str(given["tax_year"])
    path, text = seen.document(see, "1099-B", year)
    gain, shown = seen.box(text, "1099-B", "gain")
    sold = sorted(
        {o["symbol"] for o in tidewell.orders(see) if not o["buy"] and o["filled"] and str(o["day"].year) == year}
    )
    return Reading(
        values={"gain": gain, "symbols": sold},
        steps=[
            f"~/{path.relative_to(see.home)}: realized gain {shown}",
            f"Tidewell Orders: sells filled in {year}: {sold}",
        ],
    )


@reader("tax_year")
def read_w2_vs_deposits(see: See, given: dict) -> Reading:
    """The W-2's wages against the employer's paychecks the bank shows that year."""
    year = str(given["tax_year"])
    path, text = seen.document(see, "W-2", year)
    wages, shown = seen.box(text, "W-2", "wages")
    employer = _employer(text)
    start, end = seen.span(year)
    pays = _paychecks(see, employer, start, end)
    net = sum(r["cents"] for r in pays)
    return Reading(
        values={"deposited": net, "wages": wages, "gap": wages - net},
        steps=[
            f"~/{path.relative_to(see.home)}: box 1 wages {shown}, employer {employer}",
            f"bank: {len(pays)} paycheck(s) from {employer} in {year} (first {pays[0]['day'] if pays else '-'}), "
            f"sum {net} cents",
        ],
    )


@reader("issuer", "year")
def read_dividends(see: See, given: dict) -> Reading:
    """Tidewell's dividends paid in the tax year, added up (the 1099-DIV beside them)."""
    from apps.brokerage import reader as tidewell

    start, end = seen.span(given["year"])
    rows = [r for r in tidewell.dividends(see) if start <= r["day"] <= end]
    total = sum(r["cents"] for r in rows)
    steps = [f"Tidewell Dividends, {start} to {end}: {len(rows)} payment(s), sum {total} cents"]
    try:
        path, text = seen.document(see, "1099-DIV", given["year"], given["issuer"])
        steps.append(f"~/{path.relative_to(see.home)}: box 1a {seen.box(text, '1099-DIV', 'dividends')[1]}")
    except Unreadable:
        pass
    return Reading(values={"dividends": total}, steps=steps)


@reader("form", "year")
def read_per_paycheck(see: See, given: dict) -> Reading:
    """The wage form's pay over the paychecks a year (the form's pay periods, else the bank's rhythm)."""
    form, year = given["form"], given["year"]
    path, text = seen.document(see, form, year)
    gross, shown = seen.box(text, form, "wages")
    steps = [f"~/{path.relative_to(see.home)}: pay for the year {shown}"]
    if "periods" in seen.BOXES[form]:
        from builder.tasks.seen import line_after

        n = int(line_after(text, seen.BOXES[form]["periods"]))
        steps.append(f"the form counts {n} pay periods")
    else:
        pays = _paychecks(see, _employer(text))
        n = _per_year([r["day"] for r in pays])
        steps.append(f"bank: {len(pays)} paychecks, {n} a year by their rhythm")
    per = (gross + n // 2) // n
    return Reading(values={"per": per}, steps=[*steps, f"{gross} / {n} = {per} cents a paycheck"])


SCENARIOS = [
    Scenario(
        home="taxes",
        apps=("taxes",),
        tasks=pair_tasks,
        rank=PAIRS,
        when=in_use,
        readers={"pair-1099b-sales": read_1099b_sales, "pair-w2-vs-deposits": read_w2_vs_deposits},
    ),
    Scenario(
        home="taxes",
        apps=("taxes", "bank"),
        tasks=form_checks,
        after="form-pdf-withheld",
        when=in_use,
        readers={"savings-interest": read_savings_interest, "last-year-return": read_last_year_return},
    ),
    Scenario(
        home="taxes",
        apps=("taxes",),
        tasks=income_check,
        after="file-return",
        when=in_use,
        readers={"dividends": read_dividends, "paycheck-count": read_per_paycheck},
    ),
]
