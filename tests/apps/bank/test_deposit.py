"""The bank's deposit-insurance line by country (issue 26): "Member FDIC" only for a US bank, the FSCS in Britain,
the German statutory guarantee in Germany, none claimed anywhere else."""

from __future__ import annotations

import json
import re
import sqlite3

from apps.bank import seed as bank_seed
from builder.reference.banking import deposit_insurance
from tests.conftest import REPO, tokyo_world

LABELS = REPO / "apps" / "bank" / "web" / "lib" / "labels.ts"


def test_the_reference_names_each_countrys_scheme():
    assert deposit_insurance("us") == {"suffix": ", N.A.", "scheme": "Member FDIC", "notice": "Equal Housing Lender"}
    assert deposit_insurance("GB")["scheme"] == "FSCS protected"
    assert "Einlagensicherung" in deposit_insurance("DE")["scheme"]
    for country in ("JP", "BR", "FR", "CA"):
        assert deposit_insurance(country) == {"suffix": "", "scheme": "", "notice": ""}, country


def test_the_web_table_is_the_references():
    """labels.ts's DEPOSIT (the pages' words for a persona at home in its locale's country) equals banking.yaml."""
    text = LABELS.read_text(encoding="utf-8")
    rows = re.findall(r'^\s+(US|GB|DE): \{ suffix: "(.*?)", scheme: "(.*?)", notice: "(.*?)" \},$', text, re.M)
    assert {c: {"suffix": s, "scheme": sc, "notice": n} for c, s, sc, n in rows} == {
        c: deposit_insurance(c) for c in ("US", "GB", "DE")
    }
    for page in ("app/(bank)/layout.tsx", "app/login/page.tsx", "lib/statement.ts"):
        assert "FDIC" not in (REPO / "apps" / "bank" / "web" / page).read_text(encoding="utf-8"), page


def test_a_tokyo_bank_claims_no_scheme(tmp_path):
    _, world = tokyo_world()
    db = bank_seed.seed(world, tmp_path / "bank.sqlite")
    with sqlite3.connect(db) as c:
        meta = dict(c.execute("SELECT key, value FROM meta"))
    assert json.loads(meta["deposit_insurance"]) == {"notice": "", "scheme": "", "suffix": ""}


def test_a_tokyo_statement_claims_no_fdic(tmp_path):
    """The seeded statement PDFs of an en_US persona in Tokyo do not say "Member FDIC"."""
    from apps.bank.statements import write_statements
    from builder.world import account_numbers
    from tests.files.test_statement_text import _text

    _, world = tokyo_world()
    pdfs = write_statements(world, {k: v[0] for k, v in account_numbers(world).items()}, tmp_path, months=1)
    text = " ".join(_text(p) for p in pdfs)
    assert pdfs and "(fictional bank) · Page" in text and "FDIC" not in text
