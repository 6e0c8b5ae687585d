"""Meridian Air's own tasks derived from the world, each with its expected values and rubric, and the look-ups the
scenarios homed here share (its legs, the next trip's arrival, the aisle-seat change): its tasks with other apps
are in ``scenarios/``.

Action checks read the end state: rows the airline writes have ``world_ref IS NULL`` (new bookings, payments)
or ``changed_at`` set (a seat moved in the app); seeded rows never do, so an agent that does nothing fails every
action. Every world value travels in a check's ``params``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

from builder.money import money
from builder.tasks import kit
from builder.tasks import steps as S
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World
from builder.world.planted import airline_flights

from .seed import FAMILY_BY_NAME, NETWORK, segment_miles

APP = "airline"
KIT = kit.Kit(APP)
CITY = NETWORK["cities"]


def _diff(*changes: Change) -> Check:
    """Only ``changes`` in the airline's database (its sign-in sessions aside)."""
    return Check(type="state_diff", app=APP, changes=list(changes), ignore=["sessions"])


def _text(*forms: str) -> Check:
    return Check(type="answer_text", any_of=[f for f in forms if f])


def _utc(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s)


def _clock(iso: str) -> list[str]:
    t = dt.datetime.fromisoformat(iso)
    h12 = (t.hour - 1) % 12 + 1
    return [
        f"{h12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}",
        f"{h12}:{t.minute:02d}{'am' if t.hour < 12 else 'pm'}",
        f"{t.hour:02d}:{t.minute:02d}",
        f"{t.hour}:{t.minute:02d}",
    ]


def aisle_letters(aircraft: str) -> list[str]:
    """The aisle seat letters of the economy cabin of ``aircraft`` (network.json layouts: ``ABC|DEF`` -> C, D)."""
    a = next(x for x in NETWORK["aircraft"] if x["name"] == aircraft)
    groups = a["economy_letters"].split("|")
    out = []
    for i, g in enumerate(groups):
        if i > 0:
            out.append(g[0])
        if i < len(groups) - 1:
            out.append(g[-1])
    return sorted(out)


def _trip_of(world: World, city: str) -> int | None:
    for b in world.of_kind("flight_booking"):
        if b.data["destination"] == city:
            return b.data["trip"]
    return None


def in_use(world: World) -> bool:
    """Whether the persona travels and flies: without flights Meridian Air has no tasks, nor do the scenarios homed
    there."""
    return bool(world.of_kind("flight")) and bool(world.persona.travel)


@dataclasses.dataclass(frozen=True)
class Legs:
    """The persona's flights as Meridian Air holds them (a rebooked leg under its new number and day), by departure:
    ``upcoming`` and ``flown`` at the world's now; ``bookings``: the world's ``flight_booking`` events."""

    upcoming: list
    flown: list
    bookings: list


def legs(world: World) -> Legs:
    """The :class:`Legs` of ``world`` (call it only when :func:`in_use`)."""
    p = world.persona
    moved = airline_flights(world)
    flights = sorted(
        (dataclasses.replace(f, data=moved.get(f.id, f.data)) for f in world.of_kind("flight")),
        key=lambda f: (f.data["dep_utc"], f.data["leg"]),
    )
    now = world.now.replace(tzinfo=ZoneInfo(p.timezone)).astimezone(dt.UTC)
    return Legs(
        upcoming=[f for f in flights if _utc(f.data["dep_utc"]) > now],
        flown=[f for f in flights if _utc(f.data["dep_utc"]) <= now],
        bookings=world.of_kind("flight_booking"),
    )


def last_trip(fl: Legs) -> tuple[int, str]:
    """The trip of the last flown leg and its destination city (the booking's): ``(trip, city)``. Needs a flown leg."""
    trip = fl.flown[-1].data["trip"]
    return trip, next(b.data["destination"] for b in fl.bookings if b.data["trip"] == trip)


def arrival(fl: Legs) -> dict | None:
    """The leg that lands at the next trip's destination: the last outbound leg of the booking of the first upcoming
    outbound leg; None when no outbound leg is upcoming (the persona is away and only the flight home is ahead)."""
    nf = next((f.data for f in fl.upcoming if f.data["direction"] == "outbound"), None)
    if nf is None:
        return None
    return [f.data for f in fl.upcoming if f.data["pnr"] == nf["pnr"] and f.data["direction"] == "outbound"][-1]


