"""The grader's check types on real files: state diffs of SQLite databases, documents in a home folder,
numbers and lists in answers; the judge hook against a real HTTP server speaking the OpenAI chat API;
the exports (OSWorld, MyPCBench) and the ``grade`` command on a built bundle."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest
from pydantic import ValidationError

from builder.tasks.export import osworld_task
from builder.tasks.grade import grade, numbers_in, run_check, state_changes
from builder.tasks.judge import openai_judge
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.osworld_hooks import persona_rubric

from tests.conftest import REPO


def _task(rubric, kind="action", apps=("bank",), category=None) -> Task:
    return Task(
        id="p/bank/t",
        persona="p",
        kind=kind,
        category=category,
        instruction="Do it.",
        apps_involved=list(apps),
        difficulty="easy",
        time_limit_seconds=60,
        rubric=rubric,
        expected={},
    )


@pytest.fixture
def dbs(tmp_path):
    before = tmp_path / "before.sqlite"
    con = sqlite3.connect(before)
    con.executescript("""
        CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT, balance_cents INTEGER, nickname TEXT);
        CREATE TABLE transfers (id INTEGER PRIMARY KEY, amount_cents INTEGER, memo TEXT);
        CREATE TABLE sessions (token TEXT PRIMARY KEY, seen TEXT) WITHOUT ROWID;
        INSERT INTO accounts VALUES (1, 'Checking', 100000, NULL), (2, 'Savings', 5000, NULL);
        INSERT INTO transfers VALUES (1, 2500, 'seeded');
        INSERT INTO sessions VALUES ('abc', '2026-11-16');
    """)
    con.commit()
    con.close()
    after = tmp_path / "after.sqlite"
    shutil.copyfile(before, after)
    return before, after


DIFF = Check(
    type="state_diff",
    app="bank",
    ignore=["sessions"],
    changes=[
        Change(table="transfers", op="insert", min=1, max=1),
        Change(table="accounts", op="update", min=2, max=2, columns=["balance_cents"]),
    ],
)


def _apply(path: Path, *statements: str) -> None:
    con = sqlite3.connect(path)
    for s in statements:
        con.execute(s)
    con.commit()
    con.close()


def test_state_diff_allows_exactly_the_asked_changes(dbs):
    before, after = dbs
    assert run_check(DIFF, {"bank": after}, "", initial={"bank": before})[0] is False  # nothing done
    _apply(
        after,
        "INSERT INTO transfers VALUES (2, 4500, 'to savings')",
        "UPDATE accounts SET balance_cents = balance_cents - 4500 WHERE id = 1",
        "UPDATE accounts SET balance_cents = balance_cents + 4500 WHERE id = 2",
        "UPDATE sessions SET seen = '2026-11-17'",
    )  # an ignored table may change
    ok, evidence = run_check(DIFF, {"bank": after}, "", initial={"bank": before})
    assert ok, evidence
    assert [c[:2] for c in state_changes(before, after)] == [
        ("accounts", "update"),
        ("accounts", "update"),
        ("sessions", "update"),
        ("transfers", "insert"),
    ]


def test_state_diff_fails_on_collateral_damage(dbs):
    before, after = dbs
    _apply(
        after,
        "INSERT INTO transfers VALUES (2, 4500, 'to savings')",
        "UPDATE accounts SET balance_cents = balance_cents - 4500 WHERE id = 1",
        "UPDATE accounts SET balance_cents = balance_cents + 4500, nickname = 'rainy day' WHERE id = 2",
        "DELETE FROM transfers WHERE id = 1",
    )
    ok, evidence = run_check(DIFF, {"bank": after}, "", initial={"bank": before})
    assert not ok
    assert "delete transfers (1,)" in evidence and "nickname" in evidence


def test_state_diff_counts_rows(dbs):
    before, after = dbs
    _apply(
        after,
        "INSERT INTO transfers VALUES (2, 4500, 'a')",
        "INSERT INTO transfers VALUES (3, 4500, 'b')",
        "UPDATE accounts SET balance_cents = 0",
    )
    ok, evidence = run_check(DIFF, {"bank": after}, "", initial={"bank": before})
    assert not ok and "insert transfers: 2 row(s), wanted 1..1" in evidence
    assert run_check(DIFF, {"bank": after}, "")[0] is False  # no start state: cannot be judged, fails


def test_check_fields_belong_to_their_type():
    with pytest.raises(ValidationError):
        Check(type="answer_number", value=3, cents=300)
    with pytest.raises(ValidationError):
        Check(type="file", path="/etc/passwd")
    with pytest.raises(ValidationError):
        Check(type="state_diff", app="bank", changes=[])
    with pytest.raises(ValidationError):
        Change(table="t", op="insert", columns=["a"])


def test_answer_number_and_list():
    assert numbers_in("23 purchases, $23.50 in fees, at 10:30, 1,204 steps, seven days") == {23, 1204, 7}
    n = Check(type="answer_number", value=9)
    assert run_check(n, {}, "That was 9 payments.")[0]
    assert not run_check(n, {}, "That was 19 payments, $9.00 each.")[0]
    lst = Check(type="answer_list", items=[["Priya Raman", "Priya"], ["Theo"]], ordered=True)
    assert run_check(lst, {}, "First Priya, then Theo.")[0]
    assert not run_check(lst, {}, "Theo, then Priya.")[0]
    assert not run_check(lst, {}, "Only Priya.")[0]


def _ods_with_sum_and_chart(tmp: Path) -> Path:
    """An XLSX with a SUM and a bar chart (openpyxl), converted to ODS by headless LibreOffice as a user's Calc would save it."""
    import openpyxl
    from openpyxl.chart import BarChart, Reference

    wb = openpyxl.Workbook()
    ws = wb.active
    for row in (["Item", "Cost"], ["Flight", 41230], ["Hotel", 51880], ["Total", "=SUM(B2:B3)"]):
        ws.append(row)
    chart = BarChart()
    chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=3), titles_from_data=True)
    ws.add_chart(chart, "D2")
    src = tmp / "Trip.xlsx"
    wb.save(src)
    out = tmp / "conv"
    subprocess.run(
        [
            "soffice",
            "--headless",
            f"-env:UserInstallation=file://{tmp}/lo",
            "--convert-to",
            "ods",
            "--outdir",
            str(out),
            str(src),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    return out / "Trip.ods"


def test_file_checks_read_documents(tmp_path):
    home = tmp_path / "home"
    docs = home / "Documents" / "Travel"
    docs.mkdir(parents=True)
    ods = _ods_with_sum_and_chart(tmp_path)
    shutil.copy(ods, docs / "Lisbon expenses.ods")
    shutil.copy(tmp_path / "Trip.xlsx", docs / "Lisbon expenses.xlsx")
    good = Check(
        type="file",
        path="Documents/Travel/*.ods",
        kind="ods",
        contains=["Hotel", "Total"],
        formulas=["SUM"],
        chart=True,
    )
    ok, evidence = run_check(good, {}, "", home=home)
    assert ok, evidence
    ok, evidence = run_check(
        good.model_copy(update={"path": "Documents/Travel/*.xlsx", "kind": "xlsx"}), {}, "", home=home
    )
    assert ok, evidence
    assert not run_check(good.model_copy(update={"contains": ["Rides"]}), {}, "", home=home)[0]
    assert not run_check(good.model_copy(update={"kind": "pdf"}), {}, "", home=home)[0]
    assert "no file matches" in run_check(good.model_copy(update={"path": "Desktop/*.ods"}), {}, "", home=home)[1]

    from reportlab.pdfgen import canvas

    pdf = home / "Downloads" / "receipt.pdf"
    pdf.parent.mkdir()
    c = canvas.Canvas(str(pdf))
    c.drawString(72, 720, "Harbor & Pine Lisbon folio total EUR 518.80")
    c.save()
    ok, evidence = run_check(
        Check(type="file", path="Downloads/*.pdf", kind="pdf", contains=["EUR 518.80"]), {}, "", home=home
    )
    assert ok, evidence


class _FakeLLM(BaseHTTPRequestHandler):
    """An OpenAI-compatible chat endpoint that says "met" when the evidence holds the word "weekend"."""

    seen: ClassVar[list[dict]] = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _FakeLLM.seen.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
        met = "weekend" in body["messages"][1]["content"].split("Evidence:")[1]
        reply = {
            "choices": [
                {"message": {"role": "assistant", "content": json.dumps({"met": met, "reason": "read the answer"})}}
            ]
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def test_judge_hook_fills_judge_items_only():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeLLM)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        task = _task(
            [
                RubricItem(
                    id="amount", requirement="States $12.00", weight=60, check=Check(type="answer_amount", cents=1200)
                ),
                RubricItem(id="tone", requirement="Answers the question about the weekend", weight=40),
            ],
            kind="lookup",
        )
        assert task.rubric[1].check.type == "judge" and task.machine_weight == 60
        judge = openai_judge(f"http://127.0.0.1:{server.server_port}/v1", "m", api_key="k")
        assert grade(task, {}, "It was $12.00; free this weekend.", judge=judge)[0] == 100
        assert grade(task, {}, "It was $12.00.", judge=judge)[0] == 60
        score, results = grade(task, {}, "It was $12.00.")
        assert score == 60 and results[1].status == "not_assessable"
        assert _FakeLLM.seen[0]["path"] == "/v1/chat/completions" and _FakeLLM.seen[0]["auth"] == "Bearer k"
        assert len(_FakeLLM.seen) == 2  # the machine item never went to the judge
    finally:
        server.shutdown()
    dead = openai_judge("http://127.0.0.1:9/v1", "m")
    assert grade(task, {}, "It was $12.00 this weekend.", judge=dead)[1][1].status == "not_assessable"


def test_exports_keep_the_rubric(dbs):
    before, after = dbs
    task = _task(
        [
            RubricItem(
                id="row",
                requirement="A transfer of $45.00",
                weight=70,
                check=Check(
                    type="sql",
                    app="bank",
                    query="SELECT COUNT(*) FROM transfers WHERE amount_cents = ?",
                    params=[4500],
                    expected=[[1]],
                ),
            ),
            RubricItem(id="only", requirement="Nothing else changed", weight=30, check=DIFF),
        ]
    )
    ow = osworld_task(task, "p", "http://larkspurbank.test/")
    assert set(ow) >= {"id", "snapshot", "instruction", "source", "config", "related_apps", "evaluator"}
    assert ow["evaluator"]["result"]["apps"] == ["bank"] and ow["evaluator"]["result"]["initial_apps"] == ["bank"]
    assert ow["instruction"] == task.instruction and ow["evaluator"]["result"]["answer"] is False  # an action
    result = {
        "databases": {"bank": str(after)},
        "initial": {"bank": str(before)},
        "home": str(before.parent),
        "answer": "",
    }
    assert persona_rubric(result, ow["evaluator"]["expected"]) == 0.0
    _apply(after, "INSERT INTO transfers VALUES (2, 4500, 'x')", "UPDATE accounts SET balance_cents = 1")
    assert persona_rubric(result, ow["evaluator"]["expected"]) == 1.0


def test_grade_command_on_a_bundle(world, default_layer, tmp_path):
    from builder.apps import discover
    from builder.bundle import write_tasks

    bundle = tmp_path / "bundle"
    shutil.copytree(default_layer, bundle / "layer", symlinks=True)
    write_tasks(world, discover(), bundle)
    assert (bundle / "tasks" / "mypcbench" / "all_tasks_with_grading.json").is_file()
    ow = json.loads((bundle / "tasks" / "osworld" / "bank" / "checking-balance.json").read_text())
    assert ow["instruction"].endswith("write it as plain text to /tmp/persona-answer.txt.)")  # an answer task
    assert ow["evaluator"]["result"]["answer"] is True
    balance = world.closing_balance_cents("checking")
    cmd = [sys.executable, "-m", "builder.tasks.cli", "bank/checking-balance", "--bundle", str(bundle)]
    run = subprocess.run(
        cmd + ["--answer", f"${balance / 100:,.2f}", "--json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["score"] == 100
    run = subprocess.run(
        cmd + ["--answer", "no idea"], capture_output=True, text=True, cwd=REPO, timeout=120, check=False
    )
    assert run.returncode == 0 and "score 0/100" in run.stdout
    run = subprocess.run(
        [sys.executable, "-m", "builder.tasks.cli", "bank/nope", "--bundle", str(bundle)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert run.returncode == 2 and "no task" in run.stderr
