"""Travel documents in the persona's home: boarding passes, trip itineraries and hotel folios (PDF).

Everything comes from the world's events (``flight_booking``, ``flight``, ``hotel_booking``,
``hotel_checkout``, ``ride``) and :func:`builder.world.accounts.payment_cards`; every draw is from
a named stream of ``builder.rng.rng``; every PDF is reproducible (reportlab invariant mode and the
document's own date as ``SOURCE_DATE_EPOCH``), so two builds write the same bytes.

* :func:`boarding_passes` -> ``~/Downloads/BoardingPass_<PNR>_<MR2448>_<ORD>-<LIS>.pdf`` (German:
  ``Bordkarte_...``): the persona's own pass for every leg whose journey's check-in window is open at
  the world's now (:func:`checkin_open`) and for the departed legs of the persona's last trip
  (:func:`boarding_pass_flights`). Each carries a QR code holding the leg's IATA BCBP string
  (:func:`bcbp_string`, built by :func:`builder.files.bcbp.encode`).
* :func:`itineraries` -> ``~/Documents/Travel/Itinerary_<City>_<YYYY-MM-DD>_<PNR>.pdf`` (German:
  ``Reiseplan_...``), one per trip whose return flight has not landed at now.
* :func:`folios` -> ``~/Downloads/Folio_<F847388>_<Hotel>.pdf`` (German: ``Hotelrechnung_...``), one
  per ``hotel_checkout`` done by now, in the hotel's own currency (the stay's Bramblestay price,
  ``data["price"]``): a room, tax and city-fee line per night (a rental's receipt adds its cleaning and
  service fees), the payment, and abroad the exchange rate and the card's charge in its own currency
  (``data["total_cents"]``).

Labels, dates, times and money follow the persona's locale (:class:`builder.reference.locale.Fmt`:
en_US, en_GB, de_DE; other locales read like en_GB). Times on travel documents are local to the
airport or hotel, with the zone's abbreviation.
"""

from __future__ import annotations

import datetime as dt
import os
from functools import cache
from pathlib import Path
from zoneinfo import ZoneInfo

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import Paragraph

from builder import yamlfile
from builder.files import bcbp
from builder.files.pdftext import FONT, FONT_BOLD, meta_text, para_text, register
from builder.names import safe_filename
from builder.rng import rng
from builder.world import World, payment_cards
from builder.world.events import Flight, FlightBooking
from builder.reference.locale import Fmt, money_in  # noqa: F401 (money_in: the folio's local money)
from builder.reference.places import CITIES
from builder.reference.services import service
from builder.reference.airports import airport_country, airport_facts, airport_zone

UTC = dt.UTC
#: The stays app's brand, which a rental's receipt is issued by.
STAYS = service("lodging").title
WIDEBODY = ("787", "777", "767", "747", "A330", "A340", "A350", "A380", "330", "350", "380")
BOARDING_MINUTES = {False: 40, True: 50}  # before departure: narrow-body, wide-body
GATE_CLOSES_MINUTES = 15

AIRLINE_NAVY = colors.HexColor("#0b2545")
AIRLINE_ACCENT = colors.HexColor("#e4572e")
AIRLINE_SKY = colors.HexColor("#eef3f9")
HOTEL_GREEN = colors.HexColor("#23433a")
HOTEL_SAND = colors.HexColor("#f4efe6")
INK = colors.HexColor("#1d232b")
MUTED = colors.HexColor("#5d6875")
RULE = colors.HexColor("#c9d2dc")

WORDS_FILE = Path(__file__).with_name("travel_docs.yaml")


def room_label(world: World, room: str) -> str:
    """A room type (``King Room``) as the persona's locale names it (German: ``Kingsize-Zimmer``)."""
    return _words(world).get("rooms", {}).get(room, room)


@cache
def _all_words() -> dict[str, dict]:
    return yamlfile.safe_load(WORDS_FILE.read_text(encoding="utf-8"))


def _words(world: World) -> dict:
    """The travel documents' words in the persona's locale (``travel_docs.yaml``; other locales read like en_GB)."""
    table = _all_words()
    return table.get(world.persona.bank, table["en_GB"])


# ---------------------------------------------------------------------------------------------- world lookups


def _utc(iso_z: str) -> dt.datetime:
    return dt.datetime.fromisoformat(iso_z)  # "2026-12-10T23:15:00Z": aware UTC


def now_utc(world: World) -> dt.datetime:
    """The world's now (naive, persona zone) as an aware UTC instant."""
    return world.now.replace(tzinfo=ZoneInfo(world.persona.timezone or "UTC")).astimezone(UTC)


def _flights(world: World) -> list[dict]:
    return [e.data for e in world.events if e.kind == "flight"]


def _booking(world: World, pnr: str) -> dict:
    for e in world.events:
        if e.kind == "flight_booking" and e.data["pnr"] == pnr:
            return e.data
    raise KeyError(f"no flight_booking with PNR {pnr}")


def _journey(world: World, flight: dict) -> list[dict]:
    """The legs of the flight's one-way journey (same PNR and direction), in order."""
    return sorted(
        (f for f in _flights(world) if f["pnr"] == flight["pnr"] and f["direction"] == flight["direction"]),
        key=lambda f: f["leg"],
    )


def is_widebody(aircraft: str) -> bool:
    """Whether an aircraft type (``Boeing 787-9``) is a twin-aisle (wide-body) type."""
    return any(token in (aircraft or "") for token in WIDEBODY)


def checkin_open(world: World, flight: dict) -> bool:
    """Whether online check-in is open for a ``flight`` event's data at the world's now: from 24 h before the
    first departure of its journey (a connection is checked in with the first leg) until the leg departs."""
    first = _journey(world, flight)[0]
    now = now_utc(world)
    return _utc(first["dep_utc"]) - dt.timedelta(hours=24) <= now < _utc(flight["dep_utc"])


def boarding_pass_flights(world: World) -> list[dict]:
    """The ``flight`` events' data the persona holds a boarding pass for, in departure order: every leg whose
    check-in is open at now (:func:`checkin_open`), and the departed legs of the last trip with a departed leg."""
    now = now_utc(world)
    flights = _flights(world)
    departed = [f for f in flights if _utc(f["dep_utc"]) <= now]
    last_trip = max(departed, key=lambda f: f["dep_utc"])["trip"] if departed else None
    chosen = [f for f in flights if checkin_open(world, f) or (f["trip"] == last_trip and f in departed)]
    return sorted(chosen, key=lambda f: (f["dep_utc"], f["leg"]))


def _stream(flight: dict) -> str:
    return f"travel_docs/checkin/{flight['pnr']}/{flight['flight_number']}/{flight['from']}/{flight['dep_utc']}"


