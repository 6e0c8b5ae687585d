"""Daybook tasks derived from the world, each with its expected values and rubric.

Action checks read the calendar database's end state. Rows the app makes have ``world_ref IS NULL``;
rows it changes get ``edited_at`` (seeded rows: NULL); answers the persona gives in the app set
``attendees.responded_at`` and add an ``rsvp_replies`` row. So an agent that does nothing fails every
action check. Queries are fixed text; every world value travels in ``params``.
"""

from __future__ import annotations

import datetime as dt

from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World

from .seed import invitation_ids, is_invitation, uid_of
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


def _new_event(what: str) -> RubricItem:
    return KIT.only(
        what, Change(table="events", op="insert", min=1, max=1), Change(table="reminders", op="insert", min=0, max=1)
    )


def tasks(world: World) -> list[Task]:
    """Return the calendar tasks of ``world`` (at least 8; lookups, aggregations, actions), in a fixed order."""
    p = world.persona
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
        task(
            "next-dentist",
            ["calendar"],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=240,
            instruction="When is my next dentist appointment, and where?",
            expected={
                "date": o.start.date().isoformat(),
                "time": o.start.strftime("%H:%M"),
                "location": o.data["location"],
            },
            rubric=[
                RubricItem(
                    id="date",
                    weight=60,
                    requirement=f"States the date {o.start:%A, %B} {o.start.day}",
                    check=_text(*_date_forms(o.start.date())),
                ),
                RubricItem(
                    id="time",
                    weight=20,
                    requirement=f"States the time {time_label(world, o.start)}",
                    check=_text(time_label(world, o.start), o.start.strftime("%H:%M")),
                ),
                RubricItem(
                    id="place", weight=20, requirement=f"Names {o.data['location']}", check=_text(o.data["location"])
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
                    f"{len(met)} meetings",
                    f"{len(met)} work meetings",
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
            expected={"pairs": [[a.title, a.start.isoformat(), b.title, b.start.isoformat()] for a, b in pairs]},
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

    # 5. Decline an invitation (calendar + the reply in mail).
    invited = [
        o
        for o in occs
        if o.source in ("meeting", "life_event")
        and o.start > now
        and not o.series
        and is_invitation(world, _event(world, o.id))
    ]
    if invited:
        o = invited[0]
        ev = _event(world, o.id)
        org = o.data["organizer"]
        task(
            "decline-invitation",
            ["calendar", "mail"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f'Decline {org["name"]}\'s invitation to "{o.title}" on {o.start:%A, %B} {o.start.day} '
            "so they get my reply.",
            expected={
                "event": o.id,
                "uid": uid_of(ev),
                "organizer": org["email"],
                "in_reply_to": invitation_ids(world).get(o.id),
            },
            rubric=[
                RubricItem(
                    id="rsvp",
                    weight=50,
                    requirement="My RSVP on the event is DECLINED",
                    check=KIT.sql(
                        """SELECT partstat FROM attendees WHERE event_id = ? AND is_self = 1
                                              AND responded_at IS NOT NULL""",
                        [o.id],
                        [["DECLINED"]],
                    ),
                ),
                RubricItem(
                    id="reply",
                    weight=35,
                    requirement=f"A reply 'Declined: {o.title}' went to {org['email']} through mail",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM rsvp_replies WHERE event_id = ? AND partstat = ?
                                              AND mail_status = ?""",
                        [o.id, "DECLINED", "sent"],
                        [[1]],
                    ),
                ),
                KIT.only(
                    "my answer on that one invitation and its one reply",
                    Change(table="attendees", op="update", min=1, max=1, columns=["partstat", "responded_at"]),
                    Change(table="rsvp_replies", op="insert", min=1, max=1),
                ),
            ],
        )

    # 6. Package delivery from the shipping notice (mail -> calendar).
    shipped = {}
    for mail in world.of_kind("email"):
        subj = mail.data.get("subject") or ""
        if subj.startswith("Shipped:") and mail.at <= now:
            shipped[subj.rsplit(" ", 1)[-1]] = mail
    deliveries = [e for e in world.of_kind("retail_delivery") if e.at > now and e.data.get("order_id") in shipped]
    if deliveries:
        d = deliveries[0]
        day = d.at.date()
        oid = d.data["order_id"]
        task(
            "delivery-to-calendar",
            ["mail", "calendar"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f'My order {oid} has shipped. Put an all-day event "Package delivery" on my personal '
            "calendar on the estimated delivery day from the shipping email.",
            expected={"order_id": oid, "date": day.isoformat()},
            rubric=[
                RubricItem(
                    id="event",
                    weight=70,
                    requirement=f"A new all-day event on {day.isoformat()}",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM events WHERE world_ref IS NULL AND all_day = 1
                                              AND start_local = ? AND end_local = ?""",
                        [day.isoformat(), (day + dt.timedelta(days=1)).isoformat()],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="title",
                    weight=15,
                    requirement="Its title mentions the delivery, on the personal calendar",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM events WHERE world_ref IS NULL AND calendar_id = ?
                                              AND instr(lower(title), ?) > 0""",
                        ["personal", "deliver"],
                        [[1]],
                    ),
                ),
                _new_event("the one new delivery event"),
            ],
        )

    # 7/8. The next trip: block the outbound flight at work, and what else falls in it.
    upcoming = [t for t in (p.travel.trips if p.travel else []) if t.depart > now.date()]
    if upcoming:
        t = upcoming[0]
        flights = [o for o in occs if o.source == "flight" and t.depart <= o.start.date() <= t.return_]
        if flights:
            f = flights[0]
            s_utc = (
                dt.datetime.fromisoformat(f.data["start"]).astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            )
            e_utc = dt.datetime.fromisoformat(f.data["end"]).astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            task(
                "block-flight",
                ["mail", "calendar"],
                kind="action",
                difficulty="hard",
                time_limit_seconds=540,
                instruction=f"Using the airline's booking confirmation in my mail, block my work calendar as "
                f'"Out of office - travel" from the departure to the arrival of my first flight to '
                f"{t.destination}. Mind the time zones.",
                expected={"start_utc": s_utc, "end_utc": e_utc, "flight": f.title},
                rubric=[
                    RubricItem(
                        id="span",
                        weight=70,
                        requirement=f"A new work event from {f.data['start']} to {f.data['end']}",
                        check=KIT.sql(
                            """SELECT COUNT(*) FROM events WHERE world_ref IS NULL AND calendar_id = ?
                                                  AND start_utc = ? AND end_utc = ?""",
                            ["work", s_utc, e_utc],
                            [[1]],
                        ),
                    ),
                    RubricItem(
                        id="title",
                        weight=15,
                        requirement="Titled 'Out of office - travel'",
                        check=KIT.sql(
                            """SELECT COUNT(*) FROM events WHERE world_ref IS NULL
                                                  AND instr(lower(title), ?) > 0""",
                            ["out of office"],
                            [[1]],
                        ),
                    ),
                    _new_event("the one new out-of-office event"),
                ],
            )
        during = sorted(
            {o.title for o in overlapping(world, t.depart, t.return_) if o.source not in ("trip", "flight", "hotel")}
        )
        items = during[:4]
        if items:
            weights = [100 // len(items)] * len(items)
            weights[0] += 100 - sum(weights)
            rubric = [
                RubricItem(id=f"event-{i}", weight=w, requirement=f"Names {title}", check=_text(title))
                for i, (title, w) in enumerate(zip(items, weights))
            ]
        else:
            rubric = [
                RubricItem(
                    id="none",
                    weight=100,
                    requirement="Says nothing else is planned during the trip",
                    check=_text("nothing", "no other", "no events", "none"),
                )
            ]
        task(
            "trip-overlap",
            ["mail", "calendar"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"My {t.destination} trip is booked (the confirmation is in my mail). Does anything else on my "
            "calendar fall during the trip, besides the flights and the hotel? Name it.",
            expected={"depart": t.depart.isoformat(), "return": t.return_.isoformat(), "events": during},
            rubric=rubric,
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
            _new_event("the one new weekly series"),
        ],
    )
    out.extend(insight_tasks(world))
    return out


def _event(world: World, event_id: str):
    return next(e for e in world.of_kind("calendar_event") if e.id == event_id)


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """The calendar's contradiction tasks: a meeting the organizer's mail moved, the flight the airline moved, a
    dinner time a friend misremembers (each a planted item of the world; absent items give no task)."""
    from builder.tasks import answers as A
    from builder.tasks.phrasing import day_phrase

    today = world.now.date()
    out: list[Task] = []

    task = KIT.adder(world, out, kind="lookup", category="contradiction")

    def right_then_stale(right: list[str], stale: list[str], what: str, w: tuple[int, int, int] = (40, 20, 40)):
        return [
            RubricItem(
                id="right", weight=w[0], requirement=f"Gives the right {what} ({right[0]})", check=A.text(*right)
            ),
            RubricItem(
                id="stale", weight=w[1], requirement=f"Names the out-of-date {what} ({stale[0]})", check=A.text(*stale)
            ),
            RubricItem(
                id="order",
                weight=w[2],
                requirement=f"Names the right {what} before the stale one",
                check=A.names([right, stale], ordered=True),
            ),
        ]

    it = A.planted(world, "contradiction/meeting-moved")
    if it:
        cal, new = dt.datetime.fromisoformat(it["calendar_start"]), dt.datetime.fromisoformat(it["mail_start"])
        task(
            "cx-meeting-moved",
            ["calendar", "mail"],
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"My calendar has “{it['title']}” {day_phrase(cal.date(), today)} at {A.clock(cal)}. Is that "
            "still when it happens? Check my email too. Give me the time that's right first (and the day, "
            "if it changed), then the one that's out of date.",
            expected={"title": it["title"], "right": it["mail_start"], "stale": it["calendar_start"], "truth": "mail"},
            planted=[it["id"]],
            rubric=right_then_stale(A.time_forms(new), A.time_forms(cal), "start time")
            if new.date() == cal.date()
            else [
                RubricItem(
                    id="day",
                    weight=20,
                    requirement=f"Gives the new day ({new:%A, %B %-d})",
                    check=A.text(*A.date_forms(new), f"{new:%A}"),
                ),
                *right_then_stale(A.time_forms(new), A.time_forms(cal), "start time", (30, 15, 35)),
            ],
        )

    it = A.planted(world, "chain/flight-change")
    step = next((s for s in (it or {}).get("steps", []) if s["step"] == "calendar_flight"), None)
    if it and step:
        old, new = dt.datetime.fromisoformat(step["old"]), dt.datetime.fromisoformat(step["new"])
        task(
            "cx-flight-on-calendar",
            ["calendar", "airline", "mail"],
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"My calendar says I fly to {it['destination']} {day_phrase(old.date(), today)}. Does the airline "
            "agree? Tell me the correct departure day first, then the day my calendar shows.",
            expected={"right": step["new"], "stale": step["old"], "destination": it["destination"], "truth": "airline"},
            planted=[it["id"]],
            rubric=right_then_stale(A.date_forms(new), A.date_forms(old), "departure day"),
        )

    it = A.planted(world, "contradiction/restaurant-time")
    if it:
        booked, said = dt.datetime.fromisoformat(it["booked_time"]), dt.datetime.fromisoformat(it["friend_time"])
        first = it["friend"].split()[0]
        task(
            "cx-dinner-time",
            ["calendar", "dining", "messaging"],
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"{first} and I have a table at {it['restaurant']} {day_phrase(booked.date(), today)}. "
            f"{first} texted me what time we're meeting there; does that match my calendar and the actual reservation? "
            "Tell me the right time first, then the wrong one.",
            expected={
                "right": it["booked_time"],
                "stale": it["friend_time"],
                "restaurant": it["restaurant"],
                "truth": "booking",
            },
            planted=[it["id"]],
            rubric=right_then_stale(A.time_forms(booked), A.time_forms(said), "time"),
        )
    return out


# --- Cross-app answer tasks: a year in numbers, the fortnight ahead ---------------------------------------------


def year_counts(world, year: int) -> dict[str, int]:
    """How often each app was used in ``year`` up to now: appointments in the calendar, flights flown, hotel nights, rides, TableTime meals, DashBite
    orders, Basketful orders, Shopwell orders (the apps' own histories)."""
    now = world.now

    def past(e) -> bool:
        return e.status == "done" and e.at <= now and e.at.year == year

    flights = [
        f
        for f in world.of_kind("flight")
        if f.status == "done"
        and dt.datetime.fromisoformat(f.data["dep_local"]).replace(tzinfo=None) < now
        and f.data["dep_local"][:4] == str(year)
    ]
    nights = sum(h.data["nights"] for h in world.of_kind("hotel_checkout") if past(h))
    meals = [
        r
        for r in world.of_kind("restaurant_booking")
        if dt.datetime.fromisoformat(r.data["reservation_local"]).replace(tzinfo=None) < now
        and r.data["reservation_local"][:4] == str(year)
    ]
    appointments = [e for e in world.of_kind("calendar_event") if past(e) and e.data.get("source") == "appointment"]
    return {
        "calendar": len(appointments),
        "airline": len(flights),
        "stays": nights,
        "rides": sum(past(e) for e in world.of_kind("ride")),
        "dining": len(meals),
        "delivery": sum(past(e) for e in world.of_kind("food_order")),
        "grocery": sum(past(e) for e in world.of_kind("grocery_order")),
        "shop": sum(past(e) for e in world.of_kind("retail_order")),
    }
