"""SQL checks are parameterized and graded on a connection that cannot change the state it grades.

Persona files are untrusted input: a contact called O'Brien or a payee called
``Bobby'); DROP TABLE accounts;--`` must neither break a bank check nor reach its SQL text.
"""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
from pathlib import Path

import pytest

from apps.bank.seed import seed
from builder.tasks.collect import tasks_of
from builder.persona import complete, load
from builder.tasks.grade import grade, run_check
from builder.tasks.model import Check, RubricItem, Task, count_placeholders
from builder.world import simulate

from tests.conftest import DEFAULT_PERSONA

tasks = tasks_of("bank")

TRICKY_CONTACTS = [
    "Siobhan O'Brien",
    "Robert'); DELETE FROM transactions; --",
    'Zoë "Zed" D\'Arcy',
    "Ann 100% _Real_ O'Neil",
    "Léa ' OR '1'='1",
    "Conor O''Hara",
    "Mia /* x */ ? Chen",
    "Tom \\' Backslash",
    "Éamon Ó Dálaigh",
]
TRICKY_PAYEES = {
    "Alder Court Apartments": "Bobby'); DROP TABLE accounts;--",
    "Nelnet": "O'Reilly & Sons' \"Loans\" ?",
}


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _replace_everywhere(value, names: dict[str, str]):
    """``value`` (parsed JSON) with every occurrence of each old name, in any string, replaced."""
    if isinstance(value, str):
        for old, new in names.items():
            value = value.replace(old, new)
        return value
    if isinstance(value, list):
        return [_replace_everywhere(v, names) for v in value]
    if isinstance(value, dict):
        return {k: _replace_everywhere(v, names) for k, v in value.items()}
    return value


@pytest.fixture(scope="module")
def tricky_world(tmp_path_factory):
    """The default persona with every contact and bill-pay payee renamed to quote- and SQL-laden text."""
    data = json.loads(DEFAULT_PERSONA.read_text())
    names = {c["name"]: new for c, new in zip(data["contacts"], TRICKY_CONTACTS)}
    assert len(names) == len(data["contacts"]), "give every contact a tricky name"
    bill_payees = {c["payee"] for c in data["finances"]["recurring_charges"] if c["method"] == "bill_pay"}
    assert bill_payees <= set(TRICKY_PAYEES), bill_payees
    names |= TRICKY_PAYEES
    spec = _replace_everywhere(copy.deepcopy(data), names)
    spec["id"] = "tricky-quotes"
    path = tmp_path_factory.mktemp("persona") / "tricky-quotes.json"
    path.write_text(json.dumps(spec, ensure_ascii=False, indent=2))
    return simulate(complete(load(path)))


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    """world -> its seeded bank database (built once per world; copy it before changing it)."""
    cache: dict[int, Path] = {}

    def get(world) -> Path:
        if id(world) not in cache:
            cache[id(world)] = seed(world, tmp_path_factory.mktemp("bank") / "bank.sqlite")
        return cache[id(world)]

    return get


def _action_tasks(world) -> list[Task]:
    out = [t for t in tasks(world) if t.kind == "action"]
    assert out
    return out


def _sql_checks(task: Task) -> list[Check]:
    return [i.check for i in task.rubric if i.check and i.check.type == "sql"]


# --- The tricky persona. ---


def test_tricky_names_reach_the_tasks(tricky_world):
    by_slug = {t.id.rsplit("/", 1)[1]: t for t in tasks(tricky_world)}
    assert by_slug["send-money"].expected["contact"] in TRICKY_CONTACTS
    assert by_slug["bill-pay"].expected["payee"] in TRICKY_PAYEES.values()
    for slug in ("send-money", "bill-pay"):
        name = by_slug[slug].expected.get("contact") or by_slug[slug].expected["payee"]
        assert any(name in c.params for c in _sql_checks(by_slug[slug])), slug


def test_tricky_checks_run_without_sql_errors(tricky_world, seeded):
    db = seeded(tricky_world)
    for t in tasks(tricky_world):
        for check in _sql_checks(t):
            _ok, evidence = run_check(check, {"bank": db}, "")
            assert evidence.startswith("query returned"), (t.id, check.query, evidence)


def test_tricky_doing_nothing_scores_zero(tricky_world, seeded):
    db = seeded(tricky_world)
    before = _sha256(db)
    for t in _action_tasks(tricky_world):
        score, results = grade(t, {"bank": db}, answer="Done.")
        assert score == 0, (t.id, results)
    assert _sha256(db) == before


def test_tricky_oracles_score_100_through_the_bank(site_build, tricky_world, tmp_path_factory, tmp_path):
    """The bank's reference solutions (apps/bank/oracle.py) pick the tricky payee and contact in the served
    bank, post them through its forms, and score 100, the state diff included (nothing dropped or deleted)."""
    from tests.app_e2e import layer
    from tests.tasks.test_oracles import run_oracle

    built = layer(tricky_world, tmp_path_factory.mktemp("layers"))
    for t in _action_tasks(tricky_world):
        work = tmp_path / t.id.rsplit("/", 1)[1]
        work.mkdir()
        before, after, items, damage, _ = run_oracle(t, tricky_world, built, work)
        assert (before, after, damage) == (0, 100, []), (t.id, before, after, items, damage)


def test_tricky_check_queries_hold_no_spec_text(tricky_world):
    _assert_no_spec_text_in_queries(tricky_world)


# --- Every shipped persona. ---


def _spec_strings(world) -> set[str]:
    p = world.persona
    out = {c.name for c in p.contacts} | {a.name for a in p.accounts}
    out |= {c.payee for c in p.recurring_charges} | {c.name for c in p.recurring_charges}
    out |= {p.identity.name}
    return {s for s in out if s}


