"""The money apps under concurrency and attack (issue 24): Larkspur Bank (its own money routes and the card-network
and bank-transfers endpoints every other app calls), Hunchline (apps/markets) and the broker (apps/brokerage).

One production site on copies of the default persona's databases serves the whole module, its clock at the world's
now. Every money route gets

- 50 simultaneous submissions of one form token (``_idem``): exactly one effect, and every answer the same;
- 50 simultaneous submissions with distinct tokens: exactly as many effects as the balance (or the shares held)
  allows, never below zero, every "done" answer its own effect, and the bank's rows (``external_transfers``,
  ``transactions``, ``card_authorizations``) one to one with the app's records.

The bank's internal routes are called with the internal key: the module's server is started with a preload
(``NODE_OPTIONS=--require``) that fixes the process's key (``globalThis.__personaInternalKey``, see
apps/_platform/src/internal.ts) to one only this module knows, so the test can be another app. The same key funds
checking between bursts (an ``in`` transfer from the app ``hardening``), so every burst starts from a known balance.

Regressions: a recipient ``1 OR 1=1`` is refused (never read as recipient 1); malformed, empty and wrong-type bodies
answer 400 (JSON) or the form's signed error redirect, never 500; a huge add-contact field is refused before any
work and never echoed into the Location header; the same reference with another amount is refused with 409; crafted
``?error=`` banners show nothing. Values only, no timing assertions; traffic only to 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sqlite3
import urllib.parse

import pytest

from builder.apps import discover

from tests.app_e2e import Served
from tests.concurrency import Answer, burst, send

N = 50
INTERNAL_HEADER = "x-persona-internal"
APPS = {a.name: a for a in discover()}
pytestmark = [
    pytest.mark.skipif(
        not {"bank", "markets", "brokerage"} <= set(APPS),
        reason="needs bank, markets and brokerage in the build (PERSONA_APPS)",
    ),
    pytest.mark.usefixtures("site_build"),  # every test serves the site build: out of the fast lane
]

BANK, MARKETS, BROKER = (APPS[n].domain if n in APPS else "" for n in ("bank", "markets", "brokerage"))


class Site:
    """The served site and what the tests need to talk to it: cookies per app, the internal key, the databases."""

    def __init__(self, served: Served, world, key: str):
        self.served = served
        self.port = served.port
        self.key = key
        self.today = world.now.date().isoformat()
        self.cookies = {
            name: f"{APPS[name].session_cookie}={APPS[name].module('seed').credentials(world)['session_token']}"
            for name in ("bank", "markets", "brokerage")
        }

    def db(self, app: str) -> sqlite3.Connection:
        return sqlite3.connect(self.served.database(app), timeout=30)

    def rows(self, app: str, sql: str, args: tuple = ()) -> list[tuple]:
        con = self.db(app)
        try:
            return con.execute(sql, args).fetchall()
        finally:
            con.close()

    def one(self, app: str, sql: str, args: tuple = ()):
        return self.rows(app, sql, args)[0][0]

    def form(
        self,
        app: str,
        path: str,
        fields: list[tuple[str, str]],
        token: str | None = None,
    ) -> Answer:
        body = list(fields) + ([("_idem", token)] if token else [])
        return send(self.port, APPS[app].domain, path, form=body, cookie=self.cookies[app])

    def internal(self, path: str, body=None, raw: bytes | None = None, key: str | None = None) -> Answer:
        headers = {INTERNAL_HEADER: self.key if key is None else key}
        if raw is not None:
            headers["Content-Type"] = "application/json"
            return send(self.port, BANK, path, body=raw, headers=headers)
        return send(self.port, BANK, path, json_body=body, headers=headers)

    # --- the bank's figures ----------------------------------------------------------------------------------------

    def account(self, kind: str) -> dict:
        row = self.rows(
            "bank",
            "SELECT id, balance_cents, credit_limit_cents, card_number FROM accounts WHERE kind = ? "
            "ORDER BY id LIMIT 1",
            (kind,),
        )[0]
        return {"id": row[0], "balance": row[1], "limit": row[2], "card": row[3]}

    def held(self, account_id: int) -> int:
        """Pending card holds on an account, as the bank computes them (a refund under the charge's reference frees it)."""
        return self.one(
            "bank",
            """SELECT COALESCE(SUM(MAX(c.amount_cents - COALESCE((SELECT SUM(r.amount_cents)
                  FROM card_authorizations r WHERE r.kind = 'refund' AND r.status = 'pending' AND r.app = c.app
                  AND r.reference = c.reference), 0), 0)), 0)
                FROM card_authorizations c WHERE c.account_id = ? AND c.kind = 'charge' AND c.status = 'pending'""",
            (account_id,),
        )

    def available(self, kind: str) -> int:
        a = self.account(kind)
        if kind == "credit_card":
            return a["limit"] + a["balance"] - self.held(a["id"])
        return max(a["balance"] - self.held(a["id"]), 0)

    def fund_checking(self, at_least: int) -> int:
        """Credit checking (an ``in`` transfer from the app ``hardening``) until it has ``at_least`` cents available;
        returns what is available then."""
        have = self.available("checking")
        if have < at_least:
            ans = self.internal(
                "/api/internal/transfers",
                {
                    "direction": "in",
                    "app": "hardening",
                    "counterparty": "Hardening Test",
                    "amount_cents": at_least - have,
                    "reference": f"fund-{secrets.token_hex(6)}",
                },
            )
            assert ans.status == 200, ans
        return self.available("checking")

    # --- the apps' figures -----------------------------------------------------------------------------------------

    def markets_cash(self) -> int:
        return self.one("markets", "SELECT COALESCE(SUM(amount_cents), 0) FROM activity")

    def broker_power(self) -> int:
        cash = self.one("brokerage", "SELECT COALESCE(SUM(amount_cents), 0) FROM cash_ledger")
        reserved = self.one(
            "brokerage",
            "SELECT COALESCE(SUM(reserved_cents), 0) FROM orders WHERE status = 'open' AND side = 'buy'",
        )
        return cash - reserved


@pytest.fixture(scope="module")
def site(default_layer, world, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hardening-money")
    key = secrets.token_hex(32)
    preload = tmp / "internal-key.cjs"
    preload.write_text(f"globalThis.__personaInternalKey = {json.dumps(key)};\n")
    served = Served(default_layer, tmp, now=world.now.isoformat())
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(
            "NODE_OPTIONS",
            f"{os.environ.get('NODE_OPTIONS', '')} --require {preload}".strip(),
        )
        served.__enter__()
    try:
        yield Site(served, world, key)
    finally:
        served.__exit__(None, None, None)


def tokens(n: int = N) -> list[str]:
    return [secrets.token_hex(16) for _ in range(n)]


def query(location: str) -> dict[str, str]:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))


