"""Travel documents (builder/files/travel_docs.py, builder/files/bcbp.py) against the world.

Boarding passes are read back as an airport scanner would: the PDF rendered by poppler
(``pdftoppm -r 200``), the QR code decoded by zbar (``zbarimg``, an independent decoder), the
BCBP string parsed and compared with the world's ``flight`` and ``flight_booking`` events.
Every shipped persona's world has past trips, so every persona gets the passes of its last
trip; a world without flights gets none (tested on the default world with its travel removed),
and one whose clock stands inside a check-in window gets that leg's pass too.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from builder.reference.lodging.rates import card_cents
from builder.files import bcbp, travel_docs
from builder.world import payment_cards
from builder.reference.locale import Fmt

from tests.conftest import PERSONAS, _world

TOOLS = ("pdftoppm", "pdftotext", "zbarimg")
pytestmark = pytest.mark.skipif(
    any(shutil.which(t) is None for t in TOOLS),
    reason="needs poppler-utils (pdftoppm, pdftotext) and zbar-tools (zbarimg)",
)
TRAVEL_KINDS = {"flight_booking", "flight", "hotel_booking", "hotel_stay", "hotel_checkout"}


def scan(pdf: Path, tmp: Path) -> str:
    """The text of the one QR code on the first page of ``pdf`` (rendered at 200 dpi, decoded by zbar)."""
    stem = tmp / pdf.stem
    subprocess.run(
        ["pdftoppm", "-r", "200", "-png", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(stem)], check=True
    )
    out = subprocess.run(
        ["zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable", f"{stem}.png"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    codes = [line for line in out.splitlines() if line]
    assert len(codes) == 1, f"{pdf.name}: expected one QR code, zbar read {codes}"
    return codes[0]


def text_of(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True).stdout


def digest(paths: list[Path]) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def write_all(world, home: Path) -> dict[str, list[Path]]:
    return {
        "passes": travel_docs.boarding_passes(world, home),
        "itineraries": travel_docs.itineraries(world, home),
        "folios": travel_docs.folios(world, home),
    }


@pytest.fixture(scope="module")
def docs(world, tmp_path_factory):
    return write_all(world, tmp_path_factory.mktemp("home"))


def flight_of(world, pdf: Path) -> dict:
    return next(
        f for f in travel_docs.boarding_pass_flights(world) if travel_docs.boarding_pass_filename(world, f) == pdf.name
    )


def assert_round_trip(world, pdf: Path, tmp: Path) -> dict:
    """Decode ``pdf``'s QR code and check every BCBP field against the world; return the parse."""
    flight = flight_of(world, pdf)
    booking = next(e.data for e in world.events if e.kind == "flight_booking" and e.data["pnr"] == flight["pnr"])
    raw = scan(pdf, tmp)
    fields = bcbp.parse(raw)
    # The mandatory part is exactly 60 characters: its last field (at 58-59) sizes all that follows, from ">".
    assert raw[:2] == "M1" and raw[60] == ">" and raw[58:60] == f"{len(raw) - 60:02X}"
    assert len(raw) == 60 + fields["conditional_size"]
    carrier, number = flight["flight_number"].split()
    assert (raw[23:30], raw[30:36], raw[36:39], raw[39:44]) == (
        flight["pnr"].ljust(7),
        flight["from"] + flight["to"],
        carrier.ljust(3),
        number.zfill(4) + " ",
    )
    surname, given = world.persona.identity.name.split()[-1], world.persona.identity.name.split()[0]
    assert fields["name"] == bcbp.bcbp_name(world.persona.identity.name)[:20]
    assert fields["name"].startswith(bcbp.fold(surname) + "/" + bcbp.fold(given)[:1])
    assert fields["pnr"] == flight["pnr"] == booking["pnr"]
    assert (fields["from"], fields["to"]) == (flight["from"], flight["to"])
    assert (fields["carrier"], fields["flight"]) == (carrier, number) == (booking["airline_code"], number)
    dep = dt.datetime.fromisoformat(flight["dep_local"])
    assert fields["julian_date"] == dep.timetuple().tm_yday
    assert fields["seat"] == bcbp.seat_field(flight["seat"]) and int(fields["seat"][:3]) == int(flight["seat"][:-1])
    assert fields["sequence"] == travel_docs.checkin_sequence(world, flight)
    assert fields["e_ticket"] and fields["status"] == "1" and fields["compartment"] == "Y"
    assert fields["version"] == 6 and fields["items"]["document_type"] == "B"
    assert fields["items"]["airline_numeric"] + fields["items"]["document_number"] == booking["ticket_numbers"][0]
    assert raw == travel_docs.bcbp_string(world, flight)
    return fields


