"""Tidewell's money from and to the bank (ids ``<persona>/brokerage/<slug>``): the automatic investment and the last
transfer as checking shows them, a deposit from checking invested in the fund, the spare cash sent back; each checked
in Tidewell and the bank. With the reference solutions of the two actions."""

from __future__ import annotations

from apps.brokerage import reader as seen
from apps.brokerage import steps as tidewell
from apps.brokerage.tasks import APP, KIT, in_use, recurring_fund, settled
from builder.money import money
from builder.tasks import kit
from builder.tasks.collect import Scenario
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.oracle import Web
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.reference.securities import COUNTERPARTY
from builder.world import World, brokerage_book, closing_price, security
from scenarios import bankbook

BANK = "bank"


def _bank_line(amount_cents: int) -> Check:
    """One app-made bank line of ``amount_cents`` (signed, checking's view) with Tidewell."""
    return kit.sql(
        BANK,
        """SELECT COUNT(*) FROM transactions WHERE world_ref IS NULL AND kind = 'external_transfer'
                         AND counterparty = ? AND amount_cents = ?""",
        [COUNTERPARTY, amount_cents],
        [[1]],
    )


def recurring_tasks(world: World) -> list[Task]:
    """What the monthly automatic investment has taken out of checking this year (none without a Tidewell account)."""
    if not world.of_kind("brokerage_opening"):
        return []
    cur, year = world.currency, world.now.year
    done = settled(world)
    out: list[Task] = []
    m = lambda c: money(c, cur)  # noqa: E731

    task = KIT.adder(world, out)

    recurring = [e for e in done if e.kind == "brokerage_transfer" and e.data["recurring"] and e.at.year == year]
    total = sum(e.data["amount_cents"] for e in recurring)
    task(
        "recurring-this-year",
        [APP, BANK],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"How much has my monthly automatic investment into Tidewell taken out of my checking account so far in {year}?",
        expected={"year": year, "total_cents": total, "transfers": len(recurring)},
        rubric=[
            RubricItem(id="total", weight=80, requirement=f"States {m(total)} in total", check=kit.amount(total)),
            RubricItem(
                id="count",
                weight=20,
                requirement=f"Says it was {len(recurring)} monthly transfers",
                check=Check(type="answer_number", value=len(recurring)),
            ),
        ],
    )

    return out