def visible(html: str) -> str:
    """A page's HTML without its scripts: what it renders. (The router payload in the scripts repeats the URL's
    search params, whatever the page shows of them.)"""
    return re.sub(r"<script\b.*?</script>", "", html, flags=re.DOTALL)


def same_answers(answers: list[Answer]) -> None:
    first = answers[0]
    assert all((a.status, a.location, a.body) == (first.status, first.location, first.body) for a in answers), {
        (a.status, a.location) for a in answers
    }


def assert_ledgers_match(site: Site) -> None:
    """The bank's external transfers of Hunchline and the broker are one to one with the apps' own records: same
    reference, direction, amount and bank line, none left pending; each bank line moved checking by its amount (out
    of checking for a deposit into the app, into it for a withdrawal); each broker transfer has its one cash line."""
    bank = site.rows(
        "bank",
        "SELECT x.app, x.reference, x.direction, x.amount_cents, x.transaction_id, t.amount_cents "
        "FROM external_transfers x JOIN transactions t ON t.id = x.transaction_id "
        "WHERE x.app IN ('markets', 'brokerage')",
    )
    for app, ref, d, amt, _tid, line in bank:
        assert line == (-amt if d == "out" else amt), (app, ref)
    theirs = {(app, ref, d): (amt, tid) for app, ref, d, amt, tid, _ in bank}
    ours = {}
    for kind, ref, amt, tid in site.rows(
        "markets",
        "SELECT kind, reference, amount_cents, bank_transaction_id FROM "
        "activity WHERE world_ref IS NULL AND kind IN ('deposit', 'withdrawal')",
    ):
        assert (amt > 0) == (kind == "deposit"), ref
        ours[("markets", ref, "out" if kind == "deposit" else "in")] = (abs(amt), tid)
    for direction, ref, amt, tid in site.rows(
        "brokerage",
        "SELECT direction, reference, amount_cents, bank_transaction_id FROM transfers WHERE world_ref IS NULL",
    ):
        ours[("brokerage", ref, "out" if direction == "deposit" else "in")] = (amt, tid)
        cash = site.rows(
            "brokerage",
            "SELECT amount_cents FROM cash_ledger WHERE reference = ? AND kind = ? AND world_ref IS NULL",
            (ref, direction),
        )
        assert cash == [(amt if direction == "deposit" else -amt,)], (ref, cash)
    assert ours == theirs


def checking_never_negative(site: Site, since_id: int) -> None:
    lines = site.rows(
        "bank",
        "SELECT t.balance_after_cents FROM transactions t JOIN accounts a ON a.id = t.account_id "
        "WHERE a.kind = 'checking' AND t.id > ?",
        (since_id,),
    )
    assert all(b >= 0 for (b,) in lines), lines
    assert site.account("checking")["balance"] >= 0


def last_line(site: Site) -> int:
    return site.one("bank", "SELECT COALESCE(MAX(id), 0) FROM transactions")


# ===================================================================================================================
# Larkspur Bank: its own money routes


BANK_ROUTES = {
    # path: (recipient field, ledger kind)
    "/api/send": ("contact", "p2p_sent"),
    "/api/bills": ("payee", "bill_payment"),
    "/api/transfer": ("to", "transfer"),
}


