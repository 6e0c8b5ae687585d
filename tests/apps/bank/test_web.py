"""Larkspur Bank web app end to end: the production site on a copy of the seeded database.

Computes the expected values from the *world* (not from the database), serves the one site
build (tests/app_e2e.py) on copies of the default persona's databases and runs
``apps/bank/web/e2e`` in headless Chromium, then checks the ledger the app left behind.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from builder.money import money
from builder.world import payment_cards, statements

from tests.app_e2e import Served, run_e2e

# Every test here serves the site build (tests/app_e2e.py): out of the fast lane.
pytestmark = pytest.mark.usefixtures("site_build")


def _matches(p, q: str) -> bool:
    q = q.lower()
    return any(q in (s or "").lower() for s in (p.description, p.counterparty, p.memo))


def world_facts(world) -> dict:
    """Every value the browser tests expect, from the world (and the seed's derived credentials)."""
    from apps.bank.seed import account_numbers, credentials

    cur = world.currency
    p = world.persona
    numbers = account_numbers(world)
    accounts = {}
    for spec in p.accounts:
        closing = world.closing_balance_cents(spec.kind)
        row = {
            "name": spec.name,
            "closing_cents": closing,
            "closing_text": money(closing, cur),
            "last4": numbers[spec.kind][0][-4:],
            "lines": len(world.postings(spec.kind)),
        }
        if spec.kind == "credit_card":
            limit = int(spec.credit_limit * 100)
            row |= {"owed_text": money(-closing, cur), "available_text": money(limit + closing, cur)}
        accounts[spec.kind] = row

    checking = world.postings("checking")
    # Search: the counterparty seen most often in checking (ties by name) with at most 25 lines (one page of results).
    counts = Counter(pst.counterparty for pst in checking if pst.counterparty)
    merchant = sorted((n for n, c in counts.items() if c <= 25), key=lambda n: (-counts[n], n))[0]
    search_count = sum(_matches(pst, merchant) for pst in checking)
    # Date filter: the first half of last month.
    last_month_end = world.now.date().replace(day=1) - dt.timedelta(days=1)
    d_from, d_to = last_month_end.replace(day=1), last_month_end.replace(day=15)
    in_range = [pst for pst in checking if d_from <= pst.at.date() <= d_to]
    # Combined: the counterparty seen most often in that range (ties by name), with the dates.
    in_range_counts = Counter(pst.counterparty for pst in in_range if pst.counterparty)
    combined_q = sorted(in_range_counts, key=lambda n: (-in_range_counts[n], n))[0].lower()
    st = statements(world, "checking")[-1]

    transfer = 12500
    bill = next(c for c in p.recurring_charges if c.method == "bill_pay")
    bill_cents = int(bill.amount * 100)
    friend = next((c for c in p.contacts if c.name == "Priya Raman"), p.contacts[0])
    p2p_cents = 4250
    c0, s0 = accounts["checking"]["closing_cents"], accounts["savings"]["closing_cents"]
    creds = credentials(world)
    return {
        "username": creds["username"],
        "password": creds["password"],
        "session_token": creds["session_token"],
        "full_name": p.identity.name,
        "currency": cur,
        "as_of": p.as_of.isoformat(),
        "accounts": accounts,
        "search": {"q": merchant.lower(), "count": search_count},
        "date_filter": {"from": d_from.isoformat(), "to": d_to.isoformat(), "count": len(in_range)},
        "combined": {
            "q": combined_q,
            "from": d_from.isoformat(),
            "to": d_to.isoformat(),
            "count": sum(_matches(pst, combined_q) for pst in in_range),
        },
        "statement": {
            "account": "checking",
            "period_start": st.start.isoformat(),
            "period_end": st.end.isoformat(),
            "opening": f"{st.opening_cents / 100:.2f}",
            "credits": f"{st.credits_cents / 100:.2f}",
            "debits": f"{st.debits_cents / 100:.2f}",
            "closing": f"{st.closing_cents / 100:.2f}",
            "closing_text": money(st.closing_cents, cur),
            "lines": len(st.lines),
        },
        "transfer": {
            "amount": "125.00",
            "amount_text": money(transfer, cur),
            "checking_after_text": money(c0 - transfer, cur),
            "savings_after_text": money(s0 + transfer, cur),
            "too_much": f"{(c0 - transfer) / 100 + 1:.2f}",
        },
        "bill": {
            "payee": bill.payee,
            "amount": f"{bill_cents / 100:.2f}",
            "amount_text": money(bill_cents, cur),
            "checking_after_text": money(c0 - transfer - bill_cents, cur),
        },
        "scheduled": _scheduled_facts(world, bill.payee),
        "cards": [c["last4"] for c in sorted(payment_cards(world), key=lambda c: c["account"] != "checking")],
        "p2p": {
            "contact": friend.name,
            "amount": f"{p2p_cents / 100:.2f}",
            "amount_text": money(p2p_cents, cur),
            "memo": "concert tickets",
            "checking_after_text": money(c0 - transfer - bill_cents - p2p_cents, cur),
        },
    }


def _scheduled_facts(world, payee: str) -> dict:
    """The scheduled list the world predicts (each recurring bill-pay and autopay charge at its next occurrence,
    soonest first, then by payee), and what the e2e schedules, changes and stops."""
    from apps.bank.seed import scheduled_payments

    rows = sorted(
        (
            {"payee": c.payee, "date": e.at.date().isoformat(), "cents": e.data["amount_cents"], "method": c.method}
            for c, e in scheduled_payments(world)
        ),
        key=lambda r: (r["date"], r["payee"].lower()),
    )
    today = world.now.date()
    return {
        "rows": rows,
        "today": today.isoformat(),
        "payee": payee,
        "date": (today + dt.timedelta(days=10)).isoformat(),
        "amount": "55.00",
        "new_amount": "60.25",
        "new_date": (today + dt.timedelta(days=12)).isoformat(),
        "too_late": (today + dt.timedelta(days=366)).isoformat(),
        "stop": next(r["payee"] for r in rows if r["method"] == "autopay"),
    }


def test_bank_web_end_to_end(world, default_layer, tmp_path):
    facts = world_facts(world)
    # The apps' clock starts at the world's now: the scheduled payments are dated from it.
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        print(run_e2e("bank", facts, served, tmp_path)[-6000:])
        _check_ledger(served.database("bank"), world, facts)


def _check_ledger(db: Path, world, facts: dict) -> None:
    """The app's writes kept the ledger consistent: balances, running balances, both transfer legs."""
    con = sqlite3.connect(db)
    for acc_id, kind, opening, balance in con.execute(
        "SELECT id, kind, opening_balance_cents, balance_cents FROM accounts"
    ):
        running = opening
        for amount, after in con.execute(
            "SELECT amount_cents, balance_after_cents FROM transactions WHERE account_id = ? ORDER BY posted_at, id",
            (acc_id,),
        ):
            running += amount
            assert after == running, (kind, amount, after, running)
        assert balance == running, kind
    made = con.execute(
        "SELECT a.kind, t.kind, t.amount_cents, t.transfer_id, t.description, t.memo, t.posted_at "
        "FROM transactions t JOIN accounts a ON a.id = t.account_id "
        "WHERE t.world_ref IS NULL ORDER BY t.id"
    ).fetchall()
    assert [(m[0], m[1], m[2]) for m in made] == [
        ("checking", "transfer", -12500),
        ("savings", "transfer", 12500),
        ("checking", "bill_payment", -round(float(facts["bill"]["amount"]) * 100)),
        ("checking", "p2p_sent", -round(float(facts["p2p"]["amount"]) * 100)),
    ]
    assert made[0][3] and made[0][3] == made[1][3], "both legs share transfer_id"
    assert made[3][5] == facts["p2p"]["memo"]
    assert all(m[6] >= world.now.isoformat() for m in made), "app lines post at or after the world's now"
    # The one payment scheduled in the app, as changed; the one AutoPay stopped; the rest as the world made them.
    sc = facts["scheduled"]
    assert con.execute(
        "SELECT p.name, s.method, s.frequency, s.next_date, s.amount_cents, s.updated_at IS NOT NULL, s.status "
        "FROM scheduled_payments s JOIN payees p ON p.id = s.payee_id WHERE s.world_ref IS NULL"
    ).fetchall() == [
        (sc["payee"], "bill_pay", "once", sc["new_date"], round(float(sc["new_amount"]) * 100), 1, "scheduled")
    ]
    assert con.execute(
        "SELECT p.name FROM scheduled_payments s JOIN payees p ON p.id = s.payee_id WHERE s.status = 'cancelled'"
    ).fetchall() == [(sc["stop"],)]
    assert con.execute(
        "SELECT COUNT(*) FROM scheduled_payments WHERE world_ref IS NOT NULL AND updated_at IS NULL"
    ).fetchone() == (len(sc["rows"]),)
    con.close()
