"""Ledgerleaf Tax tasks derived from the world, each with its expected values and rubric.

Action checks read ``taxes.sqlite``'s end state: this year's return and its values are rows the app writes
(``world_ref IS NULL``); the seed writes only last year's filed return (``world_ref`` its event) and the issued
forms, so an agent that does nothing fails every action check. Queries are fixed text; every world value travels
in ``params``.
"""

from __future__ import annotations

from builder.money import money
from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World
from builder.world import tax_year as ty

from .steps import return_filed


APP = "taxes"
# Moving between interview steps and saving a step again rewrite the return's step and values.
KIT = kit.Kit(
    APP,
    nothing_else="Nothing else changed in Ledgerleaf Tax: only {}",
    allowed=(
        Change(table="returns", op="insert", min=1, max=1),
        Change(table="returns", op="update", min=0, max=1, columns=["step", "updated_at"]),
        Change(table="return_values", op="insert", min=1),
        Change(table="return_values", op="update", min=0),
    ),
)
# The app's return for the tax year (label bound as a parameter).
_RETURN = "(SELECT id FROM returns WHERE tax_year = ? AND world_ref IS NULL)"
WAGES = {
    "US": ("w2_1", "W-2", "box 1 wages"),
    "GB": ("p60_pay", "P60", "pay"),
    "DE": ("lstb_3", "Lohnsteuerbescheinigung", "Bruttoarbeitslohn"),
}
WITHHELD = {
    "US": ("w2_2", "federal income tax withheld (W-2 box 2)"),
    "GB": ("p60_tax", "tax deducted under PAYE (P60)"),
    "DE": ("lstb_4", "einbehaltene Lohnsteuer (Zeile 4)"),
}
DONATION_FIELD = "donations"


def return_value(label: str, name: str, value: str) -> Check:
    """The persona's own return for tax year ``label`` holds ``value`` in its field ``name``."""
    return KIT.sql(
        f"SELECT COUNT(*) FROM return_values WHERE return_id = {_RETURN} AND name = ? AND value = ?",
        [label, name, value],
        [[1]],
    )


def imported_result(world: World) -> dict[str, int]:
    """The return as importing every issued form gives it (nothing typed: standard deduction, no donations;
    qualified dividends and long-term gains at the preferential rates, :func:`builder.world.tax_year.us_tax`)."""
    p = world.persona
    year = ty.tax_year(p)
    country = ty.regime(p)
    inc = {
        k: 0
        for k in (
            "wages",
            "withheld",
            "interest",
            "dividends",
            "qualified_dividends",
            "gains",
            "long_term_gains",
            "donations",
            "state_tax",
            "social",
            "itemize",
        )
    }
    for f in ty.tax_forms(world):
        b = f["boxes"]
        if f["form"] == "W-2":
            inc.update(wages=b["1"], withheld=b["2"], state_tax=b["17"])
        elif f["form"] == "1099-INT":
            inc["interest"] = b["1"]
        elif f["form"] == "1099-DIV":
            inc.update(dividends=b["1a"], qualified_dividends=b["1b"])
        elif f["form"] == "1099-B":
            inc.update(gains=b["gain"], long_term_gains=b["gain_lt"])
        elif f["form"] == "P60":
            inc.update(wages=b["pay"], withheld=b["tax"])
        elif f["form"] == "Lohnsteuerbescheinigung":
            inc.update(wages=b["3"], withheld=b["4"] + b["5"], social=b["23a"] + b["25"] + b["26"] + b["27"])
    return ty.compute_return(country, year.key, inc)


def in_use(world: World) -> bool:
    """Whether the persona has pay (the wage form of their country), a country the app files under and a tax year
    whose rules it has
    (:func:`builder.reference.tax.regime`): without them Ledgerleaf Tax has no tasks, nor do the scenarios homed
    there."""
    country = ty.regime(world.persona)
    return (
        country is not None
        and ty.tax_year(world.persona).key in ty.rules()[country]["years"]  # a year the app has the rules of
        and WAGES[country][1] in {f["form"] for f in ty.tax_forms(world)}
    )


