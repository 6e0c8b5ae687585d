"""Huddle's two-app answer tasks (ids ``<persona>/workchat/pair-...``): one question each whose answer needs
exactly the two apps it names (see :mod:`builder.tasks.pairs` for the shared rules)."""

from __future__ import annotations

from apps.workchat.tasks import in_use
from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.phrasing import day_phrase
from builder.world import World
from scenarios import PAIRS


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
            instruction=f"There's a pinned message in #{m.data['channel']} about an upcoming meeting. Where is that "
            "meeting held, what time is it scheduled to end, and how many people are invited?",
            expected={
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
                    check=A.names([A.person(m.data["sender"])]),
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
        task(
            "pair-back-from-trip",
            ["workchat", "airline"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"I told the team in Huddle I was back from my trip {day_phrase(m.at.date(), today)}. Which "
            "flight had brought me home, and on what date did it land?",
            expected={"flight": f.data["flight_number"], "landed": f.data["arr_local"], "said": m.at.isoformat()},
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


SCENARIOS = [Scenario(home="workchat", apps=("workchat",), tasks=pair_tasks, rank=PAIRS, when=in_use)]