def landing(iso: str) -> Check:
    """An answer check: the final answer gives the local clock time ``iso`` (12- or 24-hour)."""
    return _text(*_clock(iso))


def seat_news_for(world: World, fl: Legs) -> str | None:
    """Who hears of the persona's new seat on the next flight: the first fellow passenger on it, else the persona's
    closest chat contact; None travelling alone with no one to tell (the seat change is then Meridian Air's own
    task, ``aisle-seat``). Needs an upcoming leg."""
    companions = [n for n in fl.upcoming[0].data["passengers"][1:]]
    closest = S.closest_contact(world)
    if companions or closest:
        return companions[0] if companions else closest.name
    return None


@dataclasses.dataclass(frozen=True)
class AisleSeat:
    """The aisle-seat change on the next flight: its ``aisles`` letters, the ``dest_city`` it flies to, the check that
    the persona's seat moved to an aisle (``seat``) and the item that nothing else changed (``only``), and the
    ``expected`` values every variant of the task carries."""

    aisles: list[str]
    dest_city: str
    seat: Check
    only: RubricItem
    expected: dict


def aisle_seat(fl: Legs) -> AisleSeat:
    """The :class:`AisleSeat` of the next flight. Needs an upcoming leg."""
    nf = fl.upcoming[0].data
    aisles = aisle_letters(nf["aircraft"])
    marks = ",".join("?" for _ in aisles)
    seat_check = kit.sql(
        APP,
        f"""SELECT COUNT(*) FROM seats t JOIN passengers x ON x.id = t.passenger_id
                              WHERE t.world_ref = ? AND x.position = 0 AND t.changed_at IS NOT NULL
                              AND substr(t.seat, -1) IN ({marks})""",
        [f"{fl.upcoming[0].id}:0", *aisles],
        [[1]],
    )
    arrive = arrival(fl) or nf  # away: the next flight is the one home
    return AisleSeat(
        aisles=aisles,
        dest_city=CITY.get(arrive["to"], arrive["to"]),
        seat=seat_check,
        only=RubricItem(
            id="only-seat",
            weight=15,
            requirement="Nothing else changed at Meridian Air: only my seat",
            check=_diff(Change(table="seats", op="update", min=1, max=1, columns=["seat", "changed_at"])),
        ),
        expected={"pnr": nf["pnr"], "flight_number": nf["flight_number"], "aisle_letters": aisles},
    )