def checkin_sequence(world: World, flight: dict, passenger: str | None = None) -> int:
    """The check-in sequence number (1-999) of ``passenger`` (default: the persona) on a ``flight`` event's data.

    The party checks in together: the first passenger of ``flight["passengers"]`` gets a number drawn from
    the stream ``travel_docs/checkin/<PNR>/<flight number>/<from>/<dep_utc>`` (12-180 on a narrow-body,
    12-280 on a wide-body), each next passenger the following number. Raises ``ValueError`` if
    ``passenger`` is not on the flight.
    """
    passenger = passenger or world.persona.identity.name
    passengers = list(flight.get("passengers") or [world.persona.identity.name])
    if passenger not in passengers:
        raise ValueError(f"{passenger!r} is not a passenger of {flight['flight_number']} on {flight['dep_local']}")
    r = rng(world.seed, _stream(flight))
    base = r.randint(12, 280 if is_widebody(flight.get("aircraft", "")) else 180)
    return base + passengers.index(passenger)


def checkin_time(world: World, flight: dict) -> dt.datetime:
    """When the party checked in online for a ``flight`` event's data (aware UTC): 5-600 minutes after the
    journey's check-in window opened (stream ``<checkin stream>/time``), at least 90 minutes before the leg
    leaves; never after the world's now while the leg is still to depart (then: now)."""
    first = _journey(world, flight)[0]
    opens = _utc(first["dep_utc"]) - dt.timedelta(hours=24)
    r = rng(
        world.seed,
        f"travel_docs/checkin/{first['pnr']}/{first['flight_number']}/{first['from']}/{first['dep_utc']}/time",
    )
    at = min(opens + dt.timedelta(minutes=r.randint(5, 600)), _utc(flight["dep_utc"]) - dt.timedelta(minutes=90))
    now = now_utc(world)
    return min(at, now) if now < _utc(flight["dep_utc"]) else at


def boarding_time(flight: dict) -> dt.datetime:
    """Boarding start (aware, the departure airport's offset): 40 min before departure on a narrow-body,
    50 min on a wide-body (:data:`BOARDING_MINUTES`)."""
    dep = dt.datetime.fromisoformat(flight["dep_local"])
    return dep - dt.timedelta(minutes=BOARDING_MINUTES[is_widebody(flight.get("aircraft", ""))])


def _carrier_number(flight_number: str) -> tuple[str, str]:
    carrier, _, number = flight_number.strip().partition(" ")
    if not number:  # "MR2548"
        carrier, number = flight_number[:2], flight_number[2:]
    return carrier, number


def passenger_name(world: World, passenger: str) -> str:
    """``passenger`` as a boarding pass prints it, ``SURNAME/GIVEN`` in ASCII (:func:`builder.files.bcbp.bcbp_name`).

    A name with no Latin letters (a spec may give only ``王小明``) has no form an airline prints: the
    persona's then comes from the local part of their e-mail address (``WANGXM`` from
    ``wang.xm@...``, ASCII by the spec's rules), anyone else's is ``TRAVELLER``."""
    try:
        return bcbp.bcbp_name(passenger)
    except ValueError:
        ident = world.persona.identity
        if passenger == ident.name and ident.email:
            local = bcbp.fold(str(ident.email).split("@")[0].replace(".", " ").replace("_", " ")).replace(" ", "")
            if local:
                return local
        return "TRAVELLER"


def bcbp_string(world: World, flight: dict, passenger: str | None = None) -> str:
    """The BCBP string of ``passenger`` (default: the persona) on a ``flight`` event's data: PNR, route,
    carrier and number, the local departure date's Julian day, compartment from the booking's fare class,
    the passenger's seat, :func:`checkin_sequence`, status ``1`` (checked in), issued on the
    :func:`checkin_time` date (departure zone), the passenger's ticket and (the persona only) loyalty number.
    Raises ``ValueError`` as :func:`builder.files.bcbp.encode` does."""
    passenger = passenger or world.persona.identity.name
    booking = _booking(world, flight["pnr"])
    passengers = list(flight.get("passengers") or [passenger])
    index = passengers.index(passenger) if passenger in passengers else 0
    seats = flight.get("seats") or [flight["seat"]]
    tickets = booking.get("ticket_numbers") or [booking.get("ticket_number")]
    carrier, number = _carrier_number(flight["flight_number"])
    dep = dt.datetime.fromisoformat(flight["dep_local"])
    issued = checkin_time(world, flight).astimezone(dep.tzinfo).date()
    own = passenger == world.persona.identity.name
    return bcbp.encode(
        name=passenger_name(world, passenger),
        pnr=flight["pnr"],
        origin=flight["from"],
        destination=flight["to"],
        carrier=carrier,
        flight=number,
        date=dep.date(),
        seat=seats[index] if index < len(seats) else flight["seat"],
        sequence=checkin_sequence(world, flight, passenger),
        compartment=bcbp.compartment_code(booking["fare_class"]),
        status="1",
        issued=issued,
        ticket=tickets[index] if index < len(tickets) else None,
        frequent_flyer=booking.get("loyalty_number") if own else None,
        international=airport_country(flight["from"]) != airport_country(flight["to"]),
    )


# ---------------------------------------------------------------------------------------------- drawing helpers


def _epoch(when: dt.datetime) -> None:
    """reportlab reads SOURCE_DATE_EPOCH for the document dates: the document's own date."""
    rl_config.invariant = 1
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    os.environ["SOURCE_DATE_EPOCH"] = str(int(when.timestamp()))


class _Pen:
    """Text on a reportlab canvas through Paragraphs, so world text is escaped and any script prints."""

    def __init__(self, c: pdfcanvas.Canvas):
        self.c = c

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float = 9,
        bold: bool = False,
        color=INK,
        width: float = 400,
        align: int = 0,
        leading: float | None = None,
        markup: str | None = None,
    ) -> float:
        """Draw ``text`` with its first line's top at ``y``; ``align`` 0 left (x = left edge), 1 centre
        (x = centre), 2 right (x = right edge). Returns the height used."""
        style = ParagraphStyle(
            "p",
            fontName=FONT_BOLD if bold else FONT,
            fontSize=size,
            leading=leading or size * 1.22,
            textColor=color,
            alignment=align,
        )
        p = Paragraph(markup if markup is not None else para_text(text, bold=bold), style)
        _, h = p.wrap(width, 1000)
        left = x if align == 0 else x - width / 2 if align == 1 else x - width
        p.drawOn(self.c, left, y - h)
        return h

    def label_value(
        self,
        x: float,
        y: float,
        label: str,
        value: str,
        size: float = 11,
        width: float = 120,
        color=INK,
        label_color=MUTED,
    ) -> None:
        self.text(x, y, label.upper(), 6.5, True, label_color, width)
        self.text(x, y - 9, value, size, True, color, width)


def _airline_logo(c: pdfcanvas.Canvas, x: float, y: float, size: float, fg=colors.white, accent=AIRLINE_ACCENT):
    """Meridian Air's mark: a globe ring crossed by a swept meridian arc."""
    c.saveState()
    c.setStrokeColor(fg)
    c.setLineWidth(size * 0.09)
    c.circle(x + size / 2, y + size / 2, size * 0.42, stroke=1, fill=0)
    c.setStrokeColor(accent)
    c.setLineWidth(size * 0.11)
    p = c.beginPath()
    p.moveTo(x + size * 0.22, y + size * 0.12)
    p.curveTo(x + size * 0.62, y + size * 0.35, x + size * 0.62, y + size * 0.7, x + size * 0.78, y + size * 0.9)
    c.drawPath(p, stroke=1, fill=0)
    c.restoreState()


