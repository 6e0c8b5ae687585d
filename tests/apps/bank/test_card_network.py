"""The card network between apps: the bank's internal route and what the bank shows of it.

A payment taken in another app reaches the bank over loopback through
``@persona/platform/payments`` (each paying app's own e2e test books something and reads the
pending line back). Here, the parts that need no other app: the route refuses anyone without
the server's internal key (an agent in the desktop reaching it through nginx, say), and an
authorisation row is shown on its card's account as pending and held against the available credit.
"""

from __future__ import annotations

import json
import re
import sqlite3
import urllib.error
import urllib.request

from builder.world import card_numbers, payment_cards

from tests.app_e2e import Served, app

ROUTE = "/api/internal/card-network"


def _request(served: Served, host: str, path: str, body: dict | None = None, cookie: str | None = None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        f"http://127.0.0.1:{served.port}{path}",
        data=data,
        method="POST" if data else "GET",
        headers={"Host": host, "Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_payment_cards_are_the_banks_cards(world):
    """Every card a shop keeps on file is one of the bank's cards, the everyday card first."""
    cards = payment_cards(world)
    numbers = card_numbers(world)
    assert [c["account"] for c in cards][0] == ("credit_card" if "credit_card" in numbers else "checking")
    for c in cards:
        assert numbers[c["account"]].endswith(c["last4"]) and len(numbers[c["account"]]) == 16
        assert c["label"].endswith(c["last4"])


def test_card_network_route_and_pending_lines(site_build, world, default_layer, tmp_path):
    bank = app("bank")
    from apps.bank.seed import credentials

    cookie = f"{bank.session_cookie}={credentials(world)['session_token']}"
    card = payment_cards(world)[0]
    charge = {
        "kind": "charge",
        "app": "airline",
        "merchant": "MERIDIAN AIR 0471234567890",
        "amount_cents": 48210,
        "card_last4": card["last4"],
        "reference": "ABC123",
    }
    with Served(default_layer, tmp_path) as served:
        # No internal key (an agent, a page, a curl through nginx): refused, nothing written.
        status, text = _request(served, bank.domain, ROUTE, charge)
        assert status == 403, text
        # A forged key is refused the same way.
        req = urllib.request.Request(
            f"http://127.0.0.1:{served.port}{ROUTE}",
            data=json.dumps(charge).encode(),
            method="POST",
            headers={"Host": bank.domain, "Content-Type": "application/json", "x-persona-internal": "0" * 64},
        )
        try:
            urllib.request.urlopen(req, timeout=30)
            raise AssertionError("forged key accepted")
        except urllib.error.HTTPError as e:
            assert e.code == 403
        db = served.database("bank")
        with sqlite3.connect(db) as c:
            assert c.execute("SELECT COUNT(*) FROM card_authorizations").fetchone() == (0,)
            account_id, limit, balance = c.execute(
                "SELECT id, COALESCE(credit_limit_cents, 0), balance_cents FROM accounts WHERE kind = ?",
                (card["account"],),
            ).fetchone()
            # What the route writes for an app (the row shape is the route's, see apps/bank/web/lib/bank.ts).
            c.execute(
                "INSERT INTO card_authorizations (account_id, authorized_at, kind, app, reference, merchant,"
                " amount_cents, category, memo, code, status) VALUES (?, ?, 'charge', 'airline', 'ABC123', ?,"
                " 48210, 'travel', '1 passenger, PDX-AUS', 'F3A9C1', 'pending')",
                (account_id, world.now.isoformat(), charge["merchant"]),
            )
        status, html = _request(served, bank.domain, f"/accounts/{account_id}", cookie=cookie)
        assert status == 200
        assert 'data-testid="pending-row"' in html and 'data-reference="ABC123"' in html
        assert "MERIDIAN AIR 0471234567890" in html and "F3A9C1" in html
        shown = re.search(r'data-testid="(?:available-credit|balance)"[^>]*>([^<]+)<', html)
        assert shown
        available = (limit + balance - 48210) if card["account"] == "credit_card" else max(balance - 48210, 0)
        digits = re.sub(r"\D", "", shown.group(1)) if card["account"] != "credit_card" else None
        if card["account"] == "credit_card":
            credit = re.search(r'data-testid="available-credit"[^>]*>([^<]+)<', html).group(1)
            assert re.sub(r"\D", "", credit) == str(available), (credit, available)
        else:
            assert digits == str(available)
        # The airline refunds part of it under the same reference: the hold shrinks by the refund.
        with sqlite3.connect(db) as c:
            c.execute(
                "INSERT INTO card_authorizations (account_id, authorized_at, kind, app, reference, merchant,"
                " amount_cents, category, memo, code, status) VALUES (?, ?, 'refund', 'airline', 'ABC123', ?,"
                " 20000, 'travel', NULL, 'B71D0E', 'pending')",
                (account_id, world.now.isoformat(), charge["merchant"]),
            )
        status, html = _request(served, bank.domain, f"/accounts/{account_id}", cookie=cookie)
        testid = "available-credit" if card["account"] == "credit_card" else "balance"
        shown = re.search(rf'data-testid="{testid}"[^>]*>([^<]+)<', html).group(1)
        assert re.sub(r"\D", "", shown) == str(available + 20000), (shown, available + 20000)
        assert html.count('data-testid="pending-row"') == 2 and 'data-kind="refund"' in html


def test_a_locked_card_declines_a_shop_charge_until_unlocked(site_build, world, default_layer, tmp_path):
    """Locking a card at the bank (/cards) makes Shopwell's checkout with it fail with the bank's reason and write no
    order; unlocked, the same checkout goes through and the charge is pending on that card."""
    from apps.shop import steps as shop
    from builder.apps import discover
    from builder.tasks.oracle import OracleError, Web

    card = payment_cards(world)[0]
    apps = {a.name: a for a in discover() if a.name in ("bank", "shop")}
    cookies = {n: {a.session_cookie: a.module("seed").credentials(world)["session_token"]} for n, a in apps.items()}
    with Served(default_layer, tmp_path) as served:
        web = Web(
            port=served.port,
            domains={n: a.domain for n, a in apps.items()},
            cookies=cookies,
            databases={n: served.database(n) for n in apps},
        )
        account = web.one("bank", "SELECT id FROM accounts WHERE kind = ?", (card["account"],))
        _, where = web.post_form("bank", "/api/cards", [("account", str(account)), ("action", "lock")], expect=(303,))
        assert where.startswith(f"/cards?locked={account}"), where
        assert web.one("bank", "SELECT card_locked_at IS NOT NULL FROM accounts WHERE id = ?", (account,)) == 1
        sku = web.one("shop", "SELECT sku FROM variants ORDER BY sku LIMIT 1")
        try:
            shop.order(web, sku, 1, card["last4"])
            raise AssertionError("a locked card was charged")
        except OracleError as e:
            assert "locked" in str(e), e
        assert web.one("shop", "SELECT COUNT(*) FROM orders WHERE world_ref IS NULL") == 0
        assert web.one("bank", "SELECT COUNT(*) FROM card_authorizations") == 0
        # A card with no account of this user, or an action that is neither, is refused and changes nothing.
        for fields in ([("account", "999999"), ("action", "lock")], [("account", str(account)), ("action", "freeze")]):
            _, where = web.post_form("bank", "/api/cards", fields, expect=(303,))
            assert "error=" in where, where
        _, where = web.post_form("bank", "/api/cards", [("account", str(account)), ("action", "unlock")], expect=(303,))
        assert where.startswith(f"/cards?unlocked={account}"), where
        number = shop.order(web, sku, 1, card["last4"])
        assert web.query("bank", "SELECT account_id, reference, kind FROM card_authorizations") == [
            (account, number, "charge")
        ]