def tasks(world: World) -> list[Task]:
    """The airline's own tasks of ``world`` (lookups, aggregations, actions in Meridian Air alone), in a fixed order;
    none for a persona without flights. Its tasks with other apps are scenarios homed here (``scenarios/``)."""
    p = world.persona
    cur = world.currency
    if not in_use(world):
        return []
    fl = legs(world)
    upcoming, flown, bookings = fl.upcoming, fl.flown, fl.bookings
    out: list[Task] = []

    task = KIT.adder(world, out)

    # 1. Next flight: number, local departure time, confirmation code.
    if upcoming:
        nf = upcoming[0].data
        task(
            "next-flight",
            [APP],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=240,
            instruction="When does my next flight leave (local time at the airport), what is the flight number, "
            "and what's the confirmation code?",
            expected={"flight_number": nf["flight_number"], "dep_local": nf["dep_local"], "pnr": nf["pnr"]},
            rubric=[
                RubricItem(
                    id="flight",
                    weight=30,
                    requirement=f"Names flight {nf['flight_number']}",
                    check=_text(nf["flight_number"], nf["flight_number"].replace(" ", "")),
                ),
                RubricItem(
                    id="time",
                    weight=40,
                    requirement=f"Gives the departure {nf['dep_local']}",
                    check=_text(*_clock(nf["dep_local"])),
                ),
                RubricItem(
                    id="pnr", weight=30, requirement=f"Gives the confirmation code {nf['pnr']}", check=_text(nf["pnr"])
                ),
            ],
        )

    # 2. The seat on the flight into the last trip's destination (Lisbon for the default persona). What the whole
    # trip cost follows it: scenarios/recaps/airline.py.
    if flown:
        trip, city = last_trip(fl)
        into = [f.data for f in flown if f.data["trip"] == trip and f.data["direction"] == "outbound"][-1]
        task(
            "last-trip-seat",
            [APP],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=240,
            instruction=f"Which seat did I have on the flight that took me to {city}?",
            expected={"city": city, "flight_number": into["flight_number"], "seat": into["seat"]},
            rubric=[
                RubricItem(
                    id="seat",
                    weight=100,
                    requirement=f"Says seat {into['seat']} on {into['flight_number']}",
                    check=_text(into["seat"]),
                )
            ],
        )

    # 4. Status miles this year (MileagePass rules in network.json). The tickets paid this year, the next arrival
    # and its hotel, and the aisle seat told to a companion follow it: scenarios/pairs/airline.py and
    # scenarios/errands/airline.py.
    year = p.as_of.year
    miles = sum(
        segment_miles(f.data["from"], f.data["to"])
        for f in flown
        if _utc(f.data["dep_utc"]).astimezone(ZoneInfo(p.timezone)).year == year
    )
    task(
        "status-miles",
        [APP],
        kind="lookup",
        difficulty="easy",
        time_limit_seconds=240,
        instruction=f"How many status miles have I flown with {bookings[0].data['airline']} this year?",
        expected={"status_miles": miles},
        rubric=[
            RubricItem(
                id="miles",
                weight=100,
                requirement=f"States {miles:,} status miles",
                check=_text(f"{miles:,}", str(miles), f"{miles:,}".replace(",", ".")),
            )
        ],
    )

    if upcoming:
        nf = upcoming[0].data
        # 7. An aisle seat on the next flight, travelling alone with no one to tell (else it is the errand
        # aisle-seat-tell: scenarios/errands/airline.py).
        if seat_news_for(world, fl) is None:
            seat = aisle_seat(fl)
            task(
                "aisle-seat",
                [APP],
                kind="action",
                difficulty="easy",
                time_limit_seconds=420,
                instruction=f"Change my seat on the flight to {seat.dest_city} ({nf['flight_number']}) to an aisle "
                "seat.",
                expected={**seat.expected, "world_ref": f"{upcoming[0].id}:0"},
                rubric=[
                    RubricItem(id="seat", weight=85, requirement="My seat is now an aisle seat", check=seat.seat),
                    seat.only,
                ],
            )

        # 9. Cancel the next trip: what the fare rules give back. Booking a flight with the saved card follows it,
        # then the schedule change's fallout and the contradictions: scenarios/errands/ and insights/airline.py.
        booking = next(b for b in bookings if b.data["pnr"] == nf["pnr"])
        fam = FAMILY_BY_NAME.get(booking.data["fare_class"], FAMILY_BY_NAME["Economy"])
        back = {
            "none": "no credit and no refund",
            "credit": f"{money(booking.data['price_cents'], cur)} travel credit",
            "refund": f"a refund of {money(booking.data['price_cents'], cur)}",
        }[fam["cancel"]]
        rubric = [
            RubricItem(
                id="cancelled",
                weight=55,
                requirement=f"Trip {nf['pnr']} is cancelled",
                check=kit.sql(
                    APP,
                    "SELECT status FROM bookings WHERE pnr = ? AND cancelled_at IS NOT NULL",
                    [nf["pnr"]],
                    [["cancelled"]],
                ),
            ),
            RubricItem(
                id="outcome",
                weight=30,
                requirement=f"Reports what comes back: {back}",
                check=Check(type="answer_amount", cents=booking.data["price_cents"])
                if fam["cancel"] != "none"
                else _text("no credit", "no refund", "nothing back", "not refundable", "non-refundable"),
            ),
            RubricItem(
                id="only-cancel",
                weight=15,
                requirement="Nothing else changed at Meridian Air: only that trip cancelled (with its credit "
                "or refund)",
                check=_diff(
                    Change(
                        table="bookings",
                        op="update",
                        min=1,
                        max=1,
                        columns=["status", "cancelled_at", "credit_cents", "refund_cents"],
                    ),
                    Change(table="segments", op="update", min=1, columns=["status"]),
                    Change(table="travel_credits", op="insert", min=0, max=1),
                    Change(table="payments", op="insert", min=0, max=1),
                ),
            ),
        ]
        task(
            "cancel-next-trip",
            [APP],
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"I can't make my {booking.data['destination']} trip any more. Cancel it, and tell me what I get back.",
            expected={
                "destination": booking.data["destination"],
                "pnr": nf["pnr"],
                "fare_class": booking.data["fare_class"],
                "back": fam["cancel"],
            },
            rubric=rubric,
        )

    out.extend(insight_tasks(world))
    return out


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def _seat_kind(seat: str, aircraft: str) -> str:
    """``window``, ``aisle`` or ``middle`` for ``seat`` (``17A``) on ``aircraft`` (network.json economy layout)."""
    a = next((x for x in NETWORK["aircraft"] if x["name"] == aircraft), None)
    letters = a["economy_letters"].replace("|", "") if a else "ABCDEF"
    letter = seat[-1]
    if letter in (letters[0], letters[-1]):
        return "window"
    return "aisle" if a and letter in aisle_letters(aircraft) else "middle"


