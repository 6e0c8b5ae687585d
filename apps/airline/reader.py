"""Independent readers of Meridian Air's own answer tasks (:mod:`builder.tasks.reader`), and the reading of its
pages the scenarios homed here share: My Trips (``/?tab=upcoming|past|cancelled``), a trip's page
(``/trips/<pnr>``: its flights, seats, fare rules and price), its cancel step (``/trips/<pnr>/cancel``: what
cancelling gives back) and MileagePass (``/loyalty``). Everything is read as the persona sees it, signed in; never
from the world or the database."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, field

from builder.tasks.dates import clock_as_written, clock_in, day_in
from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader, visible_text

APP = "airline"
TABS = ("upcoming", "past", "cancelled")

#: Economy seat layouts of Meridian Air's fleet as its seat maps draw them (``/trips/<pnr>/seats``): the letters
#: left to right, ``|`` an aisle. What a traveller knows of the aircraft named on the trip page.
LAYOUTS = {"Boeing 737-800": "ABC|DEF", "Airbus A321neo": "ABC|DEF", "Boeing 787-9": "ABC|DEF|HJK"}


@dataclass
class Segment:
    """One flight of a trip as its line shows it: ``flight`` (``MR 2618``), ``aircraft``, the airports' codes and
    cities, local departure and arrival (``dep_day``/``dep_time`` and the clock as shown, ``dep_clock``:
    ``3:55 PM``), ``seats`` (traveller -> seat) and ``direction`` (``outbound`` or ``return``)."""

    flight: str
    aircraft: str
    origin: str
    origin_city: str
    dest: str
    dest_city: str
    dep_day: dt.date
    dep_time: dt.time
    dep_clock: str
    arr_day: dt.date
    arr_time: dt.time
    arr_clock: str
    direction: str
    seats: dict[str, str] = field(default_factory=dict)

    @property
    def dep(self) -> dt.datetime:
        """Local departure (naive, the airport's wall clock)."""
        return dt.datetime.combine(self.dep_day, self.dep_time)

    @property
    def arr(self) -> dt.datetime:
        """Local arrival (naive, the airport's wall clock)."""
        return dt.datetime.combine(self.arr_day, self.arr_time)


@dataclass
class Trip:
    """A trip's page: ``pnr``, ``status`` (``Upcoming``, ``Past``, ``Cancelled``), ``destination`` (its heading
    ``Trip to …``), ``booked`` (day), ``travellers``, ``segments`` in page order, ``fare`` (the fare family line),
    ``rules`` (the fare's rule lines), ``per_traveller`` and ``total`` (cents), ``changes`` (schedule-change
    notices)."""

    pnr: str
    status: str
    destination: str
    booked: dt.date
    travellers: list[str]
    segments: list[Segment]
    fare: str
    rules: list[str]
    per_traveller: int
    total: int
    changes: list[str]

    @property
    def outbound(self) -> list[Segment]:
        return [s for s in self.segments if s.direction == "outbound"]

    @property
    def inbound(self) -> list[Segment]:
        return [s for s in self.segments if s.direction == "return"]

    @property
    def arrival(self) -> Segment:
        """The flight landing at the trip's destination: the last outbound one."""
        return self.outbound[-1]

    def names(self) -> set[str]:
        """What the trip's destination is called on its page: the heading's name and the landing airport's city."""
        return {self.destination.casefold(), self.arrival.dest_city.casefold()}


def _text(node) -> str:
    return visible_text(node) if node is not None else ""


def _one(node, xpath: str):
    found = node.xpath(xpath)
    return found[0] if found else None


def listed(see: See, tab: str) -> list[dict]:
    """The trips of one My Trips tab, as listed: each ``{pnr, city}`` (the city the list names)."""
    page = see.page(APP, "/", {} if tab == "upcoming" else {"tab": tab})
    out = []
    for li in page.xpath('//li[@data-testid="trip"]'):
        city = _one(li, './/*[@class="ma-trip-city"]')
        out.append({"pnr": li.get("data-pnr"), "city": _text(city)})
    return out


def _segment(div, direction: str, booked: dt.date) -> Segment:
    ends = div.xpath('./div[@class="ma-flight-end"]')
    if len(ends) != 2:
        raise Unreadable(f"flight {div.get('data-flight')}: no departure and arrival on its line")

    def end(node) -> tuple[str, str, dt.date, dt.time, str]:
        code = _text(_one(node, './/*[@class="ma-code"]'))
        city = _text(_one(node, './/*[@class="ma-city"]'))
        clock = _text(_one(node, './/*[@class="ma-time"]'))
        day = _text(_one(node, './/*[@class="ma-muted"]'))
        return code, city, day_in(day, booked), clock_in(clock), clock_as_written(clock)

    o, oc, dday, dtime, dclock = end(ends[0])
    d, dc, aday, atime, aclock = end(ends[1])
    seats = {}
    for li in div.xpath('.//ul[@class="ma-seats"]/li'):
        who = _text(li).split(": seat")[0].strip().rstrip(":").strip()
        seat = _one(li, './/*[@data-testid="seat"]')
        seats[who] = _text(seat)
    return Segment(
        flight=div.get("data-flight"),
        aircraft=_text(_one(div, './/*[@class="ma-flight-no"]/*[@class="ma-muted"]')),
        origin=o,
        origin_city=oc,
        dest=d,
        dest_city=dc,
        dep_day=dday,
        dep_time=dtime,
        dep_clock=dclock,
        arr_day=aday,
        arr_time=atime,
        arr_clock=aclock,
        direction=direction,
        seats=seats,
    )


def trip(see: See, pnr: str) -> Trip:
    """The page of trip ``pnr`` (:class:`Trip`). Raises :class:`Unreadable` when the page lacks a part."""
    page = see.page(APP, f"/trips/{pnr}")
    head = _text(_one(page, "//h1"))
    if not head.startswith("Trip to "):
        raise Unreadable(f"trip {pnr}: no 'Trip to' heading ({head!r})")
    booked_line = _text(_one(page, '//div[@class="ma-trip-head"]//p'))
    booked = day_in(booked_line, see.now.date())
    segments = []
    for direction in ("outbound", "return"):
        for div in page.xpath(f'//section[@data-testid="journey-{direction}"]//div[@data-testid="segment"]'):
            segments.append(_segment(div, direction, booked))
    if not segments:
        raise Unreadable(f"trip {pnr}: no flights on its page")
    price = _one(page, '//*[@data-testid="price"]')
    return Trip(
        pnr=_text(_one(page, '//*[@class="ma-pnr-box"]/*[@data-testid="pnr"]')),
        status=_text(_one(page, '//*[@data-testid="status"]')),
        destination=head.removeprefix("Trip to ").strip(),
        booked=booked,
        travellers=[_text(_one(tr, "./td")) for tr in page.xpath('//tr[@data-testid="passenger"]')],
        segments=segments,
        fare=_text(_one(page, '//*[@data-testid="fare-family"]')),
        rules=[_text(li) for li in page.xpath('//section[h2="Fare and bags"]//ul//li')],
        per_traveller=parse_money(_text(_one(price, './/*[@data-testid="fare-per-passenger"]'))),
        total=parse_money(_text(_one(price, './/*[@data-testid="total"]'))),
        changes=[_text(p) for p in page.xpath('//*[@data-testid="schedule-change"]')],
    )


def trips(see: See, *tabs: str) -> list[Trip]:
    """Every trip of the given My Trips tabs (all three when none), each read from its page, in list order."""
    return [trip(see, t["pnr"]) for tab in (tabs or TABS) for t in listed(see, tab)]


def me(see: See) -> str:
    """The persona's name as Meridian Air greets them (the MileagePass card)."""
    name = _text(_one(see.page(APP, "/loyalty"), "//h1"))
    if not name:
        raise Unreadable("MileagePass names no member")
    return name


def my_seat(seg: Segment, name: str) -> str:
    """The persona's seat on ``seg``. Raises :class:`Unreadable` when the flight lists none for them."""
    if name not in seg.seats:
        raise Unreadable(f"{seg.flight} lists no seat for {name} ({seg.seats})")
    return seg.seats[name]


def trip_to(see: See, place: str, *tabs: str, latest: bool = True) -> Trip:
    """The trip whose destination is ``place`` (its heading's name or the landing airport's city), of ``tabs`` (all
    when none); the latest by departure (else the first) when there are several. Raises :class:`Unreadable` when
    there is none."""
    found = [t for t in trips(see, *tabs) if place.casefold() in t.names()]
    if not found:
        raise Unreadable(f"no Meridian Air trip to {place} in {tabs or TABS}")
    found.sort(key=lambda t: t.segments[0].dep)
    return found[-1] if latest else found[0]


def next_trip(see: See) -> Trip:
    """The upcoming trip that departs first (by its first flight). Raises :class:`Unreadable` without one."""
    up = trips(see, "upcoming")
    if not up:
        raise Unreadable("no upcoming trip on Meridian Air")
    return min(up, key=lambda t: t.segments[0].dep)


def seat_kind(seat: str, aircraft: str) -> str:
    """``window``, ``aisle`` or ``middle`` of ``seat`` (``17A``) on ``aircraft`` (:data:`LAYOUTS`). Raises
    :class:`Unreadable` for an aircraft whose layout is unknown."""
    layout = LAYOUTS.get(aircraft)
    if layout is None:
        raise Unreadable(f"no seat map known for the {aircraft}")
    letter = seat[-1]
    blocks = layout.split("|")
    if letter in (blocks[0][0], blocks[-1][-1]):
        return "window"
    aisles = {b[-1] for b in blocks[:-1]} | {b[0] for b in blocks[1:]}
    return "aisle" if letter in aisles else "middle"


def margin_of(counts: Counter) -> tuple[str, int, int]:
    """``(winner, its count, its lead over the runner-up)`` of a tally (lead 0: a tie). Raises
    :class:`Unreadable` on an empty tally."""
    ranked = counts.most_common()
    if not ranked:
        raise Unreadable("nothing to count")
    top, n = ranked[0]
    return top, n, n - (ranked[1][1] if len(ranked) > 1 else 0)


# --- the airline's own tasks ------------------------------------------------------------------------


@reader()
def next_flight(see: See, given: dict) -> Reading:
    up = trips(see, "upcoming")
    ahead = [(s, t) for t in up for s in t.segments if s.dep > see.now]
    if not ahead:
        raise Unreadable("no flight ahead on Meridian Air")
    seg, t = min(ahead, key=lambda x: x[0].dep)
    return Reading(
        values={"flight": seg.flight, "time": seg.dep_clock, "pnr": t.pnr},
        steps=[
            f"Upcoming tab: {len(up)} trip(s); the first flight ahead is {seg.flight} {seg.origin}→{seg.dest} "
            f"on {seg.dep_day} at {seg.dep_clock} (local), trip {t.pnr}"
        ],
    )


@reader("city")
def last_trip_seat(see: See, given: dict) -> Reading:
    t = trip_to(see, given["city"], "past")
    seg = t.arrival
    seat = my_seat(seg, me(see))
    return Reading(
        values={"seat": seat},
        steps=[f"Past trip {t.pnr} to {t.destination}: {seg.flight} landed in {seg.dest_city}; my seat {seat}"],
    )


@reader()
def status_miles(see: See, given: dict) -> Reading:
    page = see.page(APP, "/loyalty")
    miles = _text(_one(page, '//*[@data-testid="status-miles"]'))
    head = _text(_one(page, '//section[h2[starts-with(., "Status progress")]]/h2'))
    if str(see.now.year) not in head:
        raise Unreadable(f"MileagePass shows {head!r}, not {see.now.year}")
    return Reading(values={"miles": miles}, steps=[f"MileagePass, {head}: {miles} status miles flown this year"])


def outcome_of(see: See, t: Trip) -> tuple[str, int | None]:
    """What cancelling trip ``t`` gives back, as its cancel step states it: ``(the sentence, cents or None)``
    (None: nothing back)."""
    text = _text(_one(see.page(APP, f"/trips/{t.pnr}/cancel"), '//*[@data-testid="cancel-outcome"]'))
    if not text:
        raise Unreadable(f"trip {t.pnr}: its cancel step states no outcome")
    if re.search(r"keep no value|won't get a refund or credit", text):
        return text, None
    return text, parse_money(text)


@reader("destination")
def cancel_next_trip(see: See, given: dict) -> Reading:
    t = trip_to(see, given["destination"], "upcoming", latest=False)
    text, cents = outcome_of(see, t)
    return Reading(
        values={"outcome": "no refund or credit" if cents is None else cents},
        steps=[f"Trip {t.pnr} to {t.destination}, fare {t.fare}; its cancel step: {text!r}"],
    )


@reader(unique=True)
def pref_seat(see: See, given: dict) -> Reading:
    name = me(see)
    past = trips(see, "past")
    kinds = Counter(seat_kind(my_seat(s, name), s.aircraft) for t in past for s in t.segments)
    top, n, margin = margin_of(kinds)
    return Reading(
        values={"kind": top, "count": n},
        steps=[
            f"Past tab: {len(past)} trips, {sum(kinds.values())} flights; my seats by kind: "
            + ", ".join(f"{k} {v}" for k, v in kinds.most_common())
        ],
        margin=margin,
    )


def slot(t: dt.time) -> str:
    """``morning`` (before noon), ``afternoon`` (noon to 5 PM) or ``evening``."""
    return "morning" if t.hour < 12 else "afternoon" if t.hour < 17 else "evening"


@reader(unique=True)
def pref_departure_time(see: See, given: dict) -> Reading:
    past = trips(see, "past")
    legs = [s for t in past for s in t.outbound]
    slots = Counter(slot(s.dep_time) for s in legs)
    top, n, margin = margin_of(slots)
    return Reading(
        values={"slot": top, "count": n},
        steps=[
            f"Past tab: {len(past)} trips, {len(legs)} departing flights: "
            + ", ".join(f"{s.flight} {s.dep_clock}" for s in legs),
            "by time of day: " + ", ".join(f"{k} {v}" for k, v in slots.most_common()),
        ],
        margin=margin,
    )


READERS = {
    "next-flight": next_flight,
    "last-trip-seat": last_trip_seat,
    "status-miles": status_miles,
    "cancel-next-trip": cancel_next_trip,
    "pref-seat": pref_seat,
    "pref-departure-time": pref_departure_time,
}
