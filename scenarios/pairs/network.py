"""Guildline's two-app answer tasks (ids ``<persona>/network/pair-...``): one question each whose answer needs
exactly the two apps it names (see :mod:`builder.tasks.pairs` for the shared rules); and who the persona both texts
on Parley and is connected with on Guildline, which sits among Guildline's own tasks, after the colleague count."""

from __future__ import annotations

import datetime as dt

from apps.network import reader as guildline
from apps.network.seed import profile
from apps.workchat import reader as huddle
from apps.network.tasks import KIT
from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks import steps as S
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.world import World
from scenarios import PAIRS
from scenarios import work_readers as W


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
                check=A.names([W.person_forms(world, n) for n in both]),
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
                    check=A.names([W.person_forms(world, n) for n in both]),
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
                    check=A.names([W.person_forms(world, n) for n in who]),
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
                RubricItem(
                    id="who",
                    weight=55,
                    requirement=f"Names {c['name']}",
                    check=A.names([W.person_forms(world, c["name"])]),
                ),
                RubricItem(
                    id="since", weight=45, requirement=f"Connected {on.isoformat()}", check=A.text(*A.date_forms(on))
                ),
            ],
        )


def _connected(see: See) -> dict[str, dict]:
    """Guildline's connections by name."""
    return {c["name"]: c for c in guildline.connections(see)}


@reader()
def read_parley_and_guildline(see: See, given: dict) -> Reading:
    conns = _connected(see)
    direct = [c["name"] for c in W.conversations(see) if c["kind"] == "direct"]
    both = sorted(n for n in direct if n in conns)
    return Reading(
        values={"names": both, "count": len(both)},
        steps=[
            f"Parley: one-to-one conversations with {', '.join(direct)}",
            f"Guildline: {len(conns)} connections; of them on Parley: {', '.join(both)}",
        ],
    )


@reader()
def read_coworkers_connected(see: See, given: dict) -> Reading:
    conns = _connected(see)
    me = huddle.my_profile(see)["name"]
    posters = []
    for handle in huddle.handles(see):
        total, found = huddle.search(see, f"from:{handle}")
        if total and found and found[0]["sender"] != me:
            posters.append(found[0]["sender"])
    both = sorted(n for n in posters if n in conns)
    return Reading(
        values={"people": both},
        steps=[f"Huddle: people with messages: {', '.join(posters)}", f"of them connected on Guildline: {both}"],
    )


@reader(unique=True)
def read_next_meeting_connections(see: See, given: dict) -> Reading:
    now = see.now.replace(tzinfo=None)
    ahead = [e for e in W.agenda(see, now.date()) if e["start"] is not None and e["start"] > now and e["href"]]
    with_guests: list[tuple[dict, dict]] = []  # the first two events ahead with guests besides me
    for e in sorted(ahead, key=lambda e: e["start"]):
        ev = W.event(see, e["href"])
        if ev["guests"]:
            with_guests.append((e, ev))
        if len(with_guests) == 2:
            break
    if with_guests:
        e, ev = with_guests[0]
        runner = with_guests[1][0]["start"] if len(with_guests) > 1 else None
        conns = _connected(see)
        who = sorted(n for n in ev["guests"] if n in conns)
        if not who:
            raise Unreadable(f"none of the guests of {ev['title']!r} is a Guildline connection")
        return Reading(
            margin=(runner - e["start"]).total_seconds() if runner else 1.0,
            values={"people": who, "titles": [conns[n]["title"] for n in who]},
            steps=[
                f"calendar: the next event with guests is {ev['title']!r} {e['start']} with {', '.join(ev['guests'])}",
                "Guildline: " + "; ".join(f"{n}: {conns[n]['headline']}" for n in who),
            ],
        )
    raise Unreadable("no event with guests in the calendar's next two weeks")


@reader(unique=True)
def read_last_chat_connection(see: See, given: dict) -> Reading:
    conns = _connected(see)
    last = []
    for c in W.conversations(see):
        if c["kind"] == "direct" and c["name"] in conns:
            at = W.last_message_at(see, c["id"])
            if at is not None:
                last.append((at, c["name"]))
    if not last:
        raise Unreadable("no Parley conversation with a Guildline connection")
    last.sort(reverse=True)
    at, name = last[0]
    since = conns[name]["connected_on"]
    return Reading(
        margin=(at - last[1][0]).total_seconds() if len(last) > 1 else 1.0,
        values={"who": [name], "since": W.day_label(dt.date.fromisoformat(since))},
        steps=[
            "Parley, newest message per connection: " + ", ".join(f"{n} {a:%Y-%m-%d %H:%M}" for a, n in last[:3]),
            f"Guildline: {name}, connected on {since}",
        ],
    )


SCENARIOS = [
    Scenario(
        home="network",
        apps=("network", "messaging"),
        tasks=parley_tasks,
        after="colleague-count",
        readers={"parley-and-guildline": read_parley_and_guildline},
    ),
    Scenario(
        home="network",
        apps=("network",),
        tasks=pair_tasks,
        rank=PAIRS,
        readers={
            "pair-coworkers-connected": read_coworkers_connected,
            "pair-next-meeting-connections": read_next_meeting_connections,
            "pair-last-chat-connection": read_last_chat_connection,
        },
    ),
]
