"""Bramblestay tasks derived from the world, each with its expected values and rubric.

Action checks read the end state of ``stays.sqlite`` (and the bank's ``card_authorizations``). Rows the
app writes have ``world_ref IS NULL`` (a booking, a review, a message) or a ``cancelled_at`` the seed never
sets, so an agent that does nothing fails every action check. Check queries are fixed SQL with ``?``
placeholders; every world value travels in ``params``.
"""

from __future__ import annotations

import datetime as dt

from builder.money import money
from builder.rng import rng
from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World
from builder.world.accounts import payment_cards

from builder.reference.lodging.inventory import canonical_city
from builder.reference.lodging.rates import quote

from .inventory import inventory
from .seed import REVIEW_AFTER_DAYS, bookings

APP = "stays"
KIT = kit.Kit(APP, nothing_else="Nothing else changed at Bramblestay: only {}")


def _date_forms(day: dt.date) -> list[str]:
    return [
        f"{day:%B} {day.day}",
        f"{day:%b} {day.day}",
        f"{day.month}/{day.day}",
        day.isoformat(),
        f"{day.day} {day:%B}",
        f"{day.day}. {['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'][day.month - 1]}",
        f"{day.day:02d}.{day.month:02d}.",
    ]


def cheapest_rental(world: World, city: str, check_in: dt.date, nights: int, guests: int) -> dict:
    """The rental in ``city`` with free cancellation that sleeps ``guests`` and costs least in total for the
    stay (ties by slug): ``{"slug", "name", "total_cents"}``."""
    c = next(x for x in inventory(world) if x["name"] == city)
    best = None
    for p in c["properties"]:
        room = p["rooms"][0]
        if p["kind"] != "rental" or room["sleeps"] < guests:
            continue
        total = quote(p, room, c, check_in, nights, p["policy"])["total_cents"]
        if best is None or (total, p["slug"]) < (best["total_cents"], best["slug"]):
            best = {"slug": p["slug"], "name": p["name"], "total_cents": total}
    if best is None:
        raise ValueError(f"no rental in {city} sleeps {guests}")
    return best


