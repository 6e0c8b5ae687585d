"""IATA Bar Coded Boarding Pass (BCBP) strings: encode one leg, parse any well-formed pass.

The format is IATA Resolution 792 (BCBP Implementation Guide, version 6 items). A pass is the
*mandatory* part, then for each leg its *conditional* part, whose size the mandatory part states
in two hex digits. One leg (what :func:`encode` writes):

======  =====  ==========================================  ===========================
offset  size   field (IATA item number)                    example
======  =====  ==========================================  ===========================
0       1      format code (1): ``M`` = multiple-leg form  ``M``
1       1      number of legs encoded (5)                  ``1``
2       20     passenger name (11), ``SURNAME/GIVEN``,     ``WHITFIELD/DANA      ``
               ASCII, left-justified, truncated
22      1      electronic ticket indicator (253)           ``E``
23      7      operating carrier PNR code (7)              ``KHRLPY `` (left-justified)
30      3      from city airport code (26)                 ``PDX``
33      3      to city airport code (38)                   ``ORD``
36      3      operating carrier designator (42)           ``MR `` (left-justified)
39      5      flight number (43): 4 digits, zero-padded,  ``2548 `` / ``0684A``
               then an operational suffix letter or space
44      3      date of flight (46), Julian day of year     ``260`` (17 September)
47      1      compartment code (71)                       ``Y``
48      4      seat number (104): 3 digits + column        ``010F``
52      5      check-in sequence number (107): 4 digits    ``0012 ``
               + space (5 digits above 9999)
57      1      passenger status (113)                      ``1`` (checked in)
58      2      field size of variable size field (6), hex  ``36``
======  =====  ==========================================  ===========================

The conditional part :func:`encode` writes (sizes consistent, trailing optional items omitted,
which the Resolution allows: a size field counts only the items that follow it):

======  ==========================================  ===========================
size    field (IATA item number)                    written as
======  ==========================================  ===========================
1       beginning of version number (8)             ``>``
1       version number (9)                          ``6``
2       field size of following structured          ``0B`` (11 chars follow)
        message, unique (10), hex
1       passenger description (15)                  ``0`` adult
1       source of check-in (12)                     ``W`` web / ``O`` airport
1       source of boarding pass issuance (14)       ``W`` web / ``O`` airport
4       date of issue of boarding pass (22):        ``6259``
        last digit of the year + Julian day
1       document type (16)                          ``B`` boarding pass
3       airline designator of boarding pass         ``MR ``
        issuer (21)
2       field size of following structured          ``25`` (37 chars follow)
        message, repeated (17), hex
3       airline numeric code (142)                  ``047``
10      document form/serial number (143)           ``7380501578``
1       selectee indicator (18)                     `` `` (not given)
1       international documentation                 ``0`` not required,
        verification (108)                          ``1`` required
3       marketing carrier designator (19)           ``MR ``
3       frequent flyer airline designator (20)      ``MR `` (blank without a number)
16      frequent flyer number (236)                 ``482950826       ``
======  ==========================================  ===========================

The repeated items are written only when a 13-digit ticket number is given; without it the
conditional part ends after the unique items (size ``0B`` + 4 = ``0F`` in the mandatory part).
No security data (``^`` ...) is written: it needs the issuing airline's signing key.

:func:`parse` reads passes of any number of legs (and optional security data) independently of
:func:`encode`: every field is checked against its form and every size against what follows.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

MANDATORY_SIZE = 60  # format, legs, name, e-ticket, then the first leg's 37 repeated characters
LEG_SIZE = 37  # PNR .. conditional size: the mandatory items repeated per leg

# Letters NFKD does not decompose into an ASCII base letter.
_FOLD = {
    "ß": "SS",
    "ẞ": "SS",
    "Æ": "AE",
    "æ": "AE",
    "Œ": "OE",
    "œ": "OE",
    "Ø": "O",
    "ø": "O",
    "Đ": "D",
    "đ": "D",
    "Ł": "L",
    "ł": "L",
    "Þ": "TH",
    "þ": "TH",
    "Ð": "D",
    "ð": "D",
    "ı": "I",
    "Ħ": "H",
    "ħ": "H",
}
# German umlauts are written out on travel documents (ICAO Doc 9303 transliteration): MÜLLER -> MUELLER.
_UMLAUTS = {"Ä": "AE", "Ö": "OE", "Ü": "UE", "ä": "AE", "ö": "OE", "ü": "UE"}
_AIRPORT = re.compile(r"[A-Z]{3}\Z")
_CARRIER = re.compile(r"[A-Z0-9]{2}[A-Z]?\Z")
_PNR = re.compile(r"[A-Z0-9]{5,7}\Z")
_FLIGHT = re.compile(r"(\d{1,4})([A-Z]?)\Z")
_SEAT = re.compile(r"(\d{1,3})([A-Z])\Z")
_COMPARTMENT = re.compile(r"[A-Z]\Z")
_STATUS = re.compile(r"[0-9A-Z]\Z")


def fold(text: str, umlauts: bool = True) -> str:
    """``text`` as upper-case ASCII letters and spaces: accents dropped (``José`` -> ``JOSE``), German
    umlauts written out when ``umlauts`` (``Müller`` -> ``MUELLER``), ``ß`` -> ``SS``; apostrophes,
    hyphens and other punctuation removed; runs of spaces collapsed. Characters with no Latin
    form (CJK, Cyrillic...) are dropped, so the result may be empty."""
    out = []
    for ch in text:
        if umlauts and ch in _UMLAUTS:
            out.append(_UMLAUTS[ch])
            continue
        if ch in _FOLD:
            out.append(_FOLD[ch])
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        for c in base.upper():
            if "A" <= c <= "Z":
                out.append(c)
            elif c.isspace():
                out.append(" ")
    return " ".join("".join(out).split())


def bcbp_name(full_name: str, umlauts: bool = True) -> str:
    """A display name (``Dana Whitfield``) as BCBP writes it, ``WHITFIELD/DANA``, untruncated.

    The last word is the surname, the words before it the given names (``Mary Ann Smith`` ->
    ``SMITH/MARY ANN``); a one-word name is the surname alone. A name already in ``SURNAME/GIVEN``
    form is folded as it is. Raises ``ValueError`` if nothing of the name is Latin script.
    """
    if "/" in full_name:
        surname, _, given = full_name.partition("/")
    else:
        words = full_name.split()
        surname, given = (words[-1], " ".join(words[:-1])) if words else ("", "")
    surname, given = fold(surname, umlauts), fold(given, umlauts)
    if not surname:
        raise ValueError(f"passenger name {full_name!r} has no surname in Latin letters")
    return f"{surname}/{given}" if given else surname


def seat_field(seat: str) -> str:
    """A seat as the 4-character BCBP field: ``9F`` -> ``009F``. Raises ``ValueError`` unless the seat is
    1-3 digits (row 1-999) and a column letter."""
    m = _SEAT.match(str(seat).strip().upper())
    if not m or int(m.group(1)) == 0:
        raise ValueError(f"seat {seat!r} is not a row number and a column letter (e.g. 9F)")
    return f"{int(m.group(1)):03d}{m.group(2)}"


def flight_field(flight: str) -> str:
    """A flight number as the 5-character BCBP field: ``2548`` -> ``2548 ``, ``684A`` -> ``0684A``.

    A carrier prefix (``MR 684``) is not accepted here: pass the carrier separately. Raises
    ``ValueError`` unless 1-4 digits and an optional suffix letter."""
    m = _FLIGHT.match(str(flight).strip().upper())
    if not m or int(m.group(1)) == 0:
        raise ValueError(f"flight number {flight!r} is not 1-4 digits and an optional suffix letter")
    return f"{int(m.group(1)):04d}{m.group(2) or ' '}"


def julian(day: dt.date) -> int:
    """Day of the year, 1-366 (the BCBP date of flight)."""
    return day.timetuple().tm_yday


def compartment_code(fare_class: str) -> str:
    """The compartment letter of a cabin or fare name: ``F`` first, ``J`` business, ``W`` premium economy,
    ``Y`` economy (the default: ``Economy``, ``Basic Economy``, ``Economy Flex``)."""
    name = (fare_class or "").lower()
    if "first" in name:
        return "F"
    if "business" in name:
        return "J"
    if "premium" in name:
        return "W"
    return "Y"


def _check(value: str, pattern: re.Pattern, what: str) -> str:
    value = str(value).strip().upper()
    if not pattern.match(value):
        raise ValueError(f"{what} {value!r} cannot be encoded")
    return value


def encode(
    *,
    name: str,
    pnr: str,
    origin: str,
    destination: str,
    carrier: str,
    flight: str,
    date: dt.date,
    seat: str,
    sequence: int,
    compartment: str = "Y",
    status: str = "1",
    e_ticket: bool = True,
    issued: dt.date | None = None,
    ticket: str | None = None,
    frequent_flyer: str | None = None,
    international: bool = False,
    check_in_source: str = "W",
) -> str:
    """One leg's BCBP string: the 60-character mandatory part and a version-6 conditional part.

    ``name``: the passenger as displayed (``Dana Whitfield``) or already ``SURNAME/GIVEN``; folded to
    ASCII (:func:`bcbp_name`) and cut to 20 characters. ``pnr``: 5-7 letters/digits. ``origin``,
    ``destination``: 3-letter airport codes. ``carrier``: 2-3 character airline designator (``MR``).
    ``flight``: the number without the carrier (``2548``, ``684A``). ``date``: the flight's local
    departure date (written as its Julian day). ``seat``: ``9F``. ``sequence``: check-in sequence
    number, 1-99999. ``compartment``: one letter (``Y``; see :func:`compartment_code`). ``status``:
    passenger status, one character (``1`` checked in). ``issued``: date the pass was issued
    (default ``date``). ``ticket``: the 13-digit ticket number (airline code + serial); with it the
    repeated conditional items are written, including ``frequent_flyer`` (``MR482950826``: a
    leading carrier designator is dropped, at most 16 characters) and the documentation
    verification flag (``international``). ``check_in_source``: ``W`` web, ``O`` airport, ``K`` kiosk,
    ``M`` mobile.

    Raises ``ValueError`` for any field that does not fit its form (bad airport code, seat,
    flight number, PNR, sequence, ticket number...).
    """
    surname_given = bcbp_name(name)[:20]
    pnr = _check(pnr, _PNR, "PNR")
    origin = _check(origin, _AIRPORT, "airport code")
    destination = _check(destination, _AIRPORT, "airport code")
    carrier = _check(carrier, _CARRIER, "carrier designator")
    compartment = _check(compartment, _COMPARTMENT, "compartment code")
    status = _check(status, _STATUS, "passenger status")
    check_in_source = _check(check_in_source, re.compile(r"[WOKMRTV ]\Z"), "check-in source")
    if not isinstance(date, dt.date):
        raise ValueError(f"date of flight {date!r} is not a date")  # noqa: TRY004 (one error type per bad field)
    if isinstance(sequence, bool) or not isinstance(sequence, int) or not 0 < sequence <= 99999:
        raise ValueError(f"check-in sequence {sequence!r} is not a number 1-99999")
    seq = f"{sequence:04d} " if sequence <= 9999 else f"{sequence:05d}"
    issued = issued or date
    if not isinstance(issued, dt.date):
        raise ValueError(f"date of issue {issued!r} is not a date")  # noqa: TRY004 (one error type per bad field)

    unique = "0" + check_in_source + check_in_source + f"{issued.year % 10}{julian(issued):03d}" + "B" + f"{carrier:<3}"
    conditional = ">6" + f"{len(unique):02X}" + unique
    if ticket is not None:
        ticket = str(ticket).replace(" ", "").replace("-", "")
        if not re.fullmatch(r"\d{13}", ticket):
            raise ValueError(f"ticket number {ticket!r} is not 13 digits")
        ff_airline, ff_number = "   ", " " * 16
        if frequent_flyer:
            number = re.sub(r"[^A-Za-z0-9]", "", str(frequent_flyer)).upper()
            if number.startswith(carrier) and len(number) > len(carrier):
                number = number[len(carrier) :]
            if not number or len(number) > 16 or not number.isalnum():
                raise ValueError(f"frequent flyer number {frequent_flyer!r} cannot be encoded")
            ff_airline, ff_number = f"{carrier:<3}", f"{number:<16}"
        repeated = (
            ticket[:3] + ticket[3:] + " " + ("1" if international else "0") + f"{carrier:<3}" + ff_airline + ff_number
        )
        conditional += f"{len(repeated):02X}" + repeated
    if len(conditional) > 255:
        raise ValueError("conditional part longer than 255 characters")
    mandatory = (
        "M1"
        + f"{surname_given:<20}"
        + ("E" if e_ticket else " ")
        + f"{pnr:<7}"
        + origin
        + destination
        + f"{carrier:<3}"
        + flight_field(flight)
        + f"{julian(date):03d}"
        + compartment
        + seat_field(seat)
        + seq
        + status
        + f"{len(conditional):02X}"
    )
    if len(mandatory) != MANDATORY_SIZE:  # every field above has its fixed width
        raise AssertionError(f"mandatory part is {len(mandatory)} characters")
    return mandatory + conditional


def _hex(text: str, where: str) -> int:
    if not re.fullmatch(r"[0-9A-Fa-f]{2}", text):
        raise ValueError(f"{where}: {text!r} is not a two-digit hexadecimal size")
    return int(text, 16)


def _leg(text: str, at: int, n: int) -> tuple[dict, int]:
    """Parse the 37 repeated mandatory characters of leg ``n`` at ``at`` and its conditional part."""
    raw = text[at : at + LEG_SIZE]
    if len(raw) != LEG_SIZE:
        raise ValueError(f"leg {n}: mandatory items end after {len(raw)} of {LEG_SIZE} characters")
    pnr, origin, dest, carrier = raw[0:7], raw[7:10], raw[10:13], raw[13:16]
    flight, day, compartment, seat, seq, status = raw[16:21], raw[21:24], raw[24], raw[25:29], raw[29:34], raw[34]
    if not re.fullmatch(r"[A-Z0-9]{2,7} *", pnr):
        raise ValueError(f"leg {n}: PNR {pnr!r} is not 2-7 letters/digits, left-justified")
    for code, what in ((origin, "from"), (dest, "to")):
        if not _AIRPORT.match(code):
            raise ValueError(f"leg {n}: {what} airport {code!r} is not three letters")
    if not re.fullmatch(r"[A-Z0-9]{2}[A-Z ]", carrier):
        raise ValueError(f"leg {n}: carrier {carrier!r} is not a 2-3 character designator")
    if not re.fullmatch(r"\d{4}[A-Z ]", flight) or flight[:4] == "0000":
        raise ValueError(f"leg {n}: flight number {flight!r} is not 4 digits and a suffix letter or space")
    if not re.fullmatch(r"\d{3}", day) or not 1 <= int(day) <= 366:
        raise ValueError(f"leg {n}: date of flight {day!r} is not a Julian day 001-366")
    if not _COMPARTMENT.match(compartment):
        raise ValueError(f"leg {n}: compartment code {compartment!r} is not a letter")
    if not re.fullmatch(r"\d{3}[A-Z]", seat) or seat[:3] == "000":
        raise ValueError(f"leg {n}: seat {seat!r} is not 3 digits and a column letter")
    if not re.fullmatch(r"\d{4}[ A-Z]|\d{5}", seq):
        raise ValueError(f"leg {n}: check-in sequence {seq!r} is not 4-5 digits")
    if not _STATUS.match(status):
        raise ValueError(f"leg {n}: passenger status {status!r} is not a letter or digit")
    size = _hex(raw[35:37], f"leg {n} conditional size")
    start = at + LEG_SIZE
    conditional = text[start : start + size]
    if len(conditional) != size:
        raise ValueError(f"leg {n}: conditional part is {len(conditional)} characters, the size field says {size}")
    leg = {
        "pnr": pnr.rstrip(),
        "from": origin,
        "to": dest,
        "carrier": carrier.rstrip(),
        "flight": str(int(flight[:4])) + flight[4].strip(),
        "julian_date": int(day),
        "compartment": compartment,
        "seat": seat,
        "sequence": int(seq if seq.isdigit() else seq[:4]),
        "status": status,
        "conditional_size": size,
        "conditional": conditional,
    }
    return leg, start + size


def _unique_items(conditional: str) -> tuple[int | None, dict]:
    """The first leg's version number and unique items (those present), checking their sizes."""
    if not conditional:
        return None, {}
    if conditional[0] != ">" or len(conditional) < 4:
        raise ValueError(f"conditional part {conditional!r} does not start with '>', a version and a size")
    if not conditional[1].isdigit():
        raise ValueError(f"version number {conditional[1]!r} is not a digit")
    size = _hex(conditional[2:4], "unique conditional size")
    unique = conditional[4 : 4 + size]
    if len(unique) != size:
        raise ValueError(f"unique conditional items are {len(unique)} characters, their size field says {size}")
    names = (
        ("passenger_description", 1),
        ("checkin_source", 1),
        ("issuance_source", 1),
        ("issue_date", 4),
        ("document_type", 1),
        ("issuer", 3),
        ("bag_tags", 13),
        ("bag_tags_2", 13),
        ("bag_tags_3", 13),
    )
    items, i = {}, 0
    for key, width in names:
        if i >= size:
            break
        items[key] = unique[i : i + width].rstrip()
        i += width
    rest = conditional[4 + size :]
    if len(rest) >= 2:
        rsize = _hex(rest[:2], "repeated conditional size")
        repeated = rest[2 : 2 + rsize]
        if len(repeated) != rsize:
            raise ValueError(
                f"repeated conditional items are {len(repeated)} characters, their size field says {rsize}"
            )
        fields = (
            ("airline_numeric", 3),
            ("document_number", 10),
            ("selectee", 1),
            ("doc_verification", 1),
            ("marketing_carrier", 3),
            ("ff_airline", 3),
            ("ff_number", 16),
            ("id_ad", 1),
            ("baggage", 3),
            ("fast_track", 1),
        )
        i = 0
        for key, width in fields:
            if i >= rsize:
                break
            items[key] = repeated[i : i + width].rstrip()
            i += width
        items["airline_use"] = rest[2 + rsize :]
    elif rest:
        raise ValueError(f"conditional part has {rest!r} after its unique items and no size")
    return int(conditional[1]), items


