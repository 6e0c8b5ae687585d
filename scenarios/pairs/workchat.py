"""Huddle's two-app answer tasks (ids ``<persona>/workchat/pair-...``): one question each whose answer needs
exactly the two apps it names (see :mod:`builder.tasks.pairs` for the shared rules)."""

from __future__ import annotations

import datetime as dt

from apps.workchat import reader as huddle
from apps.workchat.tasks import in_use
from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.tasks.phrasing import day_phrase
from builder.world import World
from scenarios import PAIRS
from scenarios import work_readers as W


def pair_tasks(world: World) -> list[Task]:
    """Huddle's pair tasks of ``world`` (empty when the world lacks their material)."""
    return P.collect(world, "workchat", _build)


def _build(world: World, task) -> None:
    today = world.now.date()
    me = world.persona.identity.name
    cal = {e.id: e for e in world.of_kind("calendar_event")}
    flights = {e.id: e for e in world.of_kind("flight")}
    msgs = P.done(world, "work_chat_message")
    pinned = [
        m for m in msgs if m.data.get("pinned") and m.data.get("ref") in cal and cal[m.data["ref"]].data.get("location")
    ]
    if pinned:
        m = pinned[-1]
        ev = cal[m.data["ref"]]
        end = P.ts(ev.data["end"])
        task(
            "pair-pinned-meeting",
            ["workchat", "calendar"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Find the newest of the pinned messages in #{m.data['channel']} that is about a meeting. Where "
            "is that meeting held, what time is it scheduled to end, and how many people are invited?",
            expected={
                "channel": m.data["channel"],
                "title": ev.data["title"],
                "location": ev.data["location"],
                "end": ev.data["end"],
                "invited": len(ev.data.get("attendees") or []),
            },
            rubric=[
                RubricItem(
                    id="where", weight=40, requirement=f"Says {ev.data['location']}", check=A.text(ev.data["location"])
                ),
                RubricItem(
                    id="end", weight=35, requirement=f"Ends at {A.clock(end)}", check=A.text(*A.time_forms(end))
                ),
                RubricItem(
                    id="invited",
                    weight=25,
                    requirement=f"{len(ev.data.get('attendees') or [])} invited",
                    check=A.number(len(ev.data.get("attendees") or [])),
                ),
            ],
        )
    late = [m for m in msgs if m.data["sender"] != me and " late to " in m.data["text"] and m.data.get("ref") in cal]
    if late:
        m = late[-1]
        ev = cal[m.data["ref"]]
        start = P.ts(ev.data["start"])
        task(
            "pair-late-colleague",
            ["workchat", "calendar"],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=360,
            instruction="Someone on the team said in Huddle they'd be running late to a meeting—the most recent one. "
            "Who was it, and what time did that meeting start according to my calendar?",
            expected={
                "who": m.data["sender"],
                "meeting": ev.data["title"],
                "start": ev.data["start"],
                "said": m.at.isoformat(),
            },
            rubric=[
                RubricItem(
                    id="who",
                    weight=50,
                    requirement=f"Names {m.data['sender']}",
                    check=A.names([W.person_forms(world, m.data["sender"])]),
                ),
                RubricItem(
                    id="start", weight=50, requirement=f"Starts at {A.clock(start)}", check=A.text(*A.time_forms(start))
                ),
            ],
        )
    back = [
        m
        for m in msgs
        if m.data["sender"] == me
        and m.data.get("ref") in flights
        and flights[m.data["ref"]].data["direction"] == "return"
    ]
    if back:
        m = back[-1]
        f = flights[m.data["ref"]]
        land = P.ts(f.data["arr_local"])
        when = day_phrase(m.at.date(), today)
        task(
            "pair-back-from-trip",
            ["workchat", "airline"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"{when[:1].upper()}{when[1:]}, I posted in Huddle about being back from my trip. Which "
            "flight brought me home, and on what date did it land?",
            expected={
                "day": m.at.date().isoformat(),
                "flight": f.data["flight_number"],
                "landed": f.data["arr_local"],
                "said": m.at.isoformat(),
            },
            rubric=[
                RubricItem(
                    id="flight",
                    weight=55,
                    requirement=f"Names {f.data['flight_number']}",
                    check=A.text(f.data["flight_number"], f.data["flight_number"].replace(" ", "")),
                ),
                RubricItem(
                    id="landed", weight=45, requirement=f"Landed {land:%B %d}", check=A.text(*A.date_forms(land.date()))
                ),
            ],
        )


def _meeting_of(see: See, m: dict) -> dict | None:
    """The calendar's meeting a chat message ``m`` is about: the first event from the message's day on (within two
    weeks) whose title the message names, starting after the message was sent or on its day; None without one."""
    text = m["text"].lower()
    for e in W.agenda(see, m["at"].date()):
        if e["start"] and e["title"] and e["title"].lower() in text and e["day"] >= m["at"].date():
            if e["start"] >= m["at"] or e["day"] == m["at"].date():
                return e
    return None


@reader("channel", unique=True)
def read_pinned_meeting(see: See, given: dict) -> Reading:
    channel = given["channel"]
    pins = huddle.pinned(see, channel)
    about = sorted(((p, e) for p in pins if (e := _meeting_of(see, p)) is not None), key=lambda x: x[0]["at"])
    if not about:
        raise Unreadable(f"#{channel} has {len(pins)} pinned messages, none about a calendar meeting")
    p, e = about[-1]
    ev = W.event(see, e["href"])
    if ev["end"] is None:
        raise Unreadable(f"{e['href']} shows no end time ({ev['when']!r})")
    return Reading(
        margin=huddle.lead(see, [x[0]["at"] for x in reversed(about)]),
        values={"where": ev["location"], "end": W.clock_label(ev["end"]), "invited": ev["count"]},
        steps=[
            f"#{channel}: {len(pins)} pinned messages, {len(about)} about a calendar meeting; the newest {p['at']} "
            f"{p['text']!r}",
            f"calendar {e['day']}: {ev['title']!r} {ev['when']!r}, where {ev['location']!r}, {ev['count']} guests",
        ],
    )


@reader(unique=True)
def read_late_colleague(see: See, given: dict) -> Reading:
    me = huddle.my_profile(see)["name"]
    _, found = huddle.search(see, "late to")
    late = [m for m in found if m["sender"] != me and " late to " in f" {m['text']} "]
    if not late:
        raise Unreadable("no colleague wrote in Huddle they'd be late to a meeting")
    m = late[0]
    e = _meeting_of(see, m)
    if e is None:
        raise Unreadable(f"no calendar meeting named in {m['text']!r} ({m['at']})")
    return Reading(
        margin=huddle.lead(see, [x["at"] for x in late]),
        values={"who": [m["sender"]], "start": W.clock_label(e["start"].time())},
        steps=[
            f"Huddle search 'late to': the newest from a colleague is {m['sender']} at {m['at']}: {m['text']!r}",
            f"calendar {e['day']}: {e['title']!r} starts {e['start']:%H:%M}",
        ],
    )


@reader("day")
def read_back_from_trip(see: See, given: dict) -> Reading:
    day = dt.date.fromisoformat(given["day"])
    _, mine = huddle.search(see, f"from:me on:{day.isoformat()}")
    if not mine:
        raise Unreadable(f"no message of mine in Huddle on {day}")
    said = min(m["at"] for m in mine)
    past = [W.trip(see, pnr) for pnr in W.trips(see, "past")]
    # The trip whose flight home had left by that day: "flying home today" is posted the day it leaves (a long flight
    # lands the next day), "back today" once home.
    home = [(t, t["return"][-1]) for t in past if t["return"] and t["return"][0]["dep"].date() <= day]
    if not home:
        raise Unreadable(f"no flight home left by {day}")
    t, f = max(home, key=lambda x: x[1]["arr"])
    return Reading(
        values={"flight": f["flight"], "landed": W.day_label(f["arr"].date())},
        steps=[
            f"Huddle, my messages on {day}: " + " | ".join(f"{m['at']:%H:%M} {m['text']!r}" for m in mine),
            f"the airline: the last trip home by then is {t['pnr']}, {f['flight']} {f['origin']}->{f['destination']} "
            f"landing {f['arr']:%Y-%m-%d %H:%M} (first message that day {said:%H:%M})",
        ],
    )


SCENARIOS = [
    Scenario(
        home="workchat",
        apps=("workchat",),
        tasks=pair_tasks,
        rank=PAIRS,
        when=in_use,
        readers={
            "pair-pinned-meeting": read_pinned_meeting,
            "pair-late-colleague": read_late_colleague,
            "pair-back-from-trip": read_back_from_trip,
        },
    )
]
