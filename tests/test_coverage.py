"""Spec coverage (builder/coverage.py): which of a spec's facts the built desktop shows, on a small layer made here
(a database with hidden columns and a meta table, a Maildir message with a base64 body, a DOCX, a machine config file)."""

from __future__ import annotations

import json
import sqlite3
from email.message import EmailMessage
from pathlib import Path

import docx
import pytest

from builder.coverage import coverage, facts, forms, main

REPO = Path(__file__).resolve().parent.parent


def _layer(tmp_path):
    layer = tmp_path / "build" / "layer"
    db = layer / "var" / "lib" / "apps" / "bank" / "bank.sqlite"
    db.parent.mkdir(parents=True)
    con = sqlite3.connect(db)
    con.execute("create table payees (name text, amount_cents integer, style text, card_json text)")
    con.execute("insert into payees values ('Maple Row Apartments', 165000, 'chatty', '{\"job\": \"Beekeeper\"}')")
    con.execute("create table meta (key text, value text)")
    con.execute("insert into meta values ('employer', 'Hidden Corp')")
    con.commit()
    con.close()
    mail = layer / "home" / "rosa" / "Mail" / "cur" / "1.persona-desktop:2,S"
    mail.parent.mkdir(parents=True)
    msg = EmailMessage()
    msg["Subject"] = "Dinner"
    msg["From"] = "Ines <ines@mailbox.test>"
    msg.set_content("See you at Casa Lupita on Mar 14, 2026 at 6:30 PM.", cte="base64")
    mail.write_bytes(bytes(msg))
    doc = docx.Document()
    doc.add_paragraph("Rosa Lindqvist, Senior Product Designer")
    doc.save(layer / "home" / "rosa" / "cv.docx")
    (layer / "etc").mkdir()
    (layer / "etc" / "guest.json").write_text('{"pet": "a dog called Biscuit"}')
    return layer


SPEC = {
    "$schema": "persona.schema.json",
    "seed": 7,
    "_note": "a comment",
    "identity": {"name": "Rosa Lindqvist"},
    "work": {"role": "Senior Product Designer", "employer": "Hidden Corp"},
    "finances": {"recurring_charges": [{"payee": "Maple Row Apartments", "amount": 1650, "day": 1, "method": "card"}]},
    "contacts": [{"name": "Ines", "messaging_style": "chatty", "job": "Beekeeper", "pets": ["a dog called Biscuit"]}],
    "life_events": [{"date": "2026-03-14", "title": "Dinner at Casa Lupita", "time": "18:30"}],
    "travel": {"seat": "window", "trips": [{"flight": "TP1357"}]},
}


def test_facts_are_the_leaves_the_author_wrote():
    paths = [f.path for f in facts(SPEC)]
    assert "seed" not in paths and "$schema" not in paths and "_note" not in paths
    assert "contacts[0].pets[0]" in paths and "finances.recurring_charges[0].amount" in paths
    assert len(paths) == 16
    assert "165000" in forms(1650, money=True) and "1,650.00" in forms(1650, money=True)
    assert "165000" not in forms(1650) and "mar 14, 2026" in forms("2026-03-14") and "6:30 pm" in forms("18:30")


def test_coverage_reads_databases_mail_and_documents_but_not_what_no_page_shows(tmp_path, capsys):
    layer = _layer(tmp_path)
    seen, missing = coverage(SPEC, layer)
    where = {f.path: src for f, src in seen}
    assert where["finances.recurring_charges[0].payee"] == "bank.sqlite:payees"
    assert where["finances.recurring_charges[0].amount"] == "bank.sqlite:payees"  # 165000 cents
    assert where["life_events[0].date"].startswith("home/rosa/Mail/cur/")  # decoded from base64
    assert where["life_events[0].time"].startswith("home/rosa/Mail/cur/")
    assert where["work.role"] == "home/rosa/cv.docx"
    assert {f.path for f in missing} == {
        "work.employer",  # only in the meta table
        "finances.recurring_charges[0].day",  # one digit: not checkable
        "finances.recurring_charges[0].method",
        "contacts[0].messaging_style",  # a hidden column
        "contacts[0].job",  # only inside an app's JSON card
        "contacts[0].pets[0]",  # only under etc/
        "travel.seat",
        "travel.trips[0].flight",
        "life_events[0].title",  # the mail names the place, not the event's title
    }
    assert main([str(tmp_path / "spec.json"), str(tmp_path / "build")]) == 2
    (tmp_path / "spec.json").write_text(json.dumps(SPEC))
    assert main([str(tmp_path / "spec.json"), str(tmp_path / "build")]) == 0
    assert capsys.readouterr().out.startswith("spec.json: 7 of 16 facts visible (43.8 %)")


@pytest.mark.pipeline
def test_a_rich_hand_written_spec_is_mostly_visible(tmp_path):
    """tests/data/rich/ines-carvalho.json (an invented engineer in Toronto, 375 facts, written by hand): built
    ``--until layer``, at least 91 % of its facts are on the desktop (343 of 375 when written), among them every
    scripted message, the bio, the fixed flight and hotel, each contact's apps and every planted claim."""
    from typer.testing import CliRunner

    from builder.cli import app

    spec_path = REPO / "tests" / "data" / "rich" / "ines-carvalho.json"
    res = CliRunner().invoke(app, [str(spec_path), "--out", str(tmp_path), "--until", "layer"])
    assert res.exit_code == 0, res.output
    spec = json.loads(spec_path.read_text())
    seen, missing = coverage(spec, tmp_path / "ines-carvalho" / "layer")
    assert len(seen) + len(missing) == 375
    assert len(seen) / 375 >= 0.91, [f"{f.path} = {f.value!r}" for f in missing]
    shown = {f.path for f, _ in seen}
    must = [
        f.path
        for f, _ in seen + [(m, "") for m in missing]
        if ".conversations[" in f.path
        or ".apps[" in f.path
        or f.path.startswith("contradictions[")
        or f.path.endswith(("bio", "hotel", "flight"))
    ]
    assert len(must) > 25 and [p for p in must if p not in shown] == []
