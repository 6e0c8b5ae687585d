"""Bramblestay's two-app answer tasks, each where it sat among Bramblestay's own: what a past hotel cost per night and
this year's hotels (first, with the bank), the bill, card charge and fee of a stay abroad (after the room of a
stay, with the bank), the upcoming stay's confirmation and free-cancellation deadline (with its confirmation
mail)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from apps.stays import reader as bs
from apps.stays.tasks import APP, KIT, cancel_until, stays_of
from builder.money import money, to_unit, unit_cents
from builder.tasks import kit
from builder.tasks.collect import FIRST, Scenario
from builder.tasks.dates import day_in
from builder.tasks.model import Check, RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.tasks.seen import to_step
from builder.world import World
from scenarios import bankbook
from scenarios import travel_desktop as desk
from scenarios.which_trip import began, when_among, when_words


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


def cost_tasks(world: World) -> list[Task]:
    """What a past hotel (Lisbon's, else the last) cost per night as charged, and the hotels of the year of as_of by
    check-out (the bank's postings equal the folios). None before the first stay."""
    cur = world.currency
    past, _ = stays_of(world)
    if not past:
        return []
    out: list[Task] = []
    task = KIT.adder(world, out)

    # 1. Per-night cost of a past stay, taxes included, as charged (bank).
    lis = next((b for b in past if b["city"] == "Lisbon"), past[-1])
    per_night = round(lis["total_cents"] / lis["nights"])
    if unit_cents(cur) > 1:  # as a person writes it in a currency without cents: whole yen, half up
        per_night = to_unit(Decimal(lis["total_cents"]) / lis["nights"], cur)
    # Another past stay in that city is told apart by when this one began.
    try:
        when = _when(lis, [b for b in past if b["city"] == lis["city"]])
    except ValueError as e:  # two stays there begin the same day: nothing on the desktop tells them apart
        out.append(KIT.dropped(world, "stay-cost-per-night", "retrieval", str(e)))
    else:
        task(
            "stay-cost-per-night",
            [APP, "bank"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"What did my hotel in {lis['city']}{when_words(when)} cost per night, taxes included? Check it "
            "against what was actually charged to my card.",
            expected={
                "city": lis["city"],
                "when": when,
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
    year = world.persona.as_of.year
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
    return out


def abroad_tasks(world: World) -> list[Task]:
    """A stay abroad: the folio's bill in the hotel's currency, the card's charge and the bank's fee on it. None
    without a stay abroad that the bank charged a fee on."""
    cur = world.currency
    past, _ = stays_of(world)
    out: list[Task] = []
    task = KIT.adder(world, out)

    # 4b. A stay abroad: the folio's bill in the hotel's currency, the card's charge and the bank's fee on it.
    fees = {e.data["purchase"]: e.data["amount_cents"] for e in world.of_kind("card_fee")}
    abroad = [b for b in past if b.get("currency", cur) != cur and b["checkout"].id in fees]
    if abroad:
        fb = abroad[-1]
        local, charge, fee = fb["price"]["total_cents"], fb["total_cents"], fees[fb["checkout"].id]
        # Another past stay at that hotel is told apart by when this one began.
        try:
            when = _when(fb, [b for b in past if b["hotel"] == fb["hotel"]])
        except ValueError as e:  # two stays there begin the same day: nothing on the desktop tells them apart
            out.append(KIT.dropped(world, "stay-abroad-exchange", "aggregation", str(e)))
        else:
            task(
                "stay-abroad-exchange",
                [APP, "bank", "files"],
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=600,
                instruction=f"For my stay at {fb['hotel']} in {fb['city']}{when_words(when)}: what was the bill in "
                f"{fb['currency']}, what did my card actually get charged for it, and what did the bank add on top as a "
                "foreign transaction fee?",
                expected={
                    "hotel": fb["hotel"],
                    "city": fb["city"],
                    "when": when,
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
    return out


def upcoming_tasks(world: World) -> list[Task]:
    """The upcoming stay's confirmation number and free-cancellation deadline (the confirmation mail says it too).
    None without a stay ahead."""
    _, upcoming = stays_of(world)
    if not upcoming:
        return []
    up = upcoming[0]
    deadline = cancel_until(world, up)
    out: list[Task] = []
    task = KIT.adder(world, out)
    task(
        "upcoming-confirmation",
        [APP, "mail"],
        kind="lookup",
        difficulty="easy",
        time_limit_seconds=240,
        instruction=f"What's the confirmation number of my upcoming hotel in {up['city']}, and until when can I "
        "cancel it for free?",
        expected={"city": up["city"], "confirmation": up["confirmation"], "cancel_until": deadline.isoformat()},
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
    return out


def _when(stay: dict, alike: list[dict]) -> str | None:
    """What tells ``stay`` from the other past stays of ``alike`` (those in its city, or at its hotel; ``stay`` among
    them): :func:`scenarios.which_trip.when_among` of the check-in days."""
    day = dt.date.fromisoformat(stay["check_in"])
    return when_among(day, [dt.date.fromisoformat(b["check_in"]) for b in alike if b is not stay])


# --- independent readers ----------------------------------------------------------------------------


def _only(found: list, what: str):
    if len(found) != 1:
        raise Unreadable(f"{len(found)} {what}")
    return found[0]


@reader("city", "when")
def cost_per_night(see: See, given: dict) -> Reading:
    s = _only(
        [x for x in bs.stays(see, "past") if x.city == given["city"] and began(x.check_in, given["when"])],
        f"past stays in {given['city']}{when_words(given['when'])}",
    )
    line = desk.hotel_charge(see, s)
    per_night = round(-line.cents / s.nights)
    step = bankbook.unit(see)
    if step > 1:  # the bank writes whole units (yen, pesos): the share rounded as a person writes it
        per_night = to_step(Decimal(-line.cents) / s.nights, step)
    return Reading(
        values={"per-night": per_night, "total": -line.cents},
        steps=[
            f"Bramblestay {s.confirmation} at {s.property}: {s.nights} nights, {s.total_text}",
            f"the card's line {line.description!r} on {line.day}: {-line.cents}; per night {per_night}",
        ],
    )


@reader()
def hotels_this_year(see: See, given: dict) -> Reading:
    year = see.now.year
    mine = [s for s in bs.stays(see, "past") if s.check_out.year == year]
    charges = [desk.hotel_charge(see, s) for s in mine]
    total = -sum(x.cents for x in charges)
    return Reading(
        values={"total": total, "count": len(mine)},
        steps=[
            f"Past stays checked out in {year}: " + ", ".join(f"{s.property} ({s.check_out})" for s in mine),
            "their card charges: " + ", ".join(f"{x.description} {-x.cents}" for x in charges),
        ],
    )


@reader("hotel", "city", "currency", "when")
def abroad_exchange(see: See, given: dict) -> Reading:
    s = _only(
        [x for x in bs.stays(see, "past") if x.property == given["hotel"] and began(x.check_in, given["when"])],
        f"past stays at {given['hotel']}{when_words(given['when'])}",
    )
    line = desk.hotel_charge(see, s)
    fees = [
        x
        for x in desk.lines(see, "", line.day, line.day + dt.timedelta(days=1))
        if x.category == "Fees" and x.memo.casefold().startswith(s.property.casefold())
    ]
    fee = _only(fees, f"fee lines for {s.property}")
    return Reading(
        values={"local": s.total, "charge": -line.cents, "fee": -fee.cents},
        steps=[
            f"Bramblestay {s.confirmation}: total {s.total_text}",
            f"the card: {line.description!r} {-line.cents} ({line.memo}); {fee.description!r} {-fee.cents} ({fee.memo})",
        ],
    )


@reader("city")
def upcoming_confirmation(see: See, given: dict) -> Reading:
    s = bs.stay_in(see, given["city"], "upcoming", latest=False)
    if "until" not in s.cancel:
        raise Unreadable(f"stay {s.confirmation}: no free-cancellation deadline ({s.cancel!r})")
    until = day_in(s.cancel.split("until", 1)[1])
    return Reading(
        values={"confirmation": s.confirmation, "deadline": until.isoformat()},
        steps=[f"Upcoming stay in {s.city}: {s.property}, confirmation {s.confirmation}; {s.cancel!r}"],
    )


SCENARIOS = [
    Scenario(
        home="stays",
        apps=("stays", "bank"),
        tasks=cost_tasks,
        after=FIRST,
        readers={"stay-cost-per-night": cost_per_night, "hotels-this-year": hotels_this_year},
    ),
    Scenario(
        home="stays",
        apps=("stays", "bank"),
        tasks=abroad_tasks,
        after="stay-room",
        readers={"stay-abroad-exchange": abroad_exchange},
    ),
    Scenario(
        home="stays",
        apps=("stays", "mail"),
        tasks=upcoming_tasks,
        after=("review-stay", "stay-abroad-exchange", "stay-room", FIRST),
        readers={"upcoming-confirmation": upcoming_confirmation},
    ),
]
