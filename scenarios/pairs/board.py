"""Cairn's two-app answer tasks (ids ``<persona>/board/pair-...``): one question each whose answer needs
exactly the two apps it names (see :mod:`builder.tasks.pairs` for the shared rules); and the status now of a ticket a
colleague asked about in work chat, which sits among Cairn's own tasks, after its last lookup."""

from __future__ import annotations

import datetime as dt

from apps.board.tasks import APP, KIT, STATUS_WORDS, in_use, targets, where
from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.world import World
from builder.reference.locale import Fmt
from scenarios import PAIRS


def asked_tasks(world: World) -> list[Task]:
    """The status now of the ticket a colleague last asked about in work chat, and its assignee (work chat + board)."""
    a = targets(world)["asked"]
    out: list[Task] = []
    if not a:
        return out
    fmt = Fmt(world.persona)
    task = KIT.adder(world, out)
    e, t = a
    task(
        "asked-status",
        [APP, "workchat"],
        kind="lookup",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"{e.data['sender'].split()[0]} mentioned a ticket in {where(e)} in work chat on {fmt.long_date(e.at.date())} "
        f"at {fmt.time(e.at)}. "
        "What is that ticket's status on the board now, and who is it assigned to?",
        expected={"key": t["key"], "status": t["status"], "assignee": t["assignee"], "message": e.id},
        rubric=[
            RubricItem(
                id="status",
                weight=50,
                requirement=f"Says it is {t['status'].replace('_', ' ')}",
                check=A.text(*STATUS_WORDS[t["status"]]),
            ),
            RubricItem(id="assignee", weight=50, requirement=f"Names {t['assignee']}", check=A.text(t["assignee"])),
        ],
    )
    return out


def pair_tasks(world: World) -> list[Task]:
    """Cairn's pair tasks of ``world`` (empty when the world lacks their material)."""
    return P.collect(world, "board", _build)


def _build(world: World, task) -> None:
    from builder.world.projects import board

    today = world.now.date()
    sprints = [e for e in P.done(world, "sprint") if e.data.get("planning")]
    if sprints:
        sp = sprints[-1]
        ref = sp.data["planning"]
        meeting = next((e for e in world.of_kind("calendar_event") if e.id == ref), None)
        keys = sorted(
            {
                e.data["key"]
                for k in ("ticket_transition", "ticket_sprint")
                for e in P.done(world, k)
                if e.data.get("meeting") == ref
            }
        )
        if meeting and keys:
            day = P.ts(meeting.data["start"]).date()
            task(
                "pair-planning-moves",
                ["board", "calendar"],
                kind="aggregation",
                difficulty="medium",
                time_limit_seconds=480,
                instruction=f"Check my calendar for the {sp.data['name']} planning meeting. How many different "
                "tickets were moved on the board during that meeting, and what day was it?",
                expected={"sprint": sp.data["name"], "day": day.isoformat(), "tickets": keys, "count": len(keys)},
                rubric=[
                    RubricItem(
                        id="count", weight=70, requirement=f"Says {len(keys)} tickets", check=A.number(len(keys))
                    ),
                    RubricItem(id="day", weight=30, requirement=f"Names {day:%B %d}", check=A.text(*A.date_forms(day))),
                ],
            )
    b = board(world)
    chat = {e.id: e for e in P.done(world, "work_chat_message")}
    monday = today - dt.timedelta(days=today.weekday() + 7)
    said = [
        t
        for t in b["tickets"]
        if any(c in chat and monday <= chat[c].at.date() < monday + dt.timedelta(days=7) for c in t["chat"])
    ]
    still = [t for t in said if t["status"] != "done"]
    if said and still:
        task(
            "pair-huddle-tickets-open",
            ["board", "workchat"],
            kind="aggregation",
            difficulty="medium",
            time_limit_seconds=480,
            instruction="Last week a few tickets got brought up by number in Huddle. How many different ones was "
            "that, and which of them still aren't done on the board?",
            expected={
                "week": monday.isoformat(),
                "mentioned": [t["key"] for t in said],
                "open": [t["key"] for t in still],
            },
            rubric=[
                RubricItem(id="count", weight=40, requirement=f"Says {len(said)} tickets", check=A.number(len(said))),
                RubricItem(
                    id="open",
                    weight=60,
                    requirement="Names " + ", ".join(t["key"] for t in still),
                    check=A.names([[t["key"]] for t in still]),
                ),
            ],
        )
    nxt = P.next_trip(world)
    me = world.persona.identity.name
    if b["tickets"] and nxt:
        leave = P.ts(nxt["flights"][0].data["dep_local"]).date()
        due = sorted(
            (
                t
                for t in b["tickets"]
                if t["assignee"] == me
                and t["status"] != "done"
                and t.get("due")
                and today <= dt.date.fromisoformat(t["due"][:10]) < leave
            ),
            key=lambda t: t["due"],
        )
        if due:
            dest = nxt["booking"].data["destination"]
            task(
                "pair-due-before-trip",
                ["board", "airline"],
                kind="aggregation",
                difficulty="medium",
                time_limit_seconds=480,
                instruction=f"Before I fly out to {dest}, which of my open tickets come due? Just the ones due "
                "between today and the day my flight leaves.",
                expected={
                    "leave": leave.isoformat(),
                    "tickets": [t["key"] for t in due],
                    "titles": [t["title"] for t in due],
                },
                rubric=[
                    RubricItem(
                        id="tickets",
                        weight=100,
                        requirement="Names " + ", ".join(t["key"] for t in due),
                        check=A.names([[t["key"], t["title"]] for t in due]),
                    )
                ],
            )


SCENARIOS = [
    Scenario(
        home="board",
        apps=("board", "workchat"),
        tasks=asked_tasks,
        after=("standup-pickup", "open-points"),
        when=in_use,
    ),
    Scenario(home="board", apps=("board",), tasks=pair_tasks, rank=PAIRS, when=in_use),
]
