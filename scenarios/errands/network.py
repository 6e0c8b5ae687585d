"""Guildline's (the professional network's) errands with the calendar: accept the invitation of someone met at a
meetup, offer a recruiter two free times for a call, invite the meetup's organizer to connect, thank the organizer
of a recent meeting; each with its reference solution. They sit among Guildline's own tasks, where they were built before."""

from __future__ import annotations

import datetime as dt

from apps.network.seed import profile
from apps.network.steps import connect, invitation, message
from apps.network.tasks import KIT, PERSON
from builder.tasks.collect import Scenario
from builder.tasks.model import Change, RubricItem, Task
from builder.tasks.oracle import OracleError, Web
from builder.world import World


def calendar_tasks(world: World) -> list[Task]:
    """Accept the invitation from the person met at the meetup (the calendar names the attendees), then reply to the
    recruiter who asked for a call next week with two free times (the calendar knows them), then invite the
    meetup's organizer (the calendar's entry names them; Guildline's people search finds them)."""
    prof = profile(world)
    by_ref = {x["id"]: x for x in prof["connections"] + prof["people"]}
    out: list[Task] = []
    task = KIT.adder(world, out)

    meet = prof["meetup"]
    met = next(x for x in prof["people"] if x["name"] == meet["attendee"])
    day = dt.date.fromisoformat(meet["date"])
    task(
        "accept-meetup",
        ["network", "calendar"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=600,
        instruction=(
            f"Someone I met at the meetup on {day:%A, %B} {day.day} sent me a Guildline invitation. "
            "Accept that one and leave the other invitations alone."
        ),
        expected={"name": met["name"], "meetup": meet["title"], "invitation": meet["invitation_id"]},
        rubric=[
            RubricItem(
                id="accepted",
                weight=50,
                requirement=f"The invitation from {met['name']} is accepted",
                check=KIT.sql(
                    f"SELECT status FROM invitations WHERE person_id = {PERSON}", [met["id"]], [["accepted"]]
                ),
            ),
            RubricItem(
                id="connected",
                weight=20,
                requirement=f"{met['name']} is now a connection",
                check=KIT.sql("SELECT connected_on IS NOT NULL FROM people WHERE world_ref = ?", [met["id"]], [[1]]),
            ),
            RubricItem(
                id="others",
                weight=15,
                requirement="It was accepted and every other invitation is still pending",
                check=KIT.sql(
                    f"""SELECT (SELECT status FROM invitations WHERE person_id = {PERSON}) = 'accepted'
                                       AND (SELECT COUNT(*) FROM invitations WHERE status != 'pending'
                                            AND person_id != {PERSON}) = 0""",
                    [met["id"], met["id"]],
                    [[1]],
                ),
            ),
            KIT.only(
                f"the one accepted invitation and {met['name']} becoming a connection",
                Change(table="invitations", op="update", min=1, max=1, columns=["status", "responded_at"]),
                Change(table="people", op="update", min=1, max=1, columns=["connected_on"]),
            ),
        ],
    )

    msgs = [e for e in world.of_kind("recruiter_message") if e.at <= world.now]
    last_thread = msgs[-1].data["thread_id"]
    rec = by_ref[msgs[-1].data["recruiter"]]
    monday = world.now.date() + dt.timedelta(days=7 - world.now.weekday())
    task(
        "recruiter-availability",
        ["network", "calendar"],
        kind="action",
        difficulty="hard",
        time_limit_seconds=900,
        instruction=(
            f"{rec['name']} asked on Guildline when I could do a 30-minute call next week. Reply with "
            "two times that are free in my calendar (work hours)."
        ),
        expected={"recruiter": rec["name"], "thread": last_thread, "week_of": monday.isoformat()},
        rubric=[
            RubricItem(
                id="replied",
                weight=40,
                requirement=f"A new message from me is in the thread with {rec['name']}",
                check=KIT.sql(
                    f"""SELECT COUNT(*) > 0 FROM messages WHERE sender_id IS NULL AND world_ref IS NULL
                                       AND thread_id = (SELECT id FROM threads WHERE person_id = {PERSON})""",
                    [rec["id"]],
                    [[1]],
                ),
            ),
            RubricItem(
                id="free-times",
                weight=45,
                requirement=(
                    f"The reply offers two times in the week of {monday.isoformat()} during work hours "
                    "that do not overlap an event in the persona's calendar"
                ),
            ),
            KIT.only(
                f"my one reply to {rec['name']} (and their answer to it arriving)",
                Change(table="messages", op="insert", min=1, max=2),
            ),
        ],
    )

    # The meetup's organizer (the calendar entry names them) is on Guildline but not connected: find them with the
    # people search and invite them, with a note.
    org = next(x for x in prof["people"] if x["name"] == meet["other"])
    city = prof["location"].split(",")[0]
    task(
        "connect-organizer",
        ["network", "calendar"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=600,
        instruction=(
            f"Whoever organized the meetup I went to on {day:%A, %B} {day.day} isn't in my Guildline network yet. "
            "Find them on Guildline and send them an invitation to connect, with a short note that mentions the "
            "meetup."
        ),
        expected={"name": org["name"], "meetup": meet["title"], "date": meet["date"]},
        rubric=[
            RubricItem(
                id="invited",
                weight=55,
                requirement=f"An invitation from me to {org['name']} is waiting for their answer",
                check=KIT.sql(
                    f"""SELECT direction, status FROM invitations WHERE world_ref IS NULL
                        AND person_id = {PERSON}""",
                    [org["id"]],
                    [["sent", "pending"]],
                ),
            ),
            RubricItem(
                id="note",
                weight=30,
                requirement=f"Its note mentions the meetup (the word meetup, or {city})",
                check=KIT.sql(
                    f"""SELECT instr(lower(note), 'meetup') > 0 OR instr(lower(note), lower(?)) > 0
                        FROM invitations WHERE world_ref IS NULL AND person_id = {PERSON}""",
                    [city, org["id"]],
                    [[1]],
                ),
            ),
            KIT.only(f"my one invitation to {org['name']}", Change(table="invitations", op="insert", min=1, max=1)),
        ],
    )
    return out


def _organized_meeting(world: World, names: set[str]):
    """The latest one-off work meeting before now organized by a connection (not a series), or None."""
    p = world.persona
    found = None
    for e in world.of_kind("calendar_event"):
        d = e.data
        org = (d.get("organizer") or {}).get("name")
        if (
            d.get("calendar") == "work"
            and not d.get("series")
            and e.at <= world.now
            and (world.now - e.at).days <= 45
            and org in names
            and org != p.identity.name
        ):
            found = e
    return found


def thank_tasks(world: World) -> list[Task]:
    """Thank the colleague who organized a recent one-off meeting (the calendar names the organizer)."""
    conn_names = {x["name"]: x for x in profile(world)["connections"]}
    e = _organized_meeting(world, set(conn_names))
    if not e:
        return []
    org = conn_names[e.data["organizer"]["name"]]
    out: list[Task] = []
    KIT.adder(world, out)(
        "thank-organizer",
        ["network", "calendar"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=600,
        instruction=(
            f'Send a Guildline message to whoever organized my "{e.data["title"]}" meeting on '
            f"{e.at:%B} {e.at.day}, thanking them for it."
        ),
        expected={"name": org["name"], "meeting": e.data["title"], "date": e.at.date().isoformat()},
        rubric=[
            RubricItem(
                id="sent",
                weight=65,
                requirement=f"A message from me to {org['name']} exists",
                check=KIT.sql(
                    f"""SELECT COUNT(*) > 0 FROM messages m JOIN threads t ON t.id = m.thread_id
                                               WHERE m.sender_id IS NULL AND m.world_ref IS NULL
                                               AND t.person_id = {PERSON}""",
                    [org["id"]],
                    [[1]],
                ),
            ),
            RubricItem(id="thanks", weight=20, requirement="The message thanks them for the meeting"),
            KIT.only(
                f"my one message to {org['name']} (its new conversation, and an answer arriving)",
                Change(table="threads", op="insert", min=0, max=1),
                Change(table="messages", op="insert", min=1, max=2),
            ),
        ],
    )
    return out


def accept_meetup(task: Task, web: Web) -> str:
    """Accept the invitation of the person met at the meetup."""
    invitation(web, task.expected["name"], "accept")
    return f"Accepted {task.expected['name']}'s invitation; the others are still pending."


def _free_slots(web: Web, monday: dt.date, count: int = 2) -> list[dt.datetime]:
    """The first ``count`` free 30-minute slots in work hours (09:00-17:00, Monday to Friday), one per day, from
    Daybook's occurrences (``GET /api/events`` on the calendar), as its week view shows them."""
    r = web.get(
        "calendar",
        "/api/events",
        params={"from": monday.isoformat(), "to": (monday + dt.timedelta(days=5)).isoformat()},
    )
    if r.status_code != 200:
        raise OracleError(f"Daybook answered {r.status_code}: {r.text[:300]}")
    busy = [
        (dt.datetime.fromisoformat(o["start"]), dt.datetime.fromisoformat(o["end"]))
        for o in r.json()["occurrences"]
        if not o.get("allDay") and not o.get("all_day") and "T" in o["start"]
    ]
    out: list[dt.datetime] = []
    for d in range(5):
        day = monday + dt.timedelta(days=d)
        for half in range(2 * 9 + 2, 2 * 17 - 1):  # 10:00 .. 16:00 starts, away from the day's edges
            start = dt.datetime.combine(day, dt.time(half // 2, 30 * (half % 2)))
            end = start + dt.timedelta(minutes=30)
            if all(end <= b or start >= e for b, e in busy):
                out.append(start)
                break
        if len(out) == count:
            return out
    raise OracleError(f"no {count} free slots in the week of {monday}")


def recruiter_availability(task: Task, web: Web) -> str:
    """Offer the recruiter the first two free half hours of next week's work days (the calendar's week)."""
    exp = task.expected
    a, b = _free_slots(web, dt.date.fromisoformat(exp["week_of"]))
    times = f"{a:%A, %B %-d} at {a:%H:%M} or {b:%A, %B %-d} at {b:%H:%M}"
    message(web, exp["recruiter"], f"Thanks for reaching out! I could do a 30-minute call {times}. Would either work?")
    return f"Offered {exp['recruiter']} {times}."


def connect_organizer(task: Task, web: Web) -> str:
    """Invite the meetup's organizer (the calendar's entry names them) with a note about it."""
    exp = task.expected
    connect(web, exp["name"], f"Hi! Thanks for organizing the {exp['meetup']}, I enjoyed it. Let's stay in touch.")
    return f"Sent {exp['name']} an invitation to connect, with a note about the {exp['meetup']}."


def thank_organizer(task: Task, web: Web) -> str:
    """Message the meeting's organizer a thank-you on Guildline."""
    exp = task.expected
    message(web, exp["name"], f"Thank you for organizing the {exp['meeting']} meeting, it was really useful!")
    return f"Thanked {exp['name']} for the {exp['meeting']}."


SCENARIOS = [
    Scenario(
        home="network",
        apps=("network", "calendar"),
        tasks=calendar_tasks,
        solvers={
            "accept-meetup": accept_meetup,
            "recruiter-availability": recruiter_availability,
            "connect-organizer": connect_organizer,
        },
        after="resume-title",
    ),
    Scenario(
        home="network",
        apps=("network", "calendar"),
        tasks=thank_tasks,
        solvers={"thank-organizer": thank_organizer},
        after=("recruiter-salary", "withdraw-oldest", "save-best-job"),
    ),
]
