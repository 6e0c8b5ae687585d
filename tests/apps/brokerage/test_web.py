"""Tidewell (apps/brokerage) end to end: the production site on copies of the seeded databases.

Expected values come from the *world* (builder/world/investing.py: the account's events replayed, the price
function at the world's now), never from the app's database. The site is served with its clock at the world's now
so the as-of price is the world's. After the browser run the test reads what the app left behind: the filled buy,
the cancelled good-'til-canceled limit order and the open day order in brokerage.sqlite, the deposit in both
Tidewell's ledger and the bank's; then it serves those databases again the day after the day order's session, where
that order reads expired and holds no buying power.
"""

from __future__ import annotations

import datetime as dt
import html
import shutil
import sqlite3
import urllib.request
from decimal import Decimal

from builder.reference import securities
from builder.world import investing

from tests.app_e2e import Served, post_form, run_e2e

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
            "limit_cents": limit_price,
            # A GTC order works 90 days; a day order its trading day (a weekend's order Monday's).
            "gtc_expires": (today + dt.timedelta(days=90)).isoformat(),
            "day_expires": (today + dt.timedelta(days={5: 2, 6: 1}.get(today.weekday(), 0))).isoformat(),
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
            (facts["limit"]["symbol"], "buy", "limit", "open", 10000, None),
        ]
        tifs = con.execute(
            "SELECT time_in_force, expires_on FROM orders WHERE world_ref IS NULL ORDER BY id"
        ).fetchall()
        assert tifs == [
            ("day", world.now.date().isoformat()),
            ("gtc", facts["limit"]["gtc_expires"]),
            ("day", facts["limit"]["day_expires"]),
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

    # The day after the day order's session: the order reads expired, in the history, holding nothing; it can no
    # longer be cancelled. The GTC order was cancelled, so nothing is open.
    later = tmp_path / "later"
    shutil.copytree(served.data, later / "layer/var/lib/persona-desktop/apps")
    day_after = dt.date.fromisoformat(facts["limit"]["day_expires"]) + dt.timedelta(days=1)
    with Served(later / "layer", later, now=f"{day_after.isoformat()}T10:00:00") as served:
        page = _get(served, "/orders", facts["session_token"])
        number = con_value(served.database("brokerage"), "SELECT order_number FROM orders WHERE status = 'open'")
        assert f'data-order="{number}" data-status="expired"' in page
        assert 'data-testid="open-orders"' not in page
        home = _get(served, "/", facts["session_token"])
        cash = facts["cash_cents"] - facts["buy"]["amount_cents"] + 25000
        assert f'data-testid="buying-power" data-cents="{cash}"' in home, "the expired order holds no buying power"
        _, where = post_form(
            served, HOST, "/api/orders/cancel", [("order", number)], f"tw_session={facts['session_token']}"
        )
        assert "error=" in where, where


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


def _get(served: Served, path: str, token: str) -> str:
    req = urllib.request.Request(
        f"http://127.0.0.1:{served.port}{path}", headers={"Host": HOST, "Cookie": f"tw_session={token}"}
    )
    return html.unescape(urllib.request.urlopen(req, timeout=60).read().decode())


def con_value(db, sql: str):
    with sqlite3.connect(db) as con:
        return con.execute(sql).fetchone()[0]