def test_default_persona_boarding_passes_scan(world, docs, tmp_path):
    """The default persona's Downloads hold the four legs of the Lisbon trip (Sept 2026), nothing else (at
    now, 2026-11-16, no check-in window is open: the Austin trip leaves on 10 Dec), and each QR code reads
    back as the world's PNR, name, route, carrier, flight, Julian date and seat."""
    passes = docs["passes"]
    lisbon = [
        e.data
        for e in world.events
        if e.kind == "flight"
        and e.data["pnr"]
        == next(b.data["pnr"] for b in world.events if b.kind == "flight_booking" and b.data["destination"] == "Lisbon")
    ]
    assert len(passes) == len(lisbon) == 4
    assert [p.name for p in passes] == [
        travel_docs.boarding_pass_filename(world, f) for f in sorted(lisbon, key=lambda f: f["dep_utc"])
    ]
    assert all(p.parent.name == "Downloads" for p in passes)
    assert passes[1].name == f"BoardingPass_{lisbon[0]['pnr']}_MR2448_ORD-LIS.pdf"
    for pdf in passes:
        flight = flight_of(world, pdf)
        assert_round_trip(world, pdf, tmp_path)
        text = text_of(pdf)
        assert "BOARDING PASS" in text and "Meridian Air" in text and "WHITFIELD/DANA" in text
        for label in ("GATE", "GROUP", "SEAT", "BOARDING", "SEQ."):
            assert label in text, (pdf.name, label)
        assert flight["gate"] and flight["gate"] in text
        assert f"{flight['boarding_group']} / {flight['seat']}" in text  # the receipt's group / seat line
        fmt = Fmt(world.persona)
        board = travel_docs.boarding_time(flight)
        dep = dt.datetime.fromisoformat(flight["dep_local"])
        minutes = 50 if "787" in flight["aircraft"] else 40
        assert dep - board == dt.timedelta(minutes=minutes)
        assert fmt.time(board) in text and fmt.time(dep) in text and fmt.date(dep) in text
        assert f"{minutes} minutes before departure" in text
        assert ("wide-body" if minutes == 50 else "narrow-body") in text
        assert f"{travel_docs.checkin_sequence(world, flight):03d}" in text
        assert "Dana Whitfield only" in text and "Theo" not in text  # the persona's pass, not a companion's


@pytest.mark.parametrize("stem", [s for s in PERSONAS if s != "dana-whitfield"])
def test_other_personas_get_passes_in_their_language(stem, tmp_path):
    """Every shipped persona has past trips, so each gets its last trip's passes; German labels for de_DE,
    British wording for en_GB; every QR reads back as the world."""
    persona, world = _world(stem)
    passes = travel_docs.boarding_passes(world, tmp_path / "home")
    flights = travel_docs.boarding_pass_flights(world)
    assert passes and len(passes) == len(flights)
    assert len({f["trip"] for f in flights}) == 1
    for pdf in passes:
        assert_round_trip(world, pdf, tmp_path)
    text = text_of(passes[0])
    if persona.bank == "de_DE":
        assert passes[0].name.startswith("Bordkarte_")
        for word in ("BORDKARTE", "SITZ", "FLUG", "GRUPPE", "Buchungscode".upper(), "Abflug".upper()):
            assert word in text, word
        assert "Boarding beginnt" in text and "BOARDING PASS" not in text
    elif persona.bank == "en_GB":
        assert "BOOKING REFERENCE" in text and "BOARDING PASS" in text
        assert not any(t in text for t in (" AM ", " PM "))  # 24-hour clock
    else:
        assert "CONFIRMATION" in text


def test_no_flights_no_passes(world, tmp_path):
    """A world without travel writes no boarding pass, itinerary or folio (and creates no folder)."""
    bare = dataclasses.replace(world, events=[e for e in world.events if e.kind not in TRAVEL_KINDS])
    assert write_all(bare, tmp_path) == {"passes": [], "itineraries": [], "folios": []}
    assert not any(tmp_path.iterdir())


