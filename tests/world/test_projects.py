"""The work projects module (builder/world/projects.py) and the board's files (apps/board/documents.py).

Invariants from the module docstring, checked on every shipped persona: the board is deterministic, statuses
move one step at a time in workflow order on workdays within working hours and never after now, a done ticket
is done inside the sprint it ends in (carry-overs move it at the next planning), sprint-planning commitments
follow that meeting, every ticket key the work chat mentions is a ticket created before that message, and
every assignee is the persona or a teammate. The files open in LibreOffice and tell what the board shows.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import subprocess

import pytest

from builder.world import simulate
from builder.world.projects import KINDS, STATUSES, board
from builder.world.work_chat import channels

from apps.board.documents import briefs, meeting_notes, sprint_reviews, write_documents


def _ts(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s)


def test_board_is_deterministic(persona, world):
    again = simulate(persona)
    mine = [json.dumps(e.to_json(), sort_keys=True) for e in world.events if e.kind in KINDS]
    assert mine and mine == [json.dumps(e.to_json(), sort_keys=True) for e in again.events if e.kind in KINDS]


def test_projects_are_the_work_chats(any_world):
    persona, world = any_world
    b = board(world)
    chans = {c["name"] for c in channels(world)}
    if not persona.work or not persona.work.employer:
        assert b["tickets"] == [] and b["sprints"] == []
        return
    assert b["projects"] and all(f"proj-{p['slug']}" in chans for p in b["projects"])
    assert {t["project"] for t in b["tickets"]} <= {p["name"] for p in b["projects"]}
    assert len(b["tickets"]) >= 20


def test_status_history_follows_the_workflow_and_the_sprints(any_world):
    persona, world = any_world
    b = board(world)
    sprints = {s["number"]: s for s in b["sprints"]}
    states = [s["state"] for s in b["sprints"]]
    if not b["tickets"]:
        return
    assert states.count("current") == 1 and states.count("next") <= 1 and states[-1] in ("current", "next")
    for a, c in zip(b["sprints"], b["sprints"][1:]):
        assert a["closes"] == c["opens"] and c["number"] == a["number"] + 1
    now = world.now.isoformat()
    for t in b["tickets"]:
        steps = [h for h in t["history"] if h["field"] == "status"]
        path = ["backlog"] + [h["new"] for h in steps]
        assert path == STATUSES[: len(path)], (t["key"], path)
        assert [h["old"] for h in steps] == path[:-1]
        assert t["status"] == path[-1]
        times = [h["at"] for h in t["history"]]
        assert times == sorted(times), t["key"]
        assert t["created_at"] <= min(h["at"] for h in steps) if steps else True
        for h in t["history"] + t["comments"]:
            assert h["at"] <= now
        for h in steps:
            at = _ts(h["at"])
            assert at.weekday() < 5 and dt.time(8, 30) <= at.time() < dt.time(18, 30), (t["key"], h)
        if steps:
            assert t["sprint"] is not None, t["key"]
            s = sprints[t["sprint"]]
            first = sprints[min([t["sprint"]] + [int(h["old"]) for h in t["history"] if h["field"] == "sprint"])]
            assert steps[0]["at"] >= first["opens"], t["key"]
            if t["status"] == "done":
                assert s["opens"] <= steps[-1]["at"] < s["closes"], (t["key"], s["name"], steps[-1]["at"])
        for h in t["history"]:
            if h["field"] == "sprint":
                assert int(h["new"]) == int(h["old"]) + 1 and sprints[int(h["new"])]["opens"] <= h["at"]


def test_planning_commitments_follow_the_meeting(any_world):
    persona, world = any_world
    b = board(world)
    meetings = {e.id: e for e in world.of_kind("calendar_event")}
    plannings = {s["planning"]: s for s in b["sprints"] if s["planning"]}
    seen = 0
    for t in b["tickets"]:
        for h in t["history"]:
            if h["meeting"] in plannings:
                e = meetings[h["meeting"]]
                assert e.at.isoformat() < h["at"] and _ts(h["at"]).date() >= e.at.date()
                seen += 1
            elif h["meeting"]:
                e = meetings[h["meeting"]]  # a stand-up: the move came after it, the same day
                assert e.at.isoformat() < h["at"] and _ts(h["at"]).date() == e.at.date()
    if persona.work and any(
        "planning" in m.title.lower() or "planung" in m.title.lower() for m in persona.work.meetings
    ):
        assert seen > 10


def test_chat_mentions_are_tickets_and_people_are_the_team(any_world):
    persona, world = any_world
    b = board(world)
    if not b["tickets"]:
        return
    tickets = {t["key"]: t for t in b["tickets"]}
    team = {p["name"] for p in b["people"]}
    assert persona.identity.name in team
    if persona.work.colleagues:
        assert team == {persona.identity.name, *persona.work.colleagues} - set()
    msgs = {e.id: e for e in world.of_kind("work_chat_message")}
    mentioned = 0
    for t in b["tickets"]:
        assert t["assignee"] in team and t["reporter"] in team
        assert all(c["author"] in team for c in t["comments"])
        for mid in t["chat"]:
            e = msgs[mid]
            assert t["key"] in e.data["text"] and t["created_at"] < e.at.isoformat()
            mentioned += 1
    import re

    keys = {
        k for e in msgs.values() if e.at <= world.now for k in re.findall(rf"\b{b['prefix']}-\d+\b", e.data["text"])
    }
    assert keys and keys <= set(tickets)
    assert mentioned >= len(keys)
    mine = [t for t in b["tickets"] if t["assignee"] == persona.identity.name]
    assert 0 < len(mine) < len(b["tickets"])


def test_empty_board_builds(persona, tmp_path):
    """A world without board events (the module left out; every shipped spec completes to a job, and the other
    modules need one): the board is empty, the seed still writes a database, no tasks and no files."""
    import sqlite3

    from apps.board.seed import seed
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("board")

    world = simulate(persona, without=("projects",))
    b = board(world)
    assert b["tickets"] == [] and b["sprints"] == [] and b["projects"]
    con = sqlite3.connect(seed(world, tmp_path / "board.sqlite"))
    assert con.execute("SELECT count(*) FROM tickets").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM people").fetchone()[0] == len(b["people"])
    con.close()
    assert tasks(world) == [] and meeting_notes(world) == [] and briefs(world) == []
    write_documents(world, tmp_path / "home")
    assert not (tmp_path / "home").exists()


def test_files_open_in_libreoffice_and_tell_the_board(world, tmp_path):
    soffice = shutil.which("soffice")
    if not soffice:
        pytest.skip("LibreOffice is not installed")
    home = tmp_path / "home"
    write_documents(world, home)
    b = board(world)
    notes, docs, decks = meeting_notes(world), briefs(world), sprint_reviews(world)
    assert len(docs) == len(b["projects"]) and len([n for n in notes if n["kind"] == "planning"]) >= 3
    assert any(n["kind"] == "standup" for n in notes)
    assert len(decks) == 2 and all(d["done"] for d in decks)
    files = sorted(p for p in home.rglob("*") if p.is_file())
    assert sorted(str(p.relative_to(home)) for p in files) == sorted(
        [d["path"] for d in docs] + [n["path"] for n in notes] + [d["path"] for d in decks]
    )
    tz = world.persona.timezone
    for d in [*docs, *notes, *decks]:
        from zoneinfo import ZoneInfo

        assert (home / d["path"]).stat().st_mtime == d["when"].replace(tzinfo=ZoneInfo(tz)).timestamp()
        assert d["when"] <= world.now
    # Every decision in a planning's notes is on the board, after that meeting.
    tickets = {t["key"]: t for t in b["tickets"]}
    for n in notes:
        for d in n["decisions"]:
            t = tickets[d["key"]]
            assert any(h["meeting"] == n["event"] for h in t["history"]), (n["path"], d)
            assert d["key"] in d["text"] and t["title"] in d["text"]
    # A review's done tickets moved to done while its sprint ran; its carried ones left it for the next sprint.
    sprints = {s["name"]: s for s in b["sprints"]}
    for d in decks:
        s = sprints[d["sprint"]]
        assert s["state"] == "past" and s["opens"] <= d["when"].isoformat() <= s["closes"]
        for line in d["done"]:
            t = tickets[line.split()[0]]
            assert any(
                h["field"] == "status" and h["new"] == "done" and s["opens"] <= h["at"] <= s["closes"]
                for h in t["history"]
            ), line
        for line in d["carried"]:
            t = tickets[line.split()[0]]
            assert any(h["field"] == "sprint" and h["old"] == str(s["number"]) for h in t["history"]), line
    out = tmp_path / "pdf"
    docs_to_convert = [
        home / f
        for f in [d["path"] for d in docs]
        + [n["path"] for n in notes if n["path"].endswith(".odt")]
        + [d["path"] for d in decks]
    ]
    subprocess.run(
        [
            soffice,
            "--headless",
            f"-env:UserInstallation=file://{tmp_path}/lo",
            "--convert-to",
            "pdf",
            "--outdir",
            str(out),
            *map(str, docs_to_convert),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    for f in docs_to_convert:
        pdf = out / (f.stem + ".pdf")
        assert pdf.exists() and pdf.stat().st_size > 1000, f
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        if f.suffix == ".odp":  # Impress: a title slide and one per section, the goal and a done ticket on them
            d = next(d for d in decks if d["path"].endswith(f.name))
            pages = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
            assert re.search(r"^Pages:\s+(\d+)", pages, re.M).group(1) == str(4 + bool(d["next"]))
            flat = " ".join(text.split())
            assert d["title"] in flat and d["goal"] in flat and d["done"][0].split()[0] in flat
        elif f.suffix == ".odt":
            n = next(n for n in notes if n["path"].endswith(f.name))
            assert n["attendees"][1] in text and (n["decisions"][0]["key"] in text)
        else:
            d = next(d for d in docs if d["path"].endswith(f.name))
            assert d["project"] in " ".join(text.split())


def test_files_are_byte_identical(world, tmp_path):
    import hashlib

    sums = []
    for i in range(2):
        write_documents(world, tmp_path / str(i))
        sums.append(
            {
                str(p.relative_to(tmp_path / str(i))): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted((tmp_path / str(i)).rglob("*"))
                if p.is_file()
            }
        )
    assert sums[0] == sums[1] and sums[0]
