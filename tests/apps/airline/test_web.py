"""Meridian Air (airline) end to end: the production site on copies of the seeded databases.

Expected values come from the *world* (``flight_booking`` and ``flight`` events, the persona's travel spec),
never from the database: My Trips lists the world's next and past PNRs; the next trip's tickets, flight,
local times with zone abbreviations, seats and fare; a seat change and an online check-in (server clock 23 h
before the next departure) persist and the boarding pass shows the new seat; the downloaded PDF's QR decodes
(pdftoppm + zbarimg, an independent decoder) to a BCBP string whose fields are the booking's
(:func:`builder.files.bcbp.parse`); a booking with the saved card appears at once as a pending line in the
bank's ``card_authorizations``; bad input is refused and changes nothing; the seed is byte-identical and its
counts agree with the world; the tasks hold their contract.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import os
import sqlite3
import subprocess
import urllib.parse
import urllib.request
from pathlib import Path
from zoneinfo import ZoneInfo

from builder.money import money
from builder.world.planted import airline_flights

from tests.app_e2e import Served, run_e2e

HOST = "meridianair.test"


def _utc(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s)


def _clock_zone(iso: str) -> str:
    """``3:55 PM``: the wall clock of an aware ISO time (en-US)."""
    t = dt.datetime.fromisoformat(iso)
    return f"{(t.hour - 1) % 12 + 1}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def _with_zone(iso: str, airport: str) -> str:
    """``3:55 PM PST``: the wall clock with the airport zone's abbreviation at that instant."""
    from builder.reference.places import AIRPORTS

    t = dt.datetime.fromisoformat(iso).astimezone(ZoneInfo(AIRPORTS[airport][3]))
    return f"{_clock_zone(iso)} {t.tzname()}"


def _now_utc(world) -> dt.datetime:
    return world.now.replace(tzinfo=ZoneInfo(world.persona.timezone)).astimezone(dt.UTC)


def airline_legs(world):
    """The world's flight legs as the airline holds them: the planted schedule change applied
    (``builder.world.planted.airline_flights``), every other leg as the world flew or will fly it."""
    moved = airline_flights(world)
    return [dataclasses.replace(f, data=moved.get(f.id, f.data)) for f in world.of_kind("flight")]


def test_the_rebooked_flight_is_the_airlines_next_flight(world):
    """The airline shows the planted schedule change: the rebooked leg a day later under its new number."""
    item = next(x for x in world.planted if x["id"] == "chain/flight-change")
    nf = next_flight(world)
    assert nf.id == item["flight_id"]
    assert (
        nf.data["dep_local"] == item["new_departure"] and nf.data["flight_number"] != nf.data["original_flight_number"]
    )


def test_the_trip_page_tells_of_the_schedule_change(site_build, world, default_layer, tmp_path):
    """The seeded legs keep the flight they replaced; My Trips flags the trip and its page says what changed."""
    from apps.airline.seed import credentials

    item = next(x for x in world.planted if x["id"] == "chain/flight-change")
    old = next(f for f in world.of_kind("flight") if f.id == item["flight_id"]).data["flight_number"]
    new = next(s["new_flight"] for s in item["steps"] if s["step"] == "airline_change")
    cookie = f"ma_session={credentials(world)['session_token']}"
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        con = sqlite3.connect(served.database("airline"))
        rows = con.execute(
            "SELECT flight_number, was_flight_number, was_dep_local FROM segments WHERE world_ref = ?",
            (item["flight_id"],),
        ).fetchall()
        others = con.execute(
            "SELECT COUNT(*) FROM segments WHERE was_flight_number IS NOT NULL AND world_ref NOT IN "
            "(SELECT s.world_ref FROM segments s JOIN bookings b ON b.id = s.booking_id WHERE b.pnr = ?)",
            (item["pnr"],),
        ).fetchone()[0]
        con.close()
        assert rows == [(new, old, item["old_departure"])] and others == 0
        pages = {}
        for path in ("/", f"/trips/{item['pnr']}"):
            req = urllib.request.Request(
                f"http://127.0.0.1:{served.port}{path}", headers={"Host": HOST, "Cookie": cookie}
            )
            with urllib.request.urlopen(req, timeout=60) as r:
                pages[path] = r.read().decode()
    assert 'data-testid="schedule-changed"' in pages["/"]
    trip = pages[f"/trips/{item['pnr']}"]
    assert 'data-testid="schedule-change"' in trip and old in trip and new in trip