def insight_tasks(world: World) -> list[Task]:
    """Meridian Air's own preference tasks: the seat and departure time the persona picks. Items the world lacks give
    no task. Its contradictions and counterfactuals with other apps are scenarios/insights/airline.py."""
    from collections import Counter

    from builder.tasks import answers as A

    out: list[Task] = []

    task = KIT.adder(world, out)

    flights = [
        e
        for e in world.of_kind("flight")
        if e.status == "done"
        and e.data.get("seat")
        and dt.datetime.fromisoformat(e.data["dep_local"]).replace(tzinfo=None) < world.now
    ]
    kinds = Counter(_seat_kind(e.data["seat"], e.data["aircraft"]) for e in flights)
    top = kinds.most_common(2)
    if top and top[0][0] != "middle" and (len(top) == 1 or top[0][1] > top[1][1]):
        kind, n = top[0]
        task(
            "pref-seat",
            ["airline"],
            kind="aggregation",
            category="preference_inference",
            difficulty="medium",
            time_limit_seconds=420,
            instruction="Looking at the seats I've had on my past Meridian Air flights, do I prefer a window or an "
            "aisle seat? On how many of those flights did I sit that way?",
            expected={"preference": kind, "flights": n, "of": len(flights)},
            rubric=[
                RubricItem(
                    id="kind",
                    weight=70,
                    requirement=f"Says {kind}",
                    check=A.text(kind, {"window": "Fenster", "aisle": "Gang"}[kind]),
                ),
                RubricItem(id="count", weight=30, requirement=f"Says {n} flights", check=A.number(n)),
            ],
        )

    outbound = [e for e in flights if e.data.get("direction") == "outbound"]

    def slot(h: int) -> str:
        return "morning" if h < 12 else "afternoon" if h < 17 else "evening"

    slots = Counter(slot(dt.datetime.fromisoformat(e.data["dep_local"]).hour) for e in outbound)
    top = slots.most_common(2)
    if top and (len(top) == 1 or top[0][1] > top[1][1]):
        s, n = top[0]
        task(
            "pref-departure-time",
            ["airline"],
            kind="aggregation",
            category="preference_inference",
            difficulty="medium",
            time_limit_seconds=420,
            instruction="When I fly out on a trip, what time of day do my outbound flights usually leave: morning "
            "(before noon), afternoon (noon to 5 PM) or evening? How many of my past outbound flights "
            "did?",
            expected={"slot": s, "flights": n, "of": len(outbound)},
            rubric=[
                RubricItem(
                    id="slot",
                    weight=70,
                    requirement=f"Says {s}",
                    check=A.text(s, {"morning": "Vormittag", "afternoon": "Nachmittag", "evening": "Abend"}[s]),
                ),
                RubricItem(id="count", weight=30, requirement=f"Says {n} flights", check=A.number(n)),
            ],
        )
    return out