def _monogram(c: pdfcanvas.Canvas, x: float, y: float, size: float, name: str, fg=HOTEL_GREEN):
    """An independent property's mark: the initial of its name (``The``/``Hotel`` skipped) in a ring."""
    words = [w for w in name.split() if w.lower() not in ("the", "hotel")] or [name or "H"]
    c.saveState()
    c.setStrokeColor(fg)
    c.setFillColor(fg)
    c.setLineWidth(size * 0.06)
    c.circle(x + size / 2, y + size / 2, size * 0.46, stroke=1, fill=0)
    c.setFont(FONT_BOLD, size * 0.5)
    c.drawCentredString(x + size / 2, y + size * 0.32, words[0][0].upper())
    c.restoreState()


def _hotel_logo(c: pdfcanvas.Canvas, x: float, y: float, size: float, fg=HOTEL_GREEN):
    """Harbor & Pine's mark: a pine tree over two harbour waves."""
    c.saveState()
    c.setFillColor(fg)
    p = c.beginPath()
    p.moveTo(x + size / 2, y + size)
    p.lineTo(x + size * 0.15, y + size * 0.38)
    p.lineTo(x + size * 0.85, y + size * 0.38)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.rect(x + size * 0.45, y + size * 0.24, size * 0.1, size * 0.16, stroke=0, fill=1)
    c.setStrokeColor(fg)
    c.setLineWidth(size * 0.06)
    for k in (0.13, 0.02):
        w = c.beginPath()
        w.moveTo(x, y + size * k)
        w.curveTo(
            x + size * 0.25, y + size * (k + 0.08), x + size * 0.25, y + size * (k - 0.08), x + size * 0.5, y + size * k
        )
        w.curveTo(
            x + size * 0.75, y + size * (k + 0.08), x + size * 0.75, y + size * (k - 0.08), x + size, y + size * k
        )
        c.drawPath(w, stroke=1, fill=0)
    c.restoreState()


def _draw_qr(c: pdfcanvas.Canvas, data: str, x: float, y: float, size: float) -> None:
    """A QR code of ``data`` (error correction M, 4-module quiet zone) as vector squares, ``size`` wide."""
    import segno

    qr = segno.make_qr(data, error="m", boost_error=False)
    matrix = [list(row) for row in qr.matrix]
    n = len(matrix) + 8
    cell = size / n
    c.saveState()
    c.setFillColor(colors.white)
    c.rect(x, y, size, size, stroke=0, fill=1)
    c.setFillColor(colors.black)
    for r, row in enumerate(matrix):
        col = 0
        while col < len(row):
            if row[col]:
                start = col
                while col < len(row) and row[col]:
                    col += 1
                c.rect(x + (start + 4) * cell, y + size - (r + 5) * cell, (col - start) * cell, cell, stroke=0, fill=1)
            else:
                col += 1
    c.restoreState()


def _local(iso: str) -> dt.datetime:
    return dt.datetime.fromisoformat(iso)


def _zone_abbr(iso: str, code: str | None) -> str:
    when = _local(iso)
    if code:
        z = ZoneInfo(airport_zone(code, "UTC"))
        if when.astimezone(z).utcoffset() == when.utcoffset():
            name = when.astimezone(z).tzname()
            if name and name[0] not in "+-":
                return name
    off = when.utcoffset() or dt.timedelta(0)
    mins = int(off.total_seconds()) // 60
    return f"UTC{'+' if mins >= 0 else '-'}{abs(mins) // 60:02d}:{abs(mins) % 60:02d}"


def _city(code: str, world: World | None = None) -> str:
    """The city an airport serves, as the persona writes it: the persona's own city for the home airport, a
    trip's destination (``Lissabon`` for a German persona) for its airport, else from the airport's name."""
    if world is not None:
        travel = world.persona.travel
        addr = world.persona.identity.address
        if travel and travel.home_airport == code and addr:
            return addr.city
        for trip in travel.trips if travel else []:
            if trip.airport == code:
                return trip.destination
    name = (airport_facts(code) or (f"{code} Airport",))[0]
    for city in sorted(CITIES, key=len, reverse=True):
        if city in name:
            return city
    return name.replace(" International Airport", "").replace(" Airport", "")


def _duration(minutes: int, words: dict) -> str:
    return f"{minutes // 60} {words['h']} {minutes % 60:02d} {words['min']}"


# ---------------------------------------------------------------------------------------------- boarding passes


def boarding_pass_filename(world: World, flight: dict) -> str:
    """``BoardingPass_4MBTN3_MR2448_ORD-LIS.pdf`` (``Bordkarte_...`` for a German persona)."""
    carrier, number = _carrier_number(flight["flight_number"])
    stem = _words(world)["boarding_pass_file"]
    return safe_filename(f"{stem}_{flight['pnr']}_{carrier}{number}_{flight['from']}-{flight['to']}") + ".pdf"