def next_flight(world):
    """The world's next flight event after now (the persona's next departure)."""
    now = _now_utc(world)
    return min((f for f in airline_legs(world) if _utc(f.data["dep_utc"]) > now), key=lambda f: f.data["dep_utc"])


def serve_now(world) -> str:
    """23 hours before the next departure, as the persona's local naive ISO time (check-in open)."""
    dep = _utc(next_flight(world).data["dep_utc"]) - dt.timedelta(hours=23)
    return dep.astimezone(ZoneInfo(world.persona.timezone)).replace(tzinfo=None).isoformat()


def world_facts(world) -> dict:
    """Every value the browser test expects, from the world (and the seed's derived credentials and rules)."""
    from apps.airline.seed import FAMILY_BY_NAME, credentials, segment_miles
    from apps.airline.tasks import aisle_letters
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("airline")
    from builder.files.travel_docs import passenger_name

    nf = next_flight(world)
    d = nf.data
    booking = next(b for b in world.of_kind("flight_booking") if b.data["pnr"] == d["pnr"])
    at = dt.datetime.fromisoformat(serve_now(world))
    now = at.replace(tzinfo=ZoneInfo(world.persona.timezone)).astimezone(dt.UTC)
    by_pnr: dict[str, list] = {}
    for f in airline_legs(world):
        by_pnr.setdefault(f.data["pnr"], []).append(f.data)
    ends = {p: max(_utc(x["arr_utc"]) for x in fs) for p, fs in by_pnr.items()}
    starts = {p: min(_utc(x["dep_utc"]) for x in fs) for p, fs in by_pnr.items()}
    upcoming = sorted((p for p in ends if ends[p] > now), key=lambda p: starts[p])
    past = sorted((p for p in ends if ends[p] <= now), key=lambda p: starts[p], reverse=True)
    year = world.persona.as_of.year
    flown = [f.data for f in airline_legs(world) if _utc(f.data["dep_utc"]) <= _now_utc(world)]
    status = sum(
        segment_miles(f["from"], f["to"])
        for f in flown
        if _utc(f["dep_utc"]).astimezone(ZoneInfo(world.persona.timezone)).year == year
    )
    last_year = sum(
        segment_miles(f["from"], f["to"])
        for f in flown
        if _utc(f["dep_utc"]).astimezone(ZoneInfo(world.persona.timezone)).year == year - 1
    )
    from apps.airline.seed import tier_for

    book = next(t for t in tasks(world) if t.id.endswith("/book-flight")).expected
    fam = FAMILY_BY_NAME[booking.data["fare_class"]]
    assert fam
    return {
        "session_token": credentials(world)["session_token"],
        "upcoming_pnrs": upcoming,
        "past_pnrs": past,
        "next": {
            "pnr": d["pnr"],
            "flight_number": d["flight_number"],
            "dep_text": _with_zone(d["dep_local"], d["from"]),
            "arr_text": _with_zone(d["arr_local"], d["to"]),
            "seats": d["seats"],
            "tickets": booking.data["ticket_numbers"],
            "fare_class": booking.data["fare_class"],
            "boarding_group": d["boarding_group"],
            "fare_text": money(booking.data["fare_per_passenger_cents"], world.currency),
            "total_text": money(booking.data["price_cents"], world.currency),
            "aisle_letters": aisle_letters(d["aircraft"]),
            "bcbp_name": passenger_name(world, world.persona.identity.name),
            "from": d["from"],
            "to": d["to"],
            "dep_local": d["dep_local"],
        },
        "loyalty": {
            "number": credentials(world)["username"],
            "tier": tier_for(last_year),
            "status_miles_text": f"{status:,}",
        },
        "book": book,
        "mail_token": _mail_token(world),
    }


