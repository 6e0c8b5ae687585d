"""Statement PDFs: reproducible, and their totals equal the bank database's statements."""

from __future__ import annotations

import sqlite3
import subprocess

from apps.bank.seed import account_numbers, seed
from apps.bank.statements import write_statements
from builder.money import money


def _text(pdf):
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def test_statement_totals_match_bank_database(world, tmp_path):
    numbers = {k: n for k, (n, _, _) in account_numbers(world).items()}
    pdfs = write_statements(world, numbers, tmp_path / "Documents")
    assert len(pdfs) == 9
    con = sqlite3.connect(seed(world, tmp_path / "bank.sqlite"))
    # write_statements returns each account's last three statements, accounts in spec order.
    kinds = [a.kind for a in world.persona.accounts for _ in range(3)]
    for pdf, kind in zip(pdfs, kinds):
        text = _text(pdf)
        month = pdf.stem[-7:]
        row = con.execute(
            "SELECT opening_cents, credits_cents, debits_cents, closing_cents FROM statements s "
            "JOIN accounts a ON a.id = s.account_id WHERE a.kind = ? AND s.period_start LIKE ?",
            (kind, month + "%"),
        ).fetchone()
        opening, credits, debits, closing = row
        for label, cents in [
            ("Opening balance", opening),
            ("Deposits and credits", credits),
            ("Withdrawals and debits", -debits),
            ("Closing balance", closing),
        ]:
            assert f"{label}" in text and money(cents) in text, (pdf.name, label, money(cents))
        assert f"ending {numbers[kind][-4:]}" in text


def test_statement_pdfs_are_reproducible(world, tmp_path):
    numbers = {k: n for k, (n, _, _) in account_numbers(world).items()}
    a = write_statements(world, numbers, tmp_path / "a")
    b = write_statements(world, numbers, tmp_path / "b")
    assert [p.read_bytes() for p in a] == [p.read_bytes() for p in b]
    assert b"2026" in a[-1].read_bytes()  # CreationDate comes from the statement, not the clock
