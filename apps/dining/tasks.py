"""TableTime tasks derived from the world, each with its expected values and rubric.

Action checks read the end state of ``dining.sqlite``. Rows the app writes have ``world_ref IS NULL`` (a reservation,
a review, a favourite) or columns the seed never sets (``modified_at``, ``cancelled_at``), so an agent that does nothing
fails every action check. Check queries are fixed SQL with ``?`` placeholders; every world value travels in ``params``.
Tables booked by tasks lie beyond the seeded occupancy (more than four weeks out), so the asked slot is free.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter

from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World

from .seed import OCCUPANCY_DAYS, listed, reservations

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
# The largest party booked at a table (web/lib/tabletime.ts MAX_PARTY); larger ones, up to 20, send a request.
MAX_PARTY = 8
HOLDS = (Change(table="table_holds", op="delete", min=0), Change(table="table_holds", op="insert", min=0))


def text(*options: str) -> Check:
    """An answer check: the answer holds one of ``options`` (empty ones dropped, duplicates kept)."""
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


def day_text(day: dt.date, locale: str) -> str:
    """``day`` as TableTime's tasks name it in ``locale`` ("Friday 5 June", "Friday, June 5", "5. Juni")."""
    return _day_text(day, locale)


def history(world: World) -> tuple[list[dict], list[dict]]:
    """The persona's TableTime reservations (:func:`apps.dining.seed.reservations`): the completed ones, then the
    upcoming ones by time."""
    mine = reservations(world)
    past = [b for b in mine if b["status"] == "completed"]
    return past, sorted((b for b in mine if b["status"] == "booked"), key=lambda b: b["at"])


def dined(world: World) -> list:
    """The world's restaurant bookings that are done and whose table time has passed (the persona's meals out)."""
    return [
        e
        for e in world.of_kind("restaurant_booking")
        if e.status == "done"
        and dt.datetime.fromisoformat(e.data["reservation_local"]).replace(tzinfo=None) < world.now
    ]


def spellings(world: World, name: str) -> list[str]:
    """How an answer may name the contact ``name``: the full name, and the first name alone when no other contact of
    the persona shares it."""
    first = name.split()[0]
    others = [c.name for c in world.persona.contacts if c.name != name and c.name.split()[0] == first]
    return list(dict.fromkeys([name, first])) if not others else [name]


def in_use(world: World) -> bool:
    """Whether the persona has dined out through TableTime (a completed reservation): without one its tasks are few
    and the scenarios homed there have none."""
    return any(b["status"] == "completed" for b in reservations(world))


def tasks(world: World) -> list[Task]:
    """Return TableTime's own tasks of ``world`` (those that need no other app; the ones with the calendar, the bank,
    Parley or mail are scenarios homed here: scenarios/{checks,errands,recaps}/dining.py), in a fixed order; none for
    a persona who never dines out."""
    p = world.persona
    loc = p.bank
    out: list[Task] = []
    past, upcoming = history(world)
    restaurants = listed(world)
    slugs = {(x["name"], x["address"]): x["slug"] for x in restaurants}
    order = {(x["name"], x["address"]): i for i, x in enumerate(restaurants)}

    task = KIT.adder(world, out)

    if not in_use(world):
        return out
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
                    id="restaurant", weight=40, requirement=f"Names {nxt['restaurant']}", check=text(nxt["restaurant"])
                ),
                RubricItem(
                    id="confirmation",
                    weight=40,
                    requirement=f"Gives {nxt['confirmation']}",
                    check=text(nxt["confirmation"]),
                ),
                RubricItem(
                    id="when",
                    weight=20,
                    requirement=f"Says {_day_text(when.date(), loc)} at {when:%H:%M}",
                    check=text(*_date_forms(when.date())),
                ),
            ],
        )

    # 5. Most-visited restaurant and how often (aggregation): asked only when one restaurant leads.
    (name, address), done = top[0]
    runner_up = top[1][1] if len(top) > 1 else 0
    if done == runner_up:
        out.append(
            KIT.dropped(
                world,
                "most-visited",
                "preference_inference",
                f"a tie: {top[0][0][0]} and {top[1][0][0]}, {done} visits each",
            )
        )
    else:
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
                RubricItem(id="restaurant", weight=60, requirement=f"Names {name}", check=text(name)),
                RubricItem(
                    id="visits",
                    weight=40,
                    requirement=f"Says {done} visits",
                    check=text(f"{done} times", f"{done} visits", f"{done} Mal", f"{done}x"),
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

    # 8. Action: a table for two at the most-visited restaurant, five weeks out, booked as a celebration (the
    # booking form's occasion).
    day = world.now.date() + dt.timedelta(days=OCCUPANCY_DAYS + 7)
    top_slug = slugs[(name, address)]
    task(
        "book-table",
        [APP],
        kind="action",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=(
            f"Book a table for two at the restaurant I go to most, on {_day_text(day, loc)} at 7:30 pm. We're "
            "celebrating, so let them know it's a celebration."
        ),
        expected={
            "slug": top_slug,
            "restaurant": name,
            "day": day.isoformat(),
            "time": "19:30",
            "party": 2,
            "occasion": "celebration",
        },
        rubric=[
            RubricItem(
                id="booked",
                weight=70,
                requirement=f"A reservation for 2 at {name}, {day} 19:30",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM reservations v JOIN restaurants r ON r.id = v.restaurant_id "
                    "WHERE v.world_ref IS NULL AND v.status = 'booked' AND r.slug = ? AND v.day = ? "
                    "AND v.time = ? AND v.party_size = ?",
                    [top_slug, day.isoformat(), "19:30", 2],
                    [[1]],
                ),
            ),
            RubricItem(
                id="occasion",
                weight=15,
                requirement="The booking's occasion is Celebration (or the special request says it is one)",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM reservations v JOIN restaurants r ON r.id = v.restaurant_id "
                    "WHERE v.world_ref IS NULL AND v.status = 'booked' AND r.slug = ? AND v.day = ? "
                    "AND (v.occasion = 'celebration' OR lower(COALESCE(v.special_request, '')) LIKE '%celebrat%')",
                    [top_slug, day.isoformat()],
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

    out.extend(insight_tasks(world))
    return out


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """TableTime's preference task: the cuisine booked most (past bookings). None without bookings. (Who the persona
    dines with most, and the booking a friend remembers wrong, are in scenarios/recaps/dining.py.)"""
    from builder.tasks import answers as A

    past = dined(world)
    out: list[Task] = []

    task = KIT.adder(world, out)

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
