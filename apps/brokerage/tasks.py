"""Tidewell tasks derived from the world (its brokerage account, read through :mod:`builder.world`), each with its
expected values and rubric.

Action checks read the end state of brokerage.sqlite (the tasks that move money to and from the bank are in
scenarios/transfers/). Rows the app writes have ``world_ref IS NULL``; seeded rows never do, so an agent that does
nothing fails every action check. Query text is fixed; every symbol, amount and name travels in ``params``. Prices "now" are the last close at or before the
world's now (the app's today), so every expected value is computed from the world.
"""

from __future__ import annotations

from builder.money import money, to_unit
from builder.rng import rng
from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.reference.securities import amount_of
from builder.world import (
    INVESTING_KINDS,
    BrokerageBook,
    World,
    brokerage_book,
    brokerage_value_cents,
    closing_price,
    price_history,
    securities,
    security,
)

from .seed import e4

APP = "brokerage"
KIT = kit.Kit(APP)


def in_use(world: World) -> bool:
    """Whether the persona has a Tidewell account they fund and hold shares in: otherwise Tidewell's tasks are the
    lookups only, and the scenarios homed there have none."""
    if not world.of_kind("brokerage_opening"):
        return False
    ins = [e for e in world.of_kind("brokerage_transfer") if e.status == "done" and e.data["direction"] == "in"]
    return bool(ins) and bool(brokerage_book(world).shares)


def settled(world: World) -> list:
    """The world's Tidewell events (:data:`builder.world.INVESTING_KINDS`) that are done, in order."""
    return [e for e in world.events if e.kind in INVESTING_KINDS and e.status == "done"]


def recurring_fund(done: list, book: BrokerageBook) -> str:
    """The symbol the automatic investment last bought (of ``done``, :func:`settled`), else the first one held."""
    return next(
        (e.data["symbol"] for e in reversed(done) if e.kind == "brokerage_trade" and e.data["recurring"]),
        sorted(book.shares)[0],
    )