def _mail_token(world) -> str:
    from apps.mail.seed import credentials as mail_credentials

    return mail_credentials(world)["session_token"]


def _app_mails(served: Served, pnr: str) -> list[tuple[str, str, dict[str, str]]]:
    """Meridian Air mails the app delivered about ``pnr`` (not seeded): (subject, body, {filename: text}), in order."""
    con = sqlite3.connect(served.database("mail"))
    rows = con.execute(
        "SELECT id, subject, body FROM messages WHERE world_ref IS NULL AND from_email = "
        "'reservations@meridianair.test' AND instr(subject, ?) > 0 ORDER BY id",
        (pnr,),
    ).fetchall()
    out = [
        (
            subj,
            body,
            {
                f: bytes(data).decode()
                for f, data in con.execute(
                    "SELECT filename, content FROM attachments WHERE message_id = ? ORDER BY id", (mid,)
                )
            },
        )
        for mid, subj, body in rows
    ]
    con.close()
    return out


def _post(served: Served, path: str, fields: list[tuple[str, str]], cookie: str, host: str = HOST) -> tuple[int, str]:
    """POST a form on the test server without following redirects: (status, Location)."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):
            return None

    req = urllib.request.Request(
        f"http://127.0.0.1:{served.port}{path}",
        data=urllib.parse.urlencode(fields).encode(),
        headers={"Host": host, "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
        method="POST",
    )
    try:
        with urllib.request.build_opener(NoRedirect).open(req, timeout=60) as res:
            return res.status, res.headers.get("Location", "")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Location", "")


def _get(served: Served, path: str, cookie: str) -> tuple[int, bytes]:
    req = urllib.request.Request(f"http://127.0.0.1:{served.port}{path}", headers={"Host": HOST, "Cookie": cookie})
    try:
        with urllib.request.urlopen(req, timeout=60) as res:
            return res.status, res.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _state(db: Path) -> str:
    """A digest of every row the airline's actions write (bookings, passengers, segments, seats, payments, credits)."""
    con = sqlite3.connect(db)
    rows = [
        con.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
        for t in ("bookings", "passengers", "segments", "seats", "payments", "travel_credits")
    ]
    con.close()
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def _decode_pdf_qr(pdf: Path, tmp: Path) -> str:
    """The first QR code of a PDF's first page, read by zbar from a 200 dpi rendering."""
    subprocess.run(["pdftoppm", "-r", "200", "-png", "-f", "1", "-l", "1", str(pdf), str(tmp / "page")], check=True)
    png = min(tmp.glob("page*.png"))
    out = subprocess.run(["zbarimg", "--raw", "-q", str(png)], capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()[0]


def test_airline_web_end_to_end(site_build, world, default_layer, tmp_path):
    from apps.airline.seed import credentials
    from builder.files import bcbp

    facts = world_facts(world)
    cookie = f"ma_session={credentials(world)['session_token']}"
    n = facts["next"]
    with Served(default_layer, tmp_path, now=serve_now(world)) as served:
        db = served.database("airline")
        con = sqlite3.connect(db)
        seg_id, pax_id = con.execute(
            """SELECT s.id, t.passenger_id FROM segments s JOIN bookings b ON b.id = s.booking_id JOIN seats t ON t.segment_id = s.id
               JOIN passengers p ON p.id = t.passenger_id WHERE b.pnr = ? AND s.direction = 'outbound' AND p.position = 0
               ORDER BY s.dep_utc LIMIT 1""",
            (n["pnr"],),
        ).fetchone()
        ret_id = con.execute(
            "SELECT s.id FROM segments s JOIN bookings b ON b.id = s.booking_id WHERE b.pnr = ? "
            "AND s.direction = 'return' ORDER BY s.dep_utc LIMIT 1",
            (n["pnr"],),
        ).fetchone()[0]
        con.close()

        # Bad input first: refused with a message, nothing changes.
        before = _state(db)
        bad = [
            (
                "/api/seat",
                [("pnr", "ZZZZZZ"), ("segment", str(seg_id)), ("passenger", str(pax_id)), ("seat", "12C")],
                "find a trip",
            ),
            (
                "/api/seat",
                [("pnr", n["pnr"]), ("segment", str(seg_id)), ("passenger", str(pax_id)), ("seat", "88Q")],
                "does not exist",
            ),
            (
                "/api/seat",
                [
                    ("pnr", n["pnr"]),
                    ("segment", str(seg_id)),
                    ("passenger", str(pax_id)),
                    ("seat", n["seats"][1] if len(n["seats"]) > 1 else "1Z"),
                ],
                "seat",
            ),
            ("/api/checkin", [("pnr", n["pnr"]), ("segment", str(ret_id))], "opens 24 hours"),
            ("/api/checkin", [("pnr", "ZZZZZZ"), ("segment", str(seg_id))], "find a trip"),
            (
                "/api/bookings",
                [
                    ("origin", facts["book"]["origin"]),
                    ("destination", facts["book"]["destination"]),
                    ("out", facts["book"]["option"]),
                    ("family", "MAIN"),
                    ("card", "1"),
                    ("companion", '<script>alert("x")</script> Raman'),
                ],
                "name",
            ),
            (
                "/api/bookings",
                [("origin", "PDX"), ("destination", "XXX"), ("out", "1@2026-01-01"), ("family", "MAIN"), ("card", "1")],
                "schedule",
            ),
            ("/api/cancel", [("pnr", "ZZZZZZ"), ("confirm", "yes")], "find a trip"),
        ]
        for path, fields, words in bad:
            status, location = _post(served, path, fields, cookie)
            assert status == 303 and "error=" in location, (path, fields, status, location)
            assert words.lower() in urllib.parse.unquote_plus(location).lower(), (path, location)
        # An absurd traveller count is refused on the results page, not capped at six.
        b = facts["book"]
        for pax in ("40", "0", "-3", "2.5"):
            status, html = _get(
                served, f"/book/results?from={b['origin']}&to={b['destination']}&date={b['date']}&pax={pax}", cookie
            )
            assert status == 200 and b"Book 1 to 6 travelers at a time" in html, pax
        assert _state(db) == before
        bank_db = served.database("bank")
        assert sqlite3.connect(bank_db).execute("SELECT COUNT(*) FROM card_authorizations").fetchone() == (0,)

        print(run_e2e("airline", facts, served, tmp_path)[-4000:])
        screens = Path(os.environ.get("APP_ARTIFACTS_DIR", tmp_path)) / "airline-screens"
        new_seat = (screens / "new-seat.txt").read_text()
        booked = json.loads((screens / "booked.json").read_text())

        con = sqlite3.connect(db)
        # The seat change and the check-in persisted.
        seat, checked, seq, changed = con.execute(
            "SELECT seat, checked_in_at, sequence, changed_at FROM seats WHERE segment_id = ? AND passenger_id = ?",
            (seg_id, pax_id),
        ).fetchone()
        assert seat == new_seat and changed and checked and seq
        # The booking charged the saved card: one pending line in the bank, same amount, same reference.
        b_total, b_pnr, b_card = con.execute(
            "SELECT b.total_cents, b.pnr, c.last4 FROM bookings b JOIN cards c ON c.id = b.card_id WHERE b.world_ref IS NULL"
        ).fetchone()
        con.close()
        assert b_pnr == booked["pnr"] and money(b_total, world.currency) == booked["total"]
        bank = sqlite3.connect(bank_db)
        lines = bank.execute(
            "SELECT a.kind, c.app, c.reference, c.amount_cents, c.status, c.kind FROM card_authorizations c "
            "JOIN accounts a ON a.id = c.account_id"
        ).fetchall()
        assert lines == [
            (
                "credit_card" if b_card == _card_last4(world, "credit_card") else "checking",
                "airline",
                b_pnr,
                b_total,
                "pending",
                "charge",
            )
        ]
        bank.close()

        # The confirmation arrived in the mail app (with the flights' calendar).
        mail = sqlite3.connect(served.database("mail"))
        got = mail.execute(
            "SELECT from_email, has_attachments FROM messages WHERE instr(subject, ?) > 0 AND folder = 'inbox'",
            (b_pnr,),
        ).fetchall()
        mail.close()
        assert got == [("reservations@meridianair.test", 1)]
        import icalendar

        ((subject, body, files),) = _app_mails(served, b_pnr)
        assert (
            subject
            == f"Booking confirmed: {facts['book']['origin']} to {_city(db, facts['book']['destination'])} - confirmation {b_pnr}"
        )
        assert f"Confirmation code (PNR): {b_pnr}" in body and booked["total"] in body
        raw = files[f"{b_pnr}.ics"]
        assert all(len(line.encode()) <= 75 for line in raw.split("\r\n")) and raw.endswith("\r\n")
        cal = icalendar.Calendar.from_ical(raw)
        con = sqlite3.connect(db)
        legs = con.execute(
            "SELECT s.flight_number, s.origin, s.destination, s.dep_utc, s.arr_utc FROM segments s JOIN bookings b "
            "ON b.id = s.booking_id WHERE b.pnr = ? ORDER BY s.position",
            (b_pnr,),
        ).fetchall()
        con.close()
        events = cal.walk("VEVENT")
        assert str(cal["METHOD"]) == "PUBLISH" and len(events) == len(legs)
        for k, (ev, (number, o, dst, dep, arr)) in enumerate(zip(events, legs), start=1):
            assert str(ev["UID"]) == f"{b_pnr}-{k}@meridianair.test"
            assert str(ev["SUMMARY"]) == f"Flight {number} {o} → {dst}"
            assert ev["DTSTART"].dt == _utc(dep) and ev["DTEND"].dt == _utc(arr)

        # Change the new booking's flight to the next departure that day: the fare difference is charged on the card
        # or kept as travel credit (Economy), and the segment moves.
        from apps.airline.seed import world_route

        book = facts["book"]
        numbers, _ = world_route(world, book["origin"], book["destination"])
        option = f"{numbers[1]}@{book['date']}"
        assert (
            _post(served, "/api/change", [("pnr", "ZZZZZZ"), ("direction", "outbound"), ("option", option)], cookie)[
                1
            ].count("error=")
            == 1
        )
        assert (
            "error="
            in _post(served, "/api/change", [("pnr", n["pnr"]), ("direction", "outbound"), ("option", option)], cookie)[
                1
            ]
            or n["fare_class"] != "Basic Economy"
        )
        status, location = _post(
            served, "/api/change", [("pnr", b_pnr), ("direction", "outbound"), ("option", option)], cookie
        )
        assert status == 303 and "changed=" in location, location
        diff = int(urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)["changed"][0])
        con = sqlite3.connect(db)
        assert con.execute(
            "SELECT s.flight_number FROM segments s JOIN bookings b ON b.id = s.booking_id WHERE b.pnr = ?", (b_pnr,)
        ).fetchall() == [(f"MR {numbers[1]}",)]
        credit = con.execute("SELECT COALESCE(SUM(amount_cents), 0) FROM travel_credits").fetchone()[0]
        con.close()
        bank = sqlite3.connect(bank_db)
        extra = bank.execute(
            "SELECT COALESCE(SUM(amount_cents), 0) FROM card_authorizations WHERE reference != ?", (b_pnr,)
        ).fetchone()[0]
        bank.close()
        assert (extra, credit) == ((diff, 0) if diff > 0 else (0, -diff))
        # The changed itinerary was mailed, with the calendar file updating the same entry (same UID, SEQUENCE up).
        subject, body, files = _app_mails(served, b_pnr)[1]
        assert subject == f"Your itinerary has changed - confirmation {b_pnr}"
        assert f"MR {numbers[1]}" in body
        assert (
            ("Fare difference charged to" in body and money(diff, world.currency) in body)
            if diff > 0
            else (
                f"kept as travel credit: {money(-diff, world.currency)}" in body
                if diff < 0
                else "There is no fare difference." in body
            )
        )
        ev = icalendar.Calendar.from_ical(files[f"{b_pnr}.ics"]).walk("VEVENT")[0]
        con = sqlite3.connect(db)
        new_dep = con.execute(
            "SELECT s.dep_utc FROM segments s JOIN bookings b ON b.id = s.booking_id WHERE b.pnr = ?", (b_pnr,)
        ).fetchone()[0]
        con.close()
        assert (
            str(ev["UID"]) == f"{b_pnr}-1@meridianair.test"
            and int(ev["SEQUENCE"]) >= 1
            and ev["DTSTART"].dt == _utc(new_dep)
        )

        # Cancel it (Economy: travel credit worth what was paid), then book the first departure again paying with
        # the credit: the card is not charged again and the credit goes down by the fare.
        status, location = _post(served, "/api/cancel", [("pnr", b_pnr), ("confirm", "yes")], cookie)
        assert status == 303 and "cancelled=credit" in location, location
        con = sqlite3.connect(db)
        paid = con.execute("SELECT total_cents FROM bookings WHERE pnr = ?", (b_pnr,)).fetchone()[0]
        available = con.execute("SELECT SUM(amount_cents) FROM travel_credits").fetchone()[0]
        con.close()
        assert available == paid, "the change's credit and the cancellation's together are what was paid"
        # The cancellation was mailed with the credit it left.
        subject, body, files = _app_mails(served, b_pnr)[2]
        assert subject == f"Your trip is cancelled - confirmation {b_pnr}" and not files
        assert f"travel credit of {money(paid - credit, world.currency)}" in body
        _mail_screens(served, tmp_path, b_pnr)
        status, location = _post(
            served,
            "/api/bookings",
            [
                ("origin", book["origin"]),
                ("destination", book["destination"]),
                ("out", book["option"]),
                ("family", "MAIN"),
                ("card", "1"),
                ("credit", "yes"),
            ],
            cookie,
        )
        assert status == 303 and "booked=1" in location, location
        con = sqlite3.connect(db)
        again = con.execute(
            "SELECT total_cents FROM bookings WHERE world_ref IS NULL AND status = 'upcoming'"
        ).fetchone()[0]
        assert con.execute("SELECT SUM(amount_cents) FROM travel_credits").fetchone()[0] == available - again
        con.close()
        bank = sqlite3.connect(bank_db)
        assert bank.execute("SELECT COUNT(*) FROM card_authorizations").fetchone()[0] == 1 + (diff > 0)
        bank.close()

        # The downloaded PDF's QR is the booking's BCBP string, read by an independent decoder.
        text = _decode_pdf_qr(screens / "boarding-pass.pdf", tmp_path)
        assert text == (screens / "bcbp.txt").read_text()
        f = bcbp.parse(text)
        dep = dt.datetime.fromisoformat(n["dep_local"])
        assert len(text.split(">")[0]) == 60
        assert (f["name"].strip(), f["pnr"].strip(), f["from"], f["to"], f["carrier"].strip()) == (
            n["bcbp_name"],
            n["pnr"],
            n["from"],
            n["to"],
            "MR",
        )
        assert int(str(f["flight"]).strip().rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ") or 0) == int(
            n["flight_number"].split()[1]
        )
        assert int(f["julian_date"]) == dep.timetuple().tm_yday
        assert f["seat"].lstrip("0") == new_seat and int(f["sequence"]) == seq


