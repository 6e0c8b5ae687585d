"""TableTime tasks derived from the world, each with its expected values and rubric.

Action checks read the end state of ``dining.sqlite``. Rows the app writes have ``world_ref IS NULL`` (a reservation,
a review, a favourite) or columns the seed never sets (``modified_at``, ``cancelled_at``), so an agent that does nothing
fails every action check. Check queries are fixed SQL with ``?`` placeholders; every world value travels in ``params``.
Tables booked by tasks lie beyond the seeded occupancy (more than four weeks out), so the asked slot is free.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict

from builder.money import money
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


# How a task names a day, by locale (en_US's for a locale it lacks).
_DAY_TEXT = {"en_US": "{weekday}, {month} {day}", "en_GB": "{weekday} {day} {month}", "de_DE": "{day}. {monat}"}


def _day_text(day: dt.date, locale: str) -> str:
    pattern = _DAY_TEXT.get(locale, _DAY_TEXT["en_US"])
    return pattern.format(weekday=f"{day:%A}", month=f"{day:%B}", day=day.day, monat=_DE_MONTHS[day.month - 1])


def _date_forms(day: dt.date) -> list[str]:
    return [
        f"{day:%B} {day.day}",
        f"{day:%b} {day.day}",
        f"{day.day} {day:%B}",
        day.isoformat(),
        f"{day.day}. {_DE_MONTHS[day.month - 1]}",
        f"{day.day:02d}.{day.month:02d}.",
    ]


def in_use(world: World) -> bool:
    """Whether the persona has dined out through TableTime (a completed reservation): without one its tasks are few
    and the scenarios homed there have none."""
    return any(b["status"] == "completed" for b in reservations(world))


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

    if not in_use(world):
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
