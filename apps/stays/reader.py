"""Independent readers of Bramblestay's own answer tasks (:mod:`builder.tasks.reader`), and the reading of its
pages the scenarios homed here share: Trips (``/trips?tab=upcoming|past|cancelled``), a stay's page
(``/trips/<confirmation>``: property, dates, room, price, cancellation) and the hotel's folio the persona downloaded
(``~/Downloads/Folio_<folio>_*.pdf``). Everything as the persona sees it, signed in; never from the world or the
database."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from builder.tasks.dates import day_in
from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader

APP = "stays"
TABS = ("upcoming", "past", "cancelled")


@dataclass
class Stay:
    """One booking as Trips lists it and its page shows it: ``confirmation``, ``city``, ``property``, ``check_in`` and
    ``check_out`` (days), ``nights``, ``room``, ``guests``, ``total`` (cents, in the property's currency, as
    ``total_text`` shows it), ``subtotal`` and ``taxes`` (cents), ``card_total`` (what the card is charged when
    Bramblestay charges it in the card's currency; None otherwise), ``folio`` (number or None), ``cancel`` (the
    cancellation line, empty for a past stay) and ``late_fee`` (what cancelling after the free window costs, when the
    page states it; cents or None), ``tab``."""

    confirmation: str
    city: str
    property: str
    check_in: dt.date
    check_out: dt.date
    nights: int
    room: str
    guests: int
    total: int
    total_text: str
    subtotal: int
    taxes: int
    card_total: int | None
    folio: str | None
    cancel: str
    late_fee: int | None
    tab: str


def _text(node) -> str:
    """The text of ``node`` as read (React's text fragments joined: ``2 guests``, not ``2 guest s``)."""
    return " ".join(node.text_content().split()) if node is not None else ""


def _one(node, xpath: str):
    found = node.xpath(xpath)
    return found[0] if found else None


def _fact(page, label: str) -> str:
    """The value of a fact of the stay's page (``Room``, ``Folio``, …); empty when the page has none."""
    return _text(_one(page, f'//dl[@class="bs-facts"]/div[dt="{label}"]/dd'))


def listed(see: See, tab: str) -> list[dict]:
    """The rows of one Trips tab: each ``{confirmation, city, check_in, check_out}`` (its data attributes)."""
    page = see.page(APP, "/trips", {"tab": tab})
    return [
        {
            "confirmation": a.get("data-confirmation"),
            "city": a.get("data-city"),
            "check_in": dt.date.fromisoformat(a.get("data-check-in")),
            "check_out": dt.date.fromisoformat(a.get("data-check-out")),
        }
        for a in page.xpath('//a[@data-testid="trip"]')
    ]


def stay(see: See, row: dict, tab: str) -> Stay:
    """The page of the booking of a Trips ``row`` (:func:`listed`) as a :class:`Stay`."""
    conf = row["confirmation"]
    page = see.page(APP, f"/trips/{conf}")
    room = _fact(page, "Room")
    m = re.fullmatch(r"(.+?) · (\d+) guests?", room)
    if not m:
        raise Unreadable(f"stay {conf}: no room and guests ({room!r})")
    nights_line = _text(_one(page, '//table[@data-testid="breakdown"]//tr[th][1]/th'))
    n = re.match(r"(\d+) nights?", nights_line)
    if not n:
        raise Unreadable(f"stay {conf}: no nights in its price ({nights_line!r})")
    total_text = _text(_one(page, '//*[@data-testid="breakdown"]//*[@data-testid="total"]'))
    card = _one(page, '//*[@data-testid="breakdown"]//*[@data-testid="card-total"]')
    cancel = _text(_one(page, '//*[@data-testid="cancel-policy"]'))
    late = _one(page, '//*[@data-testid="late-cancel-fee"]')
    return Stay(
        confirmation=conf,
        city=row["city"],
        property=_text(_one(page, '//*[@data-testid="trip-property"]')),
        check_in=row["check_in"],
        check_out=row["check_out"],
        nights=int(n.group(1)),
        room=m.group(1),
        guests=int(m.group(2)),
        total=parse_money(total_text),
        total_text=total_text,
        subtotal=parse_money(_text(_one(page, '//*[@data-testid="breakdown"]//*[@data-testid="subtotal"]'))),
        taxes=parse_money(_text(_one(page, '//*[@data-testid="breakdown"]//*[@data-testid="taxes"]'))),
        card_total=parse_money(_text(card)) if card is not None else None,
        folio=_fact(page, "Folio") or None,
        cancel=cancel,
        late_fee=parse_money(_text(late)) if late is not None else None,
        tab=tab,
    )


def stays(see: See, *tabs: str) -> list[Stay]:
    """Every booking of the given Trips tabs (all three when none), each read from its page, in list order."""
    return [stay(see, row, tab) for tab in (tabs or TABS) for row in listed(see, tab)]


def stay_in(see: See, city: str, *tabs: str, latest: bool = True) -> Stay:
    """The booking in ``city`` (as Trips names the city, or the property's name) of ``tabs`` (all when none); the
    latest by check-in (else the first) when there are several. Raises :class:`Unreadable` when there is none."""
    found = [s for s in stays(see, *tabs) if city.casefold() in (s.city.casefold(), s.property.casefold())]
    if not found:
        raise Unreadable(f"no Bramblestay booking in {city} in {tabs or TABS}")
    found.sort(key=lambda s: s.check_in)
    return found[-1] if latest else found[0]


#: How a folio names a night's room charge (English, German).
ROOM_CHARGE = ("Room charge", "Übernachtung")


def _night(text: str, s: Stay) -> dt.date:
    """The night a folio line's date names (``09/05/2026``, ``13/09/2026``, ``10.07.2026``): read month-first or
    day-first, whichever falls in the stay."""
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
    if not m:
        return day_in(text)
    a, b, y = (int(x) for x in m.groups())
    options = {dt.date(y, a, b) if a <= 12 else None, dt.date(y, b, a) if b <= 12 else None} - {None}
    inside = [d for d in options if s.check_in <= d < s.check_out]
    if len(inside) != 1:
        raise Unreadable(f"folio date {text!r} is no single night of {s.check_in} to {s.check_out}")
    return inside[0]


def folio_nights(see: See, s: Stay) -> list[tuple[dt.date, int]]:
    """The room charges of stay ``s``'s folio in ``~/Downloads`` (``*_<folio>_*.pdf``: ``Folio_…``,
    ``Hotelrechnung_…``), in order: each ``(night, cents)``. Raises :class:`Unreadable` when the stay has no folio or
    its file is missing."""
    if not s.folio:
        raise Unreadable(f"stay {s.confirmation} shows no folio")
    files = see.files(f"Downloads/*_{s.folio}_*.pdf")
    if not files:
        raise Unreadable(f"no folio {s.folio} in ~/Downloads")
    lines = pdf_lines(files[0])
    out = []
    for i, line in enumerate(lines):
        if line in ROOM_CHARGE and i > 0 and i + 1 < len(lines):
            out.append((_night(lines[i - 1], s), parse_money(lines[i + 1])))
    if not out:
        raise Unreadable(f"folio {files[0].name} lists no room charge")
    return out


def pdf_lines(path: Path) -> list[str]:
    """The text lines of a PDF, stripped, empty ones left out."""
    import pypdf

    text = "\n".join(page.extract_text() or "" for page in pypdf.PdfReader(str(path)).pages)
    return [x.strip() for x in text.splitlines() if x.strip()]


def tally(counts: Counter) -> tuple[str, int, int]:
    """``(winner, its count, its lead over the runner-up)`` (lead 0: a tie). Raises :class:`Unreadable` when empty."""
    ranked = counts.most_common()
    if not ranked:
        raise Unreadable("nothing to count")
    top, n = ranked[0]
    return top, n, n - (ranked[1][1] if len(ranked) > 1 else 0)


# --- Bramblestay's own tasks ------------------------------------------------------------------------


@reader(unique=True)
def longest_stay(see: See, given: dict) -> Reading:
    past = stays(see, "past")
    if not past:
        raise Unreadable("no past stay on Bramblestay")
    ranked = sorted(past, key=lambda s: -s.nights)
    top = ranked[0]
    margin = top.nights - (ranked[1].nights if len(ranked) > 1 else 0)
    return Reading(
        values={"hotel": top.property, "nights": f"{top.nights} nights"},
        steps=[
            f"Past tab: {len(past)} stays: " + ", ".join(f"{s.property} {s.nights}" for s in ranked),
            f"the longest: {top.property} ({top.city}), {top.nights} nights, {margin} more than the next",
        ],
        margin=margin,
    )


@reader("city")
def stay_room(see: See, given: dict) -> Reading:
    mine = [s for s in stays(see, "past") if s.city.casefold() == given["city"].casefold()]
    if not mine:
        raise Unreadable(f"no past stay in {given['city']}")
    rooms = {s.room for s in mine}
    if len(rooms) > 1:
        raise Unreadable(f"{len(mine)} past stays in {given['city']} with different rooms: {sorted(rooms)}")
    s = mine[-1]
    return Reading(
        values={"room": s.room, "guests": s.guests},
        steps=[f"Past stay in {s.city}: {s.property} ({s.confirmation}), {s.room} · {s.guests} guest(s)"],
    )


@reader("city")
def cf_one_night_less(see: See, given: dict) -> Reading:
    s = stay_in(see, given["city"], "past")
    nights = folio_nights(see, s)
    night, cents = nights[-1]
    return Reading(
        values={"saved": cents, "night": night.isoformat()},
        steps=[
            f"Past stay {s.confirmation} at {s.property}, {s.check_in} to {s.check_out}, folio {s.folio}",
            f"the folio's room charges: {len(nights)} nights; the last, {night}, {cents / 100:.2f} before tax",
        ],
    )


@reader(unique=True)
def pref_room(see: See, given: dict) -> Reading:
    past = stays(see, "past")
    rooms = Counter(s.room for s in past)
    top, n, margin = tally(rooms)
    return Reading(
        values={"room": top, "count": n},
        steps=[f"Past tab: {len(past)} stays by room: " + ", ".join(f"{k} {v}" for k, v in rooms.most_common())],
        margin=margin,
    )


READERS = {
    "longest-stay": longest_stay,
    "stay-room": stay_room,
    "cf-one-night-less": cf_one_night_less,
    "pref-room": pref_room,
}
