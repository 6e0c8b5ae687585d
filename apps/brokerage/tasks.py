"""Tidewell tasks derived from the world (builder/world/investing.py), each with its expected values and rubric.

Action checks read the end state of brokerage.sqlite (and the bank's for transfers). Rows the app writes have
``world_ref IS NULL``; seeded rows never do, so an agent that does nothing fails every action check. Query text is
fixed; every symbol, amount and name travels in ``params``. Prices "now" are the last close at or before the
world's now (the app's today), so every expected value is computed from the world.
"""

from __future__ import annotations

from builder.money import money
from builder.rng import rng
from builder.tasks.model import Check, RubricItem, Task
from builder.world import World, investing

from .seed import e4

APP = "brokerage"
BANK = "bank"


def _sql(app: str, query: str, params: list, expected: list[list]) -> Check:
    return Check(type="sql", app=app, query=" ".join(query.split()), params=list(params), expected=expected)


def _amount(cents: int) -> Check:
    return Check(type="answer_amount", cents=cents)


def _bank_line(amount_cents: int) -> Check:
    """One app-made bank line of ``amount_cents`` (signed, checking's view) with Tidewell."""
    return _sql(BANK, """SELECT COUNT(*) FROM transactions WHERE world_ref IS NULL AND kind = 'external_transfer'
                         AND counterparty = ? AND amount_cents = ?""", [investing.COUNTERPARTY, amount_cents], [[1]])


