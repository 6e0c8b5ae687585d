"""TableTime tasks derived from the world, each with its expected values and rubric.

Action checks read the end state of ``dining.sqlite``. Rows the app writes have ``world_ref IS NULL`` (a reservation,
a review, a favourite) or columns the seed never sets (``modified_at``, ``cancelled_at``), so an agent that does nothing
fails every action check. Check queries are fixed SQL with ``?`` placeholders; every world value travels in ``params``.
Tables booked by tasks lie beyond the seeded occupancy (more than four weeks out), so the asked slot is free.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict

from apps.calendar import steps as daybook
from apps.dining import steps as tabletime
from apps.messaging import steps as parley
from apps.rides import steps as zipride
from builder.money import money
from builder.tasks import answers
from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World
from builder.world.dining import catalogue

from .seed import OCCUPANCY_DAYS, reservations

APP = "dining"
KIT = kit.Kit(APP)
_DE_MONTHS = [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
]


# A table's 15-minute holds come and go with the reservations on it.
HOLDS = (Change(table="table_holds", op="delete", min=0), Change(table="table_holds", op="insert", min=0))


def _text(*options: str) -> Check:
    return Check(type="answer_text", any_of=[o for o in options if o])


def _day_text(day: dt.date, locale: str) -> str:
    if locale.startswith("de"):
        return f"{day.day}. {_DE_MONTHS[day.month - 1]}"
    if locale == "en_GB":
        return f"{day:%A} {day.day} {day:%B}"
    return f"{day:%A}, {day:%B} {day.day}"


def _date_forms(day: dt.date) -> list[str]:
    return [
        f"{day:%B} {day.day}",
        f"{day:%b} {day.day}",
        f"{day.day} {day:%B}",
        day.isoformat(),
        f"{day.day}. {_DE_MONTHS[day.month - 1]}",
        f"{day.day:02d}.{day.month:02d}.",
    ]


def tasks(world: World) -> list[Task]:
    """Return the TableTime tasks of ``world`` (twelve when it has past and upcoming bookings with companions; fewer
    for a persona who never dines out), in a fixed order."""
    p = world.persona
    cur = world.currency
    loc = p.locale
    out: list[Task] = []
    mine = reservations(world)
    past = [b for b in mine if b["status"] == "completed"]
    upcoming = sorted((b for b in mine if b["status"] == "booked"), key=lambda b: b["at"])
    slugs = {(x["name"], x["address"]): x["slug"] for x in catalogue()}
    order = {(x["name"], x["address"]): i for i, x in enumerate(catalogue())}

    def slug(b: dict) -> str:
        return slugs[(b["restaurant"], b["address"])]

    task = KIT.adder(world, out)

    if not past:
        return out
    booked = Counter((b["restaurant"], b["address"]) for b in mine)
    favourites = {slugs[k] for k, _ in sorted(booked.items(), key=lambda kv: (-kv[1], order[kv[0]]))[:3]}  # the seed's
    visits = Counter((b["restaurant"], b["address"]) for b in past)
    top = sorted(visits.items(), key=lambda kv: (-kv[1], order[kv[0]]))

    if upcoming:
        # 1. The next reservation (dining).
        nxt = upcoming[0]
        when = nxt["at"]
        task(
            "next-reservation",
            [APP],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=240,
            instruction="When and where is my next restaurant reservation, and what's the confirmation number?",
            expected={"confirmation": nxt["confirmation"], "restaurant": nxt["restaurant"], "at": when.isoformat()},
            rubric=[
                RubricItem(
                    id="restaurant", weight=40, requirement=f"Names {nxt['restaurant']}", check=_text(nxt["restaurant"])
                ),
                RubricItem(
                    id="confirmation",
                    weight=40,
                    requirement=f"Gives {nxt['confirmation']}",
                    check=_text(nxt["confirmation"]),
                ),
                RubricItem(
                    id="when",
                    weight=20,
                    requirement=f"Says {_day_text(when.date(), loc)} at {when:%H:%M}",
                    check=_text(*_date_forms(when.date())),
                ),
            ],
        )

        # 2. What a calendar entry is (dining + calendar).
        last_up = upcoming[-1]
        d = last_up["at"].date()
        task(
            "dinner-on-calendar",
            [APP, "calendar"],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"I have a meal out in my calendar on {_day_text(d, loc)}. Which restaurant is it, and how "
            "many people is the table for?",
            expected={
                "restaurant": last_up["restaurant"],
                "party": last_up["party_size"],
                "confirmation": last_up["confirmation"],
            },
            rubric=[
                RubricItem(
                    id="restaurant",
                    weight=70,
                    requirement=f"Names {last_up['restaurant']}",
                    check=_text(last_up["restaurant"]),
                ),
                RubricItem(id="party", weight=30, requirement=f"Says a table for {last_up['party_size']}"),
            ],
        )

    # 3. The card charge of the latest dinner (dining + bank).
    paid = [b for b in past if b["paid"] is not None and b["paid"].status == "done"]
    if paid:
        b = paid[-1]
        amount = b["paid"].data["amount_cents"]
        d = b["at"].date()
        task(
            "last-dinner-cost",
            [APP, "bank"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"How much did my meal at {b['restaurant']} on {_day_text(d, loc)} come to on my card, tip included?",
            expected={
                "confirmation": b["confirmation"],
                "amount_cents": amount,
                "tip_cents": b["paid"].data.get("tip_cents"),
            },
            rubric=[
                RubricItem(
                    id="amount",
                    weight=100,
                    requirement=f"States {money(amount, cur)}",
                    check=Check(type="answer_amount", cents=amount),
                )
            ],
        )

    # 4. Who came to the latest dinner with company (dining + messaging).
    company = [b for b in past if b["companions"]]
    if company:
        b = company[-1]
        d = b["at"].date()
        weight = 100 // len(b["companions"])
        items = [
            RubricItem(
                id=f"name-{i}",
                weight=weight + (100 - weight * len(b["companions"]) if i == 0 else 0),
                requirement=f"Names {n}",
                check=_text(n, n.split()[0]),
            )
            for i, n in enumerate(b["companions"])
        ]
        task(
            "who-came",
            [APP, "messaging"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"Who did I eat with at {b['restaurant']} on {_day_text(d, loc)}?",
            expected={"confirmation": b["confirmation"], "companions": b["companions"]},
            rubric=items,
        )

    # 5. Most-visited restaurant and how often (aggregation).
    (name, address), done = top[0]
    task(
        "most-visited",
        [APP],
        kind="aggregation",
        category="preference_inference",
        difficulty="medium",
        time_limit_seconds=420,
        instruction="Which restaurant have I eaten at most often through TableTime, and how many times have I been?",
        expected={"restaurant": name, "visits": done},
        rubric=[
            RubricItem(id="restaurant", weight=60, requirement=f"Names {name}", check=_text(name)),
            RubricItem(
                id="visits",
                weight=40,
                requirement=f"Says {done} visits",
                check=_text(f"{done} times", f"{done} visits", f"{done} Mal", f"{done}x"),
            ),
        ],
    )

    if upcoming:
        # 6. Action: cancel the last upcoming reservation.
        c = upcoming[-1]
        task(
            "cancel-upcoming",
            [APP],
            kind="action",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"Cancel my reservation at {c['restaurant']} on {_day_text(c['at'].date(), loc)}; we can't make it.",
            expected={"confirmation": c["confirmation"]},
            rubric=[
                RubricItem(
                    id="cancelled",
                    weight=55,
                    requirement=f"Reservation {c['confirmation']} is cancelled",
                    check=KIT.sql(
                        "SELECT status FROM reservations WHERE confirmation = ? AND world_ref IS NOT NULL",
                        [c["confirmation"]],
                        [["cancelled"]],
                    ),
                ),
                RubricItem(
                    id="released",
                    weight=30,
                    requirement="Its table is released",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM table_holds h JOIN reservations v ON v.id = h.reservation_id "
                        "WHERE v.confirmation = ?",
                        [c["confirmation"]],
                        [[0]],
                    ),
                ),
                KIT.only(
                    "Nothing else changed at TableTime: only that reservation cancelled",
                    Change(table="reservations", op="update", min=1, max=1, columns=["status", "cancelled_at"]),
                    Change(table="table_holds", op="delete", min=0),
                ),
            ],
        )

        # 7. Action: one more or one fewer at the next reservation (the same table size fits).
        b = upcoming[0]
        party = b["party_size"] + 1 if b["party_size"] % 2 else b["party_size"] - 1
        why = "A friend is joining us for" if party > b["party_size"] else "One of us can't come to"
        task(
            "bigger-party",
            [APP],
            kind="action",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"{why} the meal at {b['restaurant']} on {_day_text(b['at'].date(), loc)}. Change the reservation to "
            f"{party} {'person' if party == 1 else 'people'}, same time.",
            expected={"confirmation": b["confirmation"], "day": b["day"], "time": b["time"], "party": party},
            rubric=[
                RubricItem(
                    id="party",
                    weight=85,
                    requirement=f"The same reservation is now for {party} at {b['time']}",
                    check=KIT.sql(
                        "SELECT party_size, day, time, status FROM reservations WHERE confirmation = ? "
                        "AND modified_at IS NOT NULL",
                        [b["confirmation"]],
                        [[party, b["day"], b["time"], "booked"]],
                    ),
                ),
                KIT.only(
                    "Nothing else changed at TableTime: only the party size of that reservation",
                    Change(table="reservations", op="update", min=1, max=1, columns=["party_size", "modified_at"]),
                    *HOLDS,
                ),
            ],
        )

    # 8. Action: a table for two at the most-visited restaurant, five weeks out.
    day = world.now.date() + dt.timedelta(days=OCCUPANCY_DAYS + 7)
    top_slug = slugs[(name, address)]
    task(
        "book-table",
        [APP],
        kind="action",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"Book a table for two at the restaurant I go to most, on {_day_text(day, loc)} at 7:30 pm.",
        expected={"slug": top_slug, "restaurant": name, "day": day.isoformat(), "time": "19:30", "party": 2},
        rubric=[
            RubricItem(
                id="booked",
                weight=85,
                requirement=f"A reservation for 2 at {name}, {day} 19:30",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM reservations v JOIN restaurants r ON r.id = v.restaurant_id "
                    "WHERE v.world_ref IS NULL AND v.status = 'booked' AND r.slug = ? AND v.day = ? "
                    "AND v.time = ? AND v.party_size = ?",
                    [top_slug, day.isoformat(), "19:30", 2],
                    [[1]],
                ),
            ),
            KIT.only(
                "Nothing else changed at TableTime: only the new reservation",
                Change(table="reservations", op="insert", min=1, max=1),
                *HOLDS,
            ),
        ],
    )

    if company:
        # 9. Action: the same group again (the companions are in the reservation and in messaging).
        b = company[-1]
        day2 = world.now.date() + dt.timedelta(days=OCCUPANCY_DAYS + 8)
        party = 1 + len(b["companions"])
        task(
            "book-friends",
            [APP, "messaging"],
            kind="action",
            difficulty="hard",
            time_limit_seconds=540,
            instruction=f"That dinner at {b['restaurant']} on {_day_text(b['at'].date(), loc)} was great. Book the same "
            f"place again for me and everyone who came that night, on {_day_text(day2, loc)} at 7 pm.",
            expected={
                "slug": slug(b),
                "restaurant": b["restaurant"],
                "day": day2.isoformat(),
                "time": "19:00",
                "party": party,
                "companions": b["companions"],
            },
            rubric=[
                RubricItem(
                    id="booked",
                    weight=55,
                    requirement=f"A reservation at {b['restaurant']} on {day2} 19:00",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM reservations v JOIN restaurants r ON r.id = v.restaurant_id "
                        "WHERE v.world_ref IS NULL AND v.status = 'booked' AND r.slug = ? AND v.day = ? "
                        "AND v.time = ?",
                        [slug(b), day2.isoformat(), "19:00"],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="party",
                    weight=30,
                    requirement=f"For {party} people",
                    check=KIT.sql(
                        "SELECT v.party_size FROM reservations v JOIN restaurants r ON r.id = "
                        "v.restaurant_id WHERE v.world_ref IS NULL AND r.slug = ? AND v.day = ?",
                        [slug(b), day2.isoformat()],
                        [[party]],
                    ),
                ),
                KIT.only(
                    "Nothing else changed at TableTime: only the new reservation",
                    Change(table="reservations", op="insert", min=1, max=1),
                    *HOLDS,
                ),
            ],
        )

    # 10. Action: review the latest visit (the seed reviews only visits older than 30 days).
    last = past[-1]
    task(
        "review-last",
        [APP],
        kind="action",
        difficulty="easy",
        time_limit_seconds=300,
        instruction=f"Leave a 5-star review on TableTime for my last meal out, at {last['restaurant']}.",
        expected={"confirmation": last["confirmation"], "rating": 5},
        rubric=[
            RubricItem(
                id="review",
                weight=85,
                requirement="A 5-star review of that visit",
                check=KIT.sql(
                    "SELECT w.rating FROM reviews w JOIN reservations v ON v.id = w.reservation_id "
                    "WHERE v.confirmation = ? AND w.world_ref IS NULL",
                    [last["confirmation"]],
                    [[5]],
                ),
            ),
            KIT.only(
                "Nothing else changed at TableTime: only the new review",
                Change(table="reviews", op="insert", min=1, max=1),
            ),
        ],
    )

    # 11. Action: save the restaurant with the biggest card spend (dining + bank), one not saved yet.
    spend: dict[tuple[str, str], int] = defaultdict(int)
    for b in paid:
        if b["paid"].at.year == p.as_of.year:
            spend[(b["restaurant"], b["address"])] += b["paid"].data["amount_cents"]
    ranked = sorted(spend.items(), key=lambda kv: (-kv[1], order[kv[0]]))
    pick = next(((k, v) for k, v in ranked if slugs[k] not in favourites), None)
    if pick:
        (rn, ra), cents = pick
        rank = [k for k, _ in ranked].index((rn, ra)) + 1
        which = "the most" if rank == 1 else f"the {['', '', 'second', 'third', 'fourth', 'fifth'][min(rank, 5)]} most"
        task(
            "save-top-spend",
            [APP, "bank"],
            kind="action",
            difficulty="hard",
            time_limit_seconds=540,
            instruction=f"Of the restaurants I booked through TableTime, save the one where I've spent {which} on my card "
            f"in {p.as_of.year} to my favourites.",
            expected={"slug": slugs[(rn, ra)], "restaurant": rn, "spend_cents": cents},
            rubric=[
                RubricItem(
                    id="saved",
                    weight=85,
                    requirement=f"{rn} ({money(cents, cur)}) is saved",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM favourites f JOIN restaurants r ON r.id = f.restaurant_id "
                        "WHERE r.slug = ? AND f.world_ref IS NULL",
                        [slugs[(rn, ra)]],
                        [[1]],
                    ),
                ),
                KIT.only(
                    f"Nothing else changed at TableTime: only {rn} saved to the favourites",
                    Change(table="favourites", op="insert", min=1, max=1),
                ),
            ],
        )
    # 12. Action across TableTime, the bank and Parley: split the last dinner the persona paid for the whole table
    # (the card line holds the food and the tip) evenly, and ask each friend who came for their share.
    paid = {
        e.data["restaurant_booking"]: e
        for e in world.of_kind("card_purchase")
        if e.status == "done" and e.data.get("paid_for") == "table" and e.data.get("restaurant_booking")
    }
    split = [b for b in past if b["confirmation"] in paid and b["companions"]]
    if split:
        b = split[-1]
        charge = paid[b["confirmation"]].data
        party = len(b["companions"]) + 1
        share_lo, share_hi = charge["amount_cents"] // party, -(-charge["amount_cents"] // party)

        def forms(cents: int) -> list[str]:
            return [f"{cents // 100}.{cents % 100:02d}", f"{cents // 100},{cents % 100:02d}"]

        shares = sorted(set(forms(share_lo) + forms(share_hi)))
        who = b["companions"]
        weights = [85 // len(who) + (85 % len(who) if i == 0 else 0) for i in range(len(who))]
        marks = " OR ".join("instr(m.body, ?) > 0" for _ in shares)
        task(
            "split-the-bill",
            [APP, "bank", "messaging"],
            kind="action",
            category="long_horizon",
            difficulty="hard",
            time_limit_seconds=600,
            instruction=f"I paid for everyone at {b['restaurant']} on {_day_text(b['at'].date(), loc)}. Split what my card "
            "was charged (tip included) evenly between everyone who came, and ask each of my friends for "
            "their share in Parley.",
            expected={
                "confirmation": b["confirmation"],
                "charged_cents": charge["amount_cents"],
                "party": party,
                "share_cents": share_hi,
                "companions": who,
            },
            rubric=[
                RubricItem(
                    id=f"asked-{i}",
                    weight=w,
                    requirement=f"{n} is asked in Parley for {money(share_hi, cur)}",
                    check=Check(
                        type="sql",
                        app="messaging",
                        query=" ".join(
                            f"""SELECT COUNT(*) > 0 FROM messages m JOIN conversations c
                                                ON c.id = m.conversation_id WHERE c.kind = 'direct' AND c.contact_id =
                                                (SELECT id FROM contacts WHERE name = ?) AND m.sender_id IS NULL
                                                AND m.world_ref IS NULL AND ({marks})""".split()
                        ),
                        params=[n, *shares],
                        expected=[[1]],
                    ),
                )
                for i, (n, w) in enumerate(zip(who, weights))
            ]
            + [
                kit.only(
                    "messaging",
                    "Nothing else changed in Parley: only the texts asking for the shares (and the friends' replies)",
                    Change(table="messages", op="insert", min=len(who), max=2 * len(who)),
                )
            ],
        )

    out.extend(insight_tasks(world))
    out += long_tasks(world) + time_mixup_task(world) + team_dinner_task(world) + trip_dinner_task(world)
    return out


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """TableTime's preference tasks: who the persona usually dines with and the cuisine booked most (past bookings).
    None without bookings."""
    from builder.tasks import answers as A

    past = [
        e
        for e in world.of_kind("restaurant_booking")
        if e.status == "done"
        and dt.datetime.fromisoformat(e.data["reservation_local"]).replace(tzinfo=None) < world.now
    ]
    out: list[Task] = []

    task = KIT.adder(world, out)

    it = A.planted(world, "contradiction/restaurant-time")
    if it:
        booked, said = dt.datetime.fromisoformat(it["booked_time"]), dt.datetime.fromisoformat(it["friend_time"])
        task(
            "cx-booking-vs-chat",
            ["dining", "messaging", "mail"],
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

    mates = Counter(n for e in past for n in e.data.get("companions") or [])
    top = mates.most_common(2)
    if top and (len(top) == 1 or top[0][1] > top[1][1]):
        name, n = top[0]
        task(
            "pref-dining-companion",
            ["dining", "messaging"],
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

    cuisines = Counter(e.data["cuisine"] for e in past if e.data.get("cuisine"))
    top = cuisines.most_common(2)
    if top and (len(top) == 1 or top[0][1] > top[1][1]):
        cuisine, n = top[0]
        task(
            "pref-cuisine",
            ["dining"],
            kind="aggregation",
            category="preference_inference",
            difficulty="medium",
            time_limit_seconds=480,
            instruction="What kind of food do I book most often on TableTime? Tell me the cuisine and how many of my "
            "past reservations were for it.",
            expected={"cuisine": cuisine, "bookings": n, "of": len(past)},
            rubric=[
                RubricItem(id="cuisine", weight=70, requirement=f"Says {cuisine}", check=A.text(cuisine)),
                RubricItem(id="count", weight=30, requirement=f"Says {n} reservations", check=A.number(n)),
            ],
        )
    return out


def long_tasks(world: World) -> list[Task]:
    """TableTime's long-horizon chain: dinner with the friends the persona eats out with most."""
    from zoneinfo import ZoneInfo

    from builder.tasks.phrasing import day_phrase

    p = world.persona
    friends = Counter(
        n for e in world.of_kind("restaurant_booking") if e.at <= world.now for n in e.data.get("companions") or ()
    )
    chatting = {c.name for c in p.contacts if "chat" in (c.apps or []) and c.phone}
    crew = sorted((n for n in friends if n in chatting), key=lambda n: (-friends[n], n))[:2]
    if len(crew) < 2:
        return []
    places = tabletime.restaurants_by_visits(world, set(crew))
    if not places:
        return []
    place = places[0]
    day = world.now.date() + dt.timedelta(days=14)
    while day.weekday() != 4:  # a Friday, at least two weeks out
        day += dt.timedelta(days=1)
    time = "19:00"
    at = dt.datetime.combine(day, dt.time(19, 0))
    zone = ZoneInfo(p.timezone)
    lo, hi = (at - dt.timedelta(minutes=45)).replace(tzinfo=zone), (at - dt.timedelta(minutes=15)).replace(tzinfo=zone)
    party = 1 + len(crew)
    firsts = " and ".join(n.split()[0] for n in crew)
    title = "Dinner crew"
    return [
        Task(
            id=f"{p.id}/{APP}/friends-dinner",
            persona=p.id,
            kind="action",
            category="long_horizon",
            apps_involved=[APP, "mail", "calendar", "messaging", "rides"],
            difficulty="hard",
            time_limit_seconds=1500,
            instruction=f"Plan a dinner with the two friends I eat out with most, at the restaurant we've booked together "
            f"most: book a table for the three of us {day_phrase(day, world.now.date())} at 7 pm on TableTime; "
            f'add it to my calendar from the confirmation email; start a Parley group called "{title}" with '
            "them and post where and when; and schedule a ZipRide from home to the restaurant that picks me "
            "up 15 to 45 minutes before.",
            expected={
                "slug": place["slug"],
                "restaurant": place["name"],
                "address": place["address"],
                "day": day.isoformat(),
                "time": time,
                "party": party,
                "crew": crew,
                "title": title,
                "ride_at": (at - dt.timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M"),
            },
            rubric=[
                RubricItem(
                    id="booked",
                    weight=25,
                    requirement=f"{place['name']} booked for {party} on {day} at {time}",
                    check=tabletime.booked(place["slug"], day.isoformat(), time, party),
                ),
                RubricItem(
                    id="calendar",
                    weight=15,
                    requirement=f"Daybook has the dinner at {place['name']} on {day} at {time}",
                    check=daybook.created(f"{day}T{time}", [[place["name"]]]),
                ),
                RubricItem(
                    id="group",
                    weight=20,
                    requirement=f"A Parley group with {firsts} names {place['name']}",
                    check=parley.sent_group(crew, [[place["name"]]]),
                ),
                RubricItem(
                    id="group-says", weight=5, requirement="The group message gives the day and time (judge: read it)"
                ),
                RubricItem(
                    id="ride",
                    weight=20,
                    requirement=f"A ZipRide Home -> {place['name']} picks me up between "
                    f"{lo:%H:%M} and {hi:%H:%M} on {day}",
                    check=zipride.booked("Home", place["address"], lo.isoformat(), hi.isoformat()),
                ),
                RubricItem(
                    id="only",
                    weight=15,
                    requirement="Nothing else changed at TableTime: only the new reservation",
                    check=tabletime.only_booking(),
                ),
            ],
        )
    ]


def team_dinner_task(world: World) -> list[Task]:
    """A team dinner (five apps): book the persona's most-booked restaurant for them and their colleagues on a Friday
    three weeks out, the work calendar, the team's Huddle channel, a mail to the lead, a ZipRide home afterwards."""
    from zoneinfo import ZoneInfo

    from apps.mail import steps as mailbox
    from apps.workchat import steps as huddle
    from builder.tasks import steps as S
    from builder.tasks.phrasing import day_phrase

    p = world.persona
    colleagues = list(p.work.colleagues) if p.work else []
    lead_of, team = S.work_lead(world), S.team_channel(world)
    places = tabletime.restaurants_by_visits(world)
    if not colleagues or lead_of is None or team is None or not places:
        return []
    lead, lead_email = lead_of
    crew = colleagues[:4]
    place = places[0]
    day = world.now.date() + dt.timedelta(days=21)
    while day.weekday() != 4:  # a Friday three weeks out or later (ZipRide schedules up to 30 days ahead)
        day += dt.timedelta(days=1)
    time, party = "19:30", 1 + len(crew)
    zone = ZoneInfo(p.timezone)
    home_at = dt.datetime.combine(day, dt.time(22, 30)).replace(tzinfo=zone)
    lo, hi = home_at - dt.timedelta(minutes=15), home_at + dt.timedelta(minutes=15)
    names = (
        ", ".join(n.split()[0] for n in crew[:-1]) + f" and {crew[-1].split()[0]}"
        if len(crew) > 1
        else crew[0].split()[0]
    )
    return [
        Task(
            id=f"{p.id}/{APP}/team-dinner",
            persona=p.id,
            kind="action",
            category="long_horizon",
            apps_involved=[APP, "calendar", "workchat", "mail", "rides"],
            difficulty="hard",
            time_limit_seconds=1500,
            instruction=f"Organise a team dinner with {names}: book a table for the {party} of us at {place['name']} "
            f"{day_phrase(day, world.now.date())} at 7:30 pm on TableTime; put it in my work calendar; post "
            f"the restaurant and time in #{team} on Huddle; email {lead.split()[0]} the same; and schedule a "
            "ZipRide home from the restaurant for 10:30 pm that night.",
            expected={
                "slug": place["slug"],
                "restaurant": place["name"],
                "address": place["address"],
                "day": day.isoformat(),
                "time": time,
                "party": party,
                "crew": crew,
                "channel": team,
                "lead": lead,
                "lead_email": lead_email,
                "ride_at": home_at.strftime("%Y-%m-%dT%H:%M"),
            },
            rubric=[
                RubricItem(
                    id="booked",
                    weight=25,
                    requirement=f"{place['name']} booked for {party} on {day} at {time}",
                    check=tabletime.booked(place["slug"], day.isoformat(), time, party),
                ),
                RubricItem(
                    id="calendar",
                    weight=15,
                    requirement=f"The work calendar has the dinner on {day} at {time}",
                    check=daybook.created(f"{day}T{time}", [], calendar="work"),
                ),
                RubricItem(
                    id="post",
                    weight=15,
                    requirement=f"A post in #{team} names {place['name']} and 7:30",
                    check=huddle.posted(team, [[place["name"]], ["7:30", "19:30"]]),
                ),
                RubricItem(
                    id="mail",
                    weight=10,
                    requirement=f"A mail to {lead} ({lead_email}) names {place['name']}",
                    check=mailbox.sent(lead_email, [[place["name"]]]),
                ),
                RubricItem(
                    id="ride",
                    weight=20,
                    requirement=f"A ZipRide {place['name']} -> Home picks me up between "
                    f"{lo:%H:%M} and {hi:%H:%M} on {day}",
                    check=zipride.booked(place["address"], "Home", lo.isoformat(), hi.isoformat()),
                ),
                RubricItem(
                    id="only",
                    weight=15,
                    requirement="Nothing else changed at TableTime: only the new reservation",
                    check=tabletime.only_booking(),
                ),
            ],
        )
    ]


def trip_dinner_task(world: World) -> list[Task]:
    """Dinner on the next trip (five apps): the best-rated TableTime restaurant in the destination, the evening after
    the outbound flight lands (as the airline has it now), for the persona and their companions; the calendar; a
    text to the companion (or the closest contact) with the place, the time and the trip's hotel."""
    from apps.airline.tasks import CITY
    from apps.messaging.steps import closest_contact
    from builder.tasks.phrasing import day_phrase
    from builder.world.planted import airline_flights

    p = world.persona
    moved = airline_flights(world)
    legs = sorted(
        ({**f.data, **moved.get(f.id, {})} for f in world.of_kind("flight") if f.status == "scheduled"),
        key=lambda d: d["dep_utc"],
    )
    if not legs:
        return []
    trip = legs[0]["trip"]
    outbound = [d for d in legs if d["trip"] == trip and d["direction"] == "outbound"]
    hotel = next((e.data for e in world.of_kind("hotel_booking") if e.data.get("trip") == trip), None)
    if not outbound or hotel is None:
        return []
    city = CITY.get(outbound[-1]["to"])
    places = sorted(
        (x for x in catalogue() if x["city"] == city), key=lambda x: (-x["rating_x10"], -x["review_count"], x["name"])
    )
    if not places or (
        len(places) > 1
        and (places[0]["rating_x10"], places[0]["review_count"]) == (places[1]["rating_x10"], places[1]["review_count"])
    ):
        return []
    place = places[0]
    companions = [n for n in outbound[0].get("passengers", [])[1:]]
    closest = closest_contact(world)
    who = companions[0] if companions else (closest.name if closest else None)
    if who is None:
        return []
    day = dt.date.fromisoformat(outbound[-1]["arr_local"][:10]) + dt.timedelta(days=1)
    time, party = "19:30", 1 + len(companions)
    us = "me" if not companions else ("the two of us" if party == 2 else f"the {party} of us")
    return [
        Task(
            id=f"{p.id}/{APP}/trip-dinner",
            persona=p.id,
            kind="action",
            category="long_horizon",
            apps_involved=[APP, "airline", "stays", "calendar", "messaging"],
            difficulty="hard",
            time_limit_seconds=1500,
            instruction=f"On my trip to {city}, book a table for {us} at the best-rated restaurant TableTime lists in "
            f"{city}, at 7:30 pm on the evening after my flight there lands; put the dinner in my calendar "
            f"with the restaurant's name in the title; and text {who.split()[0]} the restaurant, the time "
            "and the name of the hotel we're staying at."
            if companions
            else f"On my trip to {city}, book a table for one at the best-rated restaurant TableTime lists in "
            f"{city}, at 7:30 pm on the evening after my flight there lands; put the dinner in my calendar "
            f"with the restaurant's name in the title; and text {who.split()[0]} the restaurant, the time "
            "and the name of the hotel I'm staying at.",
            expected={
                "slug": place["slug"],
                "restaurant": place["name"],
                "city": city,
                "day": day.isoformat(),
                "day_phrase": day_phrase(day, world.now.date()),
                "time": time,
                "party": party,
                "contact": who,
                "hotel": hotel["hotel"],
            },
            rubric=[
                RubricItem(
                    id="booked",
                    weight=30,
                    requirement=f"{place['name']} ({city}, rated "
                    f"{place['rating_x10'] / 10:.1f}) booked for {party} on "
                    f"{day} at {time}",
                    check=tabletime.booked(place["slug"], day.isoformat(), time, party),
                ),
                RubricItem(
                    id="calendar",
                    weight=15,
                    requirement=f"A calendar entry on {day} naming {place['name']}",
                    check=daybook.created(day.isoformat(), [[place["name"]]]),
                ),
                RubricItem(
                    id="text-place",
                    weight=15,
                    requirement=f"A text to {who} names {place['name']} and 7:30",
                    check=parley.sent_direct(who, [[place["name"]], ["7:30", "19:30", "19.30"]]),
                ),
                RubricItem(
                    id="text-hotel",
                    weight=15,
                    requirement=f"A text to {who} names the hotel, {hotel['hotel']}",
                    check=parley.sent_direct(who, [[hotel["hotel"]]]),
                ),
                RubricItem(
                    id="only-texts",
                    weight=10,
                    requirement="Parley changed only by the texts sent",
                    check=parley.only_texts(1, 4),
                ),
                RubricItem(
                    id="only",
                    weight=15,
                    requirement="Nothing else changed at TableTime: only the new reservation",
                    check=tabletime.only_booking(),
                ),
            ],
        )
    ]


def time_mixup_task(world: World) -> list[Task]:
    """A friend has the wrong time for a booked dinner (``contradiction/restaurant-time``): check the booking, set the
    friend straight, get there on time, and put a reminder in the calendar."""
    from zoneinfo import ZoneInfo

    from builder.tasks.phrasing import day_phrase

    p = world.persona
    item = answers.planted(world, "contradiction/restaurant-time")
    if not item:
        return []
    # By name and address: chains and namesakes exist in several cities (Bar Pintxo: Manchester and Barcelona).
    booking = next(
        (e for e in world.of_kind("restaurant_booking") if e.data.get("booking_id") == item["booking_id"]), None
    )
    place = next(
        (
            x
            for x in catalogue()
            if x["name"] == item["restaurant"] and (booking is None or x["address"] == booking.data["address"])
        ),
        None,
    )
    if not place:
        return []
    at = dt.datetime.fromisoformat(item["booked_time"])
    zone = ZoneInfo(p.timezone)
    lo, hi = (at - dt.timedelta(minutes=40)).replace(tzinfo=zone), (at - dt.timedelta(minutes=20)).replace(tzinfo=zone)
    wrong = dt.datetime.fromisoformat(item["friend_time"])
    friend = item["friend"]
    h12 = f"{(at.hour - 1) % 12 + 1}:{at.minute:02d}"
    rem = at - dt.timedelta(hours=1)
    return [
        Task(
            id=f"{p.id}/{APP}/dinner-time-mixup",
            persona=p.id,
            kind="action",
            category="long_horizon",
            apps_involved=[APP, "messaging", "rides", "calendar"],
            difficulty="medium",
            time_limit_seconds=900,
            planted=[item["id"]],
            instruction=f"{friend.split()[0]} and I have different times for our dinner at {item['restaurant']} "
            f"{day_phrase(at.date(), world.now.date())}. Check the reservation on TableTime and text "
            f"{friend.split()[0]} the right time in Parley; schedule a ZipRide from home there that picks me up "
            '20 to 40 minutes before the table; and put a "Leave for dinner" reminder in my calendar an hour '
            "before the table.",
            expected={
                "restaurant": item["restaurant"],
                "address": place["address"],
                "time": at.isoformat(),
                "friend": friend,
                "ride_at": (at - dt.timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M"),
                "reminder": rem.isoformat(),
            },
            rubric=[
                RubricItem(
                    id="told",
                    weight=30,
                    requirement=f"{friend} got a text with the booked time {at:%H:%M} (not {wrong:%H:%M})",
                    check=parley.sent_direct(friend, [[f"{at:%H:%M}", h12, f"{at.hour}:{at.minute:02d}"]]),
                ),
                RubricItem(
                    id="ride",
                    weight=30,
                    requirement=f"A ZipRide Home -> {item['restaurant']} picks me up between {lo:%H:%M} and {hi:%H:%M}",
                    check=zipride.booked("Home", place["address"], lo.isoformat(), hi.isoformat()),
                ),
                RubricItem(
                    id="reminder",
                    weight=20,
                    requirement=f'Daybook has "Leave for dinner" at {rem:%H:%M}',
                    check=daybook.created(rem.strftime("%Y-%m-%dT%H:%M"), [["leave"]]),
                ),
                RubricItem(
                    id="only",
                    weight=20,
                    requirement="Nothing else changed in Parley: only my text (and the reply it got)",
                    check=parley.only_texts(1),
                ),
            ],
        )
    ]
