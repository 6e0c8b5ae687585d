"""Bramblestay's own tasks derived from the world, each with its expected values and rubric, and the look-ups the
scenarios homed here share (its past and upcoming stays, the free-cancellation deadline, leaving a night early):
its tasks with other apps are in ``scenarios/``.

Action checks read the end state of ``stays.sqlite``. Rows the app writes have ``world_ref IS NULL`` (a booking, a
review, a message) or a ``cancelled_at`` the seed never sets, so an agent that does nothing fails every action
check. Check queries are fixed SQL with ``?`` placeholders; every world value travels in ``params``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from builder.money import money
from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World

from builder.reference.lodging.rates import quote

from .inventory import inventory
from .seed import REVIEW_AFTER_DAYS, bookings

APP = "stays"
KIT = kit.Kit(APP, nothing_else="Nothing else changed at Bramblestay: only {}")
#: The columns new dates change on a booking (web/lib/stays.ts ``changeDates``).
DATES = [
    "check_in",
    "check_out",
    "nights",
    "nightly_cents",
    "subtotal_cents",
    "taxes_cents",
    "fees_cents",
    "total_cents",
    "cancel_until",
]


def stays_of(world: World) -> tuple[list[dict], list[dict]]:
    """The persona's Bramblestay bookings (:func:`apps.stays.seed.bookings`) as ``(past, upcoming)``: those checked
    out, and those checking in after the world's today."""
    today = world.now.date()
    stays = bookings(world)
    return (
        [b for b in stays if b["checkout"] is not None],
        [b for b in stays if dt.date.fromisoformat(b["check_in"]) > today],
    )


def cancel_until(world: World, booking: dict) -> dt.datetime:
    """When free cancellation of ``booking`` ends (its confirmation mail says it too), in the persona's zone."""
    from .seed import cancel_deadline

    city_zone = next(c["zone"] for c in inventory(world) if c["name"] == booking["city"])
    return dt.datetime.fromisoformat(cancel_deadline(booking["check_in"], city_zone, world.persona.timezone))


@dataclass(frozen=True)
class EarlyCheckout:
    """Leaving the next stay (``up``) a night early, checking out on ``early`` instead: the calendar's entry of the
    stay (``uid``; None when the calendar has none, and the task is then Bramblestay's alone)."""

    up: dict
    early: str
    uid: str | None

    def fields(self) -> dict:
        """The task's fields besides its id, apps and rubric (the same with the calendar or without)."""
        up = self.up
        return dict(
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"I need to leave {up['city']} a day earlier. Change my hotel booking there to check out "
            "one day sooner (same check-in) and make sure my calendar shows the new dates.",
            expected={
                "confirmation": up["confirmation"],
                "check_in": up["check_in"],
                "check_out": self.early,
                "uid": self.uid,
            },
        )

    def changed(self, weight: int) -> RubricItem:
        """The item (``weight`` points) that the booking now runs from its check-in to :attr:`early` (a
        booking_changes row, the app's own)."""
        up = self.up
        return RubricItem(
            id="changed",
            weight=weight,
            requirement=f"The {up['city']} booking now runs {up['check_in']} to {self.early}",
            check=KIT.sql(
                "SELECT b.check_in, b.check_out, b.status FROM bookings b JOIN booking_changes c "
                "ON c.booking_id = b.id WHERE b.confirmation = ? AND c.new_check_out = ? "
                "GROUP BY b.id",
                [up["confirmation"], self.early],
                [[up["check_in"], self.early, "confirmed"]],
            ),
        )

    def only(self) -> RubricItem:
        """The item that nothing else changed at Bramblestay."""
        return KIT.only(
            "the changed booking, its change record and the night given up",
            Change(table="bookings", op="update", min=1, max=1, columns=DATES),
            Change(table="booking_changes", op="insert", min=1, max=1),
            Change(table="booking_nights", op="delete", min=1, max=1),
        )


def early_checkout(world: World) -> EarlyCheckout | None:
    """The :class:`EarlyCheckout` of the next stay while free changes still apply and it has 2 nights or more;
    None otherwise."""
    from .seed import stay_calendar_uids

    _, upcoming = stays_of(world)
    if not upcoming:
        return None
    up = upcoming[0]
    if world.now > cancel_until(world, up) or up["nights"] < 2:
        return None
    early = (dt.date.fromisoformat(up["check_out"]) - dt.timedelta(days=1)).isoformat()
    return EarlyCheckout(up=up, early=early, uid=stay_calendar_uids(world).get(up["confirmation"]))


def tasks(world: World) -> list[Task]:
    """Return Bramblestay's own tasks of ``world`` (lookups and actions in Bramblestay alone), in a fixed order. Its
    tasks with other apps are scenarios homed here (``scenarios/``)."""
    out: list[Task] = []
    past, upcoming = stays_of(world)

    task = KIT.adder(world, out)

    # 1, 2. The cost per night and this year's hotels come first, with the bank: scenarios/pairs/stays.py.
    if past:
        # 3. Longest past stay (none on a tie: two stays of the most nights).
        ranked = sorted(past, key=lambda b: (b["nights"], b["check_in"]), reverse=True)
        longest = ranked[0]
        if len(ranked) > 1 and ranked[1]["nights"] == longest["nights"]:
            out.append(
                KIT.dropped(
                    world,
                    "longest-stay",
                    "retrieval",
                    f"a tie: {longest['hotel']} and {ranked[1]['hotel']}, {longest['nights']} nights each",
                )
            )
        else:
            # The hotel's name is asked: the city alone (part of many a hotel's name) is not accepted.
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
                        check=Check(type="answer_text", any_of=[longest["hotel"]]),
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
            expected={"city": b["city"], "room": b["room"], "guests": b["guests"]},
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

        # 4b. A stay abroad (the bill, the card's charge and the bank's fee) follows: scenarios/pairs/stays.py.

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

    # 6. The upcoming stay's confirmation number and free-cancellation deadline (with the confirmation mail) come
    # here: scenarios/pairs/stays.py.
    # 7. Action: cancel it while free cancellation still applies (only offered when it does at the world's now,
    # so doing nothing never passes).
    up = upcoming[0] if upcoming else None
    if up and world.now <= cancel_until(world, up):
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
                    Change(
                        table="bookings",
                        op="update",
                        min=1,
                        max=1,
                        columns=["status", "cancelled_at", "refund_cents", "cancel_fee_cents"],
                    ),
                    Change(table="booking_nights", op="delete", min=1),
                ),
            ],
        )

    # 7b. Leave a night earlier while free changes still apply; with the calendar's entry of the stay updated (when
    # it has one) it is an errand: scenarios/errands/stays.py, as is booking a rental (8.) after it.
    ec = early_checkout(world)
    if ec and not ec.uid:
        task("leave-a-night-early", [APP], **ec.fields(), rubric=[ec.changed(85), ec.only()])
    out.extend(insight_tasks(world))
    return out


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


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """Bramblestay's own counterfactual and preference tasks: one night less of a past stay, the room type usually
    booked. Items the world lacks give no task. Its contradictions and counterfactuals with other apps are
    scenarios/insights/stays.py."""
    from collections import Counter

    from builder.tasks import answers as A

    from .seed import bookings

    cur = world.currency
    out: list[Task] = []

    task = KIT.adder(world, out)

    bs = bookings(world)
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
            expected={
                "city": b["city"],
                "confirmation": b["confirmation"],
                "night": last["night"],
                "saved_cents": last["cents"],
            },
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
