"""Tidewell (apps/brokerage) end to end: the production site on copies of the seeded databases.

Expected values come from the *world* (builder/world/investing.py: the account's events replayed, the price
function at the world's now), never from the app's database. The site is served with its clock at the world's now
so the as-of price is the world's. After the browser run the test reads what the app left behind: the filled buy
and the cancelled limit order in brokerage.sqlite, the deposit in both Tidewell's ledger and the bank's.
"""

from __future__ import annotations

import sqlite3
from decimal import Decimal

from builder.reference import securities
from builder.world import investing

from tests.app_e2e import Served, run_e2e

HOST = "tidewell.test"


def shares_text(n: Decimal) -> str:
    """As the app writes a share count: up to 4 places, no trailing zeros."""
    return format(n.normalize(), "f")


def world_facts(world) -> dict:
    """Every value the browser tests expect, from the world."""
    from apps.brokerage.seed import credentials

    today = world.now.date()
    book = investing.replay(world)
    closes = {s: [c for d, c in investing.price_history(world, s) if d <= today][-2:] for s in book.shares}
    holdings = [
        {
            "symbol": s,
            "shares": shares_text(book.shares[s]),
            "value_cents": securities.amount_of(book.shares[s], closes[s][-1]),
        }
        for s in sorted(book.shares)
    ]
    value = book.cash_cents + sum(h["value_cents"] for h in holdings)
    day_change = sum(
        securities.amount_of(book.shares[s], closes[s][-1]) - securities.amount_of(book.shares[s], closes[s][0])
        for s in book.shares
    )
    trades = [e for e in world.of_kind("brokerage_trade") if e.status == "done"]
    fund = [e.data["symbol"] for e in trades if e.data["recurring"]][-1]
    price = investing.close_on(world, fund, today)
    watched = sorted(e.data["symbol"] for e in world.of_kind("brokerage_watch"))
    limit_symbol = watched[0]
    limit_price = investing.close_on(world, limit_symbol, today) * 90 // 100
    watch_add = next(s["symbol"] for s in investing.universe(world) if s["symbol"] not in watched)
    creds = credentials(world)
    return {
        "session_token": creds["session_token"],
        "username": creds["username"],
        "password": creds["password"],
        "first_name": world.persona.identity.name.split()[0],
        "value_cents": value,
        "cash_cents": book.cash_cents,
        "day_change_cents": day_change,
        "holdings": holdings,
        "order_count": len(trades),
        "buy": {
            "symbol": fund,
            "shares": "2",
            "price_cents": price,
            "amount_cents": 2 * price,
            "trading_days": sum(1 for d, _ in investing.price_history(world, fund) if d <= today),
        },
        "limit": {
            "symbol": limit_symbol,
            "shares": "3",
            "limit": f"{limit_price // 100}.{limit_price % 100:02d}",
            "reserved_cents": 3 * limit_price,
        },
        "deposit": {"amount": "250.00", "amount_cents": 25000},
        "sell_too_many": shares_text(book.shares[fund] + 10),
        "watch_add": watch_add,
    }


def test_brokerage_e2e(site_build, world, default_layer, tmp_path):
    facts = world_facts(world)
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        run_e2e("brokerage", facts, served, tmp_path)
        con = sqlite3.connect(served.database("brokerage"))
        made = con.execute(
            "SELECT symbol, side, order_type, status, shares_e4, amount_cents FROM orders "
            "WHERE world_ref IS NULL ORDER BY id"
        ).fetchall()
        assert made == [
            (facts["buy"]["symbol"], "buy", "market", "filled", 20000, facts["buy"]["amount_cents"]),
            (facts["limit"]["symbol"], "buy", "limit", "cancelled", 30000, None),
        ]
        (cash,) = con.execute("SELECT SUM(amount_cents) FROM cash_ledger").fetchone()
        assert cash == facts["cash_cents"] - facts["buy"]["amount_cents"] + 25000
        transfers = con.execute(
            "SELECT direction, amount_cents, reference, bank_transaction_id FROM transfers WHERE world_ref IS NULL"
        ).fetchall()
        assert len(transfers) == 1 and transfers[0][:2] == ("deposit", 25000)
        con.close()
        bank = sqlite3.connect(served.database("bank"))
        lines = bank.execute(
            "SELECT id, amount_cents, counterparty, kind, description FROM transactions "
            "WHERE world_ref IS NULL AND kind = 'external_transfer'"
        ).fetchall()
        bank.close()
        assert [(row[0], row[1], row[2]) for row in lines] == [(transfers[0][3], -25000, securities.COUNTERPARTY)]
        assert securities.COUNTERPARTY.upper() in lines[0][4]


def test_seeded_cash_and_holdings_equal_the_world(world, default_layer):
    """The seed's holdings and cash ledger are the world's replay at now (what the e2e value test rests on)."""
    from apps.brokerage.seed import e4

    con = sqlite3.connect(default_layer / "var/lib/persona-desktop/apps/brokerage/brokerage.sqlite")
    book = investing.replay(world)
    assert con.execute("SELECT SUM(amount_cents) FROM cash_ledger").fetchone()[0] == book.cash_cents
    assert dict((s, (n, c)) for s, n, c in con.execute("SELECT symbol, shares_e4, cost_cents FROM holdings")) == {
        s: (e4(book.shares[s]), book.cost_cents[s]) for s in book.shares
    }
    (n,) = con.execute("SELECT COUNT(*) FROM prices WHERE day > ?", (world.now.date().isoformat(),)).fetchone()
    assert n == 0  # nothing after the app's today
    con.close()


def test_tasks_contract(world):
    """>= 8 tasks, >= 3 actions, >= 4 spanning two apps (tests/tasks/test_oracles.py runs the actions' reference solutions)."""
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("brokerage")

    ts = tasks(world)
    actions = [t for t in ts if t.kind == "action"]
    assert len(ts) >= 8 and len(actions) >= 3 and sum(len(t.apps_involved) > 1 for t in ts) >= 4
