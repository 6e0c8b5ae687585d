"""Cairn's (the board's) errands across apps: take over the ticket a colleague mentioned in work chat, hand over the
open tickets before a trip, pick up the backlog after a stand-up; each with its reference solution."""

from __future__ import annotations

import datetime as dt

from apps.board.steps import post
from apps.board.tasks import APP, KIT, PRIORITY_RANK, changed, in_use, targets, where
from apps.calendar import steps as daybook
from apps.mail import steps as mailbox
from apps.workchat import steps as huddle
from builder.tasks import effects
from builder.tasks.collect import Scenario
from builder.tasks.model import Change, RubricItem, Task
from builder.tasks.oracle import OracleError, Web
from builder.world import World
from builder.reference.locale import Fmt
from builder.world.projects import board
from scenarios import ERRANDS


def mentioned_tasks(world: World) -> list[Task]:
    """Assign to the persona the ticket a colleague mentioned in work chat (work chat + board): Cairn's first action,
    right after its planning lookup (or first of all without one)."""
    m = targets(world).get("mentioned")
    out: list[Task] = []
    if not m:
        return out
    fmt = Fmt(world.persona)
    me = world.persona.identity.name
    task = KIT.adder(world, out)
    t, e = m["ticket"], m["message"]
    who = e.data["sender"]
    task(
        "assign-mentioned",
        [APP, "workchat"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=480,
        instruction=f"{who.split()[0]} mentioned a ticket in {where(e)} in work chat on {fmt.long_date(e.at.date())}. "
        "Assign that ticket to me on the board.",
        expected={"key": t["key"], "message": e.id, "assignee": me},
        rubric=[
            RubricItem(
                id="assigned",
                weight=70,
                requirement=f"{t['key']} is assigned to {me}",
                check=KIT.sql(
                    "SELECT p.is_me FROM tickets t JOIN people p ON p.id = t.assignee_id WHERE t.key = ?",
                    [t["key"]],
                    [[1]],
                ),
            ),
            RubricItem(
                id="recorded",
                weight=15,
                requirement="The change shows in the ticket's activity",
                check=changed(t["key"], "assignee"),
            ),
            KIT.only(
                f"{t['key']}'s assignee and its one activity entry",
                Change(table="tickets", op="update", min=1, max=1, columns=["assignee_id", "updated_at"]),
                Change(table="activity", op="insert", min=1, max=1),
            ),
        ],
    )
    return out


def assign_mentioned(task: Task, web: Web) -> str:
    """Assign the mentioned ticket to the persona (the ticket page's edit form)."""
    exp = task.expected
    person = web.one(APP, "SELECT id FROM people WHERE name = ?", (exp["assignee"],))
    post(web, f"/api/tickets/{exp['key']}", [("assignee", str(person))])
    return f"Assigned {exp['key']} to you."


def long_tasks(world: World) -> list[Task]:
    """The board's long-horizon chains: hand over the open tickets before the next trip; start on the top backlog
    ticket and tell the team."""
    return _travel_handover(world) + _backlog_pickup(world)


def _backlog_pickup(world: World) -> list[Task]:
    """Start on the persona's highest-priority backlog ticket: In progress on the board, a work-calendar block the
    next working day, a post in the team's Huddle channel, a mail to the lead (four apps)."""
    from apps.calendar import steps as daybook
    from builder.tasks import steps as S
    from builder.tasks.phrasing import day_phrase

    p = world.persona
    b = board(world)
    me = p.identity.name
    backlog = sorted(
        (t for t in b["tickets"] if t["assignee"] == me and t["status"] == "backlog"),
        key=lambda t: (PRIORITY_RANK.get(t["priority"], 9), t["key"]),
    )
    lead_of, team = S.work_lead(world), S.team_channel(world)
    if not backlog or lead_of is None or team is None:
        return []
    lead, lead_email = lead_of
    t = backlog[0]
    # "The most urgent" only when one ticket has the highest priority; else the ticket is named.
    tied = [x for x in backlog if PRIORITY_RANK.get(x["priority"], 9) == PRIORITY_RANK.get(t["priority"], 9)]
    which = (
        "the most urgent ticket in my backlog on the board"
        if len(tied) == 1
        else f'{t["key"]} ("{t["title"]}") from my backlog on the board'
    )
    today = world.now.date()
    day = today + dt.timedelta(days=1)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    when = day_phrase(day, today)
    task = Task(
        id=f"{p.id}/board/backlog-pickup",
        persona=p.id,
        kind="action",
        category="long_horizon",
        apps_involved=[APP, "calendar", "workchat", "mail"],
        difficulty="hard",
        time_limit_seconds=1200,
        instruction=f"I want to start on {which}. Move it to In progress; "
        f"block 2 to 4 pm {when} in my work calendar for it, with its key in the title; post in "
        f"#{team} on Huddle that I'm picking it up (give the key); and email {lead.split()[0]} the same.",
        expected={
            "key": t["key"],
            "title": t["title"],
            "priority": t["priority"],
            "day": day.isoformat(),
            "channel": team,
            "lead": lead,
            "lead_email": lead_email,
        },
        rubric=[
            RubricItem(
                id="moved",
                weight=30,
                requirement=f'{t["key"]} ("{t["title"]}", {t["priority"]}) is In progress',
                check=KIT.sql("SELECT status FROM tickets WHERE key = ?", [t["key"]], [["in_progress"]]),
            ),
            RubricItem(
                id="calendar",
                weight=20,
                requirement=f"A work-calendar entry {day} ({when}) at 14:00 naming {t['key']}",
                check=daybook.created(f"{day.isoformat()}T14", [[t["key"]]], calendar="work"),
            ),
            RubricItem(
                id="post",
                weight=20,
                requirement=f"A post in #{team} names {t['key']}",
                check=huddle.posted(team, [[t["key"]]]),
            ),
            RubricItem(
                id="mail",
                weight=15,
                requirement=f"A mail to {lead} ({lead_email}) names {t['key']}",
                check=mailbox.sent(lead_email, [[t["key"]]]),
            ),
            RubricItem(
                id="only-board",
                weight=15,
                requirement=f"Nothing else changed on the board: only {t['key']}'s status",
                check=S.diff(
                    "board",
                    Change(table="tickets", op="update", min=1, max=1),
                    Change(table="activity", op="insert", min=1),
                    Change(table="comments", op="insert", min=0),
                ),
            ),
        ],
    )
    return [
        effects.acting(
            task,
            ("calendar", "the block for the ticket", daybook.new_events(1)),
            ("workchat", f"the post in #{team}", huddle.new_posts(1, 2)),
            ("mail", f"the mail to {lead} (and the answer it draws)", mailbox.new_mail(1)),
        )
    ]


def _travel_handover(world: World) -> list[Task]:
    """The board's long-horizon chain: hand over the persona's open tickets before the next trip."""
    from builder.tasks import steps as S
    from builder.tasks.model import Change
    from builder.tasks.phrasing import day_phrase
    from builder.world.planted import airline_flights

    p = world.persona
    b = board(world)
    me = p.identity.name
    mine = [t for t in b["tickets"] if t["assignee"] == me and t["status"] != "done"]
    colleagues = [c for c in (p.work.colleagues if p.work else []) if c in {x["name"] for x in b["people"]}]
    contacts = {c.name: c for c in p.contacts}
    if not mine or len(colleagues) < 2 or not contacts.get(colleagues[0]) or not contacts[colleagues[0]].email:
        return []
    moved = airline_flights(world)
    legs = sorted(({**f.data, **moved.get(f.id, {})} for f in world.of_kind("flight")), key=lambda d: d["dep_utc"])
    now = world.now.isoformat()
    upcoming = [d for d in legs if d["dep_local"][:19] > now]
    if not upcoming:
        return []
    trip = upcoming[0]["trip"]
    leave = dt.date.fromisoformat(min(d["dep_local"] for d in upcoming if d["trip"] == trip)[:10])
    back = dt.date.fromisoformat(max(d["arr_local"] for d in upcoming if d["trip"] == trip)[:10])
    lead, taker = colleagues[0], colleagues[1]
    lead_email = contacts[lead].email
    keys = [t["key"] for t in mine]
    marks = ",".join("?" for _ in keys)
    today = world.now.date()
    team = S.team_channel(world)
    if team is None:
        return []
    task = Task(
        id=f"{p.id}/board/travel-handover",
        persona=p.id,
        kind="action",
        category="long_horizon",
        apps_involved=[APP, "airline", "workchat", "calendar", "mail"],
        difficulty="hard",
        time_limit_seconds=1500,
        instruction=f"Before my next trip (check my flights for the days), hand my work over: reassign every open "
        f"ticket of mine on the board to {taker}; post in #{team} on Huddle which tickets "
        f"{taker.split()[0]} is taking over (by key) and the days I'm away; set my Huddle status to "
        f'"Out of office" until the day I fly back; block those days (from the day I leave to the day I '
        f'fly back) in my work calendar as an all-day "Out of office"; and email {lead.split()[0]} the '
        "same handover.",
        expected={
            "keys": keys,
            "taker": taker,
            "channel": team,
            "lead": lead,
            "lead_email": lead_email,
            "leave": leave.isoformat(),
            "back": back.isoformat(),
        },
        rubric=[
            RubricItem(
                id="reassigned",
                weight=25,
                requirement=f"{', '.join(keys)} are assigned to {taker}",
                check=KIT.sql(
                    f"""SELECT COUNT(*) FROM tickets t JOIN people p ON p.id = t.assignee_id
                                          WHERE t.key IN ({marks}) AND p.name = ?""",
                    [*keys, taker],
                    [[len(keys)]],
                ),
            ),
            RubricItem(
                id="post",
                weight=15,
                requirement=f"A post in #{team} names {', '.join(keys)}",
                check=huddle.posted(team, [[k] for k in keys]),
            ),
            RubricItem(
                id="status",
                weight=15,
                requirement=f'Huddle status "Out of office" until {back}',
                check=huddle.status_set(["out of office", "ooo"], back.isoformat()),
            ),
            RubricItem(
                id="calendar",
                weight=15,
                requirement=f'An all-day "Out of office" on the work calendar '
                f"from {leave} ({day_phrase(leave, today)}) to {back}",
                check=S.sql(
                    "calendar",
                    """SELECT COUNT(*) > 0 FROM events WHERE world_ref IS NULL
                                                      AND calendar_id = 'work' AND all_day = 1
                                                      AND substr(start_local, 1, 10) = ? AND substr(end_local, 1, 10) >= ?
                                                      AND (instr(lower(title), 'out of office') > 0
                                                           OR instr(lower(title), 'ooo') > 0)""",
                    [leave.isoformat(), back.isoformat()],
                    [[1]],
                ),
            ),
            RubricItem(
                id="mail",
                weight=15,
                requirement=f"A mail to {lead} ({lead_email}) names {', '.join(keys)}",
                check=mailbox.sent(lead_email, [[k] for k in keys]),
            ),
            RubricItem(
                id="only-board",
                weight=15,
                requirement="Nothing else changed on the board: only those tickets reassigned",
                check=S.diff(
                    "board",
                    Change(table="tickets", op="update", min=len(keys), max=len(keys)),
                    Change(table="activity", op="insert", min=len(keys)),
                    Change(table="comments", op="insert", min=0),
                ),
            ),
        ],
    )
    return [
        effects.acting(
            task,
            ("workchat", f"the handover post in #{team} and the status", huddle.new_posts(1, 2, status=True)),
            ("calendar", "the out-of-office days", daybook.new_events(1)),
            ("mail", f"the mail to {lead} (and the answer it draws)", mailbox.new_mail(1)),
        )
    ]


def travel_handover(task: Task, web: Web) -> str:
    """Reassign the open tickets, post the handover in Huddle, set the status, block the work calendar, mail the lead."""

    exp = task.expected
    taker = web.one(APP, "SELECT id FROM people WHERE name = ?", (exp["taker"],))
    for key in exp["keys"]:
        _, location = web.post_form(APP, f"/api/tickets/{key}", [("assignee", str(taker))], expect=(303,))
        if "ok=" not in location:
            raise OracleError(f"the board did not reassign {key}: {location!r}")
    keys = ", ".join(exp["keys"])
    text = (
        f"Handover: I'm out of office from {exp['leave']} to {exp['back']}. {exp['taker'].split()[0]} is taking "
        f"over {keys}."
    )
    huddle.post(web, exp["channel"], text)
    huddle.set_status(web, ":airplane:", "Out of office", exp["back"])
    daybook.create(web, title="Out of office", date=exp["leave"], end_date=exp["back"], all_day="1", calendar="work")
    mailbox.send(
        web, exp["lead_email"], "Handover before my trip", f"Hi {exp['lead'].split()[0]},\n\n{text}\n\nThanks!"
    )
    return f"Reassigned {keys} to {exp['taker']}, posted the handover, set the status, blocked the calendar, mailed."


def backlog_pickup(task: Task, web: Web) -> str:
    """In progress on the board, the work-calendar block, the Huddle post, the mail to the lead."""
    exp = task.expected
    post(web, f"/api/tickets/{exp['key']}/status", [("status", "in_progress")])
    daybook.create(
        web,
        title=f"{exp['key']}: {exp['title']}",
        date=exp["day"],
        start_time="14:00",
        end_time="16:00",
        calendar="work",
    )
    text = f"I'm picking up {exp['key']} ({exp['title']}) now."
    huddle.post(web, exp["channel"], text)
    mailbox.send(web, exp["lead_email"], f"Starting on {exp['key']}", f"Hi {exp['lead'].split()[0]},\n\n{text}\n")
    return f"Moved {exp['key']} to In progress, blocked {exp['day']} 14:00-16:00, posted in #{exp['channel']}, mailed."


SCENARIOS = [
    Scenario(
        home="board",
        apps=("board", "workchat"),
        tasks=mentioned_tasks,
        solvers={"assign-mentioned": assign_mentioned},
        after=("planning-decision", ""),
        when=in_use,
    ),
    Scenario(
        home="board",
        apps=("board", "workchat", "calendar", "mail"),
        tasks=long_tasks,
        solvers={"travel-handover": travel_handover, "backlog-pickup": backlog_pickup},
        rank=ERRANDS,
        when=in_use,
    ),
]