def _mail_screens(served: Served, tmp: Path, pnr: str) -> None:
    """Screenshots of the change and cancellation mails (apps/airline/web/e2e/mails.mjs, the e2e's environment)."""
    from tests.app_e2e import CHROMIUM, app

    web = app("airline").dir / "web"
    env = dict(
        os.environ,
        APP_FACTS=str(tmp / "airline-facts.json"),
        SITE_PORT=str(served.port),
        CHROMIUM_PATH=CHROMIUM,
        APP_ARTIFACTS=str(Path(os.environ.get("APP_ARTIFACTS_DIR", tmp)) / "airline-screens"),
    )
    run = subprocess.run(
        ["node", "e2e/mails.mjs", pnr], check=False, cwd=web, env=env, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]


def _city(db: Path, code: str) -> str:
    con = sqlite3.connect(db)
    city = con.execute("SELECT city FROM airports WHERE code = ?", (code,)).fetchone()[0]
    con.close()
    return city


def _card_last4(world, kind: str) -> str:
    from builder.world import payment_cards

    return next(c["last4"] for c in payment_cards(world) if c["account"] == kind)


def test_seed_is_byte_identical_and_agrees_with_the_world(world, tmp_path):
    from apps.airline.seed import seed

    a, b = seed(world, tmp_path / "a.sqlite"), seed(world, tmp_path / "b.sqlite")
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()
    con = sqlite3.connect(a)
    bookings = world.of_kind("flight_booking")
    flights = world.of_kind("flight")  # the schedule keeps the world's own numbers (not a rebooked one)
    assert con.execute("SELECT COUNT(*) FROM bookings").fetchone()[0] == len(bookings)
    assert con.execute("SELECT COUNT(*) FROM segments").fetchone()[0] == len(flights)
    assert con.execute("SELECT COUNT(*) FROM passengers").fetchone()[0] == sum(
        len(b.data["passengers"]) for b in bookings
    )
    assert sorted(r[0] for r in con.execute("SELECT ticket_number FROM passengers")) == sorted(
        t for b in bookings for t in b.data["ticket_numbers"]
    )
    # Every fare splits exactly into base, taxes and carrier fees.
    for pnr, fare, base, tax, fees, total in con.execute(
        "SELECT pnr, fare_per_passenger_cents, base_fare_cents, taxes_cents, carrier_fees_cents, total_cents FROM bookings"
    ):
        world_b = next(b for b in bookings if b.data["pnr"] == pnr)
        assert (
            base + tax + fees == fare == world_b.data["fare_per_passenger_cents"]
            and total == world_b.data["price_cents"]
        )
    # Seats are the world's, in passenger order; flown legs checked in with the files' sequence numbers.
    from builder.files.travel_docs import checkin_sequence

    for f in flights:
        rows = con.execute(
            "SELECT t.seat, t.sequence FROM seats t JOIN passengers p ON p.id = t.passenger_id "
            "JOIN segments s ON s.id = t.segment_id WHERE s.world_ref = ? ORDER BY p.position",
            (f.id,),
        ).fetchall()
        assert [s for s, _ in rows] == f.data["seats"]
        if _utc(f.data["dep_utc"]) <= _now_utc(world):
            assert [q for _, q in rows] == [checkin_sequence(world, f.data, name) for name in f.data["passengers"]]
        else:
            assert all(q is None for _, q in rows)
    # The world's routes keep their flight numbers in the schedule.
    for f in flights:
        row = con.execute(
            "SELECT numbers FROM routes WHERE origin = ? AND destination = ? AND via IS NULL",
            (f.data["from"], f.data["to"]),
        ).fetchone()
        assert row and f.data["flight_number"].split()[1] in row[0].split(","), f.data["flight_number"]
    con.close()


def test_tasks_contract(world):
    """≥ 8 tasks, ≥ 3 actions, ≥ 4 spanning two apps (tests/tasks/test_oracles.py runs the actions' reference solutions)."""
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("airline")

    ts = tasks(world)
    actions = [t for t in ts if t.kind == "action"]
    assert len(ts) >= 8 and len(actions) >= 3 and sum(len(t.apps_involved) > 1 for t in ts) >= 4
