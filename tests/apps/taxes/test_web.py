"""Ledgerleaf Tax (apps/taxes) end to end: the production site on copies of the seeded databases.

Expected values come from the *world*: the year's paycheck events (gross and net per payday, the withholding
split of builder.world.tax_year), the bank's interest postings, the broker's events and the filed return event;
never from the app's database. After the browser run the test reads what the app left behind.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3

from builder.money import money
from builder.tasks.grade import grade
from builder.world import tax_year as ty

from tests.app_e2e import Served, post_form, run_e2e

HOST = "ledgerleaf.test"
WORDS = {
    "next": "Save and continue",
    "exit": "Save and exit",
    "signOut": "Sign out",
    "deductions": "Deductions",
    "fileNow": "File my return",
}


def _plain(cents: int) -> str:
    return f"{'-' if cents < 0 else ''}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def world_facts(world) -> dict:
    """Every value the browser test expects, from the world."""
    from apps.taxes.seed import credentials
    from apps.taxes.tasks import imported_result

    p = world.persona
    year = ty.tax_year(p)
    checks = ty.payroll(p, world.events, year)
    wages = sum(c.gross_cents for c in checks)  # the paychecks' sums, not the form's boxes
    federal = sum(c.withheld["federal"] for c in checks)
    refund = imported_result(world)["refund"]
    filed = ty.filed_return(world)
    creds = credentials(world)
    return {
        "username": creds["username"],
        "password": creds["password"],
        "session_token": creds["session_token"],
        "first_name": p.identity.name.split()[0],
        "full_name": p.identity.name,
        "city": p.identity.address.city,
        "year": year.label,
        "forms": [f["form"] for f in ty.tax_forms(world)],
        "wage_field": "w2_1",
        "withheld_field": "w2_2",
        "wages": wages,
        "withheld": federal,
        "wages_text": _plain(wages),
        "withheld_text": _plain(federal),
        "refund": refund,
        "refund_text": money(abs(refund), world.currency),
        "donation_text": "125.00",
        "words": WORDS,
        "last_year": {
            "id": 1,
            "label": filed["tax_year"],
            "confirmation": filed["confirmation"],
            "amount_text": money(abs(filed["refund_cents"]), world.currency),
        },
    }


def test_taxes_seed_is_the_world(any_world, tmp_path):
    """The seed's issued forms are tax_forms(world); last year's return is the filed event with its PDF; no return
    for this year yet; two seeds are byte-identical."""
    from apps.taxes.seed import seed

    _, world = any_world
    a, b = seed(world, tmp_path / "a.sqlite"), seed(world, tmp_path / "b.sqlite")
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()
    con = sqlite3.connect(a)
    forms = con.execute("SELECT form, issuer, boxes FROM issued_forms ORDER BY id").fetchall()
    assert [(f, i, json.loads(bx)) for f, i, bx in forms] == [
        (f["form"], f["issuer"], f["boxes"]) for f in ty.tax_forms(world)
    ]
    filed = ty.filed_return(world)
    rows = con.execute("SELECT tax_year, status, refund_cents, confirmation, world_ref FROM returns").fetchall()
    assert rows == [
        (
            filed["tax_year"],
            "filed",
            filed["refund_cents"],
            filed["confirmation"],
            world.of_kind("tax_return_filed")[0].id,
        )
    ]
    (pdf,) = con.execute("SELECT content FROM documents").fetchone()
    assert pdf[:5] == b"%PDF-"
    con.close()


def test_taxes_web_end_to_end(site_build, world, default_layer, tmp_path):
    facts = world_facts(world)
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        print(run_e2e("taxes", facts, served, tmp_path)[-6000:])
        con = sqlite3.connect(served.database("taxes"))
        ret = con.execute("SELECT id, status, refund_cents, step FROM returns WHERE world_ref IS NULL").fetchall()
        assert len(ret) == 1 and ret[0][1:3] == ("filed", facts["refund"]), ret
        values = dict(con.execute("SELECT name, value FROM return_values WHERE return_id = ?", (ret[0][0],)).fetchall())
        # The imported wages and withholding are the payslips' sums; the refused bad amount left them as they were.
        assert values["w2_1"] == str(facts["wages"]) and values["w2_2"] == str(facts["withheld"])
        assert values["first_name"] == facts["first_name"] and values["donations"] == ""
        assert con.execute("SELECT COUNT(*) FROM form_imports").fetchone()[0] == len(facts["forms"])
        con.close()


def test_bad_input_is_refused_and_nothing_saved(site_build, world, default_layer, tmp_path):
    """Route-level: a bad amount, a negative wage, an unknown form, filing an incomplete return: each answers with
    an error and leaves the database as it was."""
    from apps.taxes.seed import credentials

    cookie = f"ll_session={credentials(world)['session_token']}"
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        db = served.database("taxes")

        def snapshot():
            con = sqlite3.connect(db)
            out = [
                con.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
                for t in ("returns", "return_values", "form_imports")
            ]
            con.close()
            return out

        before = snapshot()
        for fields in (
            [("step", "income"), ("go", "next"), ("w2_employer", "X"), ("w2_1", "1,2,3"), ("w2_2", "10")],
            [("step", "income"), ("go", "next"), ("w2_employer", "X"), ("w2_1", "-50.00"), ("w2_2", "10")],
            [("step", "income"), ("go", "next"), ("w2_employer", "X"), ("w2_1", "99999999999"), ("w2_2", "1")],
            [("step", "deductions"), ("go", "next"), ("itemize", "both"), ("donations", "5")],
        ):
            status, location = post_form(served, HOST, "/api/return/save", fields, cookie)
            assert status == 303 and "error=" in location, (fields, location)
        status, location = post_form(served, HOST, "/api/return/import", [("form", "999")], cookie)
        assert "error=" in location
        assert snapshot() == before
        # A draft with no income cannot be filed.
        status, location = post_form(
            served,
            HOST,
            "/api/return/save",
            [
                ("step", "personal"),
                ("go", "next"),
                ("first_name", "A"),
                ("last_name", "B"),
                ("street", "1 Main"),
                ("city", "X"),
                ("region", "OR"),
                ("postal_code", "97214"),
                ("occupation", ""),
            ],
            cookie,
        )
        assert "error=" not in location
        status, location = post_form(
            served, HOST, "/api/return/file", [("consent", "yes"), ("signature", world.persona.identity.name)], cookie
        )
        assert "error=" in location
        con = sqlite3.connect(db)
        assert con.execute("SELECT status FROM returns WHERE world_ref IS NULL").fetchall() == [("draft",)]
        con.close()


def test_tasks_contract(world, default_layer):
    """>= 8 tasks, >= 3 actions, >= 4 spanning two apps; doing nothing scores 0 on every action (the reference
    solutions, apps/taxes/oracle.py, score in full in tests/tasks/test_oracles.py)."""
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("taxes")

    ts = {t.id.split("/")[-1]: t for t in tasks(world)}
    actions = [t for t in ts.values() if t.kind == "action"]
    assert len(ts) >= 8 and len(actions) >= 3 and sum(len(t.apps_involved) > 1 for t in ts.values()) >= 4
    layer_apps = default_layer / "var/lib/persona-desktop/apps"
    dbs = {"taxes": layer_apps / "taxes" / "taxes.sqlite", "bank": layer_apps / "bank" / "bank.sqlite"}
    for t in actions:
        assert grade(t, dbs, initial=dbs)[0] == 0, t.id