def test_open_checkin_window_adds_the_upcoming_leg(world, tmp_path):
    """Three hours before the Austin outbound the check-in window is open: its pass is written (gate not yet
    assigned in the world: the pass says to watch the screens) besides the Lisbon trip's four."""
    austin = min(
        (e.data for e in world.events if e.kind == "flight" and e.status == "scheduled"), key=lambda f: f["dep_utc"]
    )
    dep = dt.datetime.fromisoformat(austin["dep_utc"])
    now = (dep - dt.timedelta(hours=3)).astimezone(travel_docs.ZoneInfo(world.persona.timezone)).replace(tzinfo=None)
    later = dataclasses.replace(world, now=now)
    assert travel_docs.checkin_open(later, austin) and not travel_docs.checkin_open(world, austin)
    passes = travel_docs.boarding_passes(later, tmp_path)
    assert len(passes) == 5
    pdf = next(p for p in passes if austin["pnr"] in p.name)
    fields = assert_round_trip(later, pdf, tmp_path)
    issued = travel_docs.checkin_time(later, austin)
    assert dep - dt.timedelta(hours=24) <= issued <= travel_docs.now_utc(later)
    assert (
        fields["items"]["issue_date"][1:]
        == f"{issued.astimezone(dt.datetime.fromisoformat(austin['dep_local']).tzinfo).timetuple().tm_yday:03d}"
    )
    text = text_of(pdf)
    assert austin["gate"] is None and "See screens" in text and "Gate shown on airport screens" in text


def test_checkin_sequence_is_stable_and_consecutive_for_the_party(world):
    flight = travel_docs.boarding_pass_flights(world)[0]
    first, second = flight["passengers"][:2]
    n = travel_docs.checkin_sequence(world, flight)
    assert n == travel_docs.checkin_sequence(world, flight, first) == travel_docs.checkin_sequence(world, dict(flight))
    assert travel_docs.checkin_sequence(world, flight, second) == n + 1
    assert 12 <= n <= 280
    with pytest.raises(ValueError):
        travel_docs.checkin_sequence(world, flight, "Somebody Else")
    other = bcbp.parse(travel_docs.bcbp_string(world, flight, second))
    assert other["name"] == bcbp.bcbp_name(second)[:20] and other["seat"] == bcbp.seat_field(flight["seats"][1])
    assert other["sequence"] == n + 1 and "ff_number" in other["items"] and not other["items"]["ff_number"]


def test_folio_totals_equal_the_world_charges(world, docs):
    """One folio per past stay, in the hotel's currency: its lines sum to the stay's Bramblestay price, the card's
    charge is that total at the printed rate, and the card and stay facts are the world's."""
    checkouts = [e for e in world.events if e.kind == "hotel_checkout" and e.status == "done"]
    assert len(docs["folios"]) == len(checkouts) == 4
    fmt = Fmt(world.persona)
    cards = {c["account"]: c for c in payment_cards(world)}
    for pdf, e in zip(docs["folios"], checkouts):
        d = e.data
        assert pdf.name == travel_docs.folio_filename(world, d) and d["folio"] in pdf.name
        charge = -sum(p.amount_cents for p in e.postings)
        assert charge == d["total_cents"] == d["rate_cents"] * d["nights"] + d["tax_cents"]
        local = d["price"]["total_cents"]
        assert charge == card_cents(local, d["fx_rate"])
        lines = travel_docs.folio_lines(d)
        extra = (d["nights"] if d["price"]["city_fee_cents"] else 0) + (2 if d["kind"] == "rental" else 0)
        assert sum(c for _, _, c in lines) == local and len(lines) == 2 * d["nights"] + extra
        text = text_of(pdf)
        cur, loc = d["currency"], world.persona.bank
        total_line = next(line for line in text.splitlines() if "Total charges" in line)
        assert total_line.split()[-1] == travel_docs.money_in(local, cur, loc)
        assert next(line for line in text.splitlines() if "Balance due" in line).split()[-1] == travel_docs.money_in(
            0, cur, loc
        )
        if d["currency"] != world.currency:
            card_line = next(line for line in text.splitlines() if "Charged to your card" in line)
            assert card_line.split()[-1] == fmt.money(charge)
            assert f"1 {d['currency']} = {d['fx_rate']} {world.currency}" in text
        assert text.count("Room charge") == d["nights"]
        assert cards[d["account"]]["label"] in text and d["confirmation"] in text and d["folio"] in text
        assert world.persona.identity.name in text and d["room"] in text
        assert fmt.date(dt.date.fromisoformat(d["check_in"])) in text


def test_german_folio_is_german(tmp_path):
    persona, world = _world("jana-petersen")
    paths = travel_docs.folios(world, tmp_path)
    done = [e for e in world.events if e.kind == "hotel_checkout" and e.status == "done"]
    k = next(n for n, e in enumerate(done) if e.data["kind"] == "hotel" and e.data["currency"] == "EUR")
    assert paths[k].name.startswith("Hotelrechnung_")
    text = text_of(paths[k])
    assert "HOTELRECHNUNG" in text and "Übernachtung" in text and "Offener Betrag" in text and " €" in text
    assert Fmt(persona).money(done[k].data["total_cents"]) in text