def write_boarding_pass(world: World, flight: dict, dest: Path) -> Path:
    """Write the persona's boarding pass for a ``flight`` event's data to ``dest`` and return it."""
    register()
    fmt = Fmt(world.persona)
    w = _words(world)
    booking = _booking(world, flight["pnr"])
    name = world.persona.identity.name
    barcode = bcbp_string(world, flight)
    issued = checkin_time(world, flight)
    _epoch(issued)
    carrier, number = _carrier_number(flight["flight_number"])
    dep, arr = _local(flight["dep_local"]), _local(flight["arr_local"])
    board = boarding_time(flight)
    wide = is_widebody(flight.get("aircraft", ""))
    seat = flight["seat"]
    gate = flight.get("gate")
    group = str(flight.get("boarding_group") or "")
    seq = checkin_sequence(world, flight)
    fare = booking["fare_class"]
    tickets = booking.get("ticket_numbers") or [booking.get("ticket_number")]
    ticket = (
        tickets[list(flight.get("passengers") or [name]).index(name)]
        if name in (flight.get("passengers") or [name])
        else tickets[0]
    )
    page = LETTER if fmt.us else A4
    pw, ph = page
    airline = flight.get("airline") or booking.get("airline") or service("airline").title
    c = pdfcanvas.Canvas(str(dest), pagesize=page, invariant=1, initialFontName=FONT)
    c.setTitle(meta_text(f"{w['boarding_pass']} {flight['flight_number']} {flight['from']}-{flight['to']} {name}"))
    c.setAuthor(meta_text(airline))
    c.setCreator(meta_text(airline))
    c.setSubject(meta_text(f"{flight['pnr']} {fmt.numeric_date(dep)}"))
    pen = _Pen(c)
    margin = 0.5 * inch
    top = ph - margin
    width = pw - 2 * margin
    height = 4.55 * inch
    bottom = top - height
    side_w = 2.25 * inch
    main_w = width - side_w
    band = 0.66 * inch

    # Card, header band, side panel.
    c.setFillColor(colors.white)
    c.setStrokeColor(RULE)
    c.roundRect(margin, bottom, width, height, 10, stroke=1, fill=1)
    c.saveState()
    p = c.beginPath()
    p.roundRect(margin, bottom, width, height, 10)
    c.clipPath(p, stroke=0)
    c.setFillColor(AIRLINE_NAVY)
    c.rect(margin, top - band, width, band, stroke=0, fill=1)
    c.setFillColor(AIRLINE_ACCENT)
    c.rect(margin, top - band - 3, width, 3, stroke=0, fill=1)
    c.setFillColor(AIRLINE_SKY)
    c.rect(margin + main_w, bottom, side_w, height - band - 3, stroke=0, fill=1)
    c.restoreState()
    _airline_logo(c, margin + 14, top - band + 13, band - 26)
    pen.text(margin + band + 2, top - 13, airline, 17, True, colors.white, 260)
    pen.text(
        margin + band + 3,
        top - 35,
        f"{w['boarding_pass'].upper()} · {fare.upper()}",
        7.5,
        True,
        colors.HexColor("#b9c7d8"),
        300,
    )
    pen.text(margin + width - 14, top - 11, f"{carrier} {number}", 20, True, colors.white, 200, align=2)
    pen.text(margin + width - 14, top - 36, fmt.date(dep), 8.5, False, colors.HexColor("#d6e0ec"), 200, align=2)

    # Perforation between the pass and the side panel.
    c.saveState()
    c.setStrokeColor(RULE)
    c.setDash(3, 3)
    c.line(margin + main_w, bottom + 8, margin + main_w, top - band - 10)
    c.restoreState()

    x0 = margin + 18
    y = top - band - 18
    pen.label_value(x0, y, w["passenger"], passenger_name(world, name), 13, 230)
    pen.text(x0 + 235, y, w["ff"].upper(), 6.5, True, MUTED, 120)
    pen.text(x0 + 235, y - 9, booking.get("loyalty_number") or "—", 11, True, INK, 140)

    # Route.
    y -= 40
    col2 = x0 + 200
    for x, airport, label in (
        (x0, flight["from"], flight.get("from_name")),
        (col2, flight["to"], flight.get("to_name")),
    ):
        pen.text(x, y, airport, 34, True, AIRLINE_NAVY, 120)
        pen.text(x, y - 40, _city(airport, world), 9, True, INK, 150)
        pen.text(x, y - 51, (airport_facts(airport) or (label or "",))[0], 7, False, MUTED, 150)
    mid = x0 + 140
    c.setStrokeColor(RULE)
    c.setLineWidth(1)
    c.line(mid - 28, y - 20, mid + 28, y - 20)
    _plane(c, mid, y - 20, 9, AIRLINE_ACCENT)
    pen.text(mid, y - 27, _duration(int(flight.get("duration_minutes") or 0), w), 7, False, MUTED, 100, align=1)
    pen.text(mid, y - 36, flight.get("aircraft") or "", 7, False, MUTED, 100, align=1)

    # Times.
    y -= 76
    days = (arr.date() - dep.date()).days
    plus = f" +{days}" if days > 0 else ""
    cols = [
        (w["departs"], f"{fmt.time(dep)} {_zone_abbr(flight['dep_local'], flight['from'])}"),
        (w["arrives"], f"{fmt.time(arr)} {_zone_abbr(flight['arr_local'], flight['to'])}{plus}"),
        (w["boarding"], fmt.time(board)),
    ]
    for k, (label, value) in enumerate(cols):
        pen.label_value(x0 + k * 120, y, label, value, 10, 118)

    # The boxes a gate agent looks at.
    y -= 34
    boxes = [(w["gate"], gate or w["gate_tba"]), (w["group"], group), (w["seat"], seat), (w["sequence"], f"{seq:03d}")]
    bw, bh = (main_w - 36 - 27) / 4, 46
    for k, (label, value) in enumerate(boxes):
        bx = x0 + k * (bw + 9)
        highlight = label == w["seat"]
        c.setFillColor(AIRLINE_NAVY if highlight else AIRLINE_SKY)
        c.roundRect(bx, y - bh, bw, bh, 5, stroke=0, fill=1)
        pen.text(
            bx + bw / 2,
            y - 6,
            label.upper(),
            6.5,
            True,
            colors.HexColor("#b9c7d8") if highlight else MUTED,
            bw,
            align=1,
        )
        pen.text(
            bx + bw / 2,
            y - (18 if len(value) <= 5 else 21),
            value,
            17 if len(value) <= 5 else 9,
            True,
            colors.white if highlight else AIRLINE_NAVY,
            bw,
            align=1,
        )

    # Codes and fare line.
    y -= bh + 14
    info = [
        (w["pnr"], flight["pnr"]),
        (w["ticket"], ticket or "—"),
        (w["class"], f"{fare} ({bcbp.compartment_code(fare)})"),
    ]
    for k, (label, value) in enumerate(info):
        pen.label_value(x0 + k * 120, y, label, value, 9, 125)

    # Side panel: the barcode, then the passenger's receipt.
    qr_size = 1.75 * inch
    qx = margin + main_w + (side_w - qr_size) / 2
    qy = top - band - 14 - qr_size
    _draw_qr(c, barcode, qx, qy, qr_size)
    h = pen.text(qx + qr_size / 2, qy - 3, w["scan"], 6.5, False, MUTED, side_w - 16, align=1)
    pen.text(
        qx + qr_size / 2,
        qy - 4 - h,
        f"{w['issued']} {fmt.numeric_date(issued.astimezone(dep.tzinfo))} · {w['web_checkin']}",
        6.5,
        False,
        MUTED,
        side_w - 16,
        align=1,
    )
    sx = margin + main_w + 16
    sr = margin + width - 16
    sy = qy - 38
    pen.text(sx, sy, name, 9, True, INK, side_w - 32)
    sy -= 15
    for label, value in (
        (w["flight"], f"{carrier} {number}"),
        (w["date"], fmt.day(dep)),
        (w["from"] + " / " + w["to"], f"{flight['from']} → {flight['to']}"),
        (w["boarding"], fmt.time(board)),
        (w["gate"], gate or w["gate_tba"]),
        (w["group"] + " / " + w["seat"], f"{group} / {seat}" if group else seat),
    ):
        pen.text(sx, sy, label.upper(), 6.5, True, MUTED, 70)
        pen.text(sr, sy - 1, value, 8.5, True, INK, 120, align=2)
        sy -= 13.5

    # Notes under the card, as a home-printed pass has them.
    ny = bottom - 22
    notes = [
        w["boarding_note"].format(
            minutes=BOARDING_MINUTES[wide],
            body=w["wide"] if wide else w["narrow"],
            aircraft=flight.get("aircraft") or "",
            close=GATE_CLOSES_MINUTES,
        ),
        w["group_note"].format(group=group) if group else "",
        (w["bags_basic"] if "basic" in fare.lower() else w["bags"]),
        "" if gate else w["gate_note"],
        _connection_note(world, flight, fmt, w),
        w["own_pass"].format(name=name, pnr=flight["pnr"]),
        w["keep"],
    ]
    for note in (n for n in notes if n):
        h = pen.text(margin + 12, ny, note, 8.5, False, INK, width - 24, markup="•&nbsp;&nbsp;" + para_text(note))
        ny -= h + 5
    c.setStrokeColor(RULE)
    c.setDash(2, 4)
    c.line(margin, ny - 8, margin + width, ny - 8)
    c.setDash()
    _journey_table(c, pen, world, flight, fmt, w, margin, ny - 28, width)
    pen.text(
        margin,
        0.5 * inch,
        f"{airline} · {flight['pnr']} · {carrier} {number} · {w['sequence']} {seq:03d}",
        7,
        False,
        MUTED,
        width,
    )
    c.showPage()
    c.save()
    return dest


