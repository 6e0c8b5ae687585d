"""Hunchline's money from and to the bank (ids ``<persona>/markets/<slug>``): the deposits of this year and a
deposit's reference as checking shows it, a deposit from checking, the winnings withdrawn (and on into a Tidewell
fund), a deposit spent on a buy, the net money put in against the cash; each checked in Hunchline and the bank. With
the reference solutions of the actions."""

from __future__ import annotations

from apps.brokerage import steps as tidewell
from apps.markets import reader as seen
from apps.markets import steps as hunchline
from apps.markets.tasks import APP, BUY_POSITION, KIT
from builder.money import money
from builder.tasks import effects, kit
from builder.tasks.collect import Scenario
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.oracle import Web
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.world import World, forecasts
from scenarios import bankbook


def deposit_lookups(world: World) -> list[Task]:
    """The deposits from the bank this year and the reference of the last one (none without deposits)."""
    deposits = world.of_kind("forecast_deposit")
    if not deposits:
        return []
    cur, year = world.currency, world.now.year
    out: list[Task] = []
    task = KIT.adder(world, out)

    # Deposits this year, across Hunchline and the bank (aggregation).
    this_year = [e for e in deposits if e.at.year == year]
    total = sum(e.data["amount_cents"] for e in this_year)
    task(
        "deposited-this-year",
        [APP, "bank"],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"How much money have I moved from my bank into Hunchline in {year} so far, and in how many "
        "transfers?",
        expected={"year": year, "total_cents": total, "transfers": len(this_year)},
        rubric=[
            RubricItem(
                id="total", weight=80, requirement=f"States the total {money(total, cur)}", check=kit.amount(total)
            ),
            RubricItem(id="count", weight=20, requirement=f"Says it was {len(this_year)} transfers"),
        ],
    )
    # The reference of a bank line (lookup across the bank and Hunchline).
    e = deposits[-1]
    task(
        "deposit-reference",
        ["bank", APP],
        kind="lookup",
        difficulty="medium",
        time_limit_seconds=360,
        instruction=f"My checking account shows a transfer of {money(e.data['amount_cents'], cur)} to Hunchline on "
        f"{e.at:%B %-d, %Y}. What reference number does Hunchline show for that deposit?",
        expected={
            "amount_cents": e.data["amount_cents"],
            "day": e.at.date().isoformat(),
            "reference": e.data["reference"],
        },
        rubric=[
            RubricItem(
                id="reference",
                weight=100,
                requirement=f"States the reference {e.data['reference']}",
                check=Check(type="answer_text", any_of=[e.data["reference"]]),
            )
        ],
    )
    return out


