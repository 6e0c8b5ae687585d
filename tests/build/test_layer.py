"""The layer and bundle stages: what they write, each stage driven alone; determinism across processes.

The stages run in this process on the session's world (tests/conftest.py ``default_layer``, ``any_world``); only
the determinism check runs ``build-image --until layer|bundle`` twice as subprocesses (``pipeline``: the full lane).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import subprocess
import sys
from zoneinfo import ZoneInfo

import pytest

from builder.apps import discover
from builder.bundle import write_bundle
from builder.tasks.model import Task

from tests.app_e2e import layer
from tests.conftest import DEFAULT_PERSONA, REPO, _world


def _build(out, until):
    res = subprocess.run(
        [sys.executable, "-m", "builder.cli", str(DEFAULT_PERSONA), "--out", str(out), "--until", until],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert res.returncode == 0, res.stderr
    return out / "dana-whitfield"


def _hashes(root):
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def bundle(world, default_layer, tmp_path_factory):
    """The bundle stage alone: the default persona's tasks, manifest and sums beside a copy of its session layer."""
    dest = tmp_path_factory.mktemp("bundle") / "dana-whitfield"
    shutil.copytree(default_layer, dest / "layer", symlinks=True)
    write_bundle(world, discover(), DEFAULT_PERSONA, dest, with_image=False)
    return dest


@pytest.mark.pipeline
def test_layer_is_byte_identical_across_two_processes(tmp_path):
    bundle = _build(tmp_path / "a", "bundle")
    again = _build(tmp_path / "b", "layer")
    first, second = _hashes(bundle / "layer"), _hashes(again / "layer")
    assert len(first) >= 12
    assert first == second
    assert _hashes(bundle / "world") == _hashes(again / "world")


def test_layer_holds_the_guest_tree(default_layer):
    layer = default_layer
    guest = json.loads((layer / "etc/persona-desktop/guest.json").read_text())
    assert guest["username"] == "dana" and guest["as_of"] == "2026-11-16T09:00:00"
    assert guest["as_of_utc"] == "2026-11-16T17:00:00"  # America/Los_Angeles, PST in November
    assert (layer / "home/dana/.mozilla/firefox/profiles.ini").is_file()
    assert len(list((layer / "home/dana/Documents").glob("*.pdf"))) == 9
    db = layer / "var/lib/persona-desktop/apps/bank/bank.sqlite"
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    assert con.execute("SELECT COUNT(*) FROM transactions").fetchone()[0] >= 900


def test_firefox_form_history_holds_what_the_persona_typed(default_layer, world):
    """The address bar's searches and the app fields Firefox offers back when the persona starts typing: each value
    with as many uses as the world gave it, under the input's own name."""
    (profile,) = (default_layer / "home/dana/.mozilla/firefox").glob("*.default*")
    con = sqlite3.connect(profile / "formhistory.sqlite")
    rows = {(f, v): n for f, v, n in con.execute("SELECT fieldname, value, timesUsed FROM moz_formhistory")}
    searches = [e.data["search_query"] for e in world.of_kind("web_visit") if e.data.get("search_query")]
    assert searches and all(rows[("searchbar-history", q)] == searches.count(q) for q in searches)
    dropoffs = [e.data["dropoff"] for e in world.of_kind("ride") if e.status == "done" and e.at <= world.now]
    assert all(rows[("dropoff", d)] >= dropoffs.count(d) for d in dropoffs)
    booked = {e.data["restaurant"] for e in world.of_kind("restaurant_booking") if e.status == "done"}
    assert booked and booked <= {v for f, v in rows if f == "q"}
    terms = {v for f, v in rows if f == "q"} - booked
    assert len(terms) >= 20 and all(t == t.lower() and t.strip() == t and "  " not in t for t in terms), terms
    (latest,) = con.execute("SELECT MAX(lastUsed) FROM moz_formhistory").fetchone()
    assert latest <= int(world.now.replace(tzinfo=ZoneInfo(world.persona.timezone)).timestamp()) * 10**6


def test_bank_balance_equals_world(default_layer, world):
    con = sqlite3.connect(default_layer / "var/lib/persona-desktop/apps/bank/bank.sqlite")
    got = dict(con.execute("SELECT kind, balance_cents FROM accounts").fetchall())
    assert got == {k: world.closing_balance_cents(k) for k in world.account_kinds()}
    for kind, balance in got.items():
        (last,) = con.execute(
            "SELECT balance_after_cents FROM transactions t JOIN accounts a ON a.id = t.account_id "
            "WHERE a.kind = ? ORDER BY posted_at DESC, t.id DESC LIMIT 1",
            (kind,),
        ).fetchone()
        assert last == balance


def test_bundle_tasks_manifest_and_sums(bundle):
    tasks = [Task.model_validate_json(line) for line in (bundle / "tasks/tasks.jsonl").read_text().splitlines()]
    assert len(tasks) >= 8
    manifest = json.loads((bundle / "manifest.json").read_text())
    assert manifest["as_of"] == "2026-11-16"
    bank = next(a for a in manifest["apps"] if a["name"] == "bank")
    assert bank["domain"] == "larkspurbank.test" and bank["password"] and bank["username"] == "dana"
    listed = {a["path"]: a for a in manifest["artifacts"]}
    assert "tasks/tasks.jsonl" in listed and "layer/etc/persona-desktop/guest.json" in listed
    for line in (bundle / "SHA256SUMS").read_text().splitlines():
        digest, path = line.split("  ", 1)
        assert hashlib.sha256((bundle / path).read_bytes()).hexdigest() == digest, path


def test_world_stage_writes_completed_persona_and_stats(tmp_path):
    bundle = _build(tmp_path, "world")
    stats = json.loads((bundle / "world/stats.json").read_text())
    assert stats["bank_transaction"] >= 900 and stats["paycheck"] >= 39
    completed = json.loads((bundle / "world/persona.completed.json").read_text())
    assert completed["identity"]["username"] == "dana"
    lines = (bundle / "world/events.jsonl").read_text().splitlines()
    assert len(lines) == sum(v for k, v in stats.items() if k not in ("bank_transaction", "order", "scheduled"))


@pytest.mark.parametrize("stem", ["callum-brierley", "jordan-lee"])
def test_every_shipped_persona_builds_its_layer(tmp_path_factory, stem):
    persona, world = _world(stem)
    root = layer(world, tmp_path_factory.mktemp("layers"), home=False)  # guest.json and the databases
    guest = json.loads((root / "etc/persona-desktop/guest.json").read_text())
    con = sqlite3.connect(root / "var/lib/persona-desktop/apps/bank/bank.sqlite")
    meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
    if stem == "callum-brierley":
        assert (meta["currency"], meta["locale"], guest["timezone"]) == ("GBP", "en-GB", "Europe/London")
        ibans = [r[0] for r in con.execute("SELECT iban FROM accounts WHERE kind != 'credit_card'")]
        assert all(i.startswith("GB") and len(i) == 22 for i in ibans)
    completed = json.loads(persona.model_dump_json(by_alias=True, exclude_none=True))
    assert completed["identity"]["address"] and completed["contacts"] and completed["travel"]["trips"]
