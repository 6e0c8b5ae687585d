"""Larkspur Bank web app end to end: the production build on a copy of the seeded database.

Builds the default persona's layer, computes the expected values from the *world* (not from
the database), builds the Next.js app (reused when its sources are unchanged), starts the
standalone server on a free localhost port with ``DATABASE_PATH`` = a copy of the seeded
``bank.sqlite``, and runs ``node --test`` over ``apps/bank/web/e2e`` in headless Chromium.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import pytest

from builder.money import money
from builder.world import statements

from .conftest import DEFAULT_PERSONA, REPO

APPS = REPO / "apps"
WEB = APPS / "bank" / "web"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
STAMP = WEB / ".next" / "persona-build-inputs.sha256"


def _inputs_digest() -> str:
    """SHA-256 over the files that shape the build (sources, configs, lock file)."""
    h = hashlib.sha256()
    skip = {"node_modules", ".next", "e2e", "scripts"}
    files = [APPS / "package.json", APPS / "package-lock.json"]
    for root in (APPS / "_ui", WEB):
        files += [p for p in root.rglob("*") if p.is_file() and not skip & set(p.relative_to(root).parts)]
    for p in sorted(set(files)):
        h.update(p.relative_to(APPS).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def _build_app() -> None:
    """``npm run build --workspace bank/web`` unless the last build had the same inputs."""
    want = _inputs_digest()
    server = WEB / ".next" / "standalone" / "bank" / "web" / "server.js"
    if server.exists() and STAMP.exists() and STAMP.read_text() == want:
        return
    env = dict(os.environ, NEXT_TELEMETRY_DISABLED="1")
    res = subprocess.run(["npm", "run", "build", "--workspace", "bank/web"], cwd=APPS, env=env,
                         capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, f"next build failed:\n{res.stdout[-4000:]}\n{res.stderr[-4000:]}"
    STAMP.write_text(want)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_up(url: str, proc: subprocess.Popen, log: Path, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"server exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/login", timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.3)
    pytest.fail(f"server did not answer within {seconds}s:\n{log.read_text()[-3000:]}")


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
        row = {"name": spec.name, "closing_cents": closing, "closing_text": money(closing, cur),
               "last4": numbers[spec.kind][0][-4:], "lines": len(world.postings(spec.kind))}
        if spec.kind == "credit_card":
            limit = int(spec.credit_limit * 100)
            row |= {"owed_text": money(-closing, cur), "available_text": money(limit + closing, cur)}
        accounts[spec.kind] = row

    checking = world.postings("checking")
    # Search: the debit-card merchant seen most often in checking (ties by name), at most 25 times.
    counts = Counter(pst.counterparty for pst in checking if pst.kind == "card_purchase" and pst.counterparty)
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
        "username": creds["username"], "password": creds["password"], "session_token": creds["session_token"],
        "full_name": p.identity.name, "currency": cur, "as_of": p.as_of.isoformat(),
        "accounts": accounts,
        "search": {"q": merchant.lower(), "count": search_count},
        "date_filter": {"from": d_from.isoformat(), "to": d_to.isoformat(), "count": len(in_range)},
        "combined": {"q": combined_q, "from": d_from.isoformat(), "to": d_to.isoformat(),
                     "count": sum(_matches(pst, combined_q) for pst in in_range)},
        "statement": {"account": "checking", "period_start": st.start.isoformat(), "period_end": st.end.isoformat(),
                      "opening": f"{st.opening_cents / 100:.2f}", "credits": f"{st.credits_cents / 100:.2f}",
                      "debits": f"{st.debits_cents / 100:.2f}", "closing": f"{st.closing_cents / 100:.2f}",
                      "closing_text": money(st.closing_cents, cur), "lines": len(st.lines)},
        "transfer": {"amount": "125.00", "amount_text": money(transfer, cur),
                     "checking_after_text": money(c0 - transfer, cur), "savings_after_text": money(s0 + transfer, cur),
                     "too_much": f"{(c0 - transfer) / 100 + 1:.2f}"},
        "bill": {"payee": bill.payee, "amount": f"{bill_cents / 100:.2f}", "amount_text": money(bill_cents, cur),
                 "checking_after_text": money(c0 - transfer - bill_cents, cur)},
        "p2p": {"contact": friend.name, "amount": f"{p2p_cents / 100:.2f}", "amount_text": money(p2p_cents, cur),
                "memo": "concert tickets", "checking_after_text": money(c0 - transfer - bill_cents - p2p_cents, cur)},
    }


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_bank_web_end_to_end(world, tmp_path):
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} missing (scripts/setup-deps.sh installs chromium)"
    assert (APPS / "node_modules" / "next").is_dir(), "run `npm ci` in apps/ (scripts/install.sh does)"

    res = subprocess.run([sys.executable, "-m", "builder.cli", str(DEFAULT_PERSONA), "--until", "layer",
                          "--out", str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    seeded = tmp_path / "out" / "dana-whitfield" / "layer/var/lib/persona-desktop/apps/bank/bank.sqlite"
    db = tmp_path / "bank.sqlite"
    shutil.copyfile(seeded, db)

    _build_app()
    from builder.image.apps import assemble_standalone

    app_dir = tmp_path / "app"
    entry = assemble_standalone(WEB, app_dir)
    assert entry == "bank/web/server.js"

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    facts = world_facts(world) | {"base_url": base}
    facts_file = tmp_path / "facts.json"
    facts_file.write_text(json.dumps(facts, indent=2))

    log = tmp_path / "server.log"
    env = dict(os.environ, PORT=str(port), HOSTNAME="127.0.0.1", DATABASE_PATH=str(db), NEXT_TELEMETRY_DISABLED="1",
               NODE_ENV="production")
    with open(log, "wb") as lf:
        server = subprocess.Popen(["node", str(app_dir / entry)], cwd=(app_dir / entry).parent, env=env,
                                  stdout=lf, stderr=subprocess.STDOUT)
    try:
        _wait_up(base, server, log)
        test_env = dict(os.environ, BANK_FACTS=str(facts_file), BANK_ARTIFACTS=str(tmp_path / "artifacts"),
                        CHROMIUM_PATH=CHROMIUM)
        files = sorted(str(p.relative_to(WEB)) for p in (WEB / "e2e").glob("*.test.mjs"))
        assert files, "no e2e/*.test.mjs"
        run = subprocess.run(["node", "--test", "--test-concurrency=1", "--test-reporter=spec", *files], cwd=WEB,
                             env=test_env, capture_output=True, text=True, timeout=600)
        print(run.stdout[-6000:])
        assert run.returncode == 0, f"e2e failed:\n{run.stdout[-8000:]}\n{run.stderr[-3000:]}\nserver log:\n{log.read_text()[-2000:]}"
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    _check_ledger(db, world, facts)


def _check_ledger(db: Path, world, facts: dict) -> None:
    """The app's writes kept the ledger consistent: balances, running balances, both transfer legs."""
    con = sqlite3.connect(db)
    for acc_id, kind, opening, balance in con.execute(
            "SELECT id, kind, opening_balance_cents, balance_cents FROM accounts"):
        running = opening
        for amount, after in con.execute("SELECT amount_cents, balance_after_cents FROM transactions "
                                         "WHERE account_id = ? ORDER BY posted_at, id", (acc_id,)):
            running += amount
            assert after == running, (kind, amount, after, running)
        assert balance == running, kind
    made = con.execute("SELECT a.kind, t.kind, t.amount_cents, t.transfer_id, t.description, t.memo, t.posted_at "
                       "FROM transactions t JOIN accounts a ON a.id = t.account_id "
                       "WHERE t.world_ref IS NULL ORDER BY t.id").fetchall()
    assert [(m[0], m[1], m[2]) for m in made] == [
        ("checking", "transfer", -12500), ("savings", "transfer", 12500),
        ("checking", "bill_payment", -round(float(facts["bill"]["amount"]) * 100)),
        ("checking", "p2p_sent", -round(float(facts["p2p"]["amount"]) * 100)),
    ]
    assert made[0][3] and made[0][3] == made[1][3], "both legs share transfer_id"
    assert made[3][5] == facts["p2p"]["memo"]
    assert all(m[6] >= world.now.isoformat() for m in made), "app lines post at or after the world's now"
    con.close()
