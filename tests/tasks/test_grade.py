"""The grader's check types on real files: state diffs of SQLite databases, documents in a home folder,
numbers and lists in answers; the judge hook against a real HTTP server speaking the OpenAI chat API;
the exports (OSWorld, MyPCBench) and the ``grade`` command on a built bundle."""

from __future__ import annotations

import base64
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
from builder.tasks.judge import MAX_IMAGES, openai_judge, read_trajectory
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
        content = body["messages"][1]["content"]
        if isinstance(content, list):  # with a trajectory: text, then image_url parts
            content = "".join(p["text"] for p in content if p["type"] == "text")
        met = "weekend" in content.split("Evidence:")[1]
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


def test_the_judge_reads_the_trajectory_and_sees_its_last_screenshots(tmp_path):
    """A trajectory folder as run-task keeps it: the judge's request lists every action and carries the last four
    screenshots as PNG data URLs; grade --trajectory passes it on, and refuses it without a judge."""
    folder = tmp_path / "traj"
    folder.mkdir()
    pixels = b"\x89PNG\r\n\x1a\n" + bytes(range(64))  # transported, not looked at, by this test
    steps = []
    for n in range(6):
        (folder / f"step_{n}_20261116@0900{n:02d}000000.png").write_bytes(pixels + bytes([n]))
        steps.append(
            {
                "step_num": n + 1,
                "action": {
                    "method": "POST",
                    "path": "/execute",
                    "arguments": {"command": ["xdotool", "type", "weekend"]},
                },
                "status": 200,
                "seconds": 0.4,
            }
        )
    (folder / "traj.jsonl").write_text("".join(json.dumps(s) + "\n" for s in steps))
    evidence = read_trajectory(folder)
    assert evidence.total == 6 and [p.name[:6] for p in evidence.screenshots] == [
        "step_2",
        "step_3",
        "step_4",
        "step_5",
    ]
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeLLM)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        _FakeLLM.seen.clear()
        task = _task([RubricItem(id="tone", requirement="Typed about the weekend", weight=100)], kind="lookup")
        judge = openai_judge(f"http://127.0.0.1:{server.server_port}/v1", "m", trajectory=evidence)
        assert grade(task, {}, "", judge=judge)[0] == 100  # "weekend" is in the actions, not the answer
        content = _FakeLLM.seen[-1]["body"]["messages"][1]["content"]
        assert "Actions of the agent (6 recorded, in order):" in content[0]["text"]
        assert '6. POST /execute {"command": ["xdotool", "type", "weekend"]} -> 200 in 0.4 s' in content[0]["text"]
        urls = [p["image_url"]["url"] for p in content[1:]]
        assert len(urls) == MAX_IMAGES and all(u.startswith("data:image/png;base64,") for u in urls)
        assert base64.b64decode(urls[-1].split(",", 1)[1]) == pixels + bytes([5])
    finally:
        server.shutdown()
    with pytest.raises(ValueError, match="no traj.jsonl"):
        read_trajectory(tmp_path)
    # OSWorld's own runners write the agent's action as it gave it: listed as it is.
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "traj.jsonl").write_text(json.dumps({"step_num": 1, "action": "pyautogui.click(10, 20)"}) + "\n")
    assert read_trajectory(theirs).actions == ["1. pyautogui.click(10, 20)"]
    (theirs / "traj.jsonl").write_text("[1, 2]\n")
    with pytest.raises(ValueError, match="not a JSON object"):
        read_trajectory(theirs)
    r = subprocess.run(
        [sys.executable, "-m", "builder.tasks.cli", "bank-001", "--trajectory", str(folder)],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert r.returncode == 2 and "--trajectory is read by the judge" in r.stderr


def _transfer_item(weight: int) -> RubricItem:
    """A rubric item met by one new bank transfer of $45.00."""
    return RubricItem(
        id="row",
        requirement="A transfer of $45.00",
        weight=weight,
        check=Check(
            type="sql",
            app="bank",
            query="SELECT COUNT(*) FROM transfers WHERE amount_cents = ?",
            params=[4500],
            expected=[[1]],
        ),
    )


def test_exports_keep_the_rubric(dbs):
    before, after = dbs
    task = _task(
        [
            _transfer_item(70),
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
    expected = ow["evaluator"]["expected"]
    assert expected["type"] == "rule" and expected["rules"]["task_id"] == task.id  # OSWorld's built-in getter
    rules = expected["rules"]  # what OSWorld's get_rule hands the metric
    options = ow["evaluator"]["options"]
    assert options == {"judge": "machine_share"}
    assert persona_rubric(result, rules, **options) == 0.0
    _apply(after, "INSERT INTO transfers VALUES (2, 4500, 'x')", "UPDATE accounts SET balance_cents = 1")
    assert persona_rubric(result, rules, **options) == 1.0
    assert persona_rubric(result, {"type": "persona_rubric", **rules}) == 1.0  # a bundle of the older shape


def test_osworld_metric_without_a_judge_says_what_it_scored(dbs, tmp_path, caplog, monkeypatch):
    """A task with a judge item: without a judge the metric scores the met share of the machine-checked weight
    (strict: met weight / 100) and says so in its log line and in persona-grade.json; no number hides the basis."""
    monkeypatch.delenv("PERSONA_JUDGE_URL", raising=False)
    before, after = dbs
    _apply(after, "INSERT INTO transfers VALUES (2, 4500, 'x')")
    task = _task(
        [
            _transfer_item(60),
            RubricItem(id="memo", requirement="The memo says what the money is for", weight=40),
        ]
    )
    rules = osworld_task(task, "p")["evaluator"]["expected"]["rules"]
    report = tmp_path / "cache" / "persona-grade.json"
    result = {
        "databases": {"bank": str(after)},
        "initial": {},
        "home": str(tmp_path),
        "answer": "",
        "report": str(report),
    }
    with caplog.at_level("WARNING", logger="desktopenv.persona"):
        assert persona_rubric(result, rules, judge="machine_share") == 1.0
    assert "40 of 100 rubric weight needs a judge" in caplog.text and "machine-checked" in caplog.text
    graded = json.loads(report.read_text())
    assert (graded["basis"], graded["score"], graded["score_of_100"]) == ("machine_share", 1.0, 60)
    assert (graded["machine_weight"], graded["unassessed_weight"]) == (60, 40)
    assert [i["status"] for i in graded["items"]] == ["met", "needs_judge"]
    assert persona_rubric(result, rules, judge="strict") == 0.6
    assert json.loads(report.read_text())["basis"] == "strict"
    with pytest.raises(ValueError, match="judge option"):
        persona_rubric(result, rules, judge="generous")
    all_judge = _task([RubricItem(id="memo", requirement="Says what the money was for", weight=100)], kind="lookup")
    assert persona_rubric(result, osworld_task(all_judge, "p")["evaluator"]["expected"]["rules"]) == 0.0


def test_osworld_start_state_is_found_or_refused(dbs, tmp_path, monkeypatch):
    """The state-diff start state: from $PERSONA_BUNDLE's layer, else run-image's /state/seeded/<app> (its SHA-256
    header checked); a control API that cannot give it raises instead of grading a diff against nothing."""
    from builder.tasks.osworld_hooks import StartStateError, start_databases

    before, _ = dbs
    layer = tmp_path / "bundle" / "layer" / "var/lib/persona-desktop/apps/bank"
    layer.mkdir(parents=True)
    shutil.copy(before, layer / "bank.sqlite")
    monkeypatch.setenv("PERSONA_BUNDLE", str(tmp_path / "bundle"))
    got = start_databases("http://127.0.0.1:9", ["bank"], tmp_path)
    assert got == {"bank": layer / "bank.sqlite"}
    with pytest.raises(StartStateError, match="no layer/"):
        start_databases("http://127.0.0.1:9", ["mail"], tmp_path)
    monkeypatch.delenv("PERSONA_BUNDLE")
    body = before.read_bytes()

    class Seeded(BaseHTTPRequestHandler):
        def do_GET(self):
            import hashlib

            ok = self.path == "/state/seeded/bank"
            data = body if ok else b'{"error": "no app"}'
            self.send_response(200 if ok else 404)
            if ok:
                sha = hashlib.sha256(body if self.server.honest else b"x").hexdigest()
                self.send_header("X-Persona-SHA256", sha)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *a):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Seeded)
    server.honest = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}"
        got = start_databases(url, ["bank"], tmp_path)
        assert got["bank"].read_bytes() == body
        with pytest.raises(StartStateError, match="answered 404"):
            start_databases(url, ["mail"], tmp_path)
        server.honest = False
        with pytest.raises(StartStateError, match="does not match"):
            start_databases(url, ["bank"], tmp_path)
    finally:
        server.shutdown()
    with pytest.raises(StartStateError, match="the start state of 'bank'"):
        start_databases("http://127.0.0.1:9", ["bank"], tmp_path)


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
    # OSWorld's runner layout beside ours: examples/<domain>/<id>.json, test_all.json, the map back to our ids.
    osw = bundle / "tasks" / "osworld"
    index = json.loads((osw / "test_all.json").read_text())
    id_map = json.loads((osw / "id_map.json").read_text())
    ours = [json.loads(ln)["id"] for ln in (bundle / "tasks" / "tasks.jsonl").read_text().splitlines()]
    assert sorted(id_map.values()) == sorted(ours) and sum(len(v) for v in index.values()) == len(ours)
    for domain, ids in index.items():
        for ex in ids:
            assert "/" not in ex and id_map[ex].split("/")[1] == domain
            example = json.loads((osw / "examples" / domain / f"{ex}.json").read_text())
            assert example["id"] == ex and example["evaluator"]["expected"]["rules"]["task_id"] == id_map[ex]
    assert id_map["dana-whitfield__bank__checking-balance"] == "dana-whitfield/bank/checking-balance"
    splits = {p.name: json.loads(p.read_text()) for p in osw.glob("split_*.json")}
    assert sorted(ex for sp in splits.values() for ids in sp.values() for ex in ids) == sorted(id_map)
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