def tasks(world: World) -> list[Task]:
    """The Tidewell tasks of ``world`` in a fixed order (none when the persona has no Tidewell history)."""
    p = world.persona
    if not world.of_kind("brokerage_opening"):
        return []
    cur = world.currency
    pid = p.id
    today = world.now.date()
    book = investing.replay(world)
    done = [e for e in world.events if e.kind in investing.KINDS and e.status == "done"]
    out: list[Task] = []
    m = lambda c: money(c, cur)  # noqa: E731

    def task(slug: str, apps: list[str], **kw) -> None:
        out.append(Task(id=f"{pid}/{APP}/{slug}", persona=pid, apps_involved=apps, **kw))

    # 1. What the account is worth now.
    value = investing.account_value_cents(world, today, book)
    task("portfolio-value", [APP], kind="lookup", difficulty="easy", time_limit_seconds=180,
         instruction="What is my Tidewell account worth right now, cash included?",
         expected={"value_cents": value},
         rubric=[RubricItem(id="value", weight=100, requirement=f"States the account value {m(value)}", check=_amount(value))])

    # 2. Recurring investment taken out of checking this year (bank + broker).
    year = today.year
    recurring = [e for e in done if e.kind == "brokerage_transfer" and e.data["recurring"] and e.at.year == year]
    total = sum(e.data["amount_cents"] for e in recurring)
    task("recurring-this-year", [APP, BANK], kind="aggregation", difficulty="medium", time_limit_seconds=420,
         instruction=f"How much has my monthly automatic investment into Tidewell taken out of my checking account so far in {year}?",
         expected={"total_cents": total, "transfers": len(recurring)},
         rubric=[RubricItem(id="total", weight=80, requirement=f"States {m(total)} in total", check=_amount(total)),
                 RubricItem(id="count", weight=20, requirement=f"Says it was {len(recurring)} monthly transfers",
                            check=Check(type="answer_text", any_of=[str(len(recurring))]))])

    # 3. Dividends received this year.
    divs = [e for e in done if e.kind == "brokerage_dividend" and e.data["tax_year"] == year]
    div_total = sum(e.data["amount_cents"] for e in divs)
    top = max(divs, key=lambda e: (e.data["amount_cents"], e.at)) if divs else None
    rubric = [RubricItem(id="total", weight=70, requirement=f"States {m(div_total)} of dividends", check=_amount(div_total))]
    rubric.append(RubricItem(id="top", weight=30, requirement=f"Names {top.data['symbol'] if top else 'none'} as the largest single dividend",
                             check=Check(type="answer_text", any_of=[top.data["symbol"] if top else "none"])))
    task("dividends-this-year", [APP], kind="aggregation", difficulty="medium", time_limit_seconds=420,
         instruction=f"How much have I received in dividends at Tidewell in {year}, and which holding paid the largest single dividend?",
         expected={"total_cents": div_total, "top_symbol": top.data["symbol"] if top else None}, rubric=rubric)

    # 4. The last transfer to Tidewell as the bank shows it (bank + broker).
    ins = [e for e in done if e.kind == "brokerage_transfer" and e.data["direction"] == "in"]
    if not ins or not book.shares:
        return out  # an account the persona never funds or holds nothing in: the lookups only
    last_in = ins[-1]
    day = last_in.at.date()
    task("last-transfer", [APP, BANK], kind="lookup", difficulty="easy", time_limit_seconds=300,
         instruction="When did money last leave my checking account for Tidewell, and how much was it?",
         expected={"date": day.isoformat(), "amount_cents": last_in.data["amount_cents"]},
         rubric=[RubricItem(id="amount", weight=50, requirement=f"States {m(last_in.data['amount_cents'])}",
                            check=_amount(last_in.data["amount_cents"])),
                 RubricItem(id="date", weight=50, requirement=f"Names {day.isoformat()}",
                            check=Check(type="answer_text", any_of=[day.isoformat(), f"{day:%B} {day.day}", f"{day.day} {day:%B}",
                                                                    f"{day.day}. {day:%B}", f"{day:%b} {day.day}"]))])

    # 5. Action: move money from checking and buy more of the recurring fund (bank + broker).
    r = rng(world.seed, "brokerage/tasks")
    fund = next((e.data["symbol"] for e in reversed(done) if e.kind == "brokerage_trade" and e.data["recurring"]),
                sorted(book.shares)[0])
    amount = 50000
    fund_name = investing.security(world, fund)["name"]
    price = investing.close_on(world, fund, today)
    shares = amount * 10000 // price
    task("deposit-and-buy", [APP, BANK], kind="action", difficulty="medium", time_limit_seconds=600,
         instruction=f"Move {m(amount)} from my checking account into Tidewell and invest all of it in {fund_name} ({fund}).",
         expected={"amount_cents": amount, "symbol": fund, "price_cents": price, "shares_e4_at_most": shares},
         rubric=[RubricItem(id="deposit", weight=30, requirement=f"A {m(amount)} deposit from the bank is in Tidewell",
                            check=_sql(APP, "SELECT COUNT(*) FROM transfers WHERE world_ref IS NULL AND direction = 'deposit' AND amount_cents = ?",
                                       [amount], [[1]])),
                 RubricItem(id="bank", weight=30, requirement=f"Checking shows the {m(amount)} transfer to Tidewell",
                            check=_bank_line(-amount)),
                 RubricItem(id="buy", weight=40, requirement=f"A filled buy of {fund} for between {m(amount - price)} and {m(amount)}",
                            check=_sql(APP, """SELECT COUNT(*) FROM orders WHERE world_ref IS NULL AND side = 'buy' AND status = 'filled'
                                               AND symbol = ? AND amount_cents BETWEEN ? AND ?""", [fund, amount - price, amount], [[1]]))])

    # 6. Action: withdraw the cash above a cushion (bank + broker).
    cushion = 10000
    withdraw = max(0, book.cash_cents - cushion) // 100 * 100
    if withdraw > 0:
        task("withdraw-cash", [APP, BANK], kind="action", difficulty="medium", time_limit_seconds=480,
             instruction=f"Send my uninvested Tidewell cash back to my checking account, keeping {m(cushion)} there "
                         f"(round the transfer down to whole {'euros' if cur == 'EUR' else 'pounds' if cur == 'GBP' else 'dollars'}).",
             expected={"amount_cents": withdraw, "cash_cents": book.cash_cents},
             rubric=[RubricItem(id="withdrawal", weight=50, requirement=f"A withdrawal of {m(withdraw)} in Tidewell",
                                check=_sql(APP, "SELECT COUNT(*) FROM transfers WHERE world_ref IS NULL AND direction = 'withdrawal' AND amount_cents = ?",
                                           [withdraw], [[1]])),
                     RubricItem(id="bank", weight=50, requirement=f"Checking shows {m(withdraw)} from Tidewell", check=_bank_line(withdraw))])

    # 7. Action: a limit buy below the market on a watched symbol.
    watched = sorted(e.data["symbol"] for e in done if e.kind == "brokerage_watch")
    target = watched[r.randrange(len(watched))] if watched else fund
    tprice = investing.close_on(world, target, today)
    lo, hi = tprice * 93 // 100, tprice * 95 // 100 + 1
    qty = 5
    task("limit-buy", [APP], kind="action", difficulty="medium", time_limit_seconds=420,
         instruction=f"Put in a limit order to buy {qty} shares of {target} at about 5% below its current price; don't buy at today's price.",
         expected={"symbol": target, "price_cents": tprice, "limit_between_cents": [lo, hi], "shares": qty},
         rubric=[RubricItem(id="open", weight=70, requirement=f"An open limit buy of {qty} {target} with a limit between {m(lo)} and {m(hi)}",
                            check=_sql(APP, """SELECT COUNT(*) FROM orders WHERE world_ref IS NULL AND side = 'buy' AND order_type = 'limit'
                                               AND status = 'open' AND symbol = ? AND shares_e4 = ? AND limit_cents BETWEEN ? AND ?""",
                                       [target, qty * 10000, lo, hi], [[1]])),
                 RubricItem(id="not-filled", weight=30, requirement=f"No {target} bought at market by the agent",
                            check=_sql(APP, """SELECT COUNT(*) = 0 AND (SELECT COUNT(*) FROM orders WHERE world_ref IS NULL) > 0 FROM orders
                                               WHERE world_ref IS NULL AND side = 'buy' AND status = 'filled' AND symbol = ?""",
                                       [target], [[1]]))])

    # 8. Action: sell the whole position with the biggest loss (or smallest gain).
    def gain(s: str) -> int:
        return investing.amount_of(book.shares[s], investing.close_on(world, s, today)) - book.cost_cents[s]

    loser = min(sorted(book.shares), key=gain)
    task("sell-worst", [APP], kind="action", difficulty="hard", time_limit_seconds=600,
         instruction="Sell my entire position in whichever Tidewell holding is doing worst against what I paid for it (in money, not percent).",
         expected={"symbol": loser, "gain_cents": gain(loser), "shares_e4": e4(book.shares[loser])},
         rubric=[RubricItem(id="sold", weight=60, requirement=f"A filled sell of all {book.shares[loser].normalize()} {loser}",
                            check=_sql(APP, """SELECT COUNT(*) FROM orders WHERE world_ref IS NULL AND side = 'sell' AND status = 'filled'
                                               AND symbol = ? AND shares_e4 = ?""", [loser, e4(book.shares[loser])], [[1]])),
                 RubricItem(id="gone", weight=40, requirement=f"No {loser} left in the holdings",
                            check=_sql(APP, """SELECT COUNT(*) FROM holdings WHERE symbol = ?""", [loser], [[0]]))])

    # 9. Action: swap a watchlist entry.
    if watched:
        drop = watched[0]
        held = set(book.shares) | set(watched)
        pool = sorted(s["symbol"] for s in investing.universe(world) if s["symbol"] not in held and s["class"] == "stock")
        add = pool[r.randrange(len(pool))] if pool else None
        if add:
            sec = investing.security(world, add)
            task("watchlist-swap", [APP], kind="action", difficulty="easy", time_limit_seconds=300,
                 instruction=f"Take {drop} off my Tidewell watchlist and add {sec['name']} instead.",
                 expected={"remove": drop, "add": add},
                 rubric=[RubricItem(id="added", weight=50, requirement=f"{add} is on the watchlist",
                                    check=_sql(APP, "SELECT COUNT(*) FROM watchlist WHERE world_ref IS NULL AND symbol = ?", [add], [[1]])),
                         RubricItem(id="removed", weight=50, requirement=f"{drop} is no longer on the watchlist",
                                    check=_sql(APP, """SELECT COUNT(*) = 0 AND (SELECT COUNT(*) FROM watchlist WHERE world_ref IS NULL) > 0
                                                       FROM watchlist WHERE symbol = ?""", [drop], [[1]]))])
    return out
