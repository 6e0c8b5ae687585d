"""Huddle's (work chat's) answers read across apps: when the flight home from the trip of an out-of-office note
landed (work chat, then mail or the calendar), and which of two profiles (Huddle's, Guildline's) shows the current
job title. They follow Huddle's own tasks and its errands (after its last action), where they were built before."""

from __future__ import annotations

import datetime as dt

from apps.network import reader as guildline
from apps.workchat import reader as huddle
from apps.workchat.tasks import APP, KIT, date_forms, in_use
from builder.tasks import answers as A
from builder.tasks import steps as S
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.world import World
from scenarios import work_readers as W

#: Where they sit: after Huddle's errands (``scenarios/errands/workchat.py``, placed after the same anchor first).
AFTER = ("react-tada", "status-on-vacation")


def landing_tasks(world: World) -> list[Task]:
    """The date the flight home landed from the trip of the persona's last out-of-office note in the team channel
    (work chat + mail or calendar)."""
    me, team = world.persona.identity.name, S.team_channel(world)
    flights_by_id = {f.id: f for f in world.of_kind("flight")}
    ooo = [
        e
        for e in world.of_kind("work_chat_message")
        if e.data["sender"] == me
        and e.data["channel"] == team
        and flights_by_id.get(e.data["ref"] or "") is not None
        and flights_by_id[e.data["ref"]].data.get("direction") == "outbound"
        and flights_by_id[e.data["ref"]].status == "done"
    ]
    if not ooo:
        return []
    note = ooo[-1]
    leg = flights_by_id[note.data["ref"]]
    home = max(
        (
            f
            for f in flights_by_id.values()
            if f.data.get("trip") == leg.data.get("trip") and f.data.get("direction") == "return" and f.status == "done"
        ),
        key=lambda f: f.at,
        default=None,
    )
    if home is None:
        return []
    landed = dt.date.fromisoformat(str(home.data.get("arr_local") or home.at.isoformat())[:10])
    out: list[Task] = []
    KIT.adder(world, out)(
        "ooo-trip-landing",
        apps=[APP, "mail", "calendar"],
        kind="lookup",
        difficulty="hard",
        time_limit_seconds=480,
        instruction=f"Find the out-of-office note I posted in #{team} on {note.at:%B %-d, %Y}. On which date "
        f"did my flight home from that trip land?",
        expected={
            "channel": team,
            "posted": note.at.date().isoformat(),
            "note": note.data["text"],
            "flight": home.data.get("flight_number"),
            "landed": landed.isoformat(),
        },
        rubric=[
            RubricItem(
                id="date",
                weight=100,
                requirement=f"Gives {landed:%B %-d, %Y}",
                check=A.text(*date_forms(landed)),
            )
        ],
    )
    return out


def title_tasks(world: World) -> list[Task]:
    """Huddle's contradiction task: the persona's title on the Huddle profile (the spec's role, right) against the
    Guildline headline (the title before the latest change)."""
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
            rule="the Huddle profile, which the employer's workspace keeps, beats the Guildline profile, which lags "
            "behind",
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


@reader("channel", "posted")
def read_ooo_landing(see: See, given: dict) -> Reading:
    channel, day = given["channel"], dt.date.fromisoformat(given["posted"])
    _, mine = huddle.search(see, f"in:#{channel} from:me on:{day.isoformat()}")
    if not mine:
        raise Unreadable(f"no message of mine in #{channel} on {day}")
    past = [W.trip(see, pnr) for pnr in W.trips(see, "past")]
    after = [t for t in past if t["outbound"] and t["return"] and t["outbound"][0]["dep"].date() >= day]
    if not after:
        raise Unreadable(f"no past trip leaving on or after {day}")
    t = min(after, key=lambda t: t["outbound"][0]["dep"])
    home = t["return"][-1]
    return Reading(
        values={"date": W.day_label(home["arr"].date())},
        steps=[
            f"Huddle #{channel}, my messages on {day}: " + " | ".join(repr(m["text"]) for m in mine),
            f"the airline's first trip after it: {t['pnr']} leaving {t['outbound'][0]['dep']:%Y-%m-%d}; home on "
            f"{home['flight']} {home['origin']}->{home['destination']}, landed {home['arr']:%Y-%m-%d %H:%M}",
        ],
    )


@reader()
def read_cx_title(see: See, given: dict) -> Reading:
    right = huddle.my_profile(see)["title"]
    cur = guildline.current_position(see)
    if not right or right == cur["title"]:
        raise Unreadable(f"Huddle's title {right!r} and Guildline's {cur['title']!r} do not differ")
    stale = f"“{cur['title']}”"
    return Reading(
        values={"right": right, "stale": stale, "order": [right, stale]},
        steps=[
            f"Huddle /status: {right!r}",
            f"Guildline /in/me: {cur['title']!r} at {cur['company']}",
            "rule: the workspace's profile beats the public one that lags behind",
        ],
    )


SCENARIOS = [
    Scenario(
        home="workchat",
        apps=("workchat", "mail", "calendar"),
        tasks=landing_tasks,
        after=AFTER,
        when=in_use,
        readers={"ooo-trip-landing": read_ooo_landing},
    ),
    Scenario(
        home="workchat",
        apps=("workchat", "network"),
        tasks=title_tasks,
        after=AFTER,
        when=in_use,
        readers={"cx-title": read_cx_title},
    ),
]