def _recipient(site: Site, path: str) -> str:
    if path == "/api/send":
        return str(site.one("bank", "SELECT id FROM contacts ORDER BY id LIMIT 1"))
    if path == "/api/bills":
        return str(site.one("bank", "SELECT id FROM payees ORDER BY id LIMIT 1"))
    return str(site.account("savings")["id"])


@pytest.mark.parametrize("path", list(BANK_ROUTES))
def test_bank_money_route_one_token_one_effect(site, path):
    field, _kind = BANK_ROUTES[path]
    site.fund_checking(100_000)
    before = last_line(site)
    checking = site.account("checking")
    token = tokens(1)[0]
    fields = [
        (field, _recipient(site, path)),
        ("from", str(checking["id"])),
        ("amount", "12.34"),
        ("memo", "once"),
    ]
    answers = burst(N, lambda i: site.form("bank", path, fields, token))
    same_answers(answers)
    assert answers[0].status == 303 and "done" in query(answers[0].location), answers[0]
    out = site.rows(
        "bank",
        "SELECT amount_cents FROM transactions WHERE id > ? AND account_id = ?",
        (before, checking["id"]),
    )
    assert out == [(-1234,)]
    assert site.account("checking")["balance"] == checking["balance"] - 1234


@pytest.mark.parametrize("path", list(BANK_ROUTES))
def test_bank_money_route_distinct_tokens_stop_at_the_balance(site, path):
    field, _kind = BANK_ROUTES[path]
    avail = site.fund_checking(500_000)
    amount = avail // 4 + 1
    expected = min(N, avail // amount)
    before = last_line(site)
    checking = site.account("checking")
    fields = [
        (field, _recipient(site, path)),
        ("from", str(checking["id"])),
        ("amount", f"{amount / 100:.2f}"),
    ]
    toks = tokens()
    answers = burst(N, lambda i: site.form("bank", path, fields, toks[i]))
    done = [a for a in answers if "done" in query(a.location)]
    refused = [a for a in answers if "error" in query(a.location)]
    assert len(done) == expected and len(refused) == N - expected, {a.location[:80] for a in answers}
    assert all(a.status == 303 for a in answers)
    assert all("Insufficient funds" in query(a.location)["error"] for a in refused)
    debits = site.rows(
        "bank",
        "SELECT id, amount_cents FROM transactions WHERE id > ? AND account_id = ?",
        (before, checking["id"]),
    )
    assert [a for _, a in debits] == [-amount] * expected
    if path != "/api/transfer":
        # Each "done" names its own line (its receipt).
        assert sorted(int(query(a.location)["done"]) for a in done) == [i for i, _ in debits]
    else:
        assert len({query(a.location)["done"] for a in done}) == expected
        assert (
            site.one(
                "bank",
                "SELECT COUNT(*) FROM transactions WHERE id > ? AND kind = 'transfer' AND amount_cents = ?",
                (before, amount),
            )
            == expected
        )
    assert site.account("checking")["balance"] == checking["balance"] - expected * amount
    checking_never_negative(site, before)


def test_bank_payees_and_contacts_once(site):
    tok = tokens(1)[0]
    name = f"Hardening Utility {secrets.token_hex(3)}"
    fields = [("name", name), ("account_number", "99-1234"), ("category", "utilities")]
    answers = burst(N, lambda i: site.form("bank", "/api/payees", fields, tok))
    same_answers(answers)
    assert site.one("bank", "SELECT COUNT(*) FROM payees WHERE name = ?", (name,)) == 1
    # Distinct tokens, one name: one payee, the rest told it exists.
    name2 = f"Hardening Water {secrets.token_hex(3)}"
    toks = tokens()
    answers = burst(
        N,
        lambda i: site.form(
            "bank",
            "/api/payees",
            [("name", name2), ("account_number", "1"), ("category", "bills")],
            toks[i],
        ),
    )
    assert site.one("bank", "SELECT COUNT(*) FROM payees WHERE name = ?", (name2,)) == 1
    assert sum("added" in query(a.location) for a in answers) == 1
    assert sum("already one of your payees" in query(a.location).get("error", "") for a in answers) == N - 1
    # A contact: one per token.
    who = f"Hardening Friend {secrets.token_hex(3)}"
    tok = tokens(1)[0]
    answers = burst(
        N,
        lambda i: site.form(
            "bank",
            "/api/contacts",
            [("name", who), ("email", "friend@example.com")],
            tok,
        ),
    )
    same_answers(answers)
    assert site.one("bank", "SELECT COUNT(*) FROM contacts WHERE name = ?", (who,)) == 1


def test_bank_recipient_is_digits_only(site):
    """Regression: ``1 OR 1=1`` was read as recipient 1 (parseInt) and the money sent."""
    site.fund_checking(10_000)
    before = last_line(site)
    checking = str(site.account("checking")["id"])
    for path, fields in [
        (
            "/api/send",
            [("contact", "1 OR 1=1"), ("from", checking), ("amount", "5.00")],
        ),
        (
            "/api/send",
            [("contact", "1"), ("from", f"{checking} OR 1=1"), ("amount", "5.00")],
        ),
        ("/api/send", [("contact", "1e0"), ("from", checking), ("amount", "5.00")]),
        (
            "/api/bills",
            [("payee", "1;DROP TABLE payees"), ("from", checking), ("amount", "5.00")],
        ),
        ("/api/transfer", [("from", checking), ("to", "2abc"), ("amount", "5.00")]),
        ("/api/transfer", [("from", "-1"), ("to", "2"), ("amount", "5.00")]),
        ("/api/send", [("contact", "1"), ("from", checking), ("amount", "5.00e2")]),
    ]:
        ans = site.form("bank", path, fields, tokens(1)[0])
        assert ans.status == 303 and "error" in query(ans.location) and "done" not in query(ans.location), (path, ans)
    assert last_line(site) == before
    # The refusal's page shows the bank's own (signed) message; a crafted one shows nothing.
    ans = site.form(
        "bank",
        "/api/send",
        [("contact", "1 OR 1=1"), ("from", checking), ("amount", "5.00")],
    )
    page = send(site.port, BANK, ans.location, method="GET", cookie=site.cookies["bank"])
    assert "Choose who to send money to." in visible(page.body)
    crafted = send(
        site.port,
        BANK,
        "/send-money?error=Call+555-0100+to+unlock",
        method="GET",
        cookie=site.cookies["bank"],
    )
    assert crafted.status == 200 and "Call 555-0100 to unlock" not in visible(crafted.body)


def test_bank_bad_bodies_never_500(site):
    """Regression: malformed, empty or wrong-type bodies were a bare 500; now a form route answers its signed error
    redirect and nothing moves."""
    before = last_line(site)
    for path in (
        "/api/send",
        "/api/bills",
        "/api/transfer",
        "/api/payees",
        "/api/contacts",
    ):
        for body, ctype in [
            (b"{not json", "application/json"),
            (b"", "application/json"),
            (b"--x\r\ngarbage", "multipart/form-data; boundary=x"),
            (b"\xff\xfe\x00", "text/plain"),
        ]:
            ans = send(
                site.port,
                BANK,
                path,
                body=body,
                headers={"Content-Type": ctype},
                cookie=site.cookies["bank"],
            )
            assert ans.status == 303 and "error" in query(ans.location), (
                path,
                body,
                ans,
            )
            assert query(ans.location).get("es"), "the message is the bank's own (signed)"
    assert last_line(site) == before


def test_bank_add_contact_caps_fields_before_any_work(site):
    """Regression: a 1 MB name was echoed into the error redirect's Location header."""
    count = site.one("bank", "SELECT COUNT(*) FROM contacts")
    huge = "A" * 1_000_000
    ans = site.form(
        "bank",
        "/api/contacts",
        [("name", huge), ("email", "x@example.com")],
        tokens(1)[0],
    )
    assert ans.status in (303, 413) and len(ans.location) < 2000, (
        ans.status,
        len(ans.location),
    )
    long = "B" * 5000
    ans = site.form(
        "bank",
        "/api/contacts",
        [("name", long), ("email", "x@example.com")],
        tokens(1)[0],
    )
    assert ans.status == 303 and len(ans.location) < 1000, len(ans.location)
    q = query(ans.location)
    assert "too long" in q["error"] and q["form"] == "contact" and len(q["name"]) <= 80
    for fields in (
        [("name", "Eve"), ("email", "e" * 200 + "@example.com")],
        [("name", "Eve\u0000"), ("phone", "5")],
        [("name", "Eve"), ("phone", "call me maybe")],
        [("name", "Eve"), ("email", "x@y"), ("phone", "9" * 41)],
    ):
        ans = site.form("bank", "/api/contacts", fields, tokens(1)[0])
        assert ans.status == 303 and "error" in query(ans.location), fields
    memo = site.form(
        "bank",
        "/api/send",
        [("contact", "1"), ("from", "1"), ("amount", "1.00"), ("memo", "m" * 5000)],
        tokens(1)[0],
    )
    assert memo.status == 303 and "too long" in query(memo.location)["error"] and len(memo.location) < 1000
    assert site.one("bank", "SELECT COUNT(*) FROM contacts") == count


# ===================================================================================================================
# Larkspur Bank: the card network and bank transfers other apps call


def test_internal_routes_refuse_bad_bodies_with_400(site):
    """Regression: malformed JSON, empty bodies, arrays and wrong types answer 400 with a message (never 500)."""
    before = (
        last_line(site),
        site.one("bank", "SELECT COUNT(*) FROM card_authorizations"),
    )
    for path in ("/api/internal/transfers", "/api/internal/card-network"):
        for raw in (
            b"{",
            b"",
            b"[]",
            b"null",
            b'"out"',
            b"42",
            b'{"direction": "out"',
            b"\xff",
        ):
            ans = site.internal(path, raw=raw)
            assert ans.status == 400 and ans.json()["error"], (path, raw, ans)
        assert site.internal(path, {"direction": "out"}, key="0" * 64).status == 403
    good = {
        "direction": "out",
        "app": "hardening",
        "counterparty": "Hardening Test",
        "amount_cents": 100,
        "reference": "bad-1",
    }
    for change in (
        {"amount_cents": "100"},
        {"amount_cents": 1.5},
        {"amount_cents": -1},
        {"amount_cents": 0},
        {"reference": ["x"]},
        {"reference": "r" * 81},
        {"app": 7},
        {"counterparty": {"x": 1}},
        {"direction": "sideways"},
        {"memo": ["m"]},
        {"reference": "a\nb"},
    ):
        ans = site.internal("/api/internal/transfers", {**good, **change})
        assert ans.status == 400 and ans.json()["error"], (change, ans)
    card = {
        "kind": "charge",
        "app": "hardening",
        "merchant": "HARDENING",
        "amount_cents": 100,
        "card_last4": site.account("credit_card")["card"][-4:],
        "reference": "bad-2",
    }
    for change in (
        {"card_last4": 1234},
        {"card_last4": "12345"},
        {"kind": "steal"},
        {"merchant": ""},
        {"category": "Travel!"},
        {"amount_cents": "100"},
        {"merchant": None},
    ):
        ans = site.internal("/api/internal/card-network", {**card, **change})
        assert ans.status == 400 and ans.json()["error"], (change, ans)
    assert (
        last_line(site),
        site.one("bank", "SELECT COUNT(*) FROM card_authorizations"),
    ) == before


@pytest.mark.parametrize("direction", ["out", "in"])
def test_internal_transfer_same_reference_once(site, direction):
    site.fund_checking(100_000)
    checking = site.account("checking")
    ref = f"same-{direction}-{secrets.token_hex(4)}"
    body = {
        "direction": direction,
        "app": "hardening",
        "counterparty": "Hardening Test",
        "amount_cents": 2500,
        "reference": ref,
    }
    answers = burst(N, lambda i: site.internal("/api/internal/transfers", body))
    assert {a.status for a in answers} == {200}
    receipts = [a.json() for a in answers]
    assert len({r["transaction_id"] for r in receipts}) == 1
    assert sorted(r["repeated"] for r in receipts) == [False] + [True] * (N - 1)
    assert site.rows(
        "bank",
        "SELECT amount_cents FROM external_transfers WHERE app = 'hardening' AND reference = ?",
        (ref,),
    ) == [(2500,)]
    assert site.account("checking")["balance"] == checking["balance"] + (-2500 if direction == "out" else 2500)
    # The same reference with another amount is refused, never merged.
    other = site.internal("/api/internal/transfers", {**body, "amount_cents": 2600})
    assert other.status == 409 and "different amount" in other.json()["error"]
    assert (
        site.one(
            "bank",
            "SELECT COUNT(*) FROM external_transfers WHERE app = 'hardening' AND reference = ?",
            (ref,),
        )
        == 1
    )


def test_internal_transfers_out_stop_at_checking(site):
    avail = site.fund_checking(300_000)
    amount = avail // 4 + 1
    expected = avail // amount
    before = last_line(site)
    answers = burst(
        N,
        lambda i: site.internal(
            "/api/internal/transfers",
            {
                "direction": "out",
                "app": "hardening",
                "counterparty": "Hardening Test",
                "amount_cents": amount,
                "reference": f"drain-{before}-{i}",
            },
        ),
    )
    assert sorted(a.status for a in answers) == [200] * expected + [402] * (N - expected)
    assert (
        site.one(
            "bank",
            "SELECT COUNT(*) FROM external_transfers x JOIN transactions t ON t.id = x.transaction_id WHERE t.id > ?",
            (before,),
        )
        == expected
    )
    assert site.available("checking") == avail - expected * amount
    checking_never_negative(site, before)


@pytest.mark.parametrize("kind", ["credit_card", "checking"])
def test_card_network_charges_stop_at_the_limit(site, kind):
    if kind == "checking":
        site.fund_checking(200_000)
    acct = site.account(kind)
    if not acct["card"]:
        pytest.skip(f"no card draws on {kind}")
    last4 = acct["card"][-4:]
    avail = site.available(kind)
    amount = max(100, avail // 4 + 1)
    expected = min(N, avail // amount)
    tag = secrets.token_hex(3)
    answers = burst(
        N,
        lambda i: site.internal(
            "/api/internal/card-network",
            {
                "kind": "charge",
                "app": "hardening",
                "merchant": "HARDENING STORE",
                "amount_cents": amount,
                "card_last4": last4,
                "reference": f"card-{tag}-{i}",
            },
        ),
    )
    assert sorted(a.status for a in answers) == [200] * expected + [402] * (N - expected)
    assert (
        site.one(
            "bank",
            "SELECT COUNT(*) FROM card_authorizations WHERE reference LIKE ?",
            (f"card-{tag}-%",),
        )
        == expected
    )
    left = site.available(kind)
    assert left == avail - expected * amount and left >= 0
    # One reference, 50 identical calls: one authorisation; another amount under it: 409.
    ref = f"card-{tag}-once"
    charged = site.one(
        "bank",
        "SELECT reference FROM card_authorizations WHERE reference LIKE ? ORDER BY id LIMIT 1",
        (f"card-{tag}-%",),
    )
    body = {
        "kind": "refund",
        "app": "hardening",
        "merchant": "HARDENING STORE",
        "amount_cents": amount,
        "card_last4": last4,
        "reference": charged,
    }
    answers = burst(N, lambda i: site.internal("/api/internal/card-network", body))
    assert {a.status for a in answers} == {200} and len({a.json()["authorization"] for a in answers}) == 1
    assert site.available(kind) == left + amount
    assert site.internal("/api/internal/card-network", {**body, "amount_cents": amount - 1}).status == 409
    over = site.internal("/api/internal/card-network", {**body, "reference": ref, "amount_cents": 100})
    assert over.status == 200
    bigger = site.internal(
        "/api/internal/card-network",
        {**body, "kind": "refund", "reference": ref, "amount_cents": 101},
    )
    assert bigger.status == 409, "a refund is at most its charge"


# ===================================================================================================================
# Hunchline


def _market(site: Site) -> tuple[str, int]:
    ticker, price = site.rows(
        "markets",
        "SELECT ticker, yes_cents FROM markets WHERE status != 'resolved' AND "
        "close_date > ? ORDER BY close_date DESC, ticker LIMIT 1",
        (site.today,),
    )[0]
    return ticker, price


def _trade(site: Site, ticker: str, price: int, action: str, shares: int, token: str) -> Answer:
    return site.form(
        "markets",
        "/api/trades",
        [
            ("ticker", ticker),
            ("side", "yes"),
            ("action", action),
            ("shares", str(shares)),
            ("price_cents", str(price)),
        ],
        token,
    )


def _markets_deposit(site: Site, cents: int) -> None:
    site.fund_checking(cents + 10_000)
    ans = site.form(
        "markets",
        "/api/transfers",
        [("direction", "deposit"), ("amount", f"{cents / 100:.2f}")],
        tokens(1)[0],
    )
    assert "moved" in query(ans.location), ans


def test_markets_trades_one_token_one_effect(site):
    ticker, price = _market(site)
    if site.markets_cash() < price:
        _markets_deposit(site, 10_000)
    before = site.one("markets", "SELECT COALESCE(MAX(id), 0) FROM activity")
    tok = tokens(1)[0]
    answers = burst(N, lambda i: _trade(site, ticker, price, "buy", 1, tok))
    same_answers(answers)
    assert "traded" in query(answers[0].location), answers[0]
    assert site.rows(
        "markets",
        "SELECT kind, shares, amount_cents FROM activity WHERE id > ?",
        (before,),
    ) == [("buy", 1, -price)]


def test_markets_buys_stop_at_the_cash_and_sells_at_the_shares(site):
    ticker, price = _market(site)
    if site.markets_cash() < 20 * price:
        _markets_deposit(site, 50_000)
    cash = site.markets_cash()
    shares = max(1, cash // 4 // price)
    cost = shares * price
    expected = min(N, cash // cost)
    held = site.one(
        "markets",
        "SELECT COALESCE(SUM(shares), 0) FROM positions WHERE ticker = ? AND side = 'yes'",
        (ticker,),
    )
    before = site.one("markets", "SELECT COALESCE(MAX(id), 0) FROM activity")
    toks = tokens()
    answers = burst(N, lambda i: _trade(site, ticker, price, "buy", shares, toks[i]))
    filled = [query(a.location)["traded"] for a in answers if "traded" in query(a.location)]
    assert len(filled) == expected and len(set(filled)) == expected
    assert all("error" in query(a.location) for a in answers if "traded" not in query(a.location))
    rows = site.rows(
        "markets",
        "SELECT reference, amount_cents FROM activity WHERE id > ? AND kind = 'buy'",
        (before,),
    )
    assert sorted(r for r, _ in rows) == sorted(filled) and {a for _, a in rows} == {-cost}
    assert site.markets_cash() == cash - expected * cost >= 0
    now_held = site.one(
        "markets",
        "SELECT shares FROM positions WHERE ticker = ? AND side = 'yes'",
        (ticker,),
    )
    assert now_held == held + expected * shares
    # Sells: as many as the shares held allow, never below zero shares.
    per = max(1, now_held // 4)
    can = now_held // per
    toks = tokens()
    answers = burst(N, lambda i: _trade(site, ticker, price, "sell", per, toks[i]))
    assert sum("traded" in query(a.location) for a in answers) == min(N, can)
    left = site.one(
        "markets",
        "SELECT shares FROM positions WHERE ticker = ? AND side = 'yes'",
        (ticker,),
    )
    assert left == now_held - min(N, can) * per >= 0
    assert site.markets_cash() == cash - expected * cost + min(N, can) * per * price


def test_markets_withdrawals_stop_at_the_cash(site):
    """Regression: 30-50 simultaneous $100 withdrawals took the cash from $324.79 to -$2,675.21 while the bank
    credited every one."""
    tok = tokens(1)[0]
    if site.markets_cash() < 100:
        _markets_deposit(site, 1_000)
    before_bank = last_line(site)
    cash = site.markets_cash()
    answers = burst(
        N,
        lambda i: site.form(
            "markets",
            "/api/transfers",
            [("direction", "withdraw"), ("amount", "1.00")],
            tok,
        ),
    )
    same_answers(answers)
    once = query(answers[0].location)["moved"]
    assert site.markets_cash() == cash - 100
    cash -= 100
    expected = min(N, cash // 10_000)
    toks = tokens()
    answers = burst(
        N,
        lambda i: site.form(
            "markets",
            "/api/transfers",
            [("direction", "withdraw"), ("amount", "100.00")],
            toks[i],
        ),
    )
    moved = [query(a.location)["moved"] for a in answers if "moved" in query(a.location)]
    assert len(moved) == expected == len(set(moved))
    assert all(
        "up to your balance" in query(a.location).get("error", "") for a in answers if "moved" not in query(a.location)
    )
    assert site.markets_cash() == cash - expected * 10_000 >= 0
    bank_refs = {
        r
        for (r,) in site.rows(
            "bank",
            "SELECT reference FROM external_transfers WHERE app = 'markets' "
            "AND direction = 'in' AND transaction_id > ?",
            (before_bank,),
        )
    }
    assert bank_refs == set(moved) | {once}
    assert_ledgers_match(site)


def test_markets_deposits_stop_at_checking(site):
    avail = site.fund_checking(400_000)
    amount = min(avail // 4 + 1, 2_500_000)
    expected = min(N, avail // amount)
    cash = site.markets_cash()
    toks = tokens()
    answers = burst(
        N,
        lambda i: site.form(
            "markets",
            "/api/transfers",
            [("direction", "deposit"), ("amount", f"{amount / 100:.2f}")],
            toks[i],
        ),
    )
    moved = [query(a.location)["moved"] for a in answers if "moved" in query(a.location)]
    assert len(moved) == expected == len(set(moved))
    assert all("refused" in query(a.location).get("error", "") for a in answers if "moved" not in query(a.location))
    assert site.markets_cash() == cash + expected * amount
    assert site.available("checking") == avail - expected * amount
    assert_ledgers_match(site)


# ===================================================================================================================
# The broker


def _broker_transfer(site: Site, direction: str, cents: int, token: str) -> Answer:
    return site.form(
        "brokerage",
        "/api/transfers",
        [("direction", direction), ("amount", f"{cents / 100:.2f}")],
        token,
    )


def test_broker_withdrawals_stop_at_buying_power(site):
    """Regression: 30 simultaneous $1,000 withdrawals answered "done" 22 times and executed 11 (the references
    collided at the bank and were merged silently)."""
    tok = tokens(1)[0]
    power = site.broker_power()
    answers = burst(N, lambda i: _broker_transfer(site, "withdrawal", 100, tok))
    same_answers(answers)
    assert query(answers[0].location).get("done") == "withdrawal"
    assert site.broker_power() == power - 100
    power -= 100
    expected = min(N, power // 100_000)
    toks = tokens()
    answers = burst(N, lambda i: _broker_transfer(site, "withdrawal", 100_000, toks[i]))
    refs = [query(a.location)["ref"] for a in answers if query(a.location).get("done") == "withdrawal"]
    assert len(refs) == expected == len(set(refs))
    assert all(
        "buying power" in query(a.location).get("error", "")
        for a in answers
        if query(a.location).get("done") != "withdrawal"
    )
    assert site.broker_power() == power - expected * 100_000 >= 0
    bank = {r for (r,) in site.rows("bank", "SELECT reference FROM external_transfers WHERE app = 'brokerage'")}
    assert set(refs) <= bank
    assert_ledgers_match(site)


def test_broker_deposits_stop_at_checking(site):
    avail = site.fund_checking(400_000)
    amount = min(avail // 4 + 1, 25_000_000)
    expected = min(N, avail // amount)
    power = site.broker_power()
    toks = tokens()
    answers = burst(N, lambda i: _broker_transfer(site, "deposit", amount, toks[i]))
    refs = [query(a.location)["ref"] for a in answers if query(a.location).get("done") == "deposit"]
    assert len(refs) == expected == len(set(refs))
    assert site.broker_power() == power + expected * amount
    assert site.available("checking") == avail - expected * amount
    tok = tokens(1)[0]
    site.fund_checking(10_000)
    answers = burst(N, lambda i: _broker_transfer(site, "deposit", 1_000, tok))
    same_answers(answers)
    assert site.broker_power() == power + expected * amount + 1_000
    assert_ledgers_match(site)


def _sym(site: Site) -> tuple[str, int]:
    return site.rows(
        "brokerage",
        "SELECT p.symbol, p.close_cents FROM prices p WHERE p.day = (SELECT MAX(day) FROM prices "
        "WHERE symbol = p.symbol AND day <= ?) ORDER BY p.close_cents, p.symbol LIMIT 1",
        (site.today,),
    )[0]


def _shares_text(e4: int) -> str:
    whole, frac = divmod(e4, 10_000)
    f = f"{frac:04d}".rstrip("0")
    return f"{whole}.{f}" if f else str(whole)


def _order(site: Site, symbol: str, side: str, shares_e4: int, token: str) -> Answer:
    return site.form(
        "brokerage",
        "/api/orders",
        [
            ("symbol", symbol),
            ("side", side),
            ("type", "market"),
            ("shares", _shares_text(shares_e4)),
            ("confirm", "yes"),
        ],
        token,
    )


def test_broker_orders_stop_at_buying_power_and_shares(site):
    symbol, price = _sym(site)
    if site.broker_power() < 40 * price:
        site.fund_checking(60 * price + 10_000)
        assert "done" in query(_broker_transfer(site, "deposit", 60 * price, tokens(1)[0]).location)
    power = site.broker_power()
    shares = max(1, power // 4 // price)
    cost = shares * price
    expected = min(N, power // cost)
    held = site.one(
        "brokerage",
        "SELECT COALESCE(SUM(shares_e4), 0) FROM holdings WHERE symbol = ?",
        (symbol,),
    )
    before = site.one("brokerage", "SELECT COALESCE(MAX(id), 0) FROM orders")
    # One token: one order.
    tok = tokens(1)[0]
    answers = burst(N, lambda i: _order(site, symbol, "buy", 10_000, tok))
    same_answers(answers)
    assert query(answers[0].location).get("done") == "filled"
    power -= price
    expected = min(N, power // cost)
    toks = tokens()
    answers = burst(N, lambda i: _order(site, symbol, "buy", shares * 10_000, toks[i]))
    numbers = [query(a.location)["order"] for a in answers if query(a.location).get("done") == "filled"]
    assert len(numbers) == expected == len(set(numbers))
    assert all(
        "buying power" in query(a.location).get("error", "").lower()
        for a in answers
        if query(a.location).get("done") != "filled"
    )
    assert site.rows(
        "brokerage",
        "SELECT COUNT(*), COALESCE(SUM(amount_cents), 0) FROM orders WHERE id > ? AND side = 'buy'",
        (before,),
    ) == [(expected + 1, (expected * shares + 1) * price)]
    assert site.broker_power() == power - expected * cost >= 0
    now_held = site.one("brokerage", "SELECT shares_e4 FROM holdings WHERE symbol = ?", (symbol,))
    assert now_held == held + (expected * shares + 1) * 10_000
    # Sells: as many as the shares held allow (less what open sell orders already promise).
    promised = site.one(
        "brokerage",
        "SELECT COALESCE(SUM(shares_e4), 0) FROM orders WHERE status = 'open' AND side = 'sell' AND symbol = ?",
        (symbol,),
    )
    per = max(1, (now_held - promised) // 4)
    can = min(N, (now_held - promised) // per)
    toks = tokens()
    answers = burst(N, lambda i: _order(site, symbol, "sell", per, toks[i]))
    assert sum(query(a.location).get("done") == "filled" for a in answers) == can
    left = site.rows("brokerage", "SELECT shares_e4 FROM holdings WHERE symbol = ?", (symbol,))
    assert (left[0][0] if left else 0) == now_held - can * per
    cash_lines = site.one(
        "brokerage",
        "SELECT COUNT(*) FROM cash_ledger c JOIN orders o ON o.order_number = c.reference WHERE o.id > ?",
        (before,),
    )
    assert cash_lines == expected + 1 + can


# ===================================================================================================================
# After every burst


def test_ledgers_match_after_the_bursts(site):
    """The bank's external transfers are the apps' transfers, one to one, and nothing is left pending."""
    assert_ledgers_match(site)
    assert (
        site.one(
            "markets",
            "SELECT COUNT(*) FROM activity WHERE world_ref IS NULL AND kind IN ('deposit', "
            "'withdrawal') AND bank_transaction_id IS NULL",
        )
        == 0
    )
    assert (
        site.one(
            "brokerage",
            "SELECT COUNT(*) FROM transfers WHERE world_ref IS NULL AND bank_transaction_id IS NULL",
        )
        == 0
    )
    assert site.markets_cash() >= 0 and site.broker_power() >= 0
    assert site.account("checking")["balance"] >= 0
    a = site.account("credit_card")
    assert site.available("credit_card") >= 0 and -a["balance"] <= a["limit"]


def test_error_banners_are_signed(site):
    for app, path in (
        ("markets", "/portfolio"),
        ("brokerage", "/transfers"),
        ("bank", "/transfer"),
        ("bank", "/send-money?form=contact&new_contact=1"),
    ):
        sep = "&" if "?" in path else "?"
        page = send(
            site.port,
            APPS[app].domain,
            f"{path}{sep}error=Wire+funds+to+evil.example",
            method="GET",
            cookie=site.cookies[app],
        )
        assert page.status == 200 and "Wire funds to evil.example" not in visible(page.body), (
            app,
            path,
        )
