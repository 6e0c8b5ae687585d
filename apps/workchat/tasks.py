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

from .effects import VISITS

APP = "workchat"
KIT = kit.Kit(APP, nothing_else="Nothing else changed in Huddle: only {}", allowed=VISITS)
#: The persona's row in ``people`` (sql text).
ME = "(SELECT id FROM people WHERE is_me = 1)"
#: The channel whose name is the bound parameter (sql text).
CHANNEL = "(SELECT id FROM channels WHERE name = ?)"
_ROOT = "(SELECT id FROM messages WHERE world_ref = ?)"
_TICKET = re.compile(r"\b[A-Z]{2,5}-\d{2,5}\b")


def one_post(what: str) -> RubricItem:
    """The state-diff item: Huddle changed by ``what``, the persona's one new message, only."""
    return KIT.only(what, Change(table="messages", op="insert", min=1, max=1))


def _text(*any_of: str) -> Check:
    return Check(type="answer_text", any_of=list(dict.fromkeys(any_of)))


def date_forms(day: dt.date) -> list[str]:
    """The ways an answer may write ``day`` (``March 4``, ``Mar 4``, ``3/4``, ISO, ``4 March``)."""
    return [
        f"{day:%B} {day.day}",
        f"{day:%b} {day.day}",
        f"{day.month}/{day.day}",
        day.isoformat(),
        f"{day.day} {day:%B}",
    ]


def mine_in(channel: str, phrase: str, thread_ref: str | None = None) -> Check:
    """At least one app-written message of the persona in ``channel`` containing ``phrase`` (case-insensitive),
    in the thread of the world message ``thread_ref`` when given."""
    query = (
        f"SELECT COUNT(*) >= 1 FROM messages WHERE world_ref IS NULL AND deleted = 0 AND sender_id = {ME} "
        f"AND channel_id = {CHANNEL} AND instr(lower(text), lower(?)) > 0"
    )
    params: list = [channel, phrase]
    if thread_ref:
        query += f" AND thread_root_id = {_ROOT}"
        params.append(thread_ref)
    return KIT.sql(query, params, [[1]])


def _messages(world: World) -> list:
    return world.of_kind("work_chat_message")


def trip_legs(world: World) -> list:
    """The scheduled flights of the persona's next trip (the trip of the first scheduled outbound leg); [] without
    one."""
    flights = [f for f in world.of_kind("flight") if f.status == "scheduled"]
    outbound = [f for f in flights if f.data.get("direction") == "outbound"]
    trip = outbound[0].data["trip"] if outbound else None
    return [f for f in flights if f.data.get("trip") == trip] if trip is not None else []


def in_use(world: World) -> bool:
    """Whether the persona has work-chat channels: without them Huddle has no tasks, nor do the scenarios homed
    there."""
    return bool(channels(world))


def tasks(world: World) -> list[Task]:
    """Return Huddle's own tasks for ``world`` in a fixed order (``[]`` without a workspace).

    Up to seven: lookups, an aggregation and actions (thread reply, status, reaction, muting #random). The ones built from the calendar,
    mail or Guildline too are scenarios (``scenarios/errands/workchat.py``, ``scenarios/recaps/workchat.py``).
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
            expected={
                "channel": ch["name"],
                "ticket": ticket,
                "text": e.data["text"],
                "at": e.at.isoformat(),
                "sender": e.data["sender"],
            },
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
            expected={"them": them, "text": last.data["text"], "at": last.at.isoformat()},
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
                    check=_text(*date_forms(last.at.date())),
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
            "channel": team,
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
                    check=mine_in(root.data["channel"], phrase, root.id),
                ),
                RubricItem(
                    id="not-top-level",
                    weight=15,
                    requirement="The reply went to the thread only, not also to the channel itself",
                    check=KIT.sql(
                        f"SELECT (SELECT COUNT(*) FROM messages WHERE world_ref IS NULL "
                        f"AND sender_id = {ME} AND thread_root_id = {_ROOT}) >= 1 "
                        f"AND (SELECT COUNT(*) FROM messages WHERE world_ref IS NULL "
                        f"AND sender_id = {ME} AND channel_id = {CHANNEL} "
                        f"AND thread_root_id IS NULL AND instr(lower(text), lower(?)) > 0) = 0",
                        [root.id, root.data["channel"], phrase],
                        [[1]],
                    ),
                ),
                one_post("my one reply in the thread"),
            ],
        )

    # 5. Action: status "On vacation" with the palm tree until a date.
    legs = trip_legs(world)
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
                        f"AND person_id = {ME} AND message_id = {_ROOT}",
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

    # 7. Notifications: mute the chatty #random (Details > Notifications), leaving every other conversation as it is.
    if any(c["name"] == "random" for c in chans):
        mine = f"channel_id = (SELECT id FROM channels WHERE name = 'random') AND person_id = {ME}"
        task(
            "mute-random",
            kind="action",
            difficulty="easy",
            time_limit_seconds=240,
            instruction="#random in Huddle is too chatty. Mute it, and leave my other conversations' notifications "
            "as they are.",
            expected={"channel": "random"},
            rubric=[
                RubricItem(
                    id="muted",
                    weight=60,
                    requirement="#random is muted",
                    check=KIT.sql(f"SELECT muted FROM channel_members WHERE {mine}", [], [[1]]),
                ),
                RubricItem(
                    id="others",
                    weight=25,
                    requirement="It is muted and no other conversation's notifications changed",
                    check=KIT.sql(
                        f"""SELECT (SELECT muted FROM channel_members WHERE {mine}) = 1
                               AND (SELECT COUNT(*) FROM channel_members WHERE prefs_set_at IS NOT NULL
                                    AND NOT ({mine})) = 0""",
                        [],
                        [[1]],
                    ),
                ),
                KIT.only(
                    "#random muted",
                    Change(
                        table="channel_members", op="update", min=1, max=1, columns=["muted", "notify", "prefs_set_at"]
                    ),
                ),
            ],
        )
    return out