def transfer_tasks(world: World) -> list[Task]:
    """The last transfer from checking, a deposit invested in the recurring fund and the spare cash withdrawn (the
    withdrawal only with cash above the cushion). For a persona who funds the account and holds shares."""
    cur = world.currency
    today = world.now.date()
    book = brokerage_book(world)
    done = settled(world)
    out: list[Task] = []
    m = lambda c: money(c, cur)  # noqa: E731

    task = KIT.adder(world, out)

    # The last transfer to Tidewell as the bank shows it (bank + broker).
    ins = [e for e in done if e.kind == "brokerage_transfer" and e.data["direction"] == "in"]
    last_in = ins[-1]
    day = last_in.at.date()
    task(
        "last-transfer",
        [APP, BANK],
        kind="lookup",
        difficulty="easy",
        time_limit_seconds=300,
        instruction="When did money last leave my checking account for Tidewell, and how much was it?",
        expected={"date": day.isoformat(), "amount_cents": last_in.data["amount_cents"]},
        rubric=[
            RubricItem(
                id="amount",
                weight=50,
                requirement=f"States {m(last_in.data['amount_cents'])}",
                check=kit.amount(last_in.data["amount_cents"]),
            ),
            RubricItem(
                id="date",
                weight=50,
                requirement=f"Names {day.isoformat()}",
                check=Check(
                    type="answer_text",
                    any_of=[
                        day.isoformat(),
                        f"{day:%B} {day.day}",
                        f"{day.day} {day:%B}",
                        f"{day.day}. {day:%B}",
                        f"{day:%b} {day.day}",
                    ],
                ),
            ),
        ],
    )

    # Action: move money from checking and buy more of the recurring fund (bank + broker).
    fund = recurring_fund(done, book)
    amount = 50000
    fund_name = security(world, fund)["name"]
    price = closing_price(world, fund, today)
    shares = amount * 10000 // price
    task(
        "deposit-and-buy",
        [APP, BANK],
        kind="action",
        difficulty="medium",
        time_limit_seconds=600,
        instruction=f"Move {m(amount)} from my checking account into Tidewell and invest all of it in {fund_name} ({fund}).",
        expected={"amount_cents": amount, "symbol": fund, "price_cents": price, "shares_e4_at_most": shares},
        rubric=[
            RubricItem(
                id="deposit",
                weight=25,
                requirement=f"A {m(amount)} deposit from the bank is in Tidewell",
                check=kit.sql(
                    APP,
                    "SELECT COUNT(*) FROM transfers WHERE world_ref IS NULL AND direction = 'deposit' AND amount_cents = ?",
                    [amount],
                    [[1]],
                ),
            ),
            RubricItem(
                id="bank",
                weight=25,
                requirement=f"Checking shows the {m(amount)} transfer to Tidewell",
                check=_bank_line(-amount),
            ),
            RubricItem(
                id="buy",
                weight=35,
                requirement=f"A filled buy of {fund} for between {m(amount - price)} and {m(amount)}",
                check=kit.sql(
                    APP,
                    """SELECT COUNT(*) FROM orders WHERE world_ref IS NULL AND side = 'buy' AND status = 'filled'
                                               AND symbol = ? AND amount_cents BETWEEN ? AND ?""",
                    [fund, amount - price, amount],
                    [[1]],
                ),
            ),
            KIT.only(
                f"Nothing else changed at Tidewell: only the deposit and the {fund} buy (its cash lines and holding)",
                Change(table="transfers", op="insert", min=1, max=1),
                Change(table="orders", op="insert", min=1, max=1),
                Change(table="cash_ledger", op="insert", min=2, max=2),
                Change(table="holdings", op="update", min=0, max=1, columns=["shares_e4", "cost_cents"]),
                Change(table="holdings", op="insert", min=0, max=1),
            ),
        ],
    )

    # Action: withdraw the cash above a cushion (bank + broker).
    cushion = 10000
    withdraw = max(0, book.cash_cents - cushion) // 100 * 100
    if withdraw > 0:
        task(
            "withdraw-cash",
            [APP, BANK],
            kind="action",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"Send my uninvested Tidewell cash back to my checking account, keeping {m(cushion)} there "
            f"(round the transfer down to whole {'euros' if cur == 'EUR' else 'pounds' if cur == 'GBP' else 'dollars'}).",
            expected={"amount_cents": withdraw, "cash_cents": book.cash_cents},
            rubric=[
                RubricItem(
                    id="withdrawal",
                    weight=45,
                    requirement=f"A withdrawal of {m(withdraw)} in Tidewell",
                    check=kit.sql(
                        APP,
                        "SELECT COUNT(*) FROM transfers WHERE world_ref IS NULL AND direction = 'withdrawal' AND amount_cents = ?",
                        [withdraw],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="bank",
                    weight=40,
                    requirement=f"Checking shows {m(withdraw)} from Tidewell",
                    check=_bank_line(withdraw),
                ),
                KIT.only(
                    "Nothing else changed at Tidewell: only the withdrawal",
                    Change(table="transfers", op="insert", min=1, max=1),
                    Change(table="cash_ledger", op="insert", min=1, max=1),
                ),
            ],
        )

    return out


def deposit_and_buy(task: Task, web: Web) -> str:
    """Checking -> Tidewell, then a market buy of the fund for the whole amount."""
    exp = task.expected
    amount = tidewell.money_field(exp["amount_cents"])
    tidewell.deposit(web, amount)
    tidewell.buy_for(web, exp["symbol"], amount)
    return f"Moved {amount} into Tidewell and bought {exp['symbol']} with it."


def withdraw_cash(task: Task, web: Web) -> str:
    """Tidewell's spare cash -> checking."""
    amount = tidewell.money_field(task.expected["amount_cents"])
    tidewell.withdraw(web, amount)
    return f"Sent {amount} back to checking."


@reader("year")
def read_recurring(see: See, given: dict) -> Reading:
    """The automatic investment's deposits from the bank in the year (Tidewell's Transfers, the Recurring pill)."""
    rows, _ = seen.deposits_in(see, int(given["year"]))
    auto = [r for r in rows if r["recurring"]]
    total = sum(r["cents"] for r in auto)
    return Reading(
        values={"total": total, "count": len(auto)},
        steps=[
            f"Tidewell Transfers: {len(auto)} recurring deposit(s) from the bank in {given['year']}: "
            + ", ".join(f"{r['day']} {r['amount']}" for r in auto),
            f"sum {total} cents",
        ],
    )


@reader(unique=True)
def read_last_transfer(see: See, given: dict) -> Reading:
    """The newest line of checking to Tidewell, matched by Tidewell's newest deposit from the bank; the margin is
    the days since the line before it (0: two lines on the last day)."""
    checking = bankbook.account_of(see, "checking")
    out = [r for r in bankbook.lines(see, checking["id"], q="Tidewell") if r["cents"] < 0]
    if not out:
        raise Unreadable("checking shows no transfer to Tidewell")
    out.sort(key=lambda r: r["day"])
    last = out[-1]
    margin = (last["day"] - out[-2]["day"]).days if len(out) > 1 else 1
    deposits = [r for r in seen.transfers(see) if r["deposit"]]
    mine = max(deposits, key=lambda r: r["day"]) if deposits else None
    if mine is None or (mine["day"], mine["cents"]) != (last["day"], -last["cents"]):
        raise Unreadable(
            f"checking's last line to Tidewell ({last['day']} {last['amount']}) is not Tidewell's last deposit"
        )
    return Reading(
        values={"amount": -last["cents"], "date": last["day"].isoformat()},
        steps=[
            f"{checking['name']}: newest line to Tidewell {last['day']} {last['description']} {last['amount']}",
            f"Tidewell Transfers: newest deposit from the bank {mine['when']} {mine['amount']}",
        ],
        margin=margin,
    )


SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, BANK),
        tasks=recurring_tasks,
        after="portfolio-value",
        readers={"recurring-this-year": read_recurring},
    ),
    Scenario(
        home=APP,
        apps=(APP, BANK),
        tasks=transfer_tasks,
        solvers={"deposit-and-buy": deposit_and_buy, "withdraw-cash": withdraw_cash},
        readers={"last-transfer": read_last_transfer},
        after="dividends-this-year",
        when=in_use,
    ),
]
