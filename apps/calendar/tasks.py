"""Daybook tasks derived from the world, each with its expected values and rubric.

Action checks read the calendar database's end state. Rows the app makes have ``world_ref IS NULL``;
rows it changes get ``edited_at`` (seeded rows: NULL); answers the persona gives in the app set
``attendees.responded_at`` and add an ``rsvp_replies`` row. So an agent that does nothing fails every
action check. Queries are fixed text; every world value travels in ``params``.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World

from .worldview import conflicts, occurrences, overlapping, time_label, week_start

APP = "calendar"
KIT = kit.Kit(APP, nothing_else="Nothing else changed in the calendar: only {}")


def _text(*options: str) -> Check:
    return Check(type="answer_text", any_of=[o for o in options if o])


def _date_forms(day: dt.date) -> list[str]:
    return [
        f"{day:%B} {day.day}",
        f"{day:%b} {day.day}",
        f"{day.month}/{day.day}",
        day.isoformat(),
        f"{day.day} {day:%B}",
    ]


def new_event(what: str) -> RubricItem:
    """The state-diff item of a task that adds one event (``what`` it is), with at most one reminder."""
    return KIT.only(
        what, Change(table="events", op="insert", min=1, max=1), Change(table="reminders", op="insert", min=0, max=1)
    )


def tasks(world: World) -> list[Task]:
    """Return Daybook's own tasks of ``world`` (lookups, aggregations, actions in the calendar alone), in a fixed
    order; its tasks across apps are scenarios' (``scenarios/*/calendar.py``)."""
    now = world.now
    occs = occurrences(world)
    out: list[Task] = []

    task = KIT.adder(world, out)

    this_week = week_start(world, now.date())
    next_week = this_week + dt.timedelta(days=7)
    last_week = this_week - dt.timedelta(days=7)

    # 1. Next dental appointment.
    dental = [
        o
        for o in occs
        if o.source == "appointment"
        and o.start > now
        and ("dent" in o.title.lower() or "dent" in (o.data.get("location") or "").lower())
    ]
    if dental:
        o = dental[0]
        place = (o.data.get("location") or "").strip()  # an appointment may name no place: then "where" is not asked
        task(
            "next-dentist",
            ["calendar"],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=240,
            instruction="When is my next dentist appointment, and where?"
            if place
            else "When is my next dentist appointment?",
            expected={
                "date": o.start.date().isoformat(),
                "time": o.start.strftime("%H:%M"),
                "location": place,
            },
            rubric=[
                RubricItem(
                    id="date",
                    weight=60 if place else 70,
                    requirement=f"States the date {o.start:%A, %B} {o.start.day}",
                    check=_text(*_date_forms(o.start.date())),
                ),
                RubricItem(
                    id="time",
                    weight=20 if place else 30,
                    requirement=f"States the time {time_label(world, o.start)}",
                    check=_text(time_label(world, o.start), o.start.strftime("%H:%M")),
                ),
                *(
                    [RubricItem(id="place", weight=20, requirement=f"Names {place}", check=_text(place))]
                    if place
                    else []
                ),
            ],
        )

    # 2. Meetings last week.
    lw_end = last_week + dt.timedelta(days=6)
    met = [o for o in occs if o.source == "meeting" and last_week <= o.start.date() <= lw_end]
    task(
        "meetings-last-week",
        ["calendar"],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=360,
        instruction=f"How many work meetings did I have last week ({last_week:%A, %B} {last_week.day} to "
        f"{lw_end:%A, %B} {lw_end.day})? Count every stand-up too.",
        expected={"count": len(met), "from": last_week.isoformat(), "to": lw_end.isoformat()},
        rubric=[
            RubricItem(
                id="count",
                weight=100,
                requirement=f"Says {len(met)} meetings",
                check=_text(
                    f"{len(met)} meeting{'' if len(met) == 1 else 's'}",
                    f"{len(met)} work meeting{'' if len(met) == 1 else 's'}",
                    f"had {len(met)}",
                    f"total of {len(met)}",
                    f"{len(met)} in total",
                ),
            )
        ],
    )

    # 3. Conflicts next week.
    nw_end = next_week + dt.timedelta(days=6)
    pairs = conflicts(overlapping(world, next_week, nw_end))
    if pairs:
        titles = sorted({t for a, b in pairs for t in (a.title, b.title)})[:4]
        weights = [100 // len(titles)] * len(titles)
        weights[0] += 100 - sum(weights)
        task(
            "conflicts-next-week",
            ["calendar"],
            kind="aggregation",
            difficulty="hard",
            time_limit_seconds=480,
            instruction=f"Which events on my calendar overlap each other next week ({next_week:%B} {next_week.day} to "
            f"{nw_end:%B} {nw_end.day})? Ignore all-day events and multi-day hotel stays.",
            expected={
                "from": next_week.isoformat(),
                "to": nw_end.isoformat(),
                "pairs": [[a.title, a.start.isoformat(), b.title, b.start.isoformat()] for a, b in pairs],
            },
            rubric=[
                RubricItem(id=f"event-{i}", weight=w, requirement=f"Names {t} as part of a conflict", check=_text(t))
                for i, (t, w) in enumerate(zip(titles, weights))
            ],
        )

    # 4. Move one stand-up to 10:00 (an override row).
    standups = [
        o
        for o in occs
        if o.source == "meeting"
        and o.series
        and o.start.date() >= next_week
        and o.start.date() <= nw_end
        and o.title.lower().startswith("team stand")
    ]
    if not standups:
        standups = [o for o in occs if o.source == "meeting" and o.series and o.start > now]
    if standups:
        o = standups[min(1, len(standups) - 1)]
        new_start = dt.datetime.combine(o.start.date(), dt.time(10, 0))
        new_end = new_start + (o.end - o.start)
        fmt = "%Y-%m-%dT%H:%M:%S"
        task(
            "move-standup",
            ["calendar"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"Move the {o.title} on {o.start:%A, %B} {o.start.day} to start at 10:00. Only that day; "
            "the other days stay as they are.",
            expected={"series": o.series, "recurrence_id": o.start.strftime(fmt), "start": new_start.strftime(fmt)},
            rubric=[
                RubricItem(
                    id="moved",
                    weight=60,
                    requirement=f"That occurrence now runs {new_start:%H:%M}-{new_end:%H:%M} on {o.start.date()}",
                    check=KIT.sql(
                        """SELECT start_local, end_local, cancelled FROM overrides
                                              WHERE event_id = ? AND recurrence_id = ? AND edited_at IS NOT NULL""",
                        [o.series, o.start.strftime(fmt)],
                        [[new_start.strftime(fmt), new_end.strftime(fmt), 0]],
                    ),
                ),
                RubricItem(
                    id="series-kept",
                    weight=25,
                    requirement="The series itself and its other occurrences are unchanged",
                    check=KIT.sql(
                        """SELECT (SELECT COUNT(*) FROM overrides WHERE edited_at IS NOT NULL),
                                              (SELECT COUNT(*) FROM events WHERE id = ? AND edited_at IS NULL)""",
                        [o.series],
                        [[1, 1]],
                    ),
                ),
                KIT.only(
                    "the one occurrence's override (and the series' revision number)",
                    Change(table="overrides", op="insert", min=1, max=1),
                    Change(table="events", op="update", min=0, max=1, columns=["sequence"]),
                ),
            ],
        )

    # 9. A new weekly series.
    tue = next_week + dt.timedelta(days=(1 - next_week.weekday()) % 7)
    task(
        "weekly-lesson",
        ["calendar"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=360,
        instruction=f'Add a weekly "Piano lesson" on Tuesdays from 17:00 to 17:30, starting {tue:%A, %B} {tue.day}, '
        "on my personal calendar.",
        expected={"first": f"{tue.isoformat()}T17:00:00"},
        rubric=[
            RubricItem(
                id="series",
                weight=60,
                requirement=f"A new weekly series on Tuesdays from {tue.isoformat()} 17:00",
                check=KIT.sql(
                    """SELECT COUNT(*) FROM events WHERE world_ref IS NULL AND start_local = ?
                                          AND end_local = ? AND instr(rrule, ?) > 0 AND instr(rrule, ?) > 0""",
                    [f"{tue.isoformat()}T17:00:00", f"{tue.isoformat()}T17:30:00", "FREQ=WEEKLY", "TU"],
                    [[1]],
                ),
            ),
            RubricItem(
                id="title",
                weight=25,
                requirement="Titled 'Piano lesson' on the personal calendar",
                check=KIT.sql(
                    """SELECT COUNT(*) FROM events WHERE world_ref IS NULL AND calendar_id = ?
                                          AND lower(title) = ?""",
                    ["personal", "piano lesson"],
                    [[1]],
                ),
            ),
            new_event("the one new weekly series"),
        ],
    )

    # 10. A series with an end, two reminders and its own colour.
    wed = next_week + dt.timedelta(days=(2 - next_week.weekday()) % 7)
    sessions = 6
    last = dt.datetime.combine(wed + dt.timedelta(weeks=sessions - 1), dt.time(8, 45))
    last_utc = last.replace(tzinfo=ZoneInfo(world.persona.timezone)).astimezone(dt.timezone.utc)
    task(
        "physio-sessions",
        ["calendar"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f'My physiotherapist booked me {sessions} weekly sessions. Add "Physio session" on Wednesdays from '
        f"08:00 to 08:45, starting {wed:%A, %B} {wed.day}, ending after {sessions} sessions, on my personal "
        'calendar, with two reminders (1 day before and 1 hour before) and in the "Sage" colour.',
        expected={
            "first": f"{wed.isoformat()}T08:00:00",
            "end": f"{wed.isoformat()}T08:45:00",
            "count": sessions,
            "last_utc": last_utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "reminders": [60, 1440],
            "color": "sage",
        },
        rubric=[
            RubricItem(
                id="series",
                weight=40,
                requirement=f"A new weekly series on Wednesdays from {wed.isoformat()} 08:00-08:45 whose last "
                f"occurrence is the {sessions}th, on {last.date().isoformat()}",
                check=KIT.sql(
                    """SELECT COUNT(*) FROM events WHERE world_ref IS NULL AND start_local = ? AND end_local = ?
                                          AND instr(rrule, ?) > 0 AND instr(rrule, ?) > 0 AND last_utc = ?""",
                    [
                        f"{wed.isoformat()}T08:00:00",
                        f"{wed.isoformat()}T08:45:00",
                        "FREQ=WEEKLY",
                        "BYDAY=WE",
                        last_utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    ],
                    [[1]],
                ),
            ),
            RubricItem(
                id="title",
                weight=15,
                requirement="Titled 'Physio session' on the personal calendar",
                check=KIT.sql(
                    """SELECT COUNT(*) FROM events WHERE world_ref IS NULL AND calendar_id = ?
                                          AND lower(title) = ?""",
                    ["personal", "physio session"],
                    [[1]],
                ),
            ),
            RubricItem(
                id="reminders",
                weight=20,
                requirement="Exactly two reminders: 1 day before and 1 hour before",
                check=KIT.sql(
                    """SELECT COUNT(*), SUM(r.minutes = ?), SUM(r.minutes = ?) FROM reminders r
                                          JOIN events e ON e.id = r.event_id
                                          WHERE e.world_ref IS NULL AND lower(e.title) = ?""",
                    [1440, 60, "physio session"],
                    [[2, 1, 1]],
                ),
            ),
            RubricItem(
                id="color",
                weight=10,
                requirement="Shown in the Sage colour",
                check=KIT.sql(
                    """SELECT color FROM events WHERE world_ref IS NULL AND lower(title) = ?""",
                    ["physio session"],
                    [["sage"]],
                ),
            ),
            KIT.only(
                "the one new series and its two reminders",
                Change(table="events", op="insert", min=1, max=1),
                Change(table="reminders", op="insert", min=2, max=2),
            ),
        ],
    )
    return out
