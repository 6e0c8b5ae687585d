"""Cairn (project board) end to end: the production site on copies of the seeded databases.

Expected values come from the *world* (``builder.world.projects.board``: its sprints and ticket events), never
from the database. The browser tests (``apps/board/web/e2e``) read the board, filters, search and a ticket, drag
a card between columns (a real HTML5 drag in Chromium), move one by the form, comment, edit, create and send bad
input; afterwards this module checks the rows the app wrote and the tasks (nothing done scores 0; the reference
solutions, apps/board/oracle.py, run in tests/tasks/test_oracles.py).
"""

from __future__ import annotations

import hashlib
import sqlite3

from builder.tasks.grade import grade
from builder.world.projects import STATUSES, board

from tests.app_e2e import Served, run_e2e

HOST = "cairn.test"
COMMENT = '<img src=x onerror="window.__cairn_xss=1"> Specs are in the file & ready for review'
NEW_TITLE = "Draft the script for the next usability session"


def world_facts(world) -> dict:
    """Every value the browser tests expect, computed from the world."""
    from apps.board.seed import credentials

    b = board(world)
    me = world.persona.identity.name
    ids = {p["name"]: i for i, p in enumerate(b["people"], start=1)}
    cur = next(s for s in b["sprints"] if s["state"] == "current")
    in_sprint = [t for t in b["tickets"] if t["sprint"] == cur["number"]]
    columns = {s: sorted(t["key"] for t in in_sprint if t["status"] == s) for s in STATUSES}
    mate = next(
        p["name"] for p in b["people"] if p["name"] != me and any(t["assignee"] == p["name"] for t in in_sprint)
    )
    label = sorted({label for t in in_sprint for label in t["labels"]})[0]
    movable = [t for t in in_sprint if t["status"] in ("todo", "in_progress")]
    assert len(movable) >= 2, "the current sprint needs two open tickets"
    drag, move = movable[0], movable[1]
    others = [t for t in in_sprint if t["key"] not in (drag["key"], move["key"])]
    detail = max(b["tickets"], key=lambda t: (len(t["comments"]), len(t["subtasks"]), t["key"]))
    word = next(w for w in drag["title"].split() if len(w) > 5)
    hits = [
        t
        for t in b["tickets"]
        if word.lower() in t["title"].lower()
        or word.lower() in t["description"].lower()
        or t["key"].lower() == word.lower()
    ]
    edit = others[0]
    new_assignee = next(n for n in ids if n != edit["assignee"])
    creds = credentials(world)
    return {
        "session_token": creds["session_token"],
        "me": me,
        "sprint": {"name": cur["name"], "number": cur["number"], "columns": columns},
        "filter": {
            "assignee_id": ids[mate],
            "assignee_keys": sorted(t["key"] for t in in_sprint if t["assignee"] == mate),
            "label": label,
            "label_keys": sorted(t["key"] for t in in_sprint if label in t["labels"]),
        },
        "search": {"key": detail["key"], "word": word, "word_count": len(hits)},
        "detail": {
            "key": detail["key"],
            "title": detail["title"],
            "comments": len(detail["comments"]),
            "subtasks": len(detail["subtasks"]),
            "history": [h["field"] for h in detail["history"]],
        },
        "drag": {"key": drag["key"], "from": drag["status"], "to": STATUSES[STATUSES.index(drag["status"]) + 1]},
        "move": {"key": move["key"], "to": "in_review" if move["status"] != "in_review" else "done"},
        "comment": {"key": edit["key"], "body": COMMENT},
        "edit": {
            "key": edit["key"],
            "assignee_id": ids[new_assignee],
            "assignee": new_assignee,
            "priority": "urgent" if edit["priority"] != "urgent" else "low",
            "labels": "handoff, needs-input",
            "points": 13,
        },
        "create": {"title": NEW_TITLE, "key": f"{b['prefix']}-{max(t['number'] for t in b['tickets']) + 1}"},
        "bad": {"key": others[-1]["key"], "status": others[-1]["status"]},
    }