def tasks(world: World) -> list[Task]:
    """Return the Ledgerleaf Tax tasks of ``world`` (at least 8 when the persona has pay), in a fixed order."""
    p = world.persona
    cur = world.currency
    country = ty.regime(p)
    year = ty.tax_year(p)
    forms = {f["form"]: f for f in ty.tax_forms(world)}
    out: list[Task] = []

    task = KIT.adder(world, out)

    if not in_use(world):  # no pay, or no return to file where the persona lives: nothing a tax task could ask
        return out
    wage_field, wage_form, _ = WAGES[country]
    main = forms[wage_form]
    wages = main["boxes"][{"US": "1", "GB": "pay", "DE": "3"}[country]]
    wf, wwords = WITHHELD[country]
    withheld = main["boxes"][{"US": "2", "GB": "tax", "DE": "4"}[country]]

    # 1. The wages on the employer's form.
    task(
        "form-wages",
        [APP],
        kind="lookup",
        difficulty="easy",
        time_limit_seconds=240,
        instruction=f"What wages did {main['issuer']} report on my {wage_form} for {year.label}?",
        expected={"form": wage_form, "issuer": main["issuer"], "year": year.label, "wages_cents": wages},
        rubric=[RubricItem(id="wages", weight=100, requirement=f"States {money(wages, cur)}", check=kit.amount(wages))],
    )

    # 2. The PDF in Documents holds the same number as the app (files + the app).
    task(
        "form-pdf-withheld",
        [APP, "files"],
        kind="lookup",
        difficulty="easy",
        time_limit_seconds=300,
        instruction=f"Open my {wage_form} for {year.label} in my Documents folder: how much {wwords} does it show?",
        expected={"form": wage_form, "year": year.label, "withheld_cents": withheld},
        rubric=[
            RubricItem(
                id="withheld", weight=100, requirement=f"States {money(withheld, cur)}", check=kit.amount(withheld)
            )
        ],
    )

    # 3.-4. Savings interest and last year's return against the bank: scenarios/pairs/taxes.py.
    filed = ty.filed_return(world)

    # 5. Import the employer's form and tell the refund (action + answer).
    result = imported_result(world)
    refund = result["refund"]
    task(
        "import-and-refund",
        [APP],
        kind="action",
        difficulty="medium",
        time_limit_seconds=600,
        instruction=f"Start my {year.label} return in Ledgerleaf Tax, import every tax form that was issued to me, "
        "and tell me whether I get a refund or owe, and how much.",
        expected={"wages_cents": wages, "withheld_cents": withheld, "refund_cents": refund},
        rubric=[
            RubricItem(
                id="wages",
                weight=25,
                requirement=f"The return holds wages {money(wages, cur)}",
                check=return_value(year.label, wage_field, str(wages)),
            ),
            RubricItem(
                id="withheld",
                weight=25,
                requirement=f"The return holds {money(withheld, cur)} withheld",
                check=return_value(year.label, wf, str(withheld)),
            ),
            RubricItem(
                id="refund",
                weight=35,
                requirement=f"States {'a refund' if refund >= 0 else 'an amount owed'} of {money(abs(refund), cur)}",
                check=kit.amount(abs(refund)),
            ),
            KIT.only(
                f"the new {year.label} return with the issued forms imported",
                Change(table="form_imports", op="insert", min=1),
            ),
        ],
    )

    # 6. The card's donations into the deductions step: scenarios/errands/taxes.py.

    # 7. File the return (action).
    task(
        "file-return",
        [APP],
        kind="action",
        difficulty="hard",
        time_limit_seconds=900,
        instruction=f"Import my {year.label} tax forms into Ledgerleaf Tax and file the return; tell me the "
        "confirmation number.",
        expected={"refund_cents": refund},
        rubric=[
            RubricItem(
                id="filed", weight=55, requirement="The year's return is filed", check=return_filed(year.label, refund)
            ),
            RubricItem(id="confirmation", weight=30, requirement="Tells the confirmation number the app shows"),
            KIT.only(
                f"the new, filed {year.label} return with the issued forms imported",
                Change(table="form_imports", op="insert", min=1),
            ),
        ],
    )

    # 8. The 1099-DIV against the broker, or the pay per paycheck against the bank: scenarios/pairs/taxes.py.

    # 9. Standard vs itemised (US) / the last year's tax (others).
    if country == "US":
        r = ty.rules()["US"]["years"].get(year.key)
        if r:
            std = r["standard_deduction"]
            task(
                "standard-deduction",
                [APP],
                kind="lookup",
                difficulty="easy",
                time_limit_seconds=300,
                instruction=f"What standard deduction does Ledgerleaf Tax apply to my {year.label} return?",
                expected={"standard_cents": std},
                rubric=[
                    RubricItem(id="std", weight=100, requirement=f"States {money(std, cur)}", check=kit.amount(std))
                ],
            )
    if filed:
        task(
            "last-year-tax",
            [APP],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"How much tax did my filed {filed['tax_year']} return come to in total?",
            expected={"tax_year": filed["tax_year"], "tax_cents": filed["lines"]["tax"]},
            rubric=[
                RubricItem(
                    id="tax",
                    weight=100,
                    requirement=f"States {money(filed['lines']['tax'], cur)}",
                    check=kit.amount(filed["lines"]["tax"]),
                )
            ],
        )
    return out