def cash_moves(world: World) -> list[Task]:
    """A deposit from checking; with winnings and cash, the biggest payout withdrawn, and (for a persona with a
    recurring fund at Tidewell) the same amount carried on into that fund."""
    p = world.persona
    cur = world.currency
    by = {m.ticker: m for m in forecasts.markets(p, world.start, world.now)}
    acc = forecasts.account(world)
    payouts = world.of_kind("forecast_payout")
    out: list[Task] = []
    task = KIT.adder(world, out)

    # Deposit from checking (action across Hunchline and the bank).
    amount = 2500 if cur != "EUR" else 3000
    task(
        "deposit",
        [APP, "bank"],
        kind="action",
        difficulty="easy",
        time_limit_seconds=300,
        instruction=f"Move {money(amount, cur)} from my checking account into my Hunchline balance.",
        expected={"amount_cents": amount},
        rubric=[
            RubricItem(
                id="hunchline",
                weight=45,
                requirement=f"Hunchline shows one new deposit of {money(amount, cur)}",
                check=kit.sql(
                    APP,
                    "SELECT COUNT(*) FROM activity WHERE world_ref IS NULL AND kind = 'deposit' AND amount_cents = ?",
                    [amount],
                    [[1]],
                ),
            ),
            RubricItem(
                id="bank",
                weight=35,
                requirement=f"The bank moved {money(amount, cur)} out of checking to Hunchline",
                check=kit.sql(
                    "bank",
                    "SELECT COUNT(*) FROM external_transfers WHERE app = ? AND direction = 'out' AND amount_cents = ?",
                    [APP, amount],
                    [[1]],
                ),
            ),
            KIT.only(
                "Nothing else changed at Hunchline: only the deposit",
                Change(table="activity", op="insert", min=1, max=1),
            ),
            effects.expect("bank-transfers", 1, 1, "Hunchline"),
        ],
    )

    # Withdraw the winnings of the biggest payout (action across apps).
    if payouts and acc["cash_cents"] > 0:
        best = max(payouts, key=lambda e: (e.data["amount_cents"], e.at))
        cash_out = min(best.data["amount_cents"], acc["cash_cents"])
        mk = by[best.data["ticker"]]
        task(
            "withdraw-winnings",
            [APP, "bank"],
            kind="action",
            difficulty="hard",
            time_limit_seconds=480,
            instruction=f"Withdraw to my checking account exactly what I won on “{mk.question}”"
            + (" (or my whole cash balance, if that is less)." if cash_out < best.data["amount_cents"] else "."),
            expected={"amount_cents": cash_out, "ticker": mk.ticker},
            rubric=[
                RubricItem(
                    id="hunchline",
                    weight=45,
                    requirement=f"Hunchline shows one withdrawal of {money(cash_out, cur)}",
                    check=kit.sql(
                        APP,
                        "SELECT COUNT(*) FROM activity WHERE world_ref IS NULL AND kind = "
                        "'withdrawal' AND amount_cents = ?",
                        [-cash_out],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="bank",
                    weight=35,
                    requirement=f"Checking received {money(cash_out, cur)} from Hunchline",
                    check=kit.sql(
                        "bank",
                        "SELECT COUNT(*) FROM external_transfers WHERE app = ? AND direction = "
                        "'in' AND amount_cents = ?",
                        [APP, cash_out],
                        [[1]],
                    ),
                ),
                KIT.only(
                    "Nothing else changed at Hunchline: only the withdrawal",
                    Change(table="activity", op="insert", min=1, max=1),
                ),
                effects.expect("bank-transfers", 1, 1, "Hunchline"),
            ],
        )

        # Long chain: the winnings out of Hunchline, into the broker, invested in the recurring fund.
        from builder.tasks import steps as S
        from builder.world import security

        buys = sorted(
            (e for e in world.of_kind("brokerage_trade") if e.at <= world.now and e.data.get("recurring")),
            key=lambda e: e.at,
        )
        if buys and cash_out >= 500:
            fund = buys[-1].data["symbol"]
            fund_name = security(world, fund)["name"]
            task(
                "winnings-to-index",
                [APP, "bank", "brokerage"],
                kind="action",
                category="long_horizon",
                difficulty="hard",
                time_limit_seconds=900,
                instruction=f"Take what I won on “{mk.question}” out of Hunchline to my checking account"
                + (" (or my whole cash balance, if that is less)" if cash_out < best.data["amount_cents"] else "")
                + f", then move that same amount from checking into Tidewell and invest all of it in "
                f"{fund_name} ({fund}).",
                expected={"amount_cents": cash_out, "ticker": mk.ticker, "symbol": fund},
                rubric=[
                    RubricItem(
                        id="withdrawn",
                        weight=20,
                        requirement=f"Hunchline paid out {money(cash_out, cur)}",
                        check=kit.sql(
                            APP,
                            "SELECT COUNT(*) FROM activity WHERE world_ref IS NULL AND kind = "
                            "'withdrawal' AND amount_cents = ?",
                            [-cash_out],
                            [[1]],
                        ),
                    ),
                    RubricItem(
                        id="landed",
                        weight=15,
                        requirement=f"Checking received {money(cash_out, cur)}",
                        check=kit.sql(
                            "bank",
                            "SELECT COUNT(*) FROM external_transfers WHERE app = ? AND "
                            "direction = 'in' AND amount_cents = ?",
                            [APP, cash_out],
                            [[1]],
                        ),
                    ),
                    RubricItem(
                        id="deposited",
                        weight=20,
                        requirement=f"Tidewell got a deposit of {money(cash_out, cur)}",
                        check=kit.sql(
                            "brokerage",
                            "SELECT COUNT(*) FROM transfers WHERE world_ref IS NULL AND "
                            "direction = 'deposit' AND amount_cents = ?",
                            [cash_out],
                            [[1]],
                        ),
                    ),
                    RubricItem(
                        id="invested",
                        weight=30,
                        requirement=f"A filled buy of {fund} for about {money(cash_out, cur)}",
                        check=kit.sql(
                            "brokerage",
                            "SELECT COUNT(*) FROM orders WHERE world_ref IS NULL AND "
                            "side = 'buy' AND status = 'filled' AND symbol = ? AND "
                            "amount_cents BETWEEN ? AND ?",
                            [fund, cash_out * 9 // 10, cash_out],
                            [[1]],
                        ),
                    ),
                    RubricItem(
                        id="only-hunchline",
                        weight=15,
                        requirement="Nothing else changed at Hunchline: only the withdrawal",
                        check=S.diff(
                            APP,
                            Change(table="activity", op="insert", min=1, max=1),
                            Change(table="users", op="update", min=0, max=1),
                        ),
                    ),
                ],
            )
            # Tidewell's own item, and the bank's: the transfer in from Hunchline and the one out to Tidewell.
            out[-1] = effects.with_items(
                effects.acting(out[-1], ("brokerage", f"the deposit and the {fund} buy", tidewell.deposit_and_buy())),
                [effects.expect("bank-transfers", 2, 2, "Hunchline and Tidewell")],
            )

    return out


def fund_tasks(world: World) -> list[Task]:
    """A transfer from checking spent on a buy (every persona); with deposits, the net money put in against the cash."""
    p = world.persona
    cur = world.currency
    ms = forecasts.markets(p, world.start, world.now)
    acc = forecasts.account(world)
    deposits = world.of_kind("forecast_deposit")
    out: list[Task] = []
    task = KIT.adder(world, out)

    # Fund and buy (action across the bank and Hunchline; every persona).
    fund = sorted((x for x in ms if x.status == "open"), key=lambda x: (x.close, x.ticker))[-1]
    fund_shares = 25
    fund_price = fund.last_price
    need = -(-fund_shares * fund_price // 100) * 100  # whole currency units, rounded up
    task(
        "fund-and-buy",
        [APP, "bank"],
        kind="action",
        difficulty="hard",
        time_limit_seconds=600,
        instruction=f"Transfer {money(need, cur)} from my checking account to Hunchline and use it to buy "
        f"{fund_shares} YES shares of “{fund.question}”.",
        expected={"amount_cents": need, "ticker": fund.ticker, "side": "yes", "shares": fund_shares},
        rubric=[
            RubricItem(
                id="bank",
                weight=35,
                requirement=f"The bank moved {money(need, cur)} out of checking to Hunchline",
                check=kit.sql(
                    "bank",
                    "SELECT COUNT(*) FROM external_transfers WHERE app = ? AND direction = 'out' AND amount_cents = ?",
                    [APP, need],
                    [[1]],
                ),
            ),
            RubricItem(
                id="bought",
                weight=45,
                requirement=f"A new buy of {fund_shares} YES shares of {fund.ticker}",
                check=kit.sql(
                    APP,
                    "SELECT COALESCE(SUM(shares), 0) FROM activity WHERE world_ref IS NULL AND "
                    "kind = 'buy' AND ticker = ? AND side = 'yes'",
                    [fund.ticker],
                    [[fund_shares]],
                ),
            ),
            KIT.only(
                "Nothing else changed at Hunchline: only the deposit, that buy and its position",
                Change(table="activity", op="insert", min=2, max=2),
                *BUY_POSITION,
            ),
            effects.expect("bank-transfers", 1, 1, "Hunchline"),
        ],
    )

    # Net money in vs cash (aggregation across bank and Hunchline).
    if deposits:
        net = acc["deposits_cents"]
        task(
            "net-deposited",
            [APP, "bank"],
            kind="aggregation",
            difficulty="hard",
            time_limit_seconds=480,
            instruction="Adding up every transfer from my checking account to Hunchline since I opened the account, "
            "how much have I put in, and is my Hunchline cash now above or below that?",
            expected={
                "deposits_cents": net,
                "cash_cents": acc["cash_cents"],
                "direction": "above" if acc["cash_cents"] > net else "below",
            },
            rubric=[
                RubricItem(
                    id="total", weight=70, requirement=f"States the total {money(net, cur)}", check=kit.amount(net)
                ),
                RubricItem(
                    id="direction",
                    weight=30,
                    requirement=f"Says the cash ({money(acc['cash_cents'], cur)}) is "
                    f"{'above' if acc['cash_cents'] > net else 'below'} it",
                ),
            ],
        )
    return out


def deposit(task: Task, web: Web) -> str:
    """Checking -> Hunchline."""
    hunchline.transfer(web, "deposit", task.expected["amount_cents"])
    return f"Moved {hunchline.money_field(task.expected['amount_cents'])} into Hunchline."


def withdraw_winnings(task: Task, web: Web) -> str:
    """Hunchline -> checking."""
    hunchline.transfer(web, "withdraw", task.expected["amount_cents"])
    return f"Withdrew {hunchline.money_field(task.expected['amount_cents'])} to checking."


def winnings_to_index(task: Task, web: Web) -> str:
    """Hunchline -> checking -> Tidewell -> the fund."""
    from apps.brokerage import steps as tidewell

    exp = task.expected
    amount = hunchline.money_field(exp["amount_cents"])
    hunchline.transfer(web, "withdraw", exp["amount_cents"])
    tidewell.deposit(web, amount)
    tidewell.buy_for(web, exp["symbol"], amount)
    return f"Moved {amount} from Hunchline to checking, into Tidewell, and bought {exp['symbol']} with it."


def fund_and_buy(task: Task, web: Web) -> str:
    """Checking -> Hunchline, then the YES shares at the price the market page shows."""
    exp = task.expected
    hunchline.transfer(web, "deposit", exp["amount_cents"])
    price = hunchline.trade(web, exp["ticker"], "yes", "buy", exp["shares"])
    return (
        f"Moved {hunchline.money_field(exp['amount_cents'])} in and bought {exp['shares']} YES shares of "
        f"{exp['ticker']} at {price}¢."
    )


@reader("amount_cents", "day")
def read_deposit_reference(see: See, given: dict) -> Reading:
    """The checking line the question names, then the Hunchline deposit of that day and amount and its reference."""
    import datetime as dt

    day, cents = dt.date.fromisoformat(given["day"]), given["amount_cents"]
    checking = bankbook.account_of(see, "checking")
    line = [r for r in bankbook.lines(see, checking["id"], day, day, q="Hunchline") if r["cents"] == -cents]
    if len(line) != 1:
        raise Unreadable(f"checking shows {len(line)} transfers of {cents} cents to Hunchline on {day}")
    hit = [r for r in seen.activity(see, "deposit") if r["day"] == day and r["cents"] == cents]
    if len(hit) != 1:
        raise Unreadable(f"{len(hit)} Hunchline deposits of {cents} cents on {day}")
    return Reading(
        values={"reference": hit[0]["reference"]},
        steps=[
            f"{checking['name']}: {line[0]['day']} {line[0]['description']} {line[0]['amount']}",
            f"Hunchline Activity, Deposit: {hit[0]['when']} {hit[0]['amount']} has reference {hit[0]['reference']}",
        ],
    )


SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=deposit_lookups,
        after="cash-balance",
        readers={"deposited-this-year": seen.deposited_this_year, "deposit-reference": read_deposit_reference},
    ),
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=cash_moves,
        solvers={"deposit": deposit, "withdraw-winnings": withdraw_winnings, "winnings-to-index": winnings_to_index},
        after=("buy-shares", "total-payouts", "cash-balance"),
    ),
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=fund_tasks,
        solvers={"fund-and-buy": fund_and_buy},
        readers={"net-deposited": seen.net_deposited},
        after="market-odds",
    ),
]
