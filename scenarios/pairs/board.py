"""Cairn's two-app answer tasks (ids ``<persona>/board/pair-...``): one question each whose answer needs
exactly the two apps it names (see :mod:`builder.tasks.pairs` for the shared rules); and the status now of a ticket a
colleague asked about in work chat, which sits among Cairn's own tasks, after its last lookup."""

from __future__ import annotations

import datetime as dt

from apps.board import reader as cairn
from apps.board.tasks import APP, KIT, STATUS_WORDS, in_use, targets, where
from apps.workchat import reader as huddle
from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader, visible_text
from builder.world import World
from builder.world.planted import airline_flights
from builder.reference.locale import Fmt
from scenarios import PAIRS
from scenarios import work_readers as W


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
        expected={
            "who": e.data["sender"].split()[0],
            "where": where(e),
            "at": e.at.isoformat(),
            "key": t["key"],
            "status": t["status"],
            "assignee": t["assignee"],
            "message": e.id,
        },
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
            # The tickets move when the planning ends (the board shows the moves in the minutes after it): every
            # ticket moved from the meeting's start to 45 minutes after its end.
            start = P.ts(meeting.data["start"]).replace(tzinfo=None)
            until = P.ts(meeting.data["end"]).replace(tzinfo=None) + dt.timedelta(minutes=45)
            keys = sorted(
                {
                    e.data["key"]
                    for k in ("ticket_transition", "ticket_sprint")
                    for e in P.done(world, k)
                    if start <= e.at.replace(tzinfo=None) <= until
                }
            )
            task(
                "pair-planning-moves",
                ["board", "calendar"],
                kind="aggregation",
                difficulty="medium",
                time_limit_seconds=480,
                instruction=f"Check my calendar for the {sp.data['name']} planning meeting. How many different "
                "tickets were moved on the board from the start of that meeting until 45 minutes after it ended, "
                "and what day was it?",
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
        # The day the flight leaves as the airline shows it (after a schedule change it made, the new day).
        first = nxt["flights"][0]
        leave = P.ts(airline_flights(world).get(first.id, first.data)["dep_local"]).date()
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
                    "destination": dest,
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


# --- independent readers (builder.tasks.reader): the board's pages, Huddle's search, the calendar, the airline ---


@reader("who", "where", "at")
def read_asked_status(see: See, given: dict) -> Reading:
    at = dt.datetime.fromisoformat(given["at"])
    who, where_ = given["who"], given["where"]
    q = f"from:{who} on:{at.date().isoformat()}" + (f" in:{where_}" if where_.startswith("#") else "")
    _, found = huddle.search(see, q)
    said = [
        m
        for m in found
        if m["at"].replace(second=0) == at.replace(second=0, microsecond=0)
        and (where_.startswith("#") or (m["channel"] or "").startswith("dm-"))
    ]
    keys = sorted({k for m in said for k in huddle.TICKET.findall(m["text"])})
    if len(said) != 1 or len(keys) != 1:
        raise Unreadable(f"Huddle {q!r} at {at:%H:%M}: {len(said)} messages naming {keys}")
    t = cairn.ticket(see, keys[0])
    if not t["assignee"]:
        raise Unreadable(f"{t['key']} is unassigned")
    return Reading(
        values={"status": t["status"], "assignee": t["assignee"]},
        steps=[f"Huddle {q!r}: {said[0]['text']!r}", f"/t/{t['key']}: status {t['status']}, assignee {t['assignee']}"],
    )


def _sprint_start(see: See, name: str) -> dt.date:
    """The first day of the sprint ``name`` as its board's header gives it ("Nov 2 – Nov 15 · Active ...")."""
    page = see.page(APP, "/board", {"sprint": cairn.sprint_id(see, name)})
    line = visible_text(page.xpath('//header[contains(@class, "cn-head")]//p[contains(@class, "cn-muted")]')[0])
    first = line.split("–", 1)[0]
    day = W.parse_day(first, see.now.year)
    return day if day <= see.now.date() + dt.timedelta(days=1) else day.replace(year=day.year - 1)


def _moves(activity: list[dict]) -> str:
    return ", ".join(f"{a['at']:%H:%M} {a['field']}" for a in activity)


@reader("sprint")
def read_planning_moves(see: See, given: dict) -> Reading:
    name = given["sprint"]
    day = _sprint_start(see, name)
    plans = [e for e in W.agenda(see, day) if e["day"] == day and e["start"] and "plan" in e["title"].lower()]
    if len(plans) != 1:
        raise Unreadable(f"{len(plans)} planning meetings on the calendar on {day}")
    m = plans[0]
    until = m["end"] + dt.timedelta(minutes=45)
    moved = {}
    for c in cairn.sprint_cards(see, name):
        t = cairn.ticket(see, c["key"])
        hits = [a for a in t["activity"] if a["field"] in ("status", "sprint") and m["start"] <= a["at"] <= until]
        if hits:
            moved[c["key"]] = hits
    return Reading(
        values={"count": len(moved), "day": W.day_label(day)},
        steps=[
            f"/board of {name}: it starts {day}; the calendar's {m['title']!r} that day runs "
            f"{m['start']:%H:%M}-{m['end']:%H:%M}",
            f"tickets of {name} whose activity shows a status or sprint move {m['start']:%H:%M}-{until:%H:%M}: "
            + ", ".join(f"{k} ({_moves(v)})" for k, v in sorted(moved.items())),
        ],
    )


@reader("week")
def read_huddle_tickets_open(see: See, given: dict) -> Reading:
    monday = dt.date.fromisoformat(given["week"])
    found = huddle.search_all(see, "", monday, monday + dt.timedelta(days=6))
    said = sorted({k for m in found for k in huddle.TICKET.findall(m["text"])})
    on_board, still, steps = [], [], []
    for key in said:
        try:
            t = cairn.ticket(see, key)
        except Unreadable:
            steps.append(f"{key}: not on the board")
            continue
        on_board.append(key)
        steps.append(f"/t/{key}: {t['status']}")
        if t["status"] != "Done":
            still.append(key)
    return Reading(
        values={"count": len(on_board), "open": still},
        steps=[f"Huddle, {monday} to {monday + dt.timedelta(days=6)}: {len(found)} messages naming {said}", *steps],
    )


@reader("destination")
def read_due_before_trip(see: See, given: dict) -> Reading:
    upcoming = [W.trip(see, pnr) for pnr in W.trips(see, "upcoming")]
    upcoming = [t for t in upcoming if t["outbound"]]
    if not upcoming:
        raise Unreadable("no upcoming trip on the airline")
    nxt = min(upcoming, key=lambda t: t["outbound"][0]["dep"])
    leave = nxt["outbound"][0]["dep"].date()
    today = see.now.date()
    mine = cairn.me(see)
    rows = cairn.ticket_rows(see, {"assignee": cairn.people(see)[mine]})
    due, edge = [], []
    for r in rows:
        if r["status"] == "Done":
            continue
        t = cairn.ticket(see, r["key"])
        if not t["due"]:
            continue
        d = dt.date.fromisoformat(t["due"])
        if today <= d < leave:
            due.append((t["due"], t["key"], t["title"]))
        elif d == leave:
            edge.append(t["key"])
    if edge:
        raise Unreadable(f"{edge} come due on the day the flight leaves ({leave}): in or out is ambiguous")
    due.sort()
    return Reading(
        values={"tickets": [k for _, k, _ in due]},
        steps=[
            f"the airline's next trip {nxt['pnr']} leaves {leave} ({nxt['outbound'][0]['flight']})",
            f"my open tickets on the board ({len(rows)} assigned to {mine}) due {today} to {leave}: "
            + ", ".join(f"{k} {d}" for d, k, _ in due),
        ],
    )


SCENARIOS = [
    Scenario(
        home="board",
        apps=("board", "workchat"),
        tasks=asked_tasks,
        after=("standup-pickup", "open-points"),
        when=in_use,
        readers={"asked-status": read_asked_status},
    ),
    Scenario(
        home="board",
        apps=("board",),
        tasks=pair_tasks,
        rank=PAIRS,
        when=in_use,
        readers={
            "pair-planning-moves": read_planning_moves,
            "pair-huddle-tickets-open": read_huddle_tickets_open,
            "pair-due-before-trip": read_due_before_trip,
        },
    ),
]