def tasks(world: World) -> list[Task]:
    """The Tidewell tasks of ``world`` in a fixed order (none when the persona has no Tidewell history)."""
    if not world.of_kind("brokerage_opening"):
        return []
    cur = world.currency
    today = world.now.date()
    book = brokerage_book(world)
    done = settled(world)
    out: list[Task] = []
    m = lambda c: money(c, cur)  # noqa: E731

    task = KIT.adder(world, out)

    # 1. What the account is worth now: the overview's headline, the exact sum written in the currency's unit.
    value = to_unit(brokerage_value_cents(world, today, book), cur)
    task(
        "portfolio-value",
        [APP],
        kind="lookup",
        difficulty="easy",
        time_limit_seconds=180,
        instruction="What is my Tidewell account worth right now, cash included?",
        expected={"value_cents": value},
        rubric=[
            RubricItem(
                id="value", weight=100, requirement=f"States the account value {m(value)}", check=kit.amount(value)
            )
        ],
    )

    # 2. The automatic investment out of checking this year: scenarios/transfers/brokerage.py.
    year = today.year

    # 3. Dividends received this year.
    divs = [e for e in done if e.kind == "brokerage_dividend" and e.data["tax_year"] == year]
    div_total = sum(e.data["amount_cents"] for e in divs)
    top = max(divs, key=lambda e: (e.data["amount_cents"], e.at)) if divs else None
    rubric = [
        RubricItem(
            id="total", weight=70, requirement=f"States {m(div_total)} of dividends", check=kit.amount(div_total)
        )
    ]
    rubric.append(
        RubricItem(
            id="top",
            weight=30,
            requirement=f"Names {top.data['symbol'] if top else 'none'} as the largest single dividend",
            check=Check(type="answer_text", any_of=[top.data["symbol"] if top else "none"]),
        )
    )
    task(
        "dividends-this-year",
        [APP],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"How much have I received in dividends at Tidewell in {year}, and which holding paid the largest single dividend?",
        expected={"year": year, "total_cents": div_total, "top_symbol": top.data["symbol"] if top else None},
        rubric=rubric,
    )

    if not in_use(world):
        return out  # an account the persona never funds or holds nothing in: the lookups only
    # 4.-6. The last transfer from the bank, deposit-and-buy and withdraw-cash: scenarios/transfers/brokerage.py.
    r = rng(world.seed, "brokerage/tasks")
    fund = recurring_fund(done, book)

    # 7. Action: a limit buy below the market on a watched symbol, kept in until cancelled (good 'til canceled: a day
    # order would lapse after today's session).
    watched = sorted(e.data["symbol"] for e in done if e.kind == "brokerage_watch")
    target = watched[r.randrange(len(watched))] if watched else fund
    tprice = closing_price(world, target, today)
    lo, hi = tprice * 93 // 100, tprice * 95 // 100 + 1
    qty = 5
    task(
        "limit-buy",
        [APP],
        kind="action",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=(
            f"Put in a limit order to buy {qty} shares of {target} at about 5% below its current price, and keep it "
            "in until I cancel it rather than just for today; don't buy at today's price."
        ),
        expected={
            "symbol": target,
            "price_cents": tprice,
            "limit_between_cents": [lo, hi],
            "shares": qty,
            "time_in_force": "gtc",
        },
        rubric=[
            RubricItem(
                id="open",
                weight=40,
                requirement=f"An open limit buy of {qty} {target} with a limit between {m(lo)} and {m(hi)}",
                check=kit.sql(
                    APP,
                    """SELECT COUNT(*) FROM orders WHERE world_ref IS NULL AND side = 'buy' AND order_type = 'limit'
                                               AND status = 'open' AND symbol = ? AND shares_e4 = ? AND limit_cents BETWEEN ? AND ?""",
                    [target, qty * 10000, lo, hi],
                    [[1]],
                ),
            ),
            RubricItem(
                id="gtc",
                weight=15,
                requirement="The order is good 'til canceled, not a day order",
                check=kit.sql(
                    APP,
                    """SELECT COUNT(*) FROM orders WHERE world_ref IS NULL AND side = 'buy' AND order_type = 'limit'
                                               AND status = 'open' AND symbol = ? AND time_in_force = 'gtc'""",
                    [target],
                    [[1]],
                ),
            ),
            RubricItem(
                id="not-filled",
                weight=30,
                requirement=f"No {target} bought at market by the agent",
                check=kit.sql(
                    APP,
                    """SELECT COUNT(*) = 0 AND (SELECT COUNT(*) FROM orders WHERE world_ref IS NULL) > 0 FROM orders
                                               WHERE world_ref IS NULL AND side = 'buy' AND status = 'filled' AND symbol = ?""",
                    [target],
                    [[1]],
                ),
            ),
            KIT.only(
                "Nothing else changed at Tidewell: only the open limit order",
                Change(table="orders", op="insert", min=1, max=1),
            ),
        ],
    )

    # 8. Action: sell the whole position with the biggest loss (or smallest gain).
    def gain(s: str) -> int:
        return amount_of(book.shares[s], closing_price(world, s, today)) - book.cost_cents[s]

    loser = min(sorted(book.shares), key=gain)
    task(
        "sell-worst",
        [APP],
        kind="action",
        difficulty="hard",
        time_limit_seconds=600,
        instruction="Sell my entire position in whichever Tidewell holding is doing worst against what I paid for it (in money, not percent).",
        expected={"symbol": loser, "gain_cents": gain(loser), "shares_e4": e4(book.shares[loser])},
        rubric=[
            RubricItem(
                id="sold",
                weight=45,
                requirement=f"A filled sell of all {book.shares[loser].normalize()} {loser}",
                check=kit.sql(
                    APP,
                    """SELECT COUNT(*) FROM orders WHERE world_ref IS NULL AND side = 'sell' AND status = 'filled'
                                               AND symbol = ? AND shares_e4 = ?""",
                    [loser, e4(book.shares[loser])],
                    [[1]],
                ),
            ),
            RubricItem(
                id="gone",
                weight=40,
                requirement=f"No {loser} left in the holdings",
                check=kit.sql(APP, """SELECT COUNT(*) FROM holdings WHERE symbol = ?""", [loser], [[0]]),
            ),
            KIT.only(
                f"Nothing else changed at Tidewell: only the {loser} sale",
                Change(table="orders", op="insert", min=1, max=1),
                Change(table="cash_ledger", op="insert", min=1, max=1),
                Change(table="holdings", op="delete", min=1, max=1),
            ),
        ],
    )

    # 9. Action: swap a watchlist entry.
    if watched:
        drop = watched[0]
        held = set(book.shares) | set(watched)
        pool = sorted(s["symbol"] for s in securities(world) if s["symbol"] not in held and s["class"] == "stock")
        add = pool[r.randrange(len(pool))] if pool else None
        if add:
            sec = security(world, add)
            task(
                "watchlist-swap",
                [APP],
                kind="action",
                difficulty="easy",
                time_limit_seconds=300,
                instruction=f"Take {drop} off my Tidewell watchlist and add {sec['name']} instead.",
                expected={"remove": drop, "add": add},
                rubric=[
                    RubricItem(
                        id="added",
                        weight=45,
                        requirement=f"{add} is on the watchlist",
                        check=kit.sql(
                            APP, "SELECT COUNT(*) FROM watchlist WHERE world_ref IS NULL AND symbol = ?", [add], [[1]]
                        ),
                    ),
                    RubricItem(
                        id="removed",
                        weight=40,
                        requirement=f"{drop} is no longer on the watchlist",
                        check=kit.sql(
                            APP,
                            """SELECT COUNT(*) = 0 AND (SELECT COUNT(*) FROM watchlist WHERE world_ref IS NULL) > 0
                                                       FROM watchlist WHERE symbol = ?""",
                            [drop],
                            [[1]],
                        ),
                    ),
                    KIT.only(
                        "Nothing else changed at Tidewell: only the two watchlist entries",
                        Change(table="watchlist", op="insert", min=1, max=1),
                        Change(table="watchlist", op="delete", min=1, max=1),
                    ),
                ],
            )
    out.extend(insight_tasks(world))
    return out


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """Tidewell's counterfactual task: had the largest holding been sold at its close on the first trading day three
    months ago, what it would have fetched against its value at today's close. None without holdings."""
    import datetime as dt

    from builder.tasks import answers as A
    from builder.tasks.phrasing import day_phrase

    p = world.persona
    if not world.of_kind("brokerage_opening"):
        return []
    pid, cur, today = p.id, world.currency, world.now.date()
    book = brokerage_book(world)
    then_day = (
        next(
            (
                d
                for d, _ in price_history(world, next(iter(book.shares), "")) or []
                if d >= today - dt.timedelta(days=91)
            ),
            None,
        )
        if book.shares
        else None
    )
    out: list[Task] = []
    year = today.year
    buys = [
        e
        for e in world.of_kind("brokerage_trade")
        if e.status == "done" and e.data["recurring"] and e.data["side"] == "buy" and e.at.year == year
    ]
    if buys:
        from decimal import Decimal

        paid = sum(e.data["amount_cents"] for e in buys)
        # Each purchase valued as Tidewell values a holding (to the currency's unit: whole yen where it has none).
        worth = sum(
            amount_of(Decimal(e.data["shares"]), closing_price(world, e.data["symbol"], today) or 0, cur) for e in buys
        )
        out.append(
            Task(
                id=f"{pid}/brokerage/cf-no-recurring",
                persona=pid,
                apps_involved=["brokerage"],
                kind="aggregation",
                category="counterfactual",
                difficulty="hard",
                time_limit_seconds=600,
                instruction=f"Had I paused my automatic monthly investment for all of {year} and kept the money "
                "as cash instead, would I be better or worse off today, and by how much? Value each "
                f"automatic purchase of {year} at today's closing price against what it cost.",
                expected={
                    "year": year,
                    "buys": len(buys),
                    "paid_cents": paid,
                    "worth_cents": worth,
                    "gain_cents": worth - paid,
                },
                rubric=[
                    RubricItem(
                        id="gain",
                        weight=60,
                        requirement=f"States {money(abs(worth - paid), cur)}",
                        check=A.amount(worth - paid),
                    ),
                    RubricItem(
                        id="paid", weight=20, requirement=f"States {money(paid, cur)} invested", check=A.amount(paid)
                    ),
                    RubricItem(
                        id="worth",
                        weight=20,
                        requirement=f"States {money(worth, cur)} worth today",
                        check=A.amount(worth),
                    ),
                ],
            )
        )
    if not then_day:
        return out
    held_then = brokerage_book(world, dt.datetime.combine(then_day, dt.time(0, 0)))
    rows = []
    for sym, n in sorted(book.shares.items()):
        if held_then.shares.get(sym) != n:
            continue  # the holding changed since: the question needs the same shares then and now
        then, now = closing_price(world, sym, then_day), closing_price(world, sym, today)
        if then and now:
            rows.append((amount_of(n, now, cur), sym, n, amount_of(n, then, cur)))  # as the pages show them
    if not rows:
        return out
    value_now, sym, n, value_then = max(rows)
    name = security(world, sym)["name"]
    return out + [
        Task(
            id=f"{pid}/brokerage/cf-sold-earlier",
            persona=pid,
            apps_involved=["brokerage"],
            kind="aggregation",
            category="counterfactual",
            difficulty="hard",
            time_limit_seconds=600,
            instruction=f"Had I sold all my {name} ({sym}) shares at the closing price {day_phrase(then_day, today)}, "
            "how much would I have got for them, what are they worth at today's price, and would I be "
            "better or worse off for having sold?",
            expected={
                "symbol": sym,
                "shares": str(n),
                "day": then_day.isoformat(),
                "then_cents": value_then,
                "now_cents": value_now,
                "difference_cents": value_then - value_now,
            },
            rubric=[
                RubricItem(
                    id="then", weight=40, requirement=f"States {money(value_then, cur)}", check=A.amount(value_then)
                ),
                RubricItem(
                    id="now", weight=30, requirement=f"States {money(value_now, cur)}", check=A.amount(value_now)
                ),
                RubricItem(
                    id="difference",
                    weight=30,
                    requirement=f"States the difference {money(abs(value_then - value_now), cur)}",
                    check=A.amount(value_then - value_now),
                ),
            ],
        )
    ]