def _assert_no_spec_text_in_queries(world) -> None:
    spec = _spec_strings(world)
    for t in tasks(world):
        values = spec | {v for v in t.expected.values() if isinstance(v, str)}
        for check in _sql_checks(t):
            for text in values:
                for quote in ("'", '"', "%"):
                    assert quote + text not in check.query, (t.id, check.query, text)
                assert text not in check.query, (t.id, check.query, text)
            assert count_placeholders(check.query) == len(check.params)


def test_no_check_query_holds_spec_text(any_world):
    _assert_no_spec_text_in_queries(any_world[1])


def test_doing_nothing_scores_0(any_world, seeded):
    """Every persona: an untouched bank scores 0 on every action task, state diff included (the oracles'
    100 is tests/tasks/test_oracles.py)."""
    world = any_world[1]
    db = seeded(world)
    for t in _action_tasks(world):
        score, results = grade(t, {"bank": db}, answer="Done.", initial={"bank": db})
        assert score == 0, (t.id, results)


# --- The grader's connection. ---


def _sql(query: str, params: list | None = None, expected: list | None = None) -> Check:
    return Check(type="sql", app="bank", query=query, params=params or [], expected=expected or [])


@pytest.mark.parametrize(
    "query, params",
    [
        ("DELETE FROM accounts", []),
        ("UPDATE accounts SET balance_cents = 0", []),
        ("INSERT INTO meta (key, value) VALUES (?, ?)", ["x", "y"]),
        ("WITH a AS (SELECT 1) DELETE FROM transactions", []),
        ("DROP TABLE accounts", []),
        ("CREATE TABLE t (x)", []),
        ("ATTACH DATABASE ? AS other", ["ATTACHED"]),
        ("PRAGMA query_only = 0", []),
        ("PRAGMA journal_mode = WAL", []),
        ("SELECT 1; DELETE FROM accounts", []),
        ("BEGIN IMMEDIATE", []),
        ("VACUUM", []),
    ],
)
def test_write_and_attach_checks_are_violated_and_change_nothing(world, seeded, tmp_path, query, params):
    db = tmp_path / "bank.sqlite"
    shutil.copyfile(seeded(world), db)
    params = [str(tmp_path / "attached.sqlite") if p == "ATTACHED" else p for p in params]
    before = _sha256(db)
    task = Task(
        id="x/bank/evil",
        persona="x",
        kind="action",
        instruction="-",
        apps_involved=["bank"],
        difficulty="easy",
        time_limit_seconds=1,
        expected={},
        rubric=[RubricItem(id="evil", requirement="-", weight=100, check=_sql(query, params, []))],
    )
    score, [result] = grade(task, {"bank": db})
    assert score == 0 and result.status == "violated", result
    assert "query failed" in result.evidence, result.evidence
    assert _sha256(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bank.sqlite"]


def test_broken_query_is_violated_with_the_sqlite_error(world, seeded):
    db = seeded(world)
    for query in ("SELEC 1", "SELECT nope FROM accounts", "SELECT * FROM no_such_table"):
        ok, evidence = run_check(_sql(query, [], [[1]]), {"bank": db}, "")
        assert not ok and "query failed" in evidence and "OperationalError" in evidence, evidence
    ok, evidence = run_check(_sql("SELECT 1"), {"bank": Path("/nonexistent/bank.sqlite")}, "")
    assert not ok and "cannot open" in evidence


def test_runaway_query_is_interrupted(world, seeded, monkeypatch):
    import builder.tasks.grade as grade_module

    monkeypatch.setattr(grade_module, "QUERY_SECONDS", 0.2)
    forever = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT COUNT(*) FROM r"
    ok, evidence = run_check(_sql(forever, [], [[1]]), {"bank": seeded(world)}, "")
    assert not ok and "interrupted" in evidence, evidence


def test_params_are_bound_not_interpolated(world, seeded):
    db = seeded(world)
    ok, evidence = run_check(
        _sql(
            "SELECT ?, ? || ?, COUNT(*) FROM accounts WHERE kind = ?",
            ["O'Brien", "a'); DROP TABLE accounts;--", "", "checking"],
            [["O'Brien", "a'); DROP TABLE accounts;--", 1]],
        ),
        {"bank": db},
        "",
    )
    assert ok, evidence
    ok, _ = run_check(_sql("SELECT ? IS NULL, ? * 2", [None, 1.5], [[1, 3.0]]), {"bank": db}, "")
    assert ok


def test_placeholders_are_counted_outside_literals():
    assert count_placeholders("SELECT COUNT(*) FROM accounts") == 0
    assert count_placeholders("SELECT '?', \"?\", [?], `?`, ? -- ?\n, ? /* ? */") == 2
    assert count_placeholders("SELECT 'it''s ?', ?") == 1
    for bad in ("SELECT 'open", "SELECT ?1", "SELECT :name", "SELECT @name", "SELECT $name", "SELECT 1 /* open"):
        with pytest.raises(ValueError):
            count_placeholders(bad)
    with pytest.raises(ValueError, match="placeholders"):
        _sql("SELECT ? FROM accounts")
    with pytest.raises(ValueError, match="placeholders"):
        _sql("SELECT '?' FROM accounts", ["x"])
    with pytest.raises(ValueError, match="no params"):
        Check(type="answer_text", any_of=["x"], params=["x"])


def test_checks_round_trip_through_json_with_params():
    check = _sql(
        "SELECT COUNT(*) FROM transactions WHERE counterparty = ? AND amount_cents = ?",
        ["Siobhan O'Brien", -2500],
        [[1]],
    )
    line = check.model_dump_json(exclude_none=True)
    assert Check.model_validate_json(line) == check
    assert "params" not in Check(type="answer_amount", cents=5).model_dump_json(exclude_none=True)