def _journey_table(
    c, pen: _Pen, world: World, flight: dict, fmt: Fmt, w: dict, x: float, y: float, width: float
) -> None:
    """The whole booking under the pass, as an airline prints it: every leg with its times, seat and status
    (this pass's leg highlighted)."""
    booking = _booking(world, flight["pnr"])
    legs = sorted((f for f in _flights(world) if f["pnr"] == flight["pnr"]), key=lambda f: f["dep_utc"])
    pen.text(
        x, y, f"{w['your_trip']} · {w['pnr']} {flight['pnr']} · {booking['fare_class']}", 10, True, AIRLINE_NAVY, width
    )
    y -= 18
    cols = (0, 70, 185, 305, 425, width - 8)
    heads = (w["flight"], w["from"], w["departs"], w["to"], w["arrives"], w["seat"])
    c.setFillColor(AIRLINE_NAVY)
    c.rect(x, y - 14, width, 14, stroke=0, fill=1)
    for k, head in enumerate(heads[:5]):
        pen.text(x + cols[k] + 6, y - 3, head.upper(), 6.5, True, colors.white, 100)
    pen.text(x + cols[5], y - 3, heads[5].upper(), 6.5, True, colors.white, 60, align=2)
    y -= 14
    for f in legs:
        dep, arr = _local(f["dep_local"]), _local(f["arr_local"])
        this = f is flight or (f["flight_number"], f["dep_utc"]) == (flight["flight_number"], flight["dep_utc"])
        c.setFillColor(AIRLINE_SKY if this else colors.white)
        c.rect(x, y - 17, width, 17, stroke=0, fill=1)
        c.setStrokeColor(RULE)
        c.setLineWidth(0.5)
        c.line(x, y - 17, x + width, y - 17)
        cells = (
            f["flight_number"],
            f"{f['from']} {_city(f['from'], world)}",
            f"{fmt.day(dep)} {fmt.time(dep)}",
            f"{f['to']} {_city(f['to'], world)}",
            f"{fmt.day(arr)} {fmt.time(arr)}",
        )
        for k, value in enumerate(cells):
            pen.text(x + cols[k] + 6, y - 4, value, 8, this, INK, cols[k + 1] - cols[k] - 8 if k < 4 else 110)
        pen.text(x + cols[5], y - 4, f["seat"], 8, this, INK, 60, align=2)
        y -= 17


def _connection_note(world: World, flight: dict, fmt: Fmt, w: dict) -> str:
    """``Connection: MR 2448 to Lisbon departs 1:35 AM CDT (Sat, Sep 5, 2026).`` when the journey goes on."""
    after = [f for f in _journey(world, flight) if f["leg"] == flight["leg"] + 1]
    if not after:
        return ""
    nxt = after[0]
    dep = _local(nxt["dep_local"])
    return w["connection"].format(
        flight=nxt["flight_number"],
        city=_city(nxt["to"], world),
        time=f"{fmt.time(dep)} {_zone_abbr(nxt['dep_local'], nxt['from'])}",
        date=fmt.date(dep),
    )


