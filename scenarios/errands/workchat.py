"""Huddle's (work chat's) errands with the calendar and mail: tell the team which meeting the persona will miss, post
the out-of-office dates of the next trip, schedule an out-of-office note for the morning of departure, share the action items of emailed meeting notes; each with its reference
solution. They follow Huddle's own tasks (after its last action), where they were built before."""

from __future__ import annotations

import datetime as dt

from apps.workchat import steps as huddle
from apps.workchat.tasks import APP, CHANNEL, KIT, ME, in_use, mine_in, one_post, trip_legs
from builder.tasks import steps as S
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.oracle import Web
from builder.world import World

#: Where they sit: after Huddle's reaction task, or its status task when there is nothing to react to.
AFTER = ("react-tada", "status-on-vacation")


def miss_tasks(world: World) -> list[Task]:
    """Tell the team which meeting the persona will miss: the only afternoon meeting with two or more colleagues on
    the first day ahead that has one (calendar + work chat)."""
    p, today, team = world.persona, world.now.date(), S.team_channel(world)
    colleagues = set(p.work.colleagues) if p.work else set()
    ahead = [
        e
        for e in world.of_kind("calendar_event")
        if e.status == "scheduled" and e.data.get("source") == "meeting" and e.at.date() > today
    ]
    out: list[Task] = []
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
            KIT.adder(world, out)(
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
                        check=mine_in(team, mt.data["title"]),
                    ),
                    one_post(f"my one message in #{team}"),
                ],
            )
            break
    return out


def trip_days(world: World) -> tuple[dt.date, dt.date] | None:
    """(the day the persona flies out, the day they fly back) of the next trip (:func:`trip_legs`), or None."""
    legs = trip_legs(world)
    return (min(f.at for f in legs).date(), max(f.at for f in legs).date()) if legs else None


def ooo_tasks(world: World) -> list[Task]:
    """Post the out-of-office dates of the next trip in the team channel (mail and calendar know the flights)."""
    legs, days, team = trip_legs(world), trip_days(world), S.team_channel(world)
    if not days:
        return []
    dep, ret = days
    dest = next((f.data.get("to_name") for f in legs if f.data.get("direction") == "outbound"), "")
    month = f"{dep:%b}"
    out: list[Task] = []
    KIT.adder(world, out)(
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
                    f"AND sender_id = {ME} AND channel_id = {CHANNEL} "
                    f"AND instr(lower(text), lower(?)) > 0 AND instr(text, ?) > 0 "
                    f"AND instr(text, ?) > 0",
                    [team, month, str(dep.day), str(ret.day)],
                    [[1]],
                ),
            ),
            one_post(f"my one message in #{team}"),
        ],
    )
    return out


