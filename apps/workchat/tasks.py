"""Huddle (work chat) tasks derived from the world, each with its expected values and rubric.

Action checks read ``workchat.sqlite`` in its end state. What the app writes is told apart from
what was seeded: messages it writes have ``world_ref IS NULL``, reactions a non-NULL ``added_at``,
the status a non-NULL ``users.status_set_at``; so an agent that does nothing scores 0 on every
action. Check queries are fixed SQL text with ``?`` placeholders; names, channel names, world
event ids and phrases travel in ``params``.
"""

from __future__ import annotations

import datetime as dt
import re

from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World
from builder.world.work_chat import channels

APP = "workchat"
KIT = kit.Kit(
    APP,
    nothing_else="Nothing else changed in Huddle: only {}",
    allowed=(Change(table="messages", op="update", min=0, columns=["is_read"]),),
)
_ME = "(SELECT id FROM people WHERE is_me = 1)"
_CHANNEL = "(SELECT id FROM channels WHERE name = ?)"
_ROOT = "(SELECT id FROM messages WHERE world_ref = ?)"
_TICKET = re.compile(r"\b[A-Z]{2,5}-\d{2,5}\b")


def _one_post(what: str) -> RubricItem:
    return KIT.only(what, Change(table="messages", op="insert", min=1, max=1))


def _text(*any_of: str) -> Check:
    return Check(type="answer_text", any_of=list(dict.fromkeys(any_of)))


def _date_forms(day: dt.date) -> list[str]:
    return [
        f"{day:%B} {day.day}",
        f"{day:%b} {day.day}",
        f"{day.month}/{day.day}",
        day.isoformat(),
        f"{day.day} {day:%B}",
    ]


def _mine_in(channel: str, phrase: str, thread_ref: str | None = None) -> Check:
    """At least one app-written message of the persona in ``channel`` containing ``phrase`` (case-insensitive),
    in the thread of the world message ``thread_ref`` when given."""
    query = (
        f"SELECT COUNT(*) >= 1 FROM messages WHERE world_ref IS NULL AND deleted = 0 AND sender_id = {_ME} "
        f"AND channel_id = {_CHANNEL} AND instr(lower(text), lower(?)) > 0"
    )
    params: list = [channel, phrase]
    if thread_ref:
        query += f" AND thread_root_id = {_ROOT}"
        params.append(thread_ref)
    return KIT.sql(query, params, [[1]])


def _messages(world: World) -> list:
    return world.of_kind("work_chat_message")


def in_use(world: World) -> bool:
    """Whether the persona has work-chat channels: without them Huddle has no tasks, nor do the scenarios homed
    there."""
    return bool(channels(world))