def tasks(world: World) -> list[Task]:
    """Return the Bramblestay tasks of ``world`` (at least 8 when the world has past and upcoming hotel stays;
    fewer for a persona who never travels), in a fixed order."""
    p = world.persona
    cur = world.currency
    today = world.now.date()
    out: list[Task] = []
    stays = bookings(world)
    past = [b for b in stays if b["checkout"] is not None]
    upcoming = [b for b in stays if dt.date.fromisoformat(b["check_in"]) > today]

    task = KIT.adder(world, out)

    if past:
        # 1. Per-night cost of a past stay, taxes included, as charged (bank).
        lis = next((b for b in past if b["city"] == "Lisbon"), past[-1])
        per_night = round(lis["total_cents"] / lis["nights"])
        task(
            "stay-cost-per-night",
            [APP, "bank"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"What did my hotel in {lis['city']} cost per night, taxes included? Check it against what "
            "was actually charged to my card.",
            expected={
                "confirmation": lis["confirmation"],
                "per_night_cents": per_night,
                "total_cents": lis["total_cents"],
                "nights": lis["nights"],
            },
            rubric=[
                RubricItem(
                    id="per-night",
                    weight=60,
                    requirement=f"States about {money(per_night, cur)} per night",
                    check=kit.amount(per_night),
                ),
                RubricItem(
                    id="total",
                    weight=40,
                    requirement=f"States the charge of {money(lis['total_cents'], cur)}",
                    check=kit.amount(lis["total_cents"]),
                ),
            ],
        )

        # 2. Hotel spending in the year of as_of, by check-out (bank postings equal the folios).
        year = p.as_of.year
        in_year = [b for b in past if b["checkout"].at.year == year]
        total = sum(b["total_cents"] for b in in_year)
        task(
            "hotels-this-year",
            [APP, "bank"],
            kind="aggregation",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"How much have I spent on hotels in {year} so far, and how many stays was that?",
            expected={
                "total_cents": total,
                "stays": len(in_year),
                "confirmations": [b["confirmation"] for b in in_year],
            },
            rubric=[
                RubricItem(id="total", weight=80, requirement=f"States {money(total, cur)}", check=kit.amount(total)),
                RubricItem(id="count", weight=20, requirement=f"Says {len(in_year)} stays"),
            ],
        )

        # 3. Longest past stay.
        longest = max(past, key=lambda b: (b["nights"], b["check_in"]))
        task(
            "longest-stay",
            [APP],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=240,
            instruction="Which of my past hotel stays was the longest, and how many nights was it?",
            expected={"hotel": longest["hotel"], "nights": longest["nights"]},
            rubric=[
                RubricItem(
                    id="hotel",
                    weight=60,
                    requirement=f"Names {longest['hotel']}",
                    check=Check(type="answer_text", any_of=[longest["hotel"], longest["city"]]),
                ),
                RubricItem(
                    id="nights",
                    weight=40,
                    requirement=f"Says {longest['nights']} nights",
                    check=Check(
                        type="answer_text", any_of=[f"{longest['nights']} nights", f"{longest['nights']} Nächte"]
                    ),
                ),
            ],
        )

        # 4. Room and guests of a stay.
        b = past[min(2, len(past) - 1)]
        task(
            "stay-room",
            [APP],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=240,
            instruction=f"What kind of room did I have at the hotel in {b['city']}, and for how many guests was it booked?",
            expected={"room": b["room"], "guests": b["guests"]},
            rubric=[
                RubricItem(
                    id="room",
                    weight=70,
                    requirement=f"Says {b['room']}",
                    check=Check(type="answer_text", any_of=[b["room"]]),
                ),
                RubricItem(id="guests", weight=30, requirement=f"Says {b['guests']} guest(s)"),
            ],
        )

        # 4b. A stay abroad: the folio's bill in the hotel's currency, the card's charge and the bank's fee on it.
        fees = {e.data["purchase"]: e.data["amount_cents"] for e in world.of_kind("card_fee")}
        abroad = [b for b in past if b.get("currency", cur) != cur and b["checkout"].id in fees]
        if abroad:
            fb = abroad[-1]
            local, charge, fee = fb["price"]["total_cents"], fb["total_cents"], fees[fb["checkout"].id]
            task(
                "stay-abroad-exchange",
                [APP, "bank", "files"],
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=600,
                instruction=f"For my stay at {fb['hotel']} in {fb['city']}: what was the bill in {fb['currency']}, "
                "what did my card actually get charged for it, and what did the bank add on top as a "
                "foreign transaction fee?",
                expected={
                    "confirmation": fb["confirmation"],
                    "local_cents": local,
                    "currency": fb["currency"],
                    "fx_rate": fb["fx_rate"],
                    "charge_cents": charge,
                    "fee_cents": fee,
                },
                rubric=[
                    RubricItem(
                        id="local",
                        weight=35,
                        requirement=f"States the bill of {money(local, fb['currency'])}",
                        check=kit.amount(local),
                    ),
                    RubricItem(
                        id="charge",
                        weight=40,
                        requirement=f"States the card charge of {money(charge, cur)}",
                        check=kit.amount(charge),
                    ),
                    RubricItem(
                        id="fee", weight=25, requirement=f"States the fee of {money(fee, cur)}", check=kit.amount(fee)
                    ),
                ],
            )

    # 5. Action: review the latest stay not yet reviewed (the seed reviews stays older than 180 days).
    unreviewed = [b for b in past if (world.now - b["checkout"].at).days <= REVIEW_AFTER_DAYS]
    if unreviewed:
        rv = unreviewed[-1]
        praise = "host" if rv.get("kind") == "rental" else "front desk"
        task(
            "review-stay",
            [APP],
            kind="action",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"Leave a 4-star review of my stay at {rv['hotel']} in {rv['city']}; mention the friendly {praise}.",
            expected={"confirmation": rv["confirmation"], "rating": 4},
            rubric=[
                RubricItem(
                    id="review",
                    weight=60,
                    requirement="A 4-star review of that stay is posted",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM reviews r JOIN bookings b ON b.id = r.booking_id "
                        "WHERE b.confirmation = ? AND r.world_ref IS NULL AND r.rating = 4",
                        [rv["confirmation"]],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="text",
                    weight=25,
                    requirement=f"The review mentions the {praise}",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM reviews r JOIN bookings b ON b.id = r.booking_id "
                        "WHERE b.confirmation = ? AND r.world_ref IS NULL "
                        "AND instr(lower(r.body), ?) > 0",
                        [rv["confirmation"], praise],
                        [[1]],
                    ),
                ),
                KIT.only(
                    "the one review and the property's review count",
                    Change(table="reviews", op="insert", min=1, max=1),
                    Change(table="properties", op="update", min=0, max=1, columns=["review_count", "rating"]),
                ),
            ],
        )

    if upcoming:
        up = upcoming[0]
        from .seed import cancel_deadline

        city_zone = next(c["zone"] for c in inventory(world) if c["name"] == up["city"])
        deadline = dt.datetime.fromisoformat(cancel_deadline(up["check_in"], city_zone, p.timezone))
        # 6. Confirmation number and free-cancellation deadline (the confirmation mail says it too).
        task(
            "upcoming-confirmation",
            [APP, "mail"],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=240,
            instruction=f"What's the confirmation number of my upcoming hotel in {up['city']}, and until when can I "
            "cancel it for free?",
            expected={"confirmation": up["confirmation"], "cancel_until": deadline.isoformat()},
            rubric=[
                RubricItem(
                    id="confirmation",
                    weight=70,
                    requirement=f"States {up['confirmation']}",
                    check=Check(type="answer_text", any_of=[up["confirmation"]]),
                ),
                RubricItem(
                    id="deadline",
                    weight=30,
                    requirement=f"Says free cancellation until {deadline:%B %-d}",
                    check=Check(type="answer_text", any_of=_date_forms(deadline.date())),
                ),
            ],
        )

    # 7. Action: cancel it while free cancellation still applies (only offered when it does at the world's now,
    # so doing nothing never passes).
    if upcoming and world.now <= deadline:
        task(
            "cancel-upcoming",
            [APP],
            kind="action",
            difficulty="medium",
            time_limit_seconds=300,
            instruction=f"My {up['city']} plans have changed. Cancel the hotel booking there, but only if free "
            "cancellation still applies.",
            expected={"confirmation": up["confirmation"], "free": True},
            rubric=[
                RubricItem(
                    id="cancelled",
                    weight=85,
                    requirement="The booking is cancelled at no cost",
                    check=KIT.sql(
                        "SELECT status, refund_cents, cancel_fee_cents FROM bookings "
                        "WHERE confirmation = ? AND cancelled_at IS NOT NULL",
                        [up["confirmation"]],
                        [["cancelled", 0, 0]],
                    ),
                ),
                KIT.only(
                    "that booking cancelled and its nights released",
                    Change(table="bookings", op="update", min=1, max=1),
                    Change(table="booking_nights", op="delete", min=1),
                ),
            ],
        )

    # 7b. Action (with the calendar): leave a night earlier, while free changes still apply: the booking's new dates
    # (a booking_changes row, the app's own) and the calendar's stay entry, from the mail's changed .ics.
    if upcoming and world.now <= deadline and up["nights"] >= 2:
        from .seed import stay_calendar_uids

        early = (dt.date.fromisoformat(up["check_out"]) - dt.timedelta(days=1)).isoformat()
        uid = stay_calendar_uids(world).get(up["confirmation"])
        rubric = [
            RubricItem(
                id="changed",
                weight=55 if uid else 85,
                requirement=f"The {up['city']} booking now runs {up['check_in']} to {early}",
                check=KIT.sql(
                    "SELECT b.check_in, b.check_out, b.status FROM bookings b JOIN booking_changes c "
                    "ON c.booking_id = b.id WHERE b.confirmation = ? AND c.new_check_out = ? "
                    "GROUP BY b.id",
                    [up["confirmation"], early],
                    [[up["check_in"], early, "confirmed"]],
                ),
            )
        ]
        if uid:
            rubric.append(
                RubricItem(
                    id="calendar",
                    weight=30,
                    requirement=f"Daybook's stay entry ends on {early}",
                    check=Check(
                        type="sql",
                        app="calendar",
                        query="SELECT COUNT(*) FROM events WHERE uid = ? AND substr(end_local, 1, 10) = ?",
                        params=[uid, early],
                        expected=[[1]],
                    ),
                )
            )
        rubric.append(
            KIT.only(
                "the changed booking, its change record and the night given up",
                Change(table="bookings", op="update", min=1, max=1),
                Change(table="booking_changes", op="insert", min=1, max=1),
                Change(table="booking_nights", op="delete", min=1, max=1),
            )
        )
        task(
            "leave-a-night-early",
            [APP, "calendar"] if uid else [APP],
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"I need to leave {up['city']} a day earlier. Change my hotel booking there to check out "
            "one day sooner (same check-in) and make sure my calendar shows the new dates.",
            expected={"confirmation": up["confirmation"], "check_in": up["check_in"], "check_out": early, "uid": uid},
            rubric=rubric,
        )

    # 8. Action (with the bank): book the cheapest free-cancellation rental somewhere new, message the host.
    r = rng(world.seed, "stays/tasks")
    visited = {b["city"] for b in stays} | {canonical_city(p.identity.address.city)}
    # A city that prices in the persona's own currency, so the card is charged the listed total.
    cities = [c for c in inventory(world) if c["name"] not in visited]
    wanted = (
        "Lisbon",
        "Barcelona",
        "Rome",
        "Amsterdam",
        "Copenhagen",
        "Edinburgh",
        "Tokyo",
        "Mexico City",
        "Vienna",
        "New York",
        "San Francisco",
        "Denver",
        "London",
        "Berlin",
        "Boston",
        "Chicago",
    )
    choices = (
        [c["name"] for c in cities if c["name"] in wanted and c["currency"] == cur]
        or [c["name"] for c in cities if c["currency"] == cur]
        or [c["name"] for c in cities if c["name"] in wanted]
    )
    city = r.choice(sorted(choices))
    check_in = today + dt.timedelta(days=r.randint(40, 70))
    nights = r.randint(3, 5)
    check_out = check_in + dt.timedelta(days=nights)
    best = cheapest_rental(world, city, check_in, nights, 2)
    cards = payment_cards(world)
    card = next((c for c in cards if c["account"] == "credit_card"), cards[0])
    card_words = "credit card" if card["account"] == "credit_card" else "debit card"
    message = "Hi! We expect to arrive around 8 pm on the first day."
    booked = (
        "FROM bookings b JOIN properties p ON p.id = b.property_id JOIN cities c ON c.id = p.city_id "
        "WHERE b.world_ref IS NULL AND b.status = 'confirmed' AND p.kind = 'rental' AND c.name = ? "
        "AND b.check_in = ? AND b.check_out = ? AND b.guests = 2"
    )
    task(
        "book-rental",
        [APP, "bank"],
        kind="action",
        difficulty="hard",
        time_limit_seconds=900,
        instruction=f"Book the cheapest entire place (a rental, not a hotel) with free cancellation in {city} for 2 "
        f"guests, checking in {check_in:%A, %B %-d} and out {check_out:%A, %B %-d}. Pay with my "
        f"{card_words} and let the host know we'll arrive around 8 pm.",
        expected={
            "city": city,
            "check_in": check_in.isoformat(),
            "check_out": check_out.isoformat(),
            "guests": 2,
            "slug": best["slug"],
            "total_cents": best["total_cents"],
            "card_account": card["account"],
            "message": message,
        },
        rubric=[
            RubricItem(
                id="booked",
                weight=25,
                requirement=f"A rental in {city} is booked for those dates, 2 guests",
                check=KIT.sql(f"SELECT COUNT(*) {booked}", [city, check_in.isoformat(), check_out.isoformat()], [[1]]),
            ),
            RubricItem(
                id="cheapest",
                weight=20,
                requirement=f"It is the cheapest: {best['name']}",
                check=KIT.sql(
                    f"SELECT p.slug {booked}", [city, check_in.isoformat(), check_out.isoformat()], [[best["slug"]]]
                ),
            ),
            RubricItem(
                id="card",
                weight=10,
                requirement=f"Paid with the {card_words}",
                check=KIT.sql(
                    f"SELECT COUNT(*) {booked} AND b.card_id = (SELECT id FROM cards WHERE account = ?)",
                    [city, check_in.isoformat(), check_out.isoformat(), card["account"]],
                    [[1]],
                ),
            ),
            RubricItem(
                id="bank",
                weight=10,
                requirement=f"The bank shows the pending charge of {money(best['total_cents'], cur)}",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM card_authorizations WHERE app = 'stays' AND kind = 'charge' "
                    "AND amount_cents = ? AND account_id = (SELECT id FROM accounts WHERE kind = ?)",
                    [best["total_cents"], card["account"]],
                    [[1]],
                    app="bank",
                ),
            ),
            RubricItem(
                id="message",
                weight=20,
                requirement="The host is told about the 8 pm arrival",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM messages m JOIN threads t ON t.id = m.thread_id JOIN bookings b "
                    "ON b.id = t.booking_id WHERE b.world_ref IS NULL AND m.sender = 'guest' AND "
                    "(instr(m.body, '8') > 0 OR instr(m.body, '20') > 0)",
                    [],
                    [[1]],
                ),
            ),
            KIT.only(
                "the one booking, its nights and the message thread with the host",
                Change(table="bookings", op="insert", min=1, max=1),
                Change(table="booking_nights", op="insert", min=1),
                Change(table="threads", op="insert", min=0, max=1),
                Change(table="messages", op="insert", min=1, max=3),
            ),
        ],
    )
    out.extend(insight_tasks(world))
    return out


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """Bramblestay's contradiction, counterfactual and preference tasks: the stay still starting the night before the
    airline's change, what a late cancellation of the upcoming stay would cost, the room type usually booked. Items the
    world lacks give no task."""
    from collections import Counter

    from builder.tasks import answers as A

    from .seed import bookings

    p = world.persona
    _pid, cur = p.id, world.currency
    out: list[Task] = []

    task = KIT.adder(world, out)

    it = A.planted(world, "chain/flight-change")
    step = next((s for s in (it or {}).get("steps", []) if s["step"] == "hotel_check_in"), None)
    if it and step:
        arr = dt.datetime.fromisoformat(it["new_arrival"])
        old, new = dt.date.fromisoformat(step["old"]), dt.date.fromisoformat(step["new"])
        hotel = step.get("hotel") or ""
        task(
            "cx-check-in",
            ["stays", "airline", "mail"],
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Does my hotel booking in {it['destination']} still line up with my flight there? Tell me the "
            "day I actually arrive first, then the check-in day the hotel booking has.",
            expected={
                "hotel": hotel,
                "check_in": step["old"],
                "arrival": it["new_arrival"],
                "right": step["new"],
                "truth": "airline",
            },
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="arrival", weight=40, requirement=f"Says I arrive {arr:%B %-d}", check=A.text(*A.date_forms(new))
                ),
                RubricItem(
                    id="check-in",
                    weight=20,
                    requirement=f"Says the booking checks in {old:%B %-d}",
                    check=A.text(*A.date_forms(old)),
                ),
                RubricItem(
                    id="order",
                    weight=40,
                    requirement="Names the arrival day before the booked check-in",
                    check=A.names([A.date_forms(new), A.date_forms(old)], ordered=True),
                ),
            ],
        )

    bs = bookings(world)
    upcoming = [b for b in bs if dt.date.fromisoformat(b["check_in"]) > world.now.date()]
    if upcoming:
        b = upcoming[0]
        price = b["price"]
        # web/lib/stays.ts cancelTerms: JavaScript's Math.round (half up) of the first night and its tax share.
        first = int(price["subtotal_cents"] / b["nights"] + 0.5)
        fee = first + int(price["taxes_cents"] * first / price["subtotal_cents"] + 0.5)
        task(
            "cf-late-cancel",
            ["stays", "mail"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Say I had missed the free-cancellation deadline of my upcoming {b['city']} hotel and then "
            "cancelled it. What would Bramblestay have charged me for cancelling late, and how much would "
            "I have saved against paying the whole stay?",
            expected={
                "confirmation": b["confirmation"],
                "fee_cents": fee,
                "total_cents": price["total_cents"],
                "saved_cents": price["total_cents"] - fee,
            },
            rubric=[
                RubricItem(
                    id="fee",
                    weight=60,
                    requirement=f"States the fee {money(fee, cur)} (first night with tax)",
                    check=A.amount(fee),
                ),
                RubricItem(
                    id="saved",
                    weight=40,
                    requirement=f"States {money(price['total_cents'] - fee, cur)} saved",
                    check=A.amount(price["total_cents"] - fee),
                ),
            ],
        )

    done = [
        b
        for b in bs
        if dt.date.fromisoformat(b["check_out"]) <= world.now.date()
        and b["nights"] > 1
        and b.get("price", {}).get("nights")
    ]
    if done:
        b = done[-1]
        last = b["price"]["nights"][-1]
        task(
            "cf-one-night-less",
            ["stays"],
            kind="lookup",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Had I checked out of my {b['city']} hotel a day earlier, how much less would the room nights "
            "have cost (before taxes), and which night would I have skipped?",
            expected={"confirmation": b["confirmation"], "night": last["night"], "saved_cents": last["cents"]},
            rubric=[
                RubricItem(
                    id="saved",
                    weight=70,
                    requirement=f"States {money(last['cents'], cur)}",
                    check=A.amount(last["cents"]),
                ),
                RubricItem(
                    id="night",
                    weight=30,
                    requirement=f"Names the night of {last['night']}",
                    check=A.text(*A.date_forms(last["night"])),
                ),
            ],
        )

    past = [b for b in bs if dt.date.fromisoformat(b["check_out"]) <= world.now.date()]
    rooms = Counter(b["room"] for b in past)
    top = rooms.most_common(2)
    if top and (len(top) == 1 or top[0][1] > top[1][1]):
        room, n = top[0]
        task(
            "pref-room",
            ["stays"],
            kind="aggregation",
            category="preference_inference",
            difficulty="easy",
            time_limit_seconds=300,
            instruction="What kind of room do I usually book when I stay somewhere through Bramblestay? How many of my "
            "past stays had it?",
            expected={"room": room, "stays": n, "of": len(past)},
            rubric=[
                RubricItem(id="room", weight=70, requirement=f"Says {room}", check=A.text(room)),
                RubricItem(id="count", weight=30, requirement=f"Says {n} stays", check=A.number(n)),
            ],
        )
    return out


# --- Cross-app answer tasks: the upcoming trip at a glance --------------------------------------------------------