def _plane(c: pdfcanvas.Canvas, x: float, y: float, s: float, color) -> None:
    """A small aircraft silhouette pointing right, centred on (x, y)."""
    c.saveState()
    c.setFillColor(color)
    p = c.beginPath()
    pts = [
        (1.0, 0),
        (0.55, 0.12),
        (0.1, 0.12),
        (-0.35, 0.9),
        (-0.55, 0.9),
        (-0.3, 0.12),
        (-0.75, 0.12),
        (-0.95, 0.4),
        (-1.1, 0.4),
        (-1.0, 0),
        (-1.1, -0.4),
        (-0.95, -0.4),
        (-0.75, -0.12),
        (-0.3, -0.12),
        (-0.55, -0.9),
        (-0.35, -0.9),
        (0.1, -0.12),
        (0.55, -0.12),
    ]
    p.moveTo(x + pts[0][0] * s, y + pts[0][1] * s)
    for px, py in pts[1:]:
        p.lineTo(x + px * s, y + py * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.restoreState()


def boarding_passes(world: World, home: Path) -> list[Path]:
    """Write the persona's boarding passes (:func:`boarding_pass_flights`) into ``home/"Downloads"``; return the
    paths in departure order. A world with no flights writes nothing and returns ``[]``."""
    flights = boarding_pass_flights(world)
    if not flights:
        return []
    folder = Path(home) / "Downloads"
    folder.mkdir(parents=True, exist_ok=True)
    return [write_boarding_pass(world, f, folder / boarding_pass_filename(world, f)) for f in flights]


# ---------------------------------------------------------------------------------------------- itineraries


def upcoming_trips(world: World) -> list[int]:
    """Trip indexes whose last flight has not landed at the world's now, in departure order."""
    now = now_utc(world)
    trips: dict[int, list[Flight]] = {}
    for f in world.events_of(Flight):
        trips.setdefault(f.data.trip, []).append(f.data)
    out = [(min(f.dep_utc for f in legs), i) for i, legs in trips.items() if max(_utc(f.arr_utc) for f in legs) > now]
    return [i for _, i in sorted(out)]


def itinerary_filename(world: World, booking: FlightBooking, first_dep: dt.datetime) -> str:
    """``Itinerary_Austin_2026-12-10_DAFLUK.pdf`` (``Reiseplan_...`` in German)."""
    stem = _words(world)["itinerary_file"]
    return safe_filename(f"{stem}_{booking.destination}_{first_dep:%Y-%m-%d}_{booking.pnr}", fallback=stem) + ".pdf"


def write_itinerary(world: World, trip: int, dest: Path) -> Path:
    """Write the itinerary of trip ``trip`` (its index) to ``dest`` and return it."""
    register()
    fmt = Fmt(world.persona)
    w = _words(world)
    events = [e for e in world.events if e.data.get("trip") == trip]
    booking = next(e.data for e in events if e.kind == "flight_booking")
    legs = sorted((e.data for e in events if e.kind == "flight"), key=lambda f: f["dep_utc"])
    hotel = next((e.data for e in events if e.kind == "hotel_booking"), None)
    rides = sorted((e.data for e in events if e.kind == "ride"), key=lambda r: r["pickup_local"])
    prepared = max(e.at for e in events if e.kind in ("flight_booking", "hotel_booking"))
    _epoch(prepared.replace(tzinfo=ZoneInfo(world.persona.timezone or "UTC")))
    first, last = _local(legs[0]["dep_local"]), _local(legs[-1]["arr_local"])
    page = LETTER if fmt.us else A4
    pw, ph = page
    c = pdfcanvas.Canvas(str(dest), pagesize=page, invariant=1, initialFontName=FONT)
    title = w["trip_to"].format(city=booking["destination"])
    c.setTitle(meta_text(f"{w['itinerary']}: {title}"))
    c.setAuthor(meta_text(world.persona.identity.name))
    c.setCreator("Persona Desktop")
    pen = _Pen(c)
    margin = 0.7 * inch
    width = pw - 2 * margin
    y = ph - margin

    def new_page():
        nonlocal y
        c.showPage()
        y = ph - margin

    def need(h: float):
        if y - h < 0.9 * inch:
            new_page()

    c.setFillColor(AIRLINE_NAVY)
    c.rect(0, ph - 1.25 * inch, pw, 1.25 * inch, stroke=0, fill=1)
    pen.text(margin, ph - 0.45 * inch, w["itinerary"].upper(), 8, True, colors.HexColor("#b9c7d8"), width)
    pen.text(margin, ph - 0.62 * inch, title, 22, True, colors.white, width)
    span = f"{fmt.date(first)} – {fmt.date(last)}"
    pen.text(pw - margin, ph - 0.45 * inch, span, 9, False, colors.white, 260, align=2)
    pen.text(pw - margin, ph - 0.62 * inch, f"{w['pnr']} {booking['pnr']}", 13, True, colors.white, 260, align=2)
    y = ph - 1.25 * inch - 22

    def heading(text: str):
        nonlocal y
        need(40)
        pen.text(margin, y, text, 12.5, True, AIRLINE_NAVY, width)
        y -= 18
        c.setStrokeColor(AIRLINE_ACCENT)
        c.setLineWidth(1.2)
        c.line(margin, y + 2, margin + 36, y + 2)
        y -= 10

    heading(w["travellers"])
    tickets = booking.get("ticket_numbers") or [booking.get("ticket_number")]
    for k, person in enumerate(booking["passengers"]):
        extra = f"{w['ticket']} {tickets[k]}" if k < len(tickets) else ""
        if k == 0 and booking.get("loyalty_number"):
            extra += f" · {w['ff']} {booking['loyalty_number']}"
        pen.text(margin, y, person, 10, True, INK, 220)
        pen.text(margin + 210, y, extra, 9, False, MUTED, width - 210)
        y -= 15
    y -= 8

    heading(f"{w['flights']} · {booking['airline']} · {w['pnr']} {booking['pnr']} · {booking['fare_class']}")
    for direction in ("outbound", "return"):
        part = [f for f in legs if f["direction"] == direction]
        if not part:
            continue
        need(30)
        pen.text(margin, y, f"{w[direction]} · {fmt.long_date(_local(part[0]['dep_local']))}", 9.5, True, INK, width)
        y -= 16
        for f in part:
            need(58)
            dep, arr = _local(f["dep_local"]), _local(f["arr_local"])
            c.setFillColor(AIRLINE_SKY)
            c.roundRect(margin, y - 50, width, 50, 5, stroke=0, fill=1)
            pen.text(margin + 10, y - 7, f["flight_number"], 11, True, AIRLINE_NAVY, 70)
            pen.text(margin + 10, y - 22, f.get("aircraft") or "", 7, False, MUTED, 80)
            pen.text(margin + 10, y - 32, _duration(int(f.get("duration_minutes") or 0), w), 7, False, MUTED, 80)
            pen.text(
                margin + 95,
                y - 7,
                f"{f['from']} {fmt.time(dep)} {_zone_abbr(f['dep_local'], f['from'])}",
                10,
                True,
                INK,
                160,
            )
            pen.text(margin + 95, y - 21, fmt.date(dep), 7.5, False, MUTED, 160)
            pen.text(margin + 95, y - 31, (airport_facts(f["from"]) or ("",))[0], 7, False, MUTED, 160)
            pen.text(
                margin + 265,
                y - 7,
                f"{f['to']} {fmt.time(arr)} {_zone_abbr(f['arr_local'], f['to'])}",
                10,
                True,
                INK,
                160,
            )
            pen.text(margin + 265, y - 21, fmt.date(arr), 7.5, False, MUTED, 160)
            pen.text(margin + 265, y - 31, (airport_facts(f["to"]) or ("",))[0], 7, False, MUTED, 160)
            seats = list(f.get("seats") or [f["seat"]])
            pen.text(margin + width - 10, y - 5, w["seats"].upper(), 6.5, True, MUTED, 130, align=2)
            for k, person in enumerate(f.get("passengers") or booking["passengers"]):
                if k < len(seats) and k < 3:
                    pen.text(
                        margin + width - 10,
                        y - 14 - 10 * k,
                        f"{person.split()[0]} {seats[k]}",
                        8,
                        k == 0,
                        INK,
                        130,
                        align=2,
                    )
            y -= 58
        y -= 4

    if hotel:
        heading(f"{w['hotel']} · {hotel['hotel']}")
        rows = [
            (w["address"], hotel["address"]),
            (w["conf"], hotel["confirmation"]),
            (w["check_in"], fmt.date(dt.date.fromisoformat(hotel["check_in"]))),
            (w["check_out"], fmt.date(dt.date.fromisoformat(hotel["check_out"]))),
            (
                w["room"],
                (
                    f"{room_label(world, hotel['room'])} · {w['guests']} {hotel['guests']} · "
                    f"{w['nights_n'].format(n=hotel['nights']) if hotel['nights'] != 1 else w['night_1']}"
                ),
            ),
            (w["total"], _stay_total(fmt, w, hotel)),
        ]
        for label, value in rows:
            need(16)
            pen.text(margin, y, label, 9, True, MUTED, 110)
            y -= max(pen.text(margin + 110, y, value, 9.5, False, INK, width - 110), 11) + 4
        y -= 6

    heading(w["rides"])
    if not rides:
        pen.text(margin, y, w["none_rides"], 9.5, False, INK, width)
        y -= 16
    for r in rides:
        need(36)
        pick = _local(r["pickup_local"])
        pen.text(margin, y, f"{fmt.day(pick)} {fmt.time(pick)}", 9.5, True, INK, 110)
        pen.text(margin + 110, y, f"{r['provider']} · {r['pickup']} → {r['dropoff']}", 9, False, INK, width - 200)
        pen.text(margin + width, y, fmt.money(r["total_cents"]), 9.5, True, INK, 90, align=2)
        y -= 26
    y -= 6

    heading(w["trip_cost"])
    costs = [(w["flights_total"].format(n=len(booking["passengers"])), booking["total_cents"])]
    if hotel:
        costs.append((w["hotel_total"], hotel["total_cents"]))
    if rides:
        costs.append((w["rides_total"], sum(r["total_cents"] for r in rides)))
    for label, cents in costs:
        need(16)
        pen.text(margin, y, label, 9.5, False, INK, 300)
        pen.text(margin + 330, y, fmt.money(cents), 9.5, False, INK, 110, align=2)
        y -= 15
    c.setStrokeColor(RULE)
    c.line(margin, y + 2, margin + 330, y + 2)
    y -= 4
    pen.text(margin, y, w["total"], 10, True, INK, 300)
    pen.text(margin + 330, y, fmt.money(sum(v for _, v in costs)), 10, True, INK, 110, align=2)
    pen.text(margin, 0.6 * inch, w["prepared"].format(date=fmt.date(prepared)), 7.5, False, MUTED, width)
    c.showPage()
    c.save()
    return dest


def itineraries(world: World, home: Path) -> list[Path]:
    """Write one itinerary PDF per upcoming trip (:func:`upcoming_trips`) into ``home/"Documents"/"Travel"``:
    travellers and ticket numbers, flights in local times with zones and seats, the hotel (address,
    confirmation, dates, total), the trip's rides, and the cost booked so far. Returns the paths in trip order
    (``[]`` when nothing is upcoming; the folder is then not created)."""
    trips = upcoming_trips(world)
    if not trips:
        return []
    folder = Path(home) / "Documents" / "Travel"
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in trips:
        booking = next(b.data for b in world.events_of(FlightBooking) if b.data.trip == i)
        first = min(
            (_local(f.data.dep_local) for f in world.events_of(Flight) if f.data.trip == i),
            key=lambda d: d.astimezone(UTC),
        )
        out.append(write_itinerary(world, i, folder / itinerary_filename(world, booking, first)))
    return out


# ---------------------------------------------------------------------------------------------- folios


def _stay_total(fmt: Fmt, w: dict[str, str], hotel: dict) -> str:
    """The itinerary's price of a stay: the total in the hotel's currency (room + taxes and fees), payable at
    the property, and abroad about what the card will be charged."""
    price, cur = hotel["price"], hotel["currency"]
    text = (
        f"{money_in(price['total_cents'], cur, fmt.locale)} ({money_in(price['subtotal_cents'], cur, fmt.locale)}"
        f" + {money_in(price['taxes_cents'] + price['fees_cents'], cur, fmt.locale)} {w['taxes']}), {w['pay_at']}"
    )
    if cur != fmt.currency:
        text += f"; {w['approx'].format(amount=fmt.money(hotel['total_cents']))}"
    return text


def folio_filename(world: World, checkout: dict) -> str:
    """``Folio_F847388_Harbor-Pine-Lisbon.pdf`` (``Hotelrechnung_...`` in German; a rental's receipt
    ``Receipt_...`` / ``Aufenthaltsbeleg_...``)."""
    stem = _words(world)["rental_receipt_file" if checkout.get("kind") == "rental" else "folio_file"]
    return safe_filename(f"{stem}_{checkout['folio']}_{checkout['hotel']}", fallback=stem) + ".pdf"


def room_number(world: World, checkout: dict) -> str:
    """The stay's room number, e.g. ``1214`` (floor 2-14, room 01-40; stream ``travel_docs/room/<confirmation>``)."""
    r = rng(world.seed, f"travel_docs/room/{checkout['confirmation']}")
    return f"{r.randint(2, 14)}{r.randint(1, 40):02d}"


def folio_lines(checkout: dict) -> list[tuple[dt.date, str, int]]:
    """The folio's charge lines ``(date, kind, cents)`` in the hotel's currency (``checkout["currency"]``), from
    the stay's price (``checkout["price"]``, Bramblestay's quote): per night ``"room"`` (that night's rate),
    ``"tax"`` (the stay's taxes in proportion to the night's rate, rounded, the last night taking what rounding
    leaves) and ``"city_fee"``
    (when the city charges one); a rental adds ``"cleaning_fee"`` and ``"service_fee"`` on the first night.
    The lines sum to ``checkout["price"]["total_cents"]`` exactly."""
    price = checkout["price"]
    nights = price["nights"]
    taxes, sub = int(price["taxes_cents"]), max(1, int(price["subtotal_cents"]))
    fee = int(price["city_fee_cents"]) // len(nights)
    out: list[tuple[dt.date, str, int]] = []
    booked = 0
    for n, night in enumerate(nights):
        day = dt.date.fromisoformat(night["night"])
        out.append((day, "room", int(night["cents"])))
        tax = taxes - booked if n == len(nights) - 1 else int(taxes * int(night["cents"]) / sub + 0.5)
        booked += tax
        out.append((day, "tax", tax))
        if fee:
            out.append((day, "city_fee", fee))
        if n == 0 and price["cleaning_fee_cents"]:
            out.append((day, "cleaning_fee", int(price["cleaning_fee_cents"])))
        if n == 0 and price["service_fee_cents"]:
            out.append((day, "service_fee", int(price["service_fee_cents"])))
    return out


def write_folio(world: World, checkout: dict, checkout_at: dt.datetime, dest: Path) -> Path:
    """Write the folio of one ``hotel_checkout`` event's data (``checkout_at`` its local ``at``) to ``dest``."""
    register()
    fmt = Fmt(world.persona)
    w = _words(world)
    out_local = _local(checkout["check_out_local"])
    _epoch(out_local)
    cards = payment_cards(world)
    card = next((k for k in cards if k["account"] == checkout.get("account")), cards[0] if cards else None)
    card_label = card["label"] if card else ""
    ident = world.persona.identity
    page = LETTER if fmt.us else A4
    pw, ph = page
    c = pdfcanvas.Canvas(str(dest), pagesize=page, invariant=1, initialFontName=FONT)
    rental = checkout.get("kind") == "rental"
    title = w["receipt"] if rental else w["folio"]
    issuer = checkout.get("chain") or (STAYS if rental else checkout["hotel"])
    cur = checkout["currency"]
    home_cur = fmt.currency
    foreign = cur != home_cur

    def lm(cents: int) -> str:  # the hotel's currency
        return money_in(cents, cur, fmt.locale)

    c.setTitle(meta_text(f"{title} {checkout['folio']} {checkout['hotel']}"))
    c.setAuthor(meta_text(issuer))
    c.setCreator(meta_text(issuer))
    pen = _Pen(c)
    margin = 0.75 * inch
    width = pw - 2 * margin
    y = ph - margin

    c.setFillColor(HOTEL_SAND)
    c.rect(0, ph - 1.35 * inch, pw, 1.35 * inch, stroke=0, fill=1)
    if (checkout.get("chain") or "").startswith("Harbor & Pine"):
        _hotel_logo(c, margin, ph - 1.0 * inch, 0.5 * inch)
    else:
        _monogram(c, margin, ph - 1.0 * inch, 0.5 * inch, STAYS if rental else checkout["hotel"])
    name_size = 18 if len(checkout["hotel"]) <= 26 else 13 if len(checkout["hotel"]) <= 38 else 11
    pen.text(
        margin + 0.65 * inch,
        ph - 0.5 * inch - (18 - name_size) / 2,
        checkout["hotel"],
        name_size,
        True,
        HOTEL_GREEN,
        300,
    )
    pen.text(margin + 0.65 * inch, ph - 0.78 * inch, checkout["address"], 8.5, False, MUTED, 300)
    if rental and checkout.get("host"):
        pen.text(
            margin + 0.65 * inch,
            ph - 0.98 * inch,
            w["hosted"].format(host=checkout["host"], stays=STAYS),
            8,
            False,
            MUTED,
            300,
        )
    pen.text(pw - margin, ph - 0.5 * inch, title.upper(), 14, True, HOTEL_GREEN, 200, align=2)
    pen.text(pw - margin, ph - 0.74 * inch, f"{w['folio_no']} {checkout['folio']}", 9, False, INK, 200, align=2)
    y = ph - 1.35 * inch - 24

    addr = ident.address
    guest_lines = [ident.name]
    if addr:
        from builder.reference.addresses import format_address

        guest_lines.append(format_address(addr))
    pen.text(margin, y, w["guest"].upper(), 7, True, MUTED, 250)
    gy = y - 11
    for k, line in enumerate(guest_lines):
        gy -= pen.text(margin, gy, line, 10.5 if k == 0 else 9, k == 0, INK, 260) + 1
    if checkout.get("loyalty_number"):
        pen.text(margin, gy - 2, f"{w['member']} {checkout['loyalty_number']}", 8.5, False, MUTED, 260)

    rates = sorted({int(x["cents"]) for x in checkout["price"]["nights"]})
    rate_text = lm(rates[0]) if len(rates) == 1 else f"{lm(rates[0])} – {lm(rates[-1])}"
    facts = (
        ([] if rental else [(w["room_no"], room_number(world, checkout))])
        + [
            (w["room_type"], room_label(world, checkout["room"])),
            (w["arrival"], fmt.date(dt.date.fromisoformat(checkout["check_in"]))),
            (w["departure"], fmt.date(dt.date.fromisoformat(checkout["check_out"]))),
            (w["guests"], str(checkout["guests"])),
            (w["rate"], rate_text),
            (w["conf"], checkout["confirmation"]),
        ]
        + ([(w["currency"], cur)] if foreign else [])
    )
    fx = margin + width - 230
    fy = y
    for label, value in facts:
        pen.text(fx, fy, label, 8.5, True, MUTED, 100)
        pen.text(fx + 230, fy, value, 8.5, False, INK, 130, align=2)
        fy -= 13
    y = min(gy, fy) - 24

    cols = (margin, margin + 85, margin + width - 150, margin + width)

    def table_head(y: float) -> float:
        c.setFillColor(HOTEL_GREEN)
        c.rect(margin, y - 16, width, 16, stroke=0, fill=1)
        pen.text(cols[0] + 6, y - 4, w["date"], 8, True, colors.white, 80)
        pen.text(cols[1], y - 4, w["description"], 8, True, colors.white, 250)
        pen.text(cols[2] + 60, y - 4, w["charges"], 8, True, colors.white, 80, align=2)
        pen.text(cols[3] - 6, y - 4, w["credits"], 8, True, colors.white, 80, align=2)
        return y - 16

    def next_page() -> float:
        c.showPage()
        pen.text(
            margin,
            ph - margin,
            f"{checkout['hotel']} · {w['folio_no']} {checkout['folio']} · {w['page']} {c.getPageNumber()}",
            8,
            True,
            HOTEL_GREEN,
            width,
        )
        return ph - margin - 20

    y = table_head(y)
    price = checkout["price"]
    pct = round(100 * int(price["taxes_cents"]) / max(1, int(price["subtotal_cents"])), 2)
    pct_num = f"{pct:.2f}" if round(pct, 1) != pct else f"{pct:.1f}"
    pct_text = pct_num.replace(".", ",") + " %" if fmt.de else f"{pct_num}%"
    labels = {
        "room": w["room_charge"],
        "tax": w["room_tax"].format(pct=pct_text),
        "city_fee": w["city_fee"],
        "cleaning_fee": w["cleaning_fee"],
        "service_fee": w["service_fee"].format(stays=STAYS),
    }
    total = 0
    for k, (day, kind, cents) in enumerate(folio_lines(checkout)):
        if k % 4 < 2:
            c.setFillColor(colors.HexColor("#faf8f3"))
            c.rect(margin, y - 14, width, 14, stroke=0, fill=1)
        total += cents
        pen.text(cols[0] + 6, y - 3, fmt.numeric_date(day), 8.5, False, INK, 80)
        pen.text(cols[1], y - 3, labels[kind], 8.5, False, INK, 250)
        pen.text(cols[2] + 60, y - 3, lm(cents), 8.5, False, INK, 80, align=2)
        y -= 14
        if y < 1.6 * inch:
            y = table_head(next_page())
    if y < 2.6 * inch:  # the payment and the totals stay together
        y = table_head(next_page())
    pay_day = out_local.date()
    pen.text(cols[0] + 6, y - 3, fmt.numeric_date(pay_day), 8.5, False, INK, 80)
    pen.text(cols[1], y - 3, f"{w['payment']} · {card_label}", 8.5, False, INK, 250)
    pen.text(cols[3] - 6, y - 3, lm(-total), 8.5, False, INK, 90, align=2)
    y -= 20
    c.setStrokeColor(HOTEL_GREEN)
    c.setLineWidth(0.8)
    c.line(margin + width - 260, y + 4, margin + width, y + 4)
    rate = checkout.get("fx_rate", "1")
    rate_shown = rate.replace(".", ",") if fmt.de else rate
    totals = [(w["total_charges"], lm(total), True), (w["payment"], lm(-total), False), (w["balance"], lm(0), True)]
    if foreign:
        totals += [
            (w["fx_rate"], f"1 {cur} = {rate_shown} {home_cur}", False),
            (w["card_total"], fmt.money(checkout["total_cents"]), True),
        ]
    for label, value, bold in totals:
        pen.text(margin + width - 260, y - 2, label, 9.5, bold, INK, 130)
        pen.text(margin + width, y - 2, value, 9.5, bold, INK, 130, align=2)
        y -= 15
    y -= 14
    pen.text(margin, y, w["card_note"].format(card=card_label, date=fmt.date(pay_day)), 8.5, False, MUTED, width)
    y -= 14
    if foreign:
        y -= (
            pen.text(
                margin,
                y,
                w["fx_note"].format(
                    amount=fmt.money(checkout["total_cents"]), local=lm(total), rate=rate_shown, home=home_cur, cur=cur
                ),
                8.5,
                False,
                MUTED,
                width,
            )
            + 2
        )
    pen.text(margin, y, w["thanks"].format(name=ident.name.split()[0] if ident.name else ""), 8.5, False, MUTED, width)
    pen.text(
        margin,
        0.55 * inch,
        " · ".join(x for x in (checkout.get("chain"), checkout["hotel"], checkout["address"]) if x),
        7,
        False,
        MUTED,
        width,
    )
    c.showPage()
    c.save()
    return dest


def folios(world: World, home: Path) -> list[Path]:
    """Write a folio PDF per hotel stay checked out by the world's now into ``home/"Downloads"``: guest, room,
    dates, the lines of :func:`folio_lines` in the hotel's currency, the payment on the card that paid (masked,
    from :func:`builder.world.accounts.payment_cards`), total = the stay's price; abroad the exchange rate and
    the ``hotel_checkout`` charge in the card's currency. Returns the paths in
    checkout order (``[]`` for a world without past stays)."""
    done = [e for e in world.events if e.kind == "hotel_checkout" and e.status == "done" and e.at <= world.now]
    if not done:
        return []
    folder = Path(home) / "Downloads"
    folder.mkdir(parents=True, exist_ok=True)
    return [write_folio(world, e.data, e.at, folder / folio_filename(world, e.data)) for e in done]