def test_itinerary_lists_the_upcoming_trip(world, docs):
    """One itinerary (Austin, Dec 2026): PNR, every ticket, legs with zones and seats, the hotel's
    confirmation and total, the trip's rides."""
    upcoming = travel_docs.upcoming_trips(world)
    assert len(docs["itineraries"]) == len(upcoming) == 1
    pdf = docs["itineraries"][0]
    assert pdf.parent == pdf.parent.parent / "Travel" and pdf.parent.parent.name == "Documents"
    trip = upcoming[0]
    booking = next(e.data for e in world.events if e.kind == "flight_booking" and e.data["trip"] == trip)
    hotel = next(e.data for e in world.events if e.kind == "hotel_booking" and e.data["trip"] == trip)
    rides = [e.data for e in world.events if e.kind == "ride" and e.data.get("trip") == trip]
    assert booking["destination"] == "Austin" and booking["pnr"] in pdf.name
    text = text_of(pdf)
    fmt = Fmt(world.persona)
    assert booking["pnr"] in text and hotel["confirmation"] in text and hotel["hotel"] in text
    assert all(t in text for t in booking["ticket_numbers"]) and all(p in text for p in booking["passengers"])
    assert travel_docs.money_in(hotel["price"]["total_cents"], hotel["currency"], world.persona.bank) in text
    assert fmt.money(hotel["total_cents"]) in text and fmt.money(booking["total_cents"]) in text
    for leg in booking["itinerary"]:
        dep = dt.datetime.fromisoformat(leg["dep_local"])
        assert f"{leg['from']} {fmt.time(dep)} {travel_docs._zone_abbr(leg['dep_local'], leg['from'])}" in text
        assert leg["flight_number"] in text
    assert len(rides) == 4 and all(fmt.money(r["total_cents"]) in text for r in rides)
    assert fmt.money(booking["total_cents"] + hotel["total_cents"] + sum(r["total_cents"] for r in rides)) in text


def test_byte_identical_twice(world, docs, tmp_path):
    again = write_all(world, tmp_path)
    for kind in docs:
        assert digest(again[kind]) == digest(docs[kind]), kind
    _, german = _world("jana-petersen")
    a, b = write_all(german, tmp_path / "a"), write_all(german, tmp_path / "b")
    assert all(digest(a[k]) == digest(b[k]) for k in a)


IATA_EXAMPLE = "M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 226F001A0025 100"


def test_parse_reads_the_resolution_examples():
    p = bcbp.parse(IATA_EXAMPLE)
    assert (
        p["name"],
        p["pnr"],
        p["from"],
        p["to"],
        p["carrier"],
        p["flight"],
        p["julian_date"],
        p["compartment"],
        p["seat"],
        p["sequence"],
        p["status"],
        p["conditional_size"],
    ) == ("DESMARAIS/LUC", "ABC123", "YUL", "FRA", "AC", "834", 226, "F", "001A", 25, "1", 0)
    two = (
        "M2DESMARAIS/LUC       EABC123 YULFRAAC 0834 226F001A0025 14D>6181WW6225BAC 00141234560032A0141234567890 "
        "1AC AC 1234567890123    20KYLX58ZDEF456 FRAGVALH 3664 227C012C0002 12E2A0140987654321 1AC AC "
        "1234567890123    2PCNWQ^164" + "G" * 100
    )
    p = bcbp.parse(two)
    assert p["legs"] == 2 and [s["flight"] for s in p["segments"]] == ["834", "3664"]
    assert p["items"]["issue_date"] == "6225" and p["items"]["ff_number"] == "1234567890123"
    assert p["security"] == "G" * 100


