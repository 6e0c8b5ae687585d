"""TableTime's answers compared or counted over several apps (ids ``<persona>/dining/<slug>``): the table time a
friend remembers wrong (the booking, the chat and the confirmation mail), and the friend the persona dines out with
most (the bookings and the chats). They follow TableTime's review of the last meal and the errands placed after it."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter

from apps.dining import reader as tt
from apps.dining.tasks import APP, KIT, day_text, dined, history, in_use, spellings
from builder.reference.people import called
from builder.tasks import answers as A
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader, visible_text
from builder.tasks.dates import clock_in, clock_text
from builder.world import World


def contradiction_tasks(world: World) -> list[Task]:
    """The time TableTime confirmed against the one a friend has (``contradiction/restaurant-time``), confirmed
    first (dining + messaging + mail)."""
    out: list[Task] = []
    it = A.planted(world, "contradiction/restaurant-time")
    if it:
        booked, said = dt.datetime.fromisoformat(it["booked_time"]), dt.datetime.fromisoformat(it["friend_time"])
        # Two upcoming tables at the restaurant: the question names the day of this one.
        ahead = [b for b in history(world)[1] if b["restaurant"] == it["restaurant"]]
        day = booked.date() if len(ahead) > 1 else None
        on = f" on {day_text(day, world.persona.bank)}" if day else ""
        friend = called(it["friend"], [c.name for c in world.persona.contacts])
        KIT.adder(world, out)(
            "cx-booking-vs-chat",
            [APP, "messaging", "mail"],
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"What time did TableTime confirm my table at {it['restaurant']}{on} for, and what time does "
            f"{friend} think it is? Which should we go by? Confirmed time first.",
            expected={
                "booking_id": it["booking_id"],
                "right": it["booked_time"],
                "stale": it["friend_time"],
                "truth": "booking",
                "restaurant": it["restaurant"],
                "friend": friend,
                "day": day.isoformat() if day else None,
            },
            planted=[it["id"]],
            rule="the booking confirmation beats a friend's memory",
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
                RubricItem(id="who", weight=70, requirement=f"Names {name}", check=A.names([spellings(world, name)])),
                RubricItem(id="count", weight=30, requirement=f"Says {n} meals", check=A.number(n)),
            ],
        )
    return out


# --- readers (builder.tasks.reader): TableTime's reservations, Parley's chats -------------------------------------


@reader("restaurant", "friend", "day")
def booking_vs_chat(see: See, given: dict) -> Reading:
    """The booking's time (TableTime's upcoming reservation at the restaurant, on the day the question names if it
    names one; its page) against the time in the friend's latest chat message naming the restaurant (the friend
    called by first name, or whole name); the booking confirmation wins."""
    name = given["restaurant"]
    booked = [r for r in tt.rows(see, "upcoming") if r["name"].casefold() == name.casefold()]
    if given.get("day"):
        booked = [r for r in booked if r["day"] == given["day"]]
    if len(booked) != 1:
        raise Unreadable(
            f"{len(booked)} upcoming reservations at {name}" + (f" on {given['day']}" if given.get("day") else "")
        )
    row = booked[0]
    page = see.page(APP, f"/reservations/{row['confirmation']}")
    facts = dict(
        zip(
            [visible_text(x) for x in page.xpath('//dl[contains(@class, "tt-facts")]/dt')],
            [visible_text(x) for x in page.xpath('//dl[contains(@class, "tt-facts")]/dd')],
        )
    )
    shown = facts.get("Time", "")
    right = clock_text(clock_in(shown))
    chats = [
        a
        for a in see.page("messaging", "/").xpath('//a[@data-testid="conversation"][@data-kind="direct"]')
        if (a.get("data-name") or "") == given["friend"] or (a.get("data-name") or "").split()[:1] == [given["friend"]]
    ]
    if len(chats) != 1:
        raise Unreadable(f"{len(chats)} direct chats with someone called {given['friend']}")
    said = []
    for m in see.page("messaging", chats[0].get("href")).xpath('//*[@data-testid="message"][@data-mine="0"]'):
        words = visible_text(m.xpath('.//*[@data-testid="message-text"]')[0])
        if name.casefold() in words.casefold():
            said.append((m.xpath(".//time/@datetime")[0], words))
    if not said:
        raise Unreadable(f"{given['friend']} never names {name} in chat")
    at, words = max(said)
    stale = clock_text(clock_in(words))
    if stale == right:
        raise Unreadable(f"{given['friend']} and TableTime agree on {right}")
    out_right, out_stale = _clock(shown), _clock_of(words, stale)
    return Reading(
        values={"right": out_right, "stale": out_stale, "order": [out_right, out_stale]},
        steps=[
            f"TableTime {row['confirmation']}: {name}, {facts.get('Date', row['day'])} at {shown}",
            f"Parley, {chats[0].get('data-name')} at {at}: {words!r}",
            "the booking confirmation beats a friend's memory",
        ],
    )


def _clock(text: str) -> str:
    """The time of day as the page writes it (``7:45 PM``, ``19:45``)."""
    m = re.search(r"\d{1,2}[:.]\d{2}(?:\s*[AaPp]\.?\s?[Mm]\.?)?", text)
    if m is None:
        raise Unreadable(f"no time of day in {text!r}")
    return m.group(0)


def _clock_of(words: str, hhmm: str) -> str:
    """The time ``hhmm`` as ``words`` write it (a chat message: ``8:15 PM``, ``20:15``, ``7 pm``)."""
    for m in re.finditer(r"\d{1,2}(?:[:.]\d{2})?\s*(?:[AaPp]\.?\s?[Mm]\.?|Uhr)?", words):
        try:
            if clock_text(clock_in(m.group(0))) == hhmm:
                return m.group(0).strip()
        except Unreadable:
            continue
    raise Unreadable(f"{hhmm} is not written in {words!r}")


@reader(unique=True)
def dining_companion(see: See, given: dict) -> Reading:
    """Who is named most among the companions of the past reservations (each reservation's page)."""
    past = tt.rows(see, "past")
    counts: Counter = Counter()
    for r in past:
        counts.update(tt.detail(see, r["confirmation"])["companions"])
    ranked = counts.most_common()
    if not ranked:
        raise Unreadable("no past reservation names anyone dining along")
    (top, n), runner = ranked[0], (ranked[1][1] if len(ranked) > 1 else 0)
    return Reading(
        values={"who": [top], "count": n},
        steps=[
            f"Past tab: {len(past)} reservations; each one's page names who dined along",
            "meals per companion: " + ", ".join(f"{k} {v}" for k, v in ranked[:4]),
        ],
        margin=n - runner,
    )


SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, "messaging", "mail"),
        tasks=contradiction_tasks,
        readers={"cx-booking-vs-chat": booking_vs_chat},
        after="review-last",
        when=in_use,
    ),
    Scenario(
        home=APP,
        apps=(APP, "messaging"),
        tasks=companion_tasks,
        readers={"pref-dining-companion": dining_companion},
        after="review-last",
        when=in_use,
    ),
]
