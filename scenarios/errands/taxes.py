"""Ledgerleaf Tax's errands across apps: the card's donations of the tax year, added up in the bank, entered as the
return's deduction; file the return and plan the payment or the refund with the bank, the calendar and chat. With
their reference solutions."""

from __future__ import annotations

from apps.taxes import steps as ledgerleaf
from apps.taxes.tasks import APP, DONATION_FIELD, KIT, imported_result, in_use, return_value
from builder.money import money
from builder.tasks import effects, kit
from builder.tasks.collect import Scenario
from builder.tasks.model import Change, RubricItem, Task
from builder.tasks.oracle import Web
from builder.world import World
from builder.world import tax_year as ty
from scenarios import ERRANDS


def _file_and_plan(world: World, year: str, refund: int) -> list[Task]:
    """File the return, then act on its result (long horizon, a branch the agent must pick): owing, move the amount
    from savings to checking and put the payment in the calendar; a refund, put it in the calendar and text the
    closest contact how much comes back. The checks are those of the branch the world's return takes."""
    import datetime as dt

    from apps.calendar import steps as daybook
    from apps.messaging import steps as parley
    from apps.messaging.steps import closest_contact
    from builder.tasks.phrasing import day_phrase

    p = world.persona
    cur = world.currency
    who = closest_contact(world)
    if refund == 0 or who is None or "savings" not in {a.kind for a in p.accounts}:
        return []
    due = world.now.date() + dt.timedelta(days=30)
    when = day_phrase(due, world.now.date())
    first = who.name.split()[0]
    cents = abs(refund)
    amount_forms = sorted(
        {
            f"{cents // 100}.{cents % 100:02d}",
            f"{cents // 100:,}.{cents % 100:02d}",
            f"{cents // 100},{cents % 100:02d}",
            f"{cents // 100:,}".replace(",", ".") + f",{cents % 100:02d}",
        }
    )
    filed = RubricItem(
        id="filed",
        weight=35,
        requirement=f"The {year} return is filed ({'refund' if refund > 0 else 'owed'} {money(cents, cur)})",
        check=ledgerleaf.return_filed(year, refund),
    )
    only = KIT.only(
        f"the new, filed {year} return with the issued forms imported", Change(table="form_imports", op="insert", min=1)
    )
    if refund < 0:
        apps = [APP, "bank", "calendar"]
        acts = [
            (
                "bank",
                "the move from savings to checking",
                (
                    Change(table="transactions", op="insert", min=2, max=2),
                    Change(table="accounts", op="update", min=2, max=2, columns=["balance_cents"]),
                ),
            ),
            ("calendar", '"Pay tax bill" added', daybook.new_events(1)),
        ]
        branch = [
            RubricItem(
                id="moved",
                weight=25,
                requirement=f"{money(cents, cur)} moved from savings to checking",
                check=kit.sql(
                    "bank",
                    """SELECT COUNT(*) FROM transactions s
                           JOIN transactions c ON c.transfer_id = s.transfer_id AND c.id <> s.id
                           WHERE s.world_ref IS NULL AND s.account_id = (SELECT id FROM accounts WHERE kind = 'savings')
                           AND c.account_id = (SELECT id FROM accounts WHERE kind = 'checking')
                           AND s.amount_cents = ? AND c.amount_cents = ?""",
                    [-cents, cents],
                    [[1]],
                ),
            ),
            RubricItem(
                id="calendar",
                weight=25,
                requirement=f'"Pay tax bill" in the calendar on {due} ({when})',
                check=daybook.created(due.isoformat(), [["tax"]]),
            ),
        ]
    else:
        apps = [APP, "calendar", "messaging"]
        acts = [
            ("calendar", '"Tax refund" added', daybook.new_events(1)),
            ("messaging", f"the text to {who.name} (and the reply it draws)", parley.texts(1, 4)),
        ]
        branch = [
            RubricItem(
                id="calendar",
                weight=20,
                requirement=f'"Tax refund" in the calendar on {due} ({when})',
                check=daybook.created(due.isoformat(), [["refund"]]),
            ),
            RubricItem(
                id="text",
                weight=30,
                requirement=f"A text to {who.name} with the refund, {money(cents, cur)}",
                check=parley.sent_direct(who.name, [amount_forms]),
            ),
        ]
    task = Task(
        id=f"{p.id}/{APP}/file-and-plan",
        persona=p.id,
        kind="action",
        category="long_horizon",
        apps_involved=apps,
        difficulty="hard",
        time_limit_seconds=1500,
        instruction=f"File my {year} tax return on Ledgerleaf Tax (import my forms first). If I owe tax, move exactly "
        f'what I owe from my savings to my checking account and put "Pay tax bill" in my calendar '
        f'{when}; if I get money back, put "Tax refund" in my calendar {when} and text {first} how much '
        "is coming back.",
        expected={"refund_cents": refund, "due": due.isoformat(), "contact": who.name},
        rubric=[filed, *branch, only],
    )
    return [effects.acting(task, *acts)]


