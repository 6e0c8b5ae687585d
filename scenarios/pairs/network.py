"""Guildline's two-app answer tasks (ids ``<persona>/network/pair-...``): one question each whose answer needs
exactly the two apps it names (see :mod:`builder.tasks.pairs` for the shared rules); and who the persona both texts
on Parley and is connected with on Guildline, which sits among Guildline's own tasks, after the colleague count."""

from __future__ import annotations

import datetime as dt

from apps.network.seed import profile
from apps.network.tasks import KIT
from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks import steps as S
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.world import World
from scenarios import PAIRS


def parley_tasks(world: World) -> list[Task]:
    """The people the persona texts on Parley who are also Guildline connections, and how many (messaging +
    network)."""
    conn_names = {x["name"] for x in profile(world)["connections"]}
    both = sorted(c.name for c in S.chat_contacts(world) if c.name in conn_names)
    out: list[Task] = []
    if not both:
        return out
    KIT.adder(world, out)(
        "parley-and-guildline",
        ["network", "messaging"],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=480,
        instruction="Which of the people I text on Parley am I also connected with on Guildline, and how many "
        "are they?",
        expected={"names": both},
        rubric=[
            RubricItem(
                id="names",
                weight=75,
                requirement=f"Names {', '.join(both)} (in any order)",
                check=A.names([A.person(n) for n in both]),
            ),
            RubricItem(id="count", weight=25, requirement=f"Says {len(both)}", check=A.number(len(both))),
        ],
    )
    return out


def pair_tasks(world: World) -> list[Task]:
    """Guildline's pair tasks of ``world`` (empty when the world lacks their material)."""
    return P.collect(world, "network", _build)


def _connections(world: World) -> list[dict]:
    prof = next((e.data for e in world.of_kind("career_profile")), None)
    return [c for c in (prof or {}).get("connections", []) if c.get("connected_on")]


def _build(world: World, task) -> None:
    me = world.persona.identity.name
    conns = _connections(world)
    if not conns:
        return
    names = {c["name"]: c for c in conns}
    senders = {m.data["sender"] for m in P.done(world, "work_chat_message")} - {me}
    both = sorted(senders & set(names))
    if both:
        task(
            "pair-coworkers-connected",
            ["network", "workchat"],
            kind="aggregation",
            difficulty="medium",
            time_limit_seconds=480,
            instruction="Which of the people who post in my work Huddle am I also connected with on Guildline? "
            "Name them all.",
            expected={"people": both},
            rubric=[
                RubricItem(
                    id="people",
                    weight=100,
                    requirement="Names " + ", ".join(both),
                    check=A.names([A.person(n) for n in both]),
                )
            ],
        )
    upcoming = sorted(
        (
            e
            for e in world.of_kind("calendar_event")
            if e.status == "scheduled"
            and e.at > world.now
            and {a["name"] for a in e.data.get("attendees") or []} - {me}
        ),
        key=lambda e: (e.at, e.id),
    )
    if upcoming and {a["name"] for a in upcoming[0].data["attendees"]} & set(names):
        ev = upcoming[0]
        who = sorted({a["name"] for a in ev.data["attendees"]} & set(names))
        task(
            "pair-next-meeting-connections",
            ["network", "calendar"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction="Look at the next thing on my calendar that has other people invited. Which of those people "
            "am I connected with on Guildline, and what are their current job titles there?",
            expected={
                "event": ev.data["title"],
                "start": ev.data["start"],
                "people": who,
                "titles": [names[n]["title"] for n in who],
            },
            rubric=[
                RubricItem(
                    id="people",
                    weight=60,
                    requirement="Names " + ", ".join(who),
                    check=A.names([A.person(n) for n in who]),
                ),
                RubricItem(
                    id="titles",
                    weight=40,
                    requirement="Gives " + ", ".join(names[n]["title"] for n in who),
                    check=A.names([[names[n]["title"]] for n in who]),
                ),
            ],
        )
    chats = [m for m in P.done(world, "chat_message") if m.data.get("contact") in names]
    if chats:
        m = chats[-1]
        c = names[m.data["contact"]]
        on = dt.date.fromisoformat(c["connected_on"])
        task(
            "pair-last-chat-connection",
            ["network", "messaging"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction="Of my Guildline connections, who did I most recently exchange messages with on Parley? And "
            "when did the two of us connect on Guildline?",
            expected={"contact": c["name"], "connected_on": c["connected_on"], "last_message": m.at.isoformat()},
            rubric=[
                RubricItem(id="who", weight=55, requirement=f"Names {c['name']}", check=A.names([A.person(c["name"])])),
                RubricItem(
                    id="since", weight=45, requirement=f"Connected {on.isoformat()}", check=A.text(*A.date_forms(on))
                ),
            ],
        )


SCENARIOS = [
    Scenario(home="network", apps=("network", "messaging"), tasks=parley_tasks, after="colleague-count"),
    Scenario(home="network", apps=("network",), tasks=pair_tasks, rank=PAIRS),
]
