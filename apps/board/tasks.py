"""Cairn tasks derived from the world's board (:func:`builder.world.projects.board`) and its files; what needs work
chat too is in ``scenarios/`` (the helpers here, :func:`targets`, :func:`changed`, :func:`where`, serve both).

Action checks read the end state of ``board.sqlite``: rows the app writes have ``world_ref IS NULL`` (tickets,
comments, activity), so an agent that does nothing fails every action check. Queries are fixed SQL with ``?``
placeholders; every world value travels in ``params``. A persona without a board gets no tasks.
"""

from __future__ import annotations

import datetime as dt

from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World
from builder.reference.locale import Fmt
from builder.world.projects import board

from .documents import meeting_notes

APP = "board"
KIT = kit.Kit(APP, nothing_else="Nothing else changed on the board: only {}")
COMMENT = "Specs and the latest notes are linked in the description now."
NEW_TITLE = "Collect open questions before the next review"
STATUS_WORDS = {
    "backlog": ["backlog"],
    "todo": ["to do", "todo", "zu erledigen"],
    "in_progress": ["in progress", "in arbeit"],
    "in_review": ["in review", "review"],
    "done": ["done", "erledigt", "fertig"],
}


def _text(*options: str) -> Check:
    return Check(type="answer_text", any_of=[o for o in dict.fromkeys(options) if o])


def changed(key: str, field: str) -> Check:
    """At least one activity row the app wrote for ``field`` of ticket ``key``."""
    return KIT.sql(
        "SELECT count(*) > 0 FROM activity a JOIN tickets t ON t.id = a.ticket_id "
        "WHERE t.key = ? AND a.field = ? AND a.world_ref IS NULL",
        [key, field],
        [[1]],
    )


def where(e) -> str:
    """Where a work chat message (a ``work_chat_message`` event) was posted, as the persona would say it."""
    return "our DM" if e.data["channel_kind"] == "dm" else f"#{e.data['channel']}"


def targets(world: World) -> dict:
    """The world facts the tasks are about (also what the tests' reference solutions act on); {} without a board."""
    b = board(world)
    if not b["tickets"]:
        return {}
    me = world.persona.identity.name
    tickets = {t["key"]: t for t in b["tickets"]}
    current = next((s for s in b["sprints"] if s["state"] == "current"), None)
    in_sprint = [t for t in b["tickets"] if current and t["sprint"] == current["number"]]
    out: dict = {"current": current, "in_sprint": in_sprint, "people": b["people"], "projects": b["projects"]}
    # A ticket a colleague mentioned in work chat, assigned to someone else.
    chats = sorted(
        (e for e in world.of_kind("work_chat_message") if e.at <= world.now and e.data["sender"] != me),
        key=lambda e: (e.at, e.id),
    )
    for e in reversed(chats):
        hits = [t for t in b["tickets"] if e.id in t["chat"] and t["assignee"] != me and t["status"] != "done"] or [
            t for t in b["tickets"] if e.id in t["chat"] and t["assignee"] != me
        ]
        if hits and e.data["sender"] in {p["name"] for p in b["people"]}:
            out["mentioned"] = {"ticket": hits[0], "message": e}
            break
    # The persona's own in-progress ticket of the current sprint (to move to review), and one to comment on.
    mine = [t for t in in_sprint if t["assignee"] == me and t["status"] in ("in_progress", "todo")]
    others = [t for t in in_sprint if t["status"] in ("in_progress", "todo")]
    out["to_review"] = (mine or others or [None])[0]
    out["comment_on"] = next((t for t in reversed(in_sprint) if t["key"] != (out["to_review"] or {}).get("key")), None)
    # A colleague asked about a ticket in chat: its status now.
    asked = [(e, t) for e in chats[-400:] for t in b["tickets"] if e.id in t["chat"][1:]]
    out["asked"] = asked[-1] if asked else None
    notes = meeting_notes(world)
    plan = [n for n in notes if n["kind"] == "planning" and n["decisions"]]
    out["planning"] = plan[-1] if plan else None
    stand = [n for n in notes if n["kind"] == "standup" and n["decisions"]]
    out["standups"] = stand
    out["tickets"] = tickets
    return out