def file_and_plan(task: Task, web: Web) -> str:
    """File, then the branch the result asks for: savings to checking and the payment in Daybook, or the refund in
    Daybook and a text."""
    from apps.bank import steps as larkspur
    from apps.calendar import steps as daybook
    from apps.messaging import steps as parley

    exp = task.expected
    said = ledgerleaf.file_return(task, web)
    refund = web.one(APP, "SELECT refund_cents FROM returns WHERE world_ref IS NULL AND status = 'filed'")
    if refund < 0:
        larkspur.post(
            web,
            "/api/transfer",
            [
                ("from", larkspur.account(web, "savings")),
                ("to", larkspur.account(web, "checking")),
                ("amount", ledgerleaf.plain_amount(-refund)),
                ("memo", "Tax bill"),
            ],
        )
        daybook.create(web, title="Pay tax bill", date=exp["due"], all_day="1")
    else:
        daybook.create(web, title="Tax refund", date=exp["due"], all_day="1")
        parley.send(web, exp["contact"], f"Filed my taxes: {ledgerleaf.shown_amount(refund)} is coming back!")
    return said


def file_and_plan_tasks(world: World) -> list[Task]:
    """File this year's return and plan its payment or refund (none without a refund or owed amount)."""
    return _file_and_plan(world, ty.tax_year(world.persona).label, imported_result(world)["refund"])


def donations_tasks(world: World) -> list[Task]:
    """Enter the tax year's donations on the cards (the bank's lines) as the return's charitable donations (none
    without donations)."""
    p = world.persona
    cur = world.currency
    year = ty.tax_year(p)
    out: list[Task] = []
    task = KIT.adder(world, out)

    # Donations from the card statements into the deductions step (bank + taxes, action).
    gifts = sum(d["amount_cents"] for d in ty.donations(world.events, year))
    if gifts:
        task(
            "donations-deduction",
            [APP, "bank"],
            kind="action",
            difficulty="hard",
            time_limit_seconds=900,
            instruction=f"Add up the donations to charities on my cards during tax year {year.label} and enter the "
            "total as my charitable donations in my Ledgerleaf Tax return.",
            expected={"donations_cents": gifts, "gifts": len(ty.donations(world.events, year))},
            rubric=[
                RubricItem(
                    id="donations",
                    weight=85,
                    requirement=f"The return holds donations of {money(gifts, cur)}",
                    check=return_value(year.label, DONATION_FIELD, str(gifts)),
                ),
                KIT.only(f"the new {year.label} return with the deductions step saved"),
            ],
        )

    return out


def donations_deduction(task: Task, web: Web) -> str:
    """The deductions step saved with the donations' total."""
    cents = task.expected["donations_cents"]
    ledgerleaf.post(
        web,
        "/api/return/save",
        [
            ("step", "deductions"),
            ("go", "next"),
            ("itemize", "standard"),
            ("donations", ledgerleaf.plain_amount(cents)),
        ],
    )
    return f"Entered {ledgerleaf.shown_amount(cents)} of charitable donations ({task.expected['gifts']} gifts)."


SCENARIOS = [
    Scenario(
        home="taxes",
        apps=("taxes", "bank"),
        tasks=donations_tasks,
        solvers={"donations-deduction": donations_deduction},
        after="import-and-refund",
        when=in_use,
    ),
    Scenario(
        home="taxes",
        apps=("taxes", "calendar"),
        tasks=file_and_plan_tasks,
        solvers={"file-and-plan": file_and_plan},
        rank=ERRANDS,
        when=in_use,
    ),
]
