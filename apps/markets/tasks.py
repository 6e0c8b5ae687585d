"""Hunchline tasks derived from the world, each with its expected values and rubric.

Action checks read the end state of ``markets.sqlite`` (rows the app writes have ``world_ref IS NULL``; seeded
rows never do, so doing nothing scores 0); the tasks that move money through the bank, checked in the bank's
``external_transfers`` too, are in scenarios/transfers/markets.py. Check queries are fixed SQL with ``?`` placeholders; every
ticker, side and amount travels in ``params``. Tasks that need the world's trading history (a payout, a deposit)
exist only for a persona with an account in the world (builder.world.forecasts.has_account).
"""

from __future__ import annotations

from builder.money import money
from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World, forecasts

APP = "markets"
KIT = kit.Kit(APP)


# A buy opens a position or adds to the one held.
BUY_POSITION = (
    Change(table="positions", op="insert", min=0, max=1),
    Change(table="positions", op="update", min=0, max=1, columns=["shares", "cost_cents"]),
)


def _buy_target(world: World) -> tuple[forecasts.Market, str, int]:
    """An open market on the watchlist (else the open market closing last), the side the crowd favours, and a
    share count whose cost fits the world's cash (at least 1)."""
    ms = forecasts.markets(world.persona, world.start, world.now)
    acc = forecasts.account(world)
    open_ = [m for m in ms if m.status == "open"]
    watched = [m for m in open_ if m.ticker in acc["watchlist"]]
    m = (watched or sorted(open_, key=lambda m: (m.close, m.ticker), reverse=True))[0]
    side = "yes" if m.last_price >= 50 else "no"
    price = m.last_price if side == "yes" else 100 - m.last_price
    shares = max(1, min(20, acc["cash_cents"] // 2 // price)) if acc["cash_cents"] >= price else 0
    return m, side, shares


def tasks(world: World) -> list[Task]:
    """Return the Hunchline tasks of ``world`` (at least 8 for a persona with an account), in a fixed order."""
    p = world.persona
    cur = world.currency
    out: list[Task] = []
    ms = forecasts.markets(p, world.start, world.now)
    by = {m.ticker: m for m in ms}
    acc = forecasts.account(world)

    task = KIT.adder(world, out)

    # 1. Cash balance (lookup).
    task(
        "cash-balance",
        [APP],
        kind="lookup",
        difficulty="easy",
        time_limit_seconds=180,
        instruction="How much cash do I have sitting in my Hunchline account right now?",
        expected={"cash_cents": acc["cash_cents"]},
        rubric=[
            RubricItem(
                id="cash",
                weight=100,
                requirement=f"States the cash balance {money(acc['cash_cents'], cur)}",
                check=kit.amount(acc["cash_cents"]),
            )
        ],
    )

    # 2.-3. The deposits from the bank this year and a deposit's reference: scenarios/transfers/markets.py.
    payouts = world.of_kind("forecast_payout")
    if payouts:
        # 4. What a resolved market paid (lookup).
        best = max(payouts, key=lambda e: (e.data["amount_cents"], e.at))
        m = by[best.data["ticker"]]
        task(
            "market-payout",
            [APP],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"What did I win on the Hunchline market “{m.question}”, and how many shares paid out?",
            expected={
                "payout_cents": best.data["amount_cents"],
                "shares": best.data["shares"],
                "ticker": m.ticker,
                "question": m.question,
            },
            rubric=[
                RubricItem(
                    id="payout",
                    weight=70,
                    requirement=f"States the payout {money(best.data['amount_cents'], cur)}",
                    check=kit.amount(best.data["amount_cents"]),
                ),
                RubricItem(id="shares", weight=30, requirement=f"Says {best.data['shares']} shares paid out"),
            ],
        )
        # 5. Total won (aggregation).
        won = sum(e.data["amount_cents"] for e in payouts)
        task(
            "total-payouts",
            [APP],
            kind="aggregation",
            difficulty="medium",
            time_limit_seconds=420,
            instruction="Across all the Hunchline markets that have resolved, how much have I been paid out in total?",
            expected={"payout_cents": won, "markets": len(payouts)},
            rubric=[
                RubricItem(
                    id="total", weight=100, requirement=f"States the total {money(won, cur)}", check=kit.amount(won)
                )
            ],
        )

    # 6. Buy shares of a watched market (action).
    m, side, shares = _buy_target(world)
    if shares:
        side_word = side.upper()
        task(
            "buy-shares",
            [APP],
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"On Hunchline, buy {shares} {side_word} shares of the market “{m.question}”.",
            expected={"ticker": m.ticker, "side": side, "shares": shares},
            rubric=[
                RubricItem(
                    id="bought",
                    weight=85,
                    requirement=f"One new buy of {shares} {side_word} shares of {m.ticker}",
                    check=kit.sql(
                        APP,
                        "SELECT COUNT(*), COALESCE(SUM(shares), 0) FROM activity WHERE world_ref IS "
                        "NULL AND kind = 'buy' AND ticker = ? AND side = ?",
                        [m.ticker, side],
                        [[1, shares]],
                    ),
                ),
                KIT.only(
                    "Nothing else changed at Hunchline: only that buy and its position",
                    Change(table="activity", op="insert", min=1, max=1),
                    *BUY_POSITION,
                ),
            ],
        )

    # 7.-8. Deposit from checking, withdraw the winnings (and invest them at Tidewell): scenarios/transfers/markets.py.

    # 9. Sell a whole open position (action).
    live = [(k, n) for k, n in acc["positions"].items() if by[k[0]].status == "open"]
    if live:
        (ticker, side), n = max(live, key=lambda kv: (kv[1], kv[0]))
        mk = by[ticker]
        task(
            "sell-position",
            [APP],
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Sell all of my {side.upper()} shares in the Hunchline market “{mk.question}”.",
            expected={"ticker": ticker, "side": side, "shares": n},
            rubric=[
                RubricItem(
                    id="sold",
                    weight=45,
                    requirement=f"A new sale of {n} {side.upper()} shares of {ticker}",
                    check=kit.sql(
                        APP,
                        "SELECT COALESCE(SUM(shares), 0) FROM activity WHERE world_ref IS NULL AND "
                        "kind = 'sell' AND ticker = ? AND side = ?",
                        [ticker, side],
                        [[n]],
                    ),
                ),
                RubricItem(
                    id="flat",
                    weight=40,
                    requirement="No shares of that side are left",
                    check=kit.sql(
                        APP,
                        "SELECT shares FROM positions WHERE ticker = ? AND side = ? AND shares = 0 "
                        "AND EXISTS (SELECT 1 FROM activity WHERE world_ref IS NULL AND kind = 'sell' "
                        "AND ticker = ?)",
                        [ticker, side, ticker],
                        [[0]],
                    ),
                ),
                KIT.only(
                    "Nothing else changed at Hunchline: only that sale and its position",
                    Change(table="activity", op="insert", min=1),
                    Change(
                        table="positions", op="update", min=1, max=1, columns=["shares", "cost_cents", "realized_cents"]
                    ),
                ),
            ],
        )

    # 10. Watch the snow (or the local) market (action, with the calendar of one's city).
    local = [x for x in ms if x.status == "open" and x.local and x.ticker not in acc["watchlist"]]
    if local:
        w = local[0]
        task(
            "watch-local",
            [APP],
            kind="action",
            difficulty="easy",
            time_limit_seconds=240,
            instruction=f"Put the Hunchline market “{w.question}” on my watchlist.",
            expected={"ticker": w.ticker},
            rubric=[
                RubricItem(
                    id="watched",
                    weight=85,
                    requirement=f"{w.ticker} is on the watchlist, added by the agent",
                    check=kit.sql(
                        APP, "SELECT COUNT(*) FROM watchlist WHERE world_ref IS NULL AND ticker = ?", [w.ticker], [[1]]
                    ),
                ),
                KIT.only(
                    "Nothing else changed at Hunchline: only the new watchlist entry",
                    Change(table="watchlist", op="insert", min=1, max=1),
                ),
            ],
        )

    # 12. The market's current odds (lookup; every persona).
    odds = sorted((x for x in ms if x.status == "open"), key=lambda x: (x.close, x.ticker))[0]
    pc = odds.last_price
    task(
        "market-odds",
        [APP],
        kind="lookup",
        difficulty="easy",
        time_limit_seconds=240,
        instruction=f"What chance does Hunchline currently give the market “{odds.question}”, and what does one NO "
        "share cost?",
        expected={"ticker": odds.ticker, "question": odds.question, "yes_cents": pc, "no_cents": 100 - pc},
        rubric=[
            RubricItem(
                id="chance",
                weight=60,
                requirement=f"States a {pc}% chance (YES at {pc}¢)",
                check=Check(type="answer_text", any_of=[f"{pc}%", f"{pc} %", f"{pc}¢", f"{pc} cents"]),
            ),
            RubricItem(
                id="no",
                weight=40,
                requirement=f"States that a NO share costs {100 - pc}¢",
                check=Check(
                    type="answer_text",
                    any_of=[f"{100 - pc}¢", f"{100 - pc} cents", f"0.{100 - pc:02d}", f"0,{100 - pc:02d}"],
                ),
            ),
        ],
    )

    # 13., 11. Fund and buy, the net money put in: scenarios/transfers/markets.py.
    out.extend(insight_tasks(world))
    return out


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """Hunchline's counterfactual task: what the persona's shares in a resolved market would have paid had it
    resolved the other way. None without such a position."""
    from builder.tasks import answers as A

    p = world.persona
    by = {m.ticker: m for m in forecasts.markets(p, world.start, world.now)}
    pos: dict[tuple[str, str], int] = {}
    for e in world.of_kind("forecast_trade"):
        if e.status == "done":
            k = (e.data["ticker"], e.data["side"])
            pos[k] = pos.get(k, 0) + (e.data["shares"] if e.data["action"] == "buy" else -e.data["shares"])
    rows = []
    for ticker, m in sorted(by.items()):
        if m.status != "resolved" or m.outcome not in ("yes", "no"):
            continue
        other = "no" if m.outcome == "yes" else "yes"
        actual, would = pos.get((ticker, m.outcome), 0), pos.get((ticker, other), 0)
        if actual or would:
            rows.append((would, actual, ticker, m, other))
    rows = [r for r in rows if r[0] > 0] or rows
    if not rows:
        return []
    would, actual, ticker, m, other = max(rows, key=lambda r: (r[0], r[1], r[2]))
    pay, got = would * forecasts.SHARE_PAYS_CENTS, actual * forecasts.SHARE_PAYS_CENTS
    cur = world.currency
    return [
        Task(
            id=f"{p.id}/markets/cf-other-outcome",
            persona=p.id,
            apps_involved=["markets"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"The Hunchline market “{m.question}” resolved {m.outcome.upper()}. Had it resolved "
            f"{other.upper()} instead, what would my shares in it have paid out, and what did they "
            "actually pay?",
            expected={
                "ticker": ticker,
                "question": m.question,
                "outcome": m.outcome,
                "other_shares": would,
                "payout_if_cents": pay,
                "payout_cents": got,
            },
            rubric=[
                RubricItem(id="would", weight=60, requirement=f"States {money(pay, cur)}", check=A.amount(pay)),
                RubricItem(
                    id="actual", weight=40, requirement=f"States {money(got, cur)} actually paid", check=A.amount(got)
                ),
            ],
        )
    ]