def in_use(world: World) -> bool:
    """Whether the persona has a board with a current sprint: without one Cairn has no tasks, nor do the scenarios
    homed there."""
    tg = targets(world)
    return bool(tg and tg["current"])


def tasks(world: World) -> list[Task]:
    """The Cairn tasks of ``world`` in a fixed order (six for a persona with a board and meeting notes); the ones
    that need work chat too are scenarios (``scenarios/errands/board.py``, ``scenarios/pairs/board.py``)."""
    tg = targets(world)
    if not in_use(world):
        return []
    p = world.persona
    fmt = Fmt(p)
    out: list[Task] = []
    tickets = tg["tickets"]

    task = KIT.adder(world, out)

    # 1. What the last sprint planning decided about a ticket (meeting notes + board).
    n = tg["planning"]
    if n:
        d = next((x for x in n["decisions"] if x["kind"] == "carried"), n["decisions"][0])
        t = tickets[d["key"]]
        task(
            "planning-decision",
            [APP, "files"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"What did we decide about {t['key']} at the sprint planning on {fmt.long_date(dt.date.fromisoformat(n['date']))}? "
            "Check my meeting notes and the board, and tell me which sprint it went into and who owns it.",
            expected={
                "key": t["key"],
                "date": n["date"],
                "decision": d["kind"],
                "sprint": n["sprint"],
                "assignee": t["assignee"],
            },
            rubric=[
                RubricItem(
                    id="sprint", weight=50, requirement=f"Says it went into {n['sprint']}", check=_text(n["sprint"])
                ),
                RubricItem(
                    id="owner", weight=50, requirement=f"Names {t['assignee']} as the owner", check=_text(t["assignee"])
                ),
            ],
        )

    # 2. Action: move the persona's ticket to review.
    t = tg["to_review"]
    if t:
        task(
            "move-to-review",
            [APP],
            kind="action",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f'I\'m done with the work on "{t["title"]}". Move it to In review on the board.',
            expected={"key": t["key"], "status": "in_review"},
            rubric=[
                RubricItem(
                    id="status",
                    weight=70,
                    requirement=f"{t['key']} is In review",
                    check=KIT.sql("SELECT status FROM tickets WHERE key = ?", [t["key"]], [["in_review"]]),
                ),
                RubricItem(
                    id="recorded",
                    weight=15,
                    requirement="The move shows in the ticket's activity",
                    check=changed(t["key"], "status"),
                ),
                KIT.only(
                    f"{t['key']}'s status (and its place in the column) and its one activity entry",
                    Change(table="tickets", op="update", min=1, max=1, columns=["status", "rank", "updated_at"]),
                    Change(table="activity", op="insert", min=1, max=1),
                ),
            ],
        )

    # 3. Action: comment on a ticket.
    t = tg["comment_on"]
    if t:
        task(
            "comment",
            [APP],
            kind="action",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"Leave a comment on {t['key']} saying: {COMMENT}",
            expected={"key": t["key"], "body": COMMENT},
            rubric=[
                RubricItem(
                    id="comment",
                    weight=85,
                    requirement=f'{t["key"]} has the comment "{COMMENT}"',
                    check=KIT.sql(
                        "SELECT count(*) FROM comments c JOIN tickets t ON t.id = c.ticket_id "
                        "WHERE t.key = ? AND c.world_ref IS NULL AND trim(c.body) = ?",
                        [t["key"], COMMENT],
                        [[1]],
                    ),
                ),
                KIT.only(
                    "the one comment (the ticket's last-updated time and activity entry with it)",
                    Change(table="comments", op="insert", min=1, max=1),
                    Change(table="tickets", op="update", min=0, max=1, columns=["updated_at"]),
                    Change(table="activity", op="insert", min=0, max=1),
                ),
            ],
        )

    # 4. Action: create a ticket in the current sprint, assigned to a colleague.
    mates = [x for x in tg["people"] if not x["is_me"]]
    running = [x for x in tg["projects"] if x["end"] is None] or tg["projects"][-1:]
    if mates and running:
        mate, pr, cur = mates[0], running[-1], tg["current"]
        task(
            "create-ticket",
            [APP],
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f'Create a ticket "{NEW_TITLE}" in the {pr["name"]} project, in the current sprint, '
            f"high priority, assigned to {mate['name']}.",
            expected={
                "title": NEW_TITLE,
                "project": pr["name"],
                "sprint": cur["number"],
                "assignee": mate["name"],
                "priority": "high",
            },
            rubric=[
                RubricItem(
                    id="exists",
                    weight=35,
                    requirement=f'A new ticket titled "{NEW_TITLE}" exists',
                    check=KIT.sql(
                        "SELECT count(*) FROM tickets WHERE world_ref IS NULL AND trim(title) = ?", [NEW_TITLE], [[1]]
                    ),
                ),
                RubricItem(
                    id="fields",
                    weight=50,
                    requirement=f"It is in {pr['name']}, {cur['name']}, high priority, assigned to {mate['name']}",
                    check=KIT.sql(
                        "SELECT count(*) FROM tickets t JOIN projects p ON p.id = t.project_id "
                        "JOIN people a ON a.id = t.assignee_id WHERE t.world_ref IS NULL "
                        "AND trim(t.title) = ? AND p.name = ? AND t.sprint_id = ? AND t.priority = 'high' "
                        "AND a.name = ?",
                        [NEW_TITLE, pr["name"], cur["number"], mate["name"]],
                        [[1]],
                    ),
                ),
                KIT.only(
                    "the one new ticket and its activity entry",
                    Change(table="tickets", op="insert", min=1, max=1),
                    Change(table="activity", op="insert", min=1, max=1),
                ),
            ],
        )

    # 5. Open story points of the current sprint (aggregation).
    cur = tg["current"]
    open_points = sum(t["points"] or 0 for t in tg["in_sprint"] if t["status"] != "done")
    task(
        "open-points",
        [APP],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=360,
        instruction=f"How many story points are still open (not done) in {cur['name']}?",
        expected={"sprint": cur["number"], "points": open_points},
        rubric=[
            RubricItem(
                id="points",
                weight=100,
                requirement=f"Says {open_points} points",
                check=_text(
                    f"{open_points} points",
                    f"{open_points} story points",
                    f"{open_points} Punkte",
                    f"{open_points} pts",
                    f"{open_points} pt",
                ),
            )
        ],
    )

    # 6. Who started on what after a stand-up (meeting notes + board).
    # The latest stand-up where someone picked up just one ticket (two of theirs would make "a ticket" either),
    # the only one there of that first name.
    picks = []
    for n in tg["standups"]:
        firsts = [tickets[x["key"]]["assignee"].split()[0] for x in n["decisions"]]
        picks += [(n, x) for x, f in zip(n["decisions"], firsts) if firsts.count(f) == 1][:1]
    if picks:
        n, d = picks[-1]
        t = tickets[d["key"]]
        task(
            "standup-pickup",
            [APP, "files"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"My notes from the {n['meeting']} on {fmt.long_date(dt.date.fromisoformat(n['date']))} say "
            f"{t['assignee'].split()[0]} picked up a ticket. Which one was it (key and title)?",
            expected={
                "date": n["date"],
                "who": t["assignee"].split()[0],
                "key": t["key"],
                "title": t["title"],
                "assignee": t["assignee"],
            },
            rubric=[
                RubricItem(id="key", weight=60, requirement=f"Gives {t['key']}", check=_text(t["key"])),
                RubricItem(id="title", weight=40, requirement=f'Names "{t["title"]}"', check=_text(t["title"])),
            ],
        )

    return out


PRIORITY_RANK = {"urgent": 0, "high": 1, "medium": 2, "low": 3}
