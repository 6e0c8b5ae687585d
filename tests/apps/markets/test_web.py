"""Hunchline (apps/markets) end to end: the production site on copies of the seeded databases.

Expected values come from the *world* (builder.world.forecasts: the markets, the persona's deposits, trades,
payouts and watchlist), never from the app's database. The site is served with its clock at the world's now.
After the browser run the test reads what the app left behind: the new buy and the deposit in markets.sqlite,
and the same deposit as an ACH line in the bank (``external_transfers`` and ``transactions``).
"""

from __future__ import annotations

import hashlib
import sqlite3

from builder.world import forecasts

from tests.app_e2e import Served, run_e2e

HOST = "hunchline.test"


def world_facts(world) -> dict:
    """Every value the browser tests expect, from the world."""
    from apps.markets.seed import credentials, positions

    ms = forecasts.markets(world.persona, world.start, world.now)
    by = {m.ticker: m for m in ms}
    acc = forecasts.account(world)
    today = world.now.date()
    pos = positions(world)
    live = []
    for (ticker, side), p in pos.items():
        m = by[ticker]
        if p["settled"] or p["shares"] == 0:
            continue
        price = m.last_price if side == "yes" else 100 - m.last_price
        value = p["shares"] * price
        live.append(
            {
                "ticker": ticker,
                "side": side,
                "shares": str(p["shares"]),
                "cost": str(p["cost_cents"]),
                "value": str(value),
                "pnl": str(p["realized_cents"] + value - p["cost_cents"]),
            }
        )
    open_ = [m for m in ms if m.status == "open"]
    # What to buy: the open market closing last, its cheaper side, shares that fit a third of the cash.
    target = sorted(open_, key=lambda m: (m.close, m.ticker))[-1]
    side = "yes" if target.last_price <= 50 else "no"
    price = target.last_price if side == "yes" else 100 - target.last_price
    shares = max(1, acc["cash_cents"] // 3 // price)
    closed = next(m for m in ms if m.status == "closed")
    payouts = world.of_kind("forecast_payout")
    best = max(payouts, key=lambda e: (e.data["amount_cents"], e.at))
    cats = {}
    for m in ms:
        cats[m.category] = cats.get(m.category, 0) + 1
    city = world.persona.identity.address.city
    creds = credentials(world)
    return {
        "username": creds["username"],
        "password": creds["password"],
        "session_token": creds["session_token"],
        "first_name": world.persona.identity.name.split()[0],
        "today": today.isoformat(),
        "cash_cents": acc["cash_cents"],
        "deposits_cents": acc["deposits_cents"],
        "open_tickers": [m.ticker for m in sorted(open_, key=lambda m: (m.close, m.ticker))],
        "categories": cats,
        "positions": sorted(live, key=lambda x: (x["ticker"], x["side"])),
        "watchlist": acc["watchlist"],
        "search": {"q": city, "tickers": sorted(m.ticker for m in ms if city.lower() in m.question.lower())},
        "buy": {
            "ticker": target.ticker,
            "side": side,
            "price_cents": price,
            "shares": shares,
            "total_cents": shares * price,
            "history_days": len(target.history),
        },
        "too_big": {"ticker": target.ticker, "side": side, "shares": acc["cash_cents"] // price + 1},
        "closed": {"ticker": closed.ticker},
        "payout": {
            "ticker": best.data["ticker"],
            "amount_cents": best.data["amount_cents"],
            "total_cents": sum(e.data["amount_cents"] for e in payouts),
        },
        "resolved_count": sum(m.status == "resolved" for m in ms),
        "activity_count": len(world.of_kind("forecast_deposit")) + len(world.of_kind("forecast_trade")) + len(payouts),
        "deposit": {"amount": "40.00" if world.currency != "EUR" else "40,00", "cents": 4000},
    }


def test_markets_seed_matches_world_and_is_byte_identical(any_world, tmp_path):
    """Two seeds are byte-identical; markets, prices, activity, positions and watchlist are the world's; the
    activity sums to the world's cash."""
    from apps.markets.seed import markets, positions, seed, visits

    _, world = any_world
    a, b = seed(world, tmp_path / "a.sqlite"), seed(world, tmp_path / "b.sqlite")
    assert hashlib.sha256(a.read_bytes()).hexdigest() == hashlib.sha256(b.read_bytes()).hexdigest()
    con = sqlite3.connect(a)
    ms = markets(world)
    assert con.execute(
        "SELECT ticker, question, status, outcome, yes_cents FROM markets ORDER BY close_date, ticker"
    ).fetchall() == [(m.ticker, m.question, m.status, m.outcome, m.last_price) for m in ms]
    assert con.execute("SELECT COUNT(*) FROM prices").fetchone()[0] == sum(len(m.history) for m in ms)
    acc = forecasts.account(world)
    assert con.execute("SELECT COALESCE(SUM(amount_cents), 0) FROM activity").fetchone()[0] == acc["cash_cents"]
    assert con.execute("SELECT COUNT(*) FROM activity WHERE world_ref IS NULL").fetchone()[0] == 0
    rows = con.execute(
        "SELECT ticker, side, shares, cost_cents, realized_cents, settled FROM positions ORDER BY ticker, side"
    ).fetchall()
    assert rows == [
        (t, s, p["shares"], p["cost_cents"], p["realized_cents"], p["settled"])
        for (t, s), p in positions(world).items()
    ]
    assert {(t, s): n for t, s, n, *_ in rows if n > 0} == acc["positions"]
    assert [r[0] for r in con.execute("SELECT ticker FROM watchlist ORDER BY ticker")] == acc["watchlist"]
    con.close()
    assert all(v["at"] <= world.now for v in visits(world))


def test_markets_web_end_to_end(site_build, world, default_layer, tmp_path):
    facts = world_facts(world)
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        print(run_e2e("markets", facts, served, tmp_path)[-6000:])
        _check_state(served, facts)


def _check_state(served: Served, facts: dict) -> None:
    """What the browser run left: one new buy (the world's price x shares), one deposit in both databases."""
    con = sqlite3.connect(served.database("markets"))
    buys = con.execute(
        "SELECT ticker, side, shares, price_cents, amount_cents FROM activity WHERE world_ref IS NULL AND kind = 'buy'"
    ).fetchall()
    b = facts["buy"]
    assert buys == [(b["ticker"], b["side"], b["shares"], b["price_cents"], -b["total_cents"])]
    deps = con.execute(
        "SELECT reference, amount_cents, bank_transaction_id FROM activity WHERE world_ref IS NULL AND kind = 'deposit'"
    ).fetchall()
    assert [d[1] for d in deps] == [facts["deposit"]["cents"]] and deps[0][2]
    assert con.execute("SELECT COUNT(*) FROM activity WHERE world_ref IS NULL AND kind = 'sell'").fetchone()[0] == 0
    cash = con.execute("SELECT SUM(amount_cents) FROM activity").fetchone()[0]
    assert cash == facts["cash_cents"] - b["total_cents"] + facts["deposit"]["cents"]
    con.close()
    bank = sqlite3.connect(served.database("bank"))
    lines = bank.execute(
        "SELECT x.direction, x.reference, x.amount_cents, t.amount_cents, t.counterparty FROM "
        "external_transfers x JOIN transactions t ON t.id = x.transaction_id WHERE x.app = 'markets'"
    ).fetchall()
    bank.close()
    assert lines == [("out", deps[0][0], facts["deposit"]["cents"], -facts["deposit"]["cents"], "Hunchline")]


def test_tasks_contract(world):
    """>= 8 tasks, >= 3 actions, >= 4 spanning two apps (tests/tasks/test_oracles.py runs the actions' reference solutions)."""
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("markets")

    ts = tasks(world)
    actions = [t for t in ts if t.kind == "action"]
    assert len(ts) >= 8 and len(actions) >= 3 and sum(len(t.apps_involved) > 1 for t in ts) >= 4
