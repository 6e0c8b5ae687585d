"""TableTime's answers compared or counted over several apps (ids ``<persona>/dining/<slug>``): the table time a
friend remembers wrong (the booking, the chat and the confirmation mail), and the friend the persona dines out with
most (the bookings and the chats). They follow TableTime's review of the last meal and the errands placed after it."""

from __future__ import annotations

import datetime as dt
from collections import Counter

from apps.dining.tasks import APP, KIT, dined, in_use
from builder.tasks import answers as A
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.world import World


def contradiction_tasks(world: World) -> list[Task]:
    """The time TableTime confirmed against the one a friend has (``contradiction/restaurant-time``), confirmed
    first (dining + messaging + mail)."""
    out: list[Task] = []
    it = A.planted(world, "contradiction/restaurant-time")
    if it:
        booked, said = dt.datetime.fromisoformat(it["booked_time"]), dt.datetime.fromisoformat(it["friend_time"])
        KIT.adder(world, out)(
            "cx-booking-vs-chat",
            [APP, "messaging", "mail"],
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"What time did TableTime confirm my table at {it['restaurant']} for, and what time does "
            f"{it['friend'].split()[0]} think it is? Which should we go by? Confirmed time first.",
            expected={
                "booking_id": it["booking_id"],
                "right": it["booked_time"],
                "stale": it["friend_time"],
                "truth": "booking",
            },
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="right", weight=40, requirement=f"Gives {A.clock(booked)}", check=A.text(*A.time_forms(booked))
                ),
                RubricItem(
                    id="stale", weight=20, requirement=f"Gives {A.clock(said)}", check=A.text(*A.time_forms(said))
                ),
                RubricItem(
                    id="order",
                    weight=40,
                    requirement="Confirmed time first",
                    check=A.names([A.time_forms(booked), A.time_forms(said)], ordered=True),
                ),
            ],
        )
    return out


def companion_tasks(world: World) -> list[Task]:
    """Who the persona most often eats out with and at how many of the past meals (dining + messaging); none on a
    tie."""
    out: list[Task] = []
    past = dined(world)
    mates = Counter(n for e in past for n in e.data.get("companions") or [])
    top = mates.most_common(2)
    if top and (len(top) == 1 or top[0][1] > top[1][1]):
        name, n = top[0]
        KIT.adder(world, out)(
            "pref-dining-companion",
            [APP, "messaging"],
            kind="aggregation",
            category="preference_inference",
            difficulty="medium",
            time_limit_seconds=600,
            instruction="Who do I most often go out to eat with? Go by my past TableTime reservations (my chats say "
            "who came along), and tell me how many of those meals they joined.",
            expected={"companion": name, "meals": n, "of": len(past)},
            rubric=[
                RubricItem(id="who", weight=70, requirement=f"Names {name}", check=A.names([A.person(name)])),
                RubricItem(id="count", weight=30, requirement=f"Says {n} meals", check=A.number(n)),
            ],
        )
    return out


SCENARIOS = [
    Scenario(home=APP, apps=(APP, "messaging", "mail"), tasks=contradiction_tasks, after="review-last", when=in_use),
    Scenario(home=APP, apps=(APP, "messaging"), tasks=companion_tasks, after="review-last", when=in_use),
]