def test_encode_fields_and_errors():
    kw = {
        "name": "José Müller-Lüdenscheidt",
        "pnr": "AB12CD",
        "origin": "ham",
        "destination": "LIS",
        "carrier": "MR",
        "flight": "684",
        "date": dt.date(2026, 2, 3),
        "seat": "9F",
        "sequence": 7,
        "ticket": "0471234567890",
        "frequent_flyer": "MR123456789",
        "issued": dt.date(2026, 2, 2),
    }
    raw = bcbp.encode(**kw)
    assert (
        raw[:58]
        == "M1"
        + "MUELLERLUEDENSCHEIDT"
        + "E"
        + "AB12CD "
        + "HAMLIS"
        + "MR "
        + "0684 "
        + "034"
        + "Y"
        + "009F"
        + "0007 "
        + "1"
    )
    assert raw[58:60] == f"{len(raw) - 60:02X}" and raw[60:62] == ">6"
    p = bcbp.parse(raw)
    assert p["name"] == "MUELLERLUEDENSCHEIDT"[:20] and p["flight"] == "684" and p["julian_date"] == 34
    assert p["items"]["issue_date"] == "6033" and p["items"]["ff_number"] == "123456789"
    assert bcbp.bcbp_name("Dana Whitfield") == "WHITFIELD/DANA" and bcbp.bcbp_name("Jürgen Groß") == "GROSS/JUERGEN"
    assert len(bcbp.encode(**{**kw, "ticket": None})) == 60 + 15
    assert bcbp.encode(**{**kw, "flight": "12A", "sequence": 12345})[39:57] == "0012A034Y009F12345"
    for bad in (
        {"origin": "HA"},
        {"origin": "H4M"},
        {"seat": "F9"},
        {"seat": "1000A"},
        {"seat": "0A"},
        {"flight": "MR 684"},
        {"flight": "12345"},
        {"pnr": "AB-12"},
        {"pnr": "ABCDEFGH"},
        {"sequence": 0},
        {"sequence": 100000},
        {"sequence": "7"},
        {"carrier": "M"},
        {"ticket": "12345"},
        {"compartment": "YY"},
        {"name": "王小明"},
        {"date": "2026-02-03"},
    ):
        with pytest.raises(ValueError):
            bcbp.encode(**{**kw, **bad})


@pytest.mark.parametrize(
    "bad",
    [
        "",  # empty
        IATA_EXAMPLE[:-1],  # 59 characters
        IATA_EXAMPLE + "X",  # a character after the conditional part
        "S" + IATA_EXAMPLE[1:],  # format code
        "M0" + IATA_EXAMPLE[2:],
        "M5" + IATA_EXAMPLE[2:],  # leg count
        IATA_EXAMPLE[:58] + "0G",  # size not hex
        IATA_EXAMPLE[:58] + "05>6",  # size larger than what follows
        IATA_EXAMPLE[:58] + "04>6",  # unique size missing
        IATA_EXAMPLE[:58] + "06>605A",  # unique size says 5, 2 follow
        IATA_EXAMPLE[:58] + "04X600",  # conditional part without '>'
        IATA_EXAMPLE.replace("YULFRA", "YU1FRA"),  # airport code
        IATA_EXAMPLE.replace("YULFRA", "yulfra"),  # lower case
        IATA_EXAMPLE.replace("0834 ", "834  "),  # flight number not zero-padded
        IATA_EXAMPLE.replace(" 226F", " 367F"),  # Julian day out of range
        IATA_EXAMPLE.replace("001A", "01A "),  # seat form
        IATA_EXAMPLE.replace("0025 ", "25   "),  # sequence form
        IATA_EXAMPLE.replace("DESMARAIS", "DÉSMARAIS"),  # not ASCII
        IATA_EXAMPLE.replace("EABC123", "XABC123"),  # e-ticket indicator
        "M2" + IATA_EXAMPLE[2:],  # two legs announced, one present
        IATA_EXAMPLE + "^1",  # truncated security data
        IATA_EXAMPLE + "^105ABC",  # security size disagrees
    ],
)
def test_parse_refuses_malformed(bad):
    with pytest.raises(ValueError):
        bcbp.parse(bad)
    with pytest.raises(ValueError):
        bcbp.parse(None)  # type: ignore[arg-type]


def test_names_without_latin_letters_still_print(world):
    """A spec may name the persona in a script an airline cannot print: the pass falls back to the e-mail's
    local part (ASCII), a companion to TRAVELLER; Latin names fold (accents, umlauts, ß)."""
    ident = world.persona.identity.model_copy(update={"name": "王小明", "email": "wang.xm@example.com"})
    other = dataclasses.replace(world, persona=world.persona.model_copy(update={"identity": ident}))
    assert travel_docs.passenger_name(other, "王小明") == "WANGXM"
    assert travel_docs.passenger_name(other, "李雷") == "TRAVELLER"
    assert travel_docs.passenger_name(world, "Zoë O'Brien-Groß") == "OBRIENGROSS/ZOE"
    assert (
        bcbp.parse(
            bcbp.encode(
                name="WANGXM",
                pnr="ABC123",
                origin="PDX",
                destination="SEA",
                carrier="MR",
                flight="1",
                date=dt.date(2026, 1, 1),
                seat="1A",
                sequence=1,
            )
        )["name"]
        == "WANGXM"
    )