def test_board_seed_matches_world_and_is_byte_identical(world, tmp_path):
    from apps.board.seed import seed

    a, c = seed(world, tmp_path / "a.sqlite"), seed(world, tmp_path / "b.sqlite")
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(c.read_bytes()).digest()
    b = board(world)
    con = sqlite3.connect(a)
    rows = con.execute(
        "SELECT t.key, t.title, t.status, t.sprint_id, p.name, t.priority, t.points, t.due FROM tickets t "
        "JOIN people p ON p.id = t.assignee_id ORDER BY t.id"
    ).fetchall()
    assert rows == [
        (t["key"], t["title"], t["status"], t["sprint"], t["assignee"], t["priority"], t["points"], t["due"])
        for t in b["tickets"]
    ]
    assert con.execute("SELECT count(*) FROM comments").fetchone()[0] == sum(len(t["comments"]) for t in b["tickets"])
    assert con.execute("SELECT count(*) FROM activity").fetchone()[0] == sum(len(t["history"]) for t in b["tickets"])
    assert con.execute("SELECT count(*) FROM sprints").fetchone()[0] == len(b["sprints"])
    assert con.execute("SELECT count(*) FROM tickets WHERE world_ref IS NULL").fetchone()[0] == 0
    con.close()


def test_board_every_persona_seeds(any_world, tmp_path):
    from apps.board.seed import seed
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("board")

    persona, world = any_world
    con = sqlite3.connect(seed(world, tmp_path / "board.sqlite"))
    n = con.execute("SELECT count(*) FROM tickets").fetchone()[0]
    con.close()
    assert n == len(board(world)["tickets"])
    if persona.work and persona.work.employer:
        assert n > 0 and len(tasks(world)) >= 6


def test_board_web_end_to_end(site_build, world, default_layer, tmp_path):
    facts = world_facts(world)
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        print(run_e2e("board", facts, served, tmp_path)[-6000:])
        _check_state(served, facts)


def _check_state(served: Served, facts: dict) -> None:
    """What the browser run left: the dragged and moved tickets' statuses with activity rows, the comment verbatim,
    the edit, the new ticket in the sprint, and nothing from the refused posts."""
    con = sqlite3.connect(served.database("board"))

    def status(key):
        return con.execute("SELECT status FROM tickets WHERE key = ?", (key,)).fetchone()[0]

    assert status(facts["drag"]["key"]) == facts["drag"]["to"]
    assert status(facts["move"]["key"]) == facts["move"]["to"]
    assert status(facts["bad"]["key"]) == facts["bad"]["status"]
    moves = con.execute(
        "SELECT t.key, a.old, a.new FROM activity a JOIN tickets t ON t.id = a.ticket_id "
        "WHERE a.world_ref IS NULL AND a.field = 'status' ORDER BY a.id"
    ).fetchall()
    assert moves == [
        (facts["drag"]["key"], facts["drag"]["from"], facts["drag"]["to"]),
        (facts["move"]["key"], moves[1][1], facts["move"]["to"]),
    ]
    body = con.execute(
        "SELECT c.body FROM comments c JOIN tickets t ON t.id = c.ticket_id WHERE c.world_ref IS NULL AND t.key = ?",
        (facts["comment"]["key"],),
    ).fetchall()
    assert body == [(COMMENT,)]
    e = facts["edit"]
    row = con.execute(
        "SELECT p.name, t.priority, t.points FROM tickets t JOIN people p ON p.id = t.assignee_id WHERE t.key = ?",
        (e["key"],),
    ).fetchone()
    assert row == (e["assignee"], e["priority"], 13)
    labels = [
        r[0]
        for r in con.execute(
            "SELECT label FROM ticket_labels l JOIN tickets t ON t.id = l.ticket_id WHERE t.key = ? ORDER BY label",
            (e["key"],),
        )
    ]
    assert labels == ["handoff", "needs-input"]
    new = con.execute("SELECT key, status, sprint_id, world_ref FROM tickets WHERE title = ?", (NEW_TITLE,)).fetchall()
    assert new == [(facts["create"]["key"], "todo", facts["sprint"]["number"], None)]
    con.close()


def test_tasks_contract(world, default_layer):
    """>= 8 tasks, >= 3 actions, >= 4 spanning two apps; doing nothing scores 0 on every action (the reference
    solutions, apps/board/oracle.py, score in full in tests/tasks/test_oracles.py)."""
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("board")

    ts = {t.id.split("/")[-1]: t for t in tasks(world)}
    actions = [t for t in ts.values() if t.kind == "action"]
    assert len(ts) >= 8 and len(actions) >= 3 and sum(len(t.apps_involved) > 1 for t in ts.values()) >= 4
    dbs = {"board": default_layer / "var/lib/persona-desktop/apps/board/board.sqlite"}
    for t in actions:
        assert grade(t, dbs, initial=dbs)[0] == 0, t.id