def schedule_ooo_tasks(world: World) -> list[Task]:
    """Schedule the out-of-office note for 9:00 on the morning the persona flies out (the calendar and mail know the
    flights): a scheduled message in the team channel that names the day they are back."""
    days, team = trip_days(world), S.team_channel(world)
    if not days or days[0] <= world.now.date():
        return []
    dep, ret = days
    at = f"{dep.isoformat()}T09:00:00"
    out: list[Task] = []
    KIT.adder(world, out)(
        "schedule-ooo",
        apps=[APP, "calendar"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=480,
        instruction=f"Schedule a message in #{team} for 9:00 AM on the morning I fly out on my next trip, telling "
        "the team I'm away and the day I'm back. Don't post it now.",
        expected={"at": at, "back": ret.isoformat(), "channel": team},
        rubric=[
            RubricItem(
                id="scheduled",
                weight=55,
                requirement=f"A message of mine in #{team} is scheduled for {dep:%B %-d} at 9:00",
                check=KIT.sql(
                    f"""SELECT COUNT(*) FROM messages WHERE scheduled_at IS NOT NULL AND deleted = 0
                        AND sender_id = {ME} AND channel_id = {CHANNEL} AND deliver_at = ?""",
                    [team, at],
                    [[1]],
                ),
            ),
            RubricItem(
                id="back-day",
                weight=30,
                requirement=f"It names the day the persona is back, {ret:%B %-d}",
                check=KIT.sql(
                    f"""SELECT COUNT(*) FROM messages WHERE scheduled_at IS NOT NULL AND deleted = 0
                        AND sender_id = {ME} AND channel_id = {CHANNEL} AND deliver_at = ?
                        AND instr(text, ?) > 0""",
                    [team, at, str(ret.day)],
                    [[1]],
                ),
            ),
            one_post(f"my one scheduled message in #{team}"),
        ],
    )
    return out


def notes_tasks(world: World) -> list[Task]:
    """Share the action items of the latest meeting notes a colleague emailed, in the team channel (mail + work
    chat)."""
    p, team = world.persona, S.team_channel(world)
    colleagues = set(p.work.colleagues) if p.work else set()
    notes = [
        e
        for e in world.of_kind("email")
        if e.data["subject"].startswith("Notes")
        and e.data["from"]["name"] in colleagues
        and "Action items:" in e.data["body"]
    ]
    if not notes:
        return []
    mail = notes[-1]
    body = mail.data["body"]
    items = [ln[2:].strip() for ln in body.split("Action items:", 1)[1].splitlines() if ln.startswith("- ")]
    first = items[0].split(":", 1)[-1].strip() if items else ""
    if not first:
        return []
    out: list[Task] = []
    KIT.adder(world, out)(
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
                check=mine_in(team, first),
            ),
            one_post(f"my one message in #{team}"),
        ],
    )
    return out


def _say(web: Web, channel: str, text: str) -> str:
    huddle.post(web, channel, text)
    return f"Posted in #{channel}."


def miss_meeting(task: Task, web: Web) -> str:
    """Name the meeting the persona will miss in the team channel."""
    exp = task.expected
    day = dt.datetime.fromisoformat(exp["start"])
    return _say(web, exp["channel"], f"Heads up: I'll miss the {exp['meeting']} on {day:%A, %B %-d}.")


def post_ooo_trip(task: Task, web: Web) -> str:
    """Post the day the persona leaves and the day they fly back in the team channel."""
    exp = task.expected
    leave, back = dt.date.fromisoformat(exp["leave"]), dt.date.fromisoformat(exp["back"])
    return _say(web, exp["channel"], f"OOO: I'm out from {leave:%b %-d} to {back:%b %-d} (travelling).")


def schedule_ooo(task: Task, web: Web) -> str:
    """Schedule the out-of-office note for 9:00 on the day the persona leaves."""
    exp = task.expected
    back = dt.date.fromisoformat(exp["back"])
    huddle.schedule(
        web, exp["channel"], f"Morning! I'm travelling from today and back on {back:%A, %B %-d}.", exp["at"][:16]
    )
    return f"Scheduled the note in #{exp['channel']} for {exp['at']}."


def share_meeting_notes(task: Task, web: Web) -> str:
    """Post the emailed notes' action items in the team channel."""
    exp = task.expected
    items = "\n".join(f"- {i}" for i in exp["action_items"])
    return _say(web, exp["channel"], f"Action items from {exp['subject']}:\n{items}")


SCENARIOS = [
    Scenario(
        home="workchat",
        apps=("workchat", "calendar"),
        tasks=miss_tasks,
        solvers={"miss-meeting": miss_meeting},
        after=AFTER,
        when=in_use,
    ),
    Scenario(
        home="workchat",
        apps=("workchat", "mail", "calendar"),
        tasks=ooo_tasks,
        solvers={"post-ooo-trip": post_ooo_trip},
        after=AFTER,
        when=in_use,
    ),
    Scenario(
        home="workchat",
        apps=("workchat", "calendar"),
        tasks=schedule_ooo_tasks,
        solvers={"schedule-ooo": schedule_ooo},
        after=AFTER,
        when=in_use,
    ),
    Scenario(
        home="workchat",
        apps=("workchat", "mail"),
        tasks=notes_tasks,
        solvers={"share-meeting-notes": share_meeting_notes},
        after=AFTER,
        when=in_use,
    ),
]