def tasks(world: World) -> list[Task]:
    """Return Huddle's tasks for ``world`` in a fixed order (``[]`` without a workspace).

    At least 8 when the persona has colleagues, a team channel and meetings: lookups, an aggregation
    and actions (thread reply, status, reaction, messages built from the calendar and mail).
    """
    p = world.persona
    chans = channels(world)
    if not in_use(world):
        return []
    me = p.identity.name
    msgs = _messages(world)
    team = next(c["name"] for c in chans if c["name"].startswith("team-"))
    projects = [c for c in chans if c["name"].startswith("proj-")]
    dms = [c for c in chans if c["kind"] == "dm"]
    out: list[Task] = []

    task = KIT.adder(world, out)

    # 1. Retrieval: the ticket a colleague last raised in a project channel.
    raised = [
        e
        for e in msgs
        if e.data["channel"] in {c["name"] for c in projects}
        and e.data["sender"] != me
        and _TICKET.search(e.data["text"])
    ]
    if raised:
        e = raised[-1]
        ticket = _TICKET.search(e.data["text"]).group(0)
        ch = next(c for c in projects if c["name"] == e.data["channel"])
        project = ch["topic"].split(":")[0]
        task(
            "colleague-ticket",
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=240,
            instruction=f"In the #{ch['name']} channel ({project}), which ticket did {e.data['sender']} bring up most "
            f"recently, and what did they say about it?",
            expected={"ticket": ticket, "text": e.data["text"], "at": e.at.isoformat(), "sender": e.data["sender"]},
            rubric=[
                RubricItem(id="ticket", weight=70, requirement=f"Names the ticket {ticket}", check=_text(ticket)),
                RubricItem(id="gist", weight=30, requirement=f"Says what they wrote: \u201c{e.data['text']}\u201d"),
            ],
        )

    # 2. Retrieval: the last thing a colleague wrote in the DM.
    if dms:
        dm = max(dms, key=lambda c: sum(1 for e in msgs if e.data["channel"] == c["name"]))
        them = next(n for n in dm["members"] if n != me)
        last = [e for e in msgs if e.data["channel"] == dm["name"] and e.data["sender"] == them][-1]
        task(
            "dm-last-message",
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=180,
            instruction=f"What was the last message {them} sent me in our direct messages on Huddle, and when?",
            expected={"text": last.data["text"], "at": last.at.isoformat()},
            rubric=[
                RubricItem(
                    id="text",
                    weight=70,
                    requirement=f"Quotes \u201c{last.data['text']}\u201d",
                    check=_text(last.data["text"]),
                ),
                RubricItem(
                    id="date",
                    weight=30,
                    requirement=f"Gives the date {last.at:%B %-d, %Y}",
                    check=_text(*_date_forms(last.at.date())),
                ),
            ],
        )

    # 3. Aggregation: messages in the team channel last week (Mon-Sun), thread replies included.
    today = world.now.date()
    mon = today - dt.timedelta(days=today.weekday() + 7)
    sun = mon + dt.timedelta(days=6)
    week = [e for e in msgs if e.data["channel"] == team and mon <= e.at.date() <= sun]
    task(
        "team-messages-last-week",
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"How many messages were posted in #{team} last week ({mon:%A, %B %-d} to {sun:%A, %B %-d}), "
        f"counting replies in threads?",
        expected={
            "count": len(week),
            "from": mon.isoformat(),
            "to": sun.isoformat(),
            "roots": sum(1 for e in week if not e.data["thread_id"]),
        },
        rubric=[
            RubricItem(
                id="count",
                weight=100,
                requirement=f"States {len(week)} messages",
                check=_text(
                    f"{len(week)} messages",
                    f"{len(week)} total",
                    f"{len(week)} in total",
                    f"were {len(week)}",
                    f": {len(week)}",
                    f"is {len(week)}",
                    f"{len(week)}.",
                ),
            )
        ],
    )

    # 4. Action: reply in the thread of the latest meeting agenda that has a thread.
    agendas = [
        e
        for e in msgs
        if not e.data["thread_id"]
        and e.data["ref"]
        and e.data["text"].startswith("Agenda")
        and any(r.data["thread_id"] == e.id for r in msgs)
    ]
    if agendas:
        root = agendas[-1]
        meeting = next((m for m in world.of_kind("calendar_event") if m.id == root.data["ref"]), None)
        title = meeting.data["title"] if meeting else "the meeting"
        phrase = "updated mocks"
        task(
            "reply-in-agenda-thread",
            kind="action",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"In #{root.data['channel']}, reply in the thread of {root.data['sender']}'s agenda for the "
            f"{title} on {root.at:%A, %B %-d} to say I'll bring the {phrase}. Reply in the thread, not in "
            f"the channel.",
            expected={
                "channel": root.data["channel"],
                "root_ref": root.id,
                "root_text": root.data["text"],
                "phrase": phrase,
            },
            rubric=[
                RubricItem(
                    id="in-thread",
                    weight=70,
                    requirement=f"A new reply in that thread (root \u201c{root.data['text'][:60]}\u2026\u201d) "
                    f"mentions the {phrase}",
                    check=_mine_in(root.data["channel"], phrase, root.id),
                ),
                RubricItem(
                    id="not-top-level",
                    weight=15,
                    requirement="The reply went to the thread only, not also to the channel itself",
                    check=KIT.sql(
                        f"SELECT (SELECT COUNT(*) FROM messages WHERE world_ref IS NULL "
                        f"AND sender_id = {_ME} AND thread_root_id = {_ROOT}) >= 1 "
                        f"AND (SELECT COUNT(*) FROM messages WHERE world_ref IS NULL "
                        f"AND sender_id = {_ME} AND channel_id = {_CHANNEL} "
                        f"AND thread_root_id IS NULL AND instr(lower(text), lower(?)) > 0) = 0",
                        [root.id, root.data["channel"], phrase],
                        [[1]],
                    ),
                ),
                _one_post("my one reply in the thread"),
            ],
        )

    # 5. Action: status "On vacation" with the palm tree until a date.
    flights = [f for f in world.of_kind("flight") if f.status == "scheduled"]
    outbound = [f for f in flights if f.data.get("direction") == "outbound"]
    trip = outbound[0].data["trip"] if outbound else None
    legs = [f for f in flights if f.data.get("trip") == trip] if trip is not None else []
    until = max(f.at for f in legs).date() if legs else today + dt.timedelta(days=14)
    task(
        "status-on-vacation",
        kind="action",
        difficulty="easy",
        time_limit_seconds=240,
        instruction=f"Set my Huddle status to \u201cOn vacation\u201d with the palm tree emoji, clearing at the end of "
        f"{until:%A, %B %-d, %Y}.",
        expected={"text": "On vacation", "emoji": ":palm_tree:", "clears": until.isoformat()},
        rubric=[
            RubricItem(
                id="text",
                weight=45,
                requirement="The status text is \u201cOn vacation\u201d",
                check=KIT.sql("SELECT status_text FROM users WHERE status_set_at IS NOT NULL", [], [["On vacation"]]),
            ),
            RubricItem(
                id="emoji",
                weight=15,
                requirement="The status emoji is the palm tree",
                check=KIT.sql("SELECT status_emoji FROM users WHERE status_set_at IS NOT NULL", [], [[":palm_tree:"]]),
            ),
            RubricItem(
                id="until",
                weight=25,
                requirement=f"It clears on {until:%B %-d, %Y}",
                check=KIT.sql(
                    "SELECT substr(status_expires_at, 1, 10) FROM users WHERE status_set_at IS NOT NULL",
                    [],
                    [[until.isoformat()]],
                ),
            ),
            KIT.only(
                "my status",
                Change(
                    table="users",
                    op="update",
                    min=1,
                    max=1,
                    columns=["status_emoji", "status_text", "status_expires_at", "status_set_at"],
                ),
            ),
        ],
    )

    # 6. Action: react with :tada: to a colleague's "shipped" news in the team channel.
    shipped = [
        e
        for e in msgs
        if e.data["channel"] == team
        and not e.data["thread_id"]
        and e.data["sender"] != me
        and "shipped" in e.data["text"].lower()
        and not any(r["emoji"] == ":tada:" and me in r["by"] for r in e.data["reactions"])
    ]
    if shipped:
        e = shipped[-1]
        task(
            "react-tada",
            kind="action",
            difficulty="easy",
            time_limit_seconds=240,
            instruction=f"React with :tada: to {e.data['sender']}'s message \u201c{e.data['text']}\u201d in #{team} "
            f"(from {e.at:%B %-d}).",
            expected={"message_ref": e.id, "emoji": ":tada:"},
            rubric=[
                RubricItem(
                    id="reaction",
                    weight=70,
                    requirement="The persona's :tada: reaction is on that message",
                    check=KIT.sql(
                        f"SELECT COUNT(*) FROM reactions WHERE added_at IS NOT NULL AND emoji = ? "
                        f"AND person_id = {_ME} AND message_id = {_ROOT}",
                        [":tada:", e.id],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="only",
                    weight=15,
                    requirement="No other reaction was added anywhere",
                    check=KIT.sql("SELECT COUNT(*) FROM reactions WHERE added_at IS NOT NULL", [], [[1]]),
                ),
                KIT.only("the one reaction", Change(table="reactions", op="insert", min=1, max=1)),
            ],
        )

    # 7. Action across calendar: tell the team which meeting I'll miss on a day.
    colleagues = set(p.work.colleagues) if p.work else set()
    ahead = [
        e
        for e in world.of_kind("calendar_event")
        if e.status == "scheduled" and e.data.get("source") == "meeting" and e.at.date() > today
    ]
    for day in sorted({e.at.date() for e in ahead}):
        afternoon = [
            e
            for e in ahead
            if e.at.date() == day
            and e.at.hour >= 12
            and len({a["name"] for a in e.data["attendees"]} & colleagues) >= 2
        ]
        if len(afternoon) == 1:
            mt = afternoon[0]
            task(
                "miss-meeting",
                apps=[APP, "calendar"],
                kind="action",
                difficulty="medium",
                time_limit_seconds=420,
                instruction=f"I can't make my afternoon meeting on {day:%A, %B %-d}. Post in #{team} to let the team "
                f"know which meeting I'll miss (name it).",
                expected={"meeting": mt.data["title"], "start": mt.at.isoformat(), "channel": team},
                rubric=[
                    RubricItem(
                        id="posted",
                        weight=85,
                        requirement=f"A new message of mine in #{team} names the {mt.data['title']}",
                        check=_mine_in(team, mt.data["title"]),
                    ),
                    _one_post(f"my one message in #{team}"),
                ],
            )
            break

    # 8. Action across mail and calendar: out-of-office dates of the next trip.
    if legs:
        dep = min(f.at for f in legs).date()
        ret = max(f.at for f in legs).date()
        dest = next((f.data.get("to_name") for f in legs if f.data.get("direction") == "outbound"), "")
        month = f"{dep:%b}"
        task(
            "post-ooo-trip",
            apps=[APP, "mail", "calendar"],
            kind="action",
            difficulty="hard",
            time_limit_seconds=480,
            instruction=f"Post my out-of-office dates for my upcoming trip in #{team}: the day I leave and the day I "
            f"fly back.",
            expected={"leave": dep.isoformat(), "back": ret.isoformat(), "destination": dest, "channel": team},
            rubric=[
                RubricItem(
                    id="ooo",
                    weight=85,
                    requirement=f"A new message of mine in #{team} gives {dep:%B %-d} and {ret:%B %-d}",
                    check=KIT.sql(
                        f"SELECT COUNT(*) >= 1 FROM messages WHERE world_ref IS NULL AND deleted = 0 "
                        f"AND sender_id = {_ME} AND channel_id = {_CHANNEL} "
                        f"AND instr(lower(text), lower(?)) > 0 AND instr(text, ?) > 0 "
                        f"AND instr(text, ?) > 0",
                        [team, month, str(dep.day), str(ret.day)],
                        [[1]],
                    ),
                ),
                _one_post(f"my one message in #{team}"),
            ],
        )

    # 9. Action across mail: share the latest emailed meeting notes in the team channel.
    notes = [
        e
        for e in world.of_kind("email")
        if e.data["subject"].startswith("Notes")
        and e.data["from"]["name"] in colleagues
        and "Action items:" in e.data["body"]
    ]
    if notes:
        mail = notes[-1]
        body = mail.data["body"]
        items = [ln[2:].strip() for ln in body.split("Action items:", 1)[1].splitlines() if ln.startswith("- ")]
        first = items[0].split(":", 1)[-1].strip() if items else ""
        if first:
            task(
                "share-meeting-notes",
                apps=[APP, "mail"],
                kind="action",
                difficulty="medium",
                time_limit_seconds=420,
                instruction=f"{mail.data['from']['name']} emailed notes from a meeting on {mail.at:%B %-d}. Share "
                f"those notes' action items in #{team}.",
                expected={"subject": mail.data["subject"], "action_items": items, "channel": team},
                rubric=[
                    RubricItem(
                        id="shared",
                        weight=85,
                        requirement=f"A new message of mine in #{team} carries the action item \u201c{items[0]}\u201d",
                        check=_mine_in(team, first),
                    ),
                    _one_post(f"my one message in #{team}"),
                ],
            )

    # 10. Lookup across mail/calendar: when the flight home from a past trip landed.
    flights_by_id = {f.id: f for f in world.of_kind("flight")}
    ooo = [
        e
        for e in msgs
        if e.data["sender"] == me
        and e.data["channel"] == team
        and flights_by_id.get(e.data["ref"] or "") is not None
        and flights_by_id[e.data["ref"]].data.get("direction") == "outbound"
        and flights_by_id[e.data["ref"]].status == "done"
    ]
    if ooo:
        note = ooo[-1]
        leg = flights_by_id[note.data["ref"]]
        home = max(
            (
                f
                for f in flights_by_id.values()
                if f.data.get("trip") == leg.data.get("trip")
                and f.data.get("direction") == "return"
                and f.status == "done"
            ),
            key=lambda f: f.at,
            default=None,
        )
        if home is not None:
            landed = dt.date.fromisoformat(str(home.data.get("arr_local") or home.at.isoformat())[:10])
            task(
                "ooo-trip-landing",
                apps=[APP, "mail", "calendar"],
                kind="lookup",
                difficulty="hard",
                time_limit_seconds=480,
                instruction=f"Find the out-of-office note I posted in #{team} on {note.at:%B %-d, %Y}. On which date "
                f"did my flight home from that trip land?",
                expected={
                    "note": note.data["text"],
                    "flight": home.data.get("flight_number"),
                    "landed": landed.isoformat(),
                },
                rubric=[
                    RubricItem(
                        id="date",
                        weight=100,
                        requirement=f"Gives {landed:%B %-d, %Y}",
                        check=_text(*_date_forms(landed)),
                    )
                ],
            )
    out.extend(insight_tasks(world))
    return out


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """Huddle's contradiction task: the persona's title on the Huddle profile (the spec's role, right) against the
    Guildline headline (the title before the latest change)."""
    from builder.tasks import answers as A

    p = world.persona
    prof = next((e.data for e in world.of_kind("career_profile")), None)
    diff = (prof or {}).get("resume", {}).get("difference") if prof else None
    if not diff or not p.work or not p.work.role or diff["resume"] != p.work.role:
        return []
    return [
        Task(
            id=f"{p.id}/workchat/cx-title",
            persona=p.id,
            apps_involved=["workchat", "network"],
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=420,
            instruction="A recruiter asked for my exact current job title. My Huddle profile and my Guildline "
            "profile don't show the same one. Which is my current title, and what does the other one "
            "say? Current one first.",
            expected={"right": p.work.role, "stale": diff["profile"], "truth": "workchat"},
            rubric=[
                RubricItem(id="right", weight=30, requirement=f"Gives {p.work.role!r}", check=A.text(p.work.role)),
                RubricItem(
                    id="stale",
                    weight=30,
                    requirement=f"Gives {diff['profile']!r}",
                    check=A.text(*A.distinct_forms(diff["profile"], p.work.role)),
                ),
                RubricItem(
                    id="order",
                    weight=40,
                    requirement="Names the current title first",
                    check=A.names([[p.work.role], A.distinct_forms(diff["profile"], p.work.role)], ordered=True),
                ),
            ],
        )
    ]