def parse(text: str) -> dict:
    """Parse a BCBP string (``M`` format, 1-4 legs, optional security data) into its fields.

    Returns ``{"format": "M", "legs": 1, "name": "WHITFIELD/DANA", "e_ticket": True, "pnr": "KHRLPY",
    "from": "PDX", "to": "ORD", "carrier": "MR", "flight": "2548", "julian_date": 260,
    "compartment": "Y", "seat": "010F", "sequence": 12, "status": "1", "conditional_size": 54,
    "conditional": ">60B..."}`` for the first leg, plus ``"version"`` (int or None), ``"items"`` (the
    conditional items present, by name: ``issue_date``, ``document_number``, ``ff_number``...),
    ``"segments"`` (one dict of the leg keys per leg, the first repeated) and ``"security"`` (the
    security data after ``^``, or None). Values are stripped of their padding; ``flight`` drops
    leading zeros (``0684A`` -> ``684A``); ``seat`` keeps its 4-character form.

    Raises ``ValueError`` for anything malformed: not a string, non-ASCII or control characters,
    wrong format code or leg count, a field out of its form, a size that disagrees with the
    characters that follow, or characters left over.
    """
    if not isinstance(text, str):
        raise ValueError("a BCBP pass is text")  # noqa: TRY004 (callers catch ValueError for any bad pass)
    if any(not (" " <= ch <= "~") for ch in text):
        raise ValueError("a BCBP pass holds printable ASCII only")
    if len(text) < MANDATORY_SIZE:
        raise ValueError(f"a BCBP pass has at least {MANDATORY_SIZE} characters, this one {len(text)}")
    if text[0] != "M":
        raise ValueError(f"format code {text[0]!r} is not 'M'")
    if not text[1].isdigit() or not 1 <= int(text[1]) <= 4:
        raise ValueError(f"number of legs {text[1]!r} is not 1-4")
    legs = int(text[1])
    name = text[2:22]
    if not re.fullmatch(r"[A-Z][A-Z /.\-']*", name):
        raise ValueError(f"passenger name {name!r} is not upper-case letters, left-justified")
    if text[22] not in "E ":
        raise ValueError(f"electronic ticket indicator {text[22]!r} is not 'E' or a space")
    segments, at = [], 23
    for n in range(1, legs + 1):
        leg, at = _leg(text, at, n)
        segments.append(leg)
    version, items = _unique_items(segments[0]["conditional"])
    security = None
    rest = text[at:]
    if rest:
        if rest[0] != "^" or len(rest) < 4:
            raise ValueError(f"{len(rest)} characters after the last leg that are not security data")
        size = _hex(rest[2:4], "security data size")
        if len(rest) != 4 + size:
            raise ValueError(f"security data is {len(rest) - 4} characters, its size field says {size}")
        security = rest[4:]
    return {
        "format": "M",
        "legs": legs,
        "name": name.rstrip(),
        "e_ticket": text[22] == "E",
        **segments[0],
        "version": version,
        "items": items,
        "segments": segments,
        "security": security,
    }
