"""Bramblestay (apps/stays) end to end: the production site on copies of the seeded databases.

Expected values come from the *world* (its ``hotel_booking`` / ``hotel_checkout`` events) and from the
documented price function (``apps/stays/web/lib/rates.ts``, re-computed here from the inventory), never
from the app's database. The site is served with its clock at the world's now (``Served(..., now=...)``)
so "upcoming", check-in windows and free-cancellation deadlines are judged against the frozen clock.
After the browser run the test reads what the app left behind: its bookings and the bank's pending card
authorisations (a charge per booking, a refund only for the cancellation inside the window).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import http.client
import sqlite3
import urllib.parse
from zoneinfo import ZoneInfo

import pytest

from builder.reference.lodging.rates import card_cents, quote
from builder.money import money
from builder.reference.places import reference_rate

from tests.app_e2e import Served, run_e2e

HOST = "bramblestay.test"


def world_facts(world) -> dict:
    """Every value the browser tests expect, from the world and the inventory."""
    from apps.stays.inventory import inventory
    from builder.reference.lodging.inventory import canonical_city
    from apps.stays.seed import credentials

    cur = world.currency
    today = world.now.date()
    checkouts = {e.data["confirmation"]: e for e in world.of_kind("hotel_checkout") if e.status == "done"}
    bookings = []
    for e in world.of_kind("hotel_booking"):
        d = e.data
        past = dt.date.fromisoformat(d["check_out"]) <= today
        # Bramblestay shows a stay in its city's currency (the world's ``price``); the card was charged
        # ``total_cents`` in its own at the world's rate.
        local, lcur = d["price"], d["currency"]
        bookings.append(
            {
                "confirmation": d["confirmation"],
                "city": canonical_city(d["city"]),
                "hotel": d["hotel"],
                "check_in": d["check_in"],
                "check_out": d["check_out"],
                "total_cents": local["total_cents"],
                "total_text": money(local["total_cents"], lcur),
                "nightly_text": money(local["nightly_cents"], lcur),
                "state": "past" if past else "upcoming",
                "charged": checkouts[d["confirmation"]].postings[0].amount_cents == -d["total_cents"]
                if d["confirmation"] in checkouts
                else None,
            }
        )
    upcoming = [b for b in bookings if b["state"] == "upcoming"]
    past = [b for b in bookings if b["state"] == "past"]
    # The stay to review: the latest past stay (the seed reviews only stays older than 180 days).
    to_review = past[-1]
    reviewed = [b for b in past if (world.now - checkouts[b["confirmation"]].at).days > 180]

    inv = {c["name"]: c for c in inventory(world)}
    city_name = "Lisbon" if "Lisbon" in inv else min(inv)
    city = inv[city_name]
    rental = next(p for p in city["properties"] if p["kind"] == "rental")
    hotel = next(p for p in city["properties"] if p["kind"] == "hotel" and not p["chain"])
    a_in, a_nights = today + dt.timedelta(days=30), 3
    b_in, b_nights = today + dt.timedelta(days=1), 2
    a = quote(rental, rental["rooms"][0], city, a_in, a_nights, rental["policy"])
    king = next(r for r in hotel["rooms"] if r["name"] == "King Room")
    b = quote(hotel, king, city, b_in, b_nights, hotel["policy"])
    # Change dates of the rental booking (see the e2e test): first blocked by a second booking of the same
    # room, then moved a day later and longer (charge the difference), then shortened (refund the difference).
    c_in = a_in + dt.timedelta(days=1)
    longer = quote(rental, rental["rooms"][0], city, c_in, 4, rental["policy"])
    shorter = quote(rental, rental["rooms"][0], city, c_in, 2, rental["policy"])
    blocker_in = a_in + dt.timedelta(days=5)
    blocker = quote(rental, rental["rooms"][0], city, blocker_in, 2, rental["policy"])
    nr_in = today + dt.timedelta(days=60)
    nonref = quote(hotel, king, city, nr_in, 2, "nonrefundable")
    lcur = city["currency"]
    rate = reference_rate(lcur, cur)

    def card(local_cents: int) -> int:
        return card_cents(local_cents, rate)

    creds = credentials(world)
    p = world.persona
    return {
        "username": creds["username"],
        "password": creds["password"],
        "session_token": creds["session_token"],
        "full_name": p.identity.name,
        "first_name": p.identity.name.split()[0],
        "today": today.isoformat(),
        "bookings": bookings,
        "upcoming": [b["confirmation"] for b in upcoming],
        "past": [b["confirmation"] for b in past],
        "reviewed": [b["confirmation"] for b in reviewed],
        "to_review": to_review["confirmation"],
        "search": {
            "city": city_name,
            "count": len(city["properties"]),
            "rentals": sum(x["kind"] == "rental" for x in city["properties"]),
            "checkin": (today + dt.timedelta(days=30)).isoformat(),
            "checkout": (today + dt.timedelta(days=33)).isoformat(),
        },
        "rental": {
            "slug": rental["slug"],
            "name": rental["name"],
            "host": rental["host_name"],
            "sleeps": rental["rooms"][0]["sleeps"],
            "checkin": a_in.isoformat(),
            "checkout": (a_in + dt.timedelta(days=a_nights)).isoformat(),
            "plan": rental["policy"],
            "total_cents": a["total_cents"],
            "total_text": money(a["total_cents"], lcur),
            "card_cents": card(a["total_cents"]),
            "card_text": money(card(a["total_cents"]), cur),
        },
        "late": {
            "slug": hotel["slug"],
            "name": hotel["name"],
            "checkin": b_in.isoformat(),
            "checkout": (b_in + dt.timedelta(days=b_nights)).isoformat(),
            "plan": hotel["policy"],
            "room": king["name"],
            "total_cents": b["total_cents"],
            "total_text": money(b["total_cents"], lcur),
            "card_cents": card(b["total_cents"]),
        },
        "change": {
            "checkin": c_in.isoformat(),
            "long_out": (c_in + dt.timedelta(days=4)).isoformat(),
            "short_out": (c_in + dt.timedelta(days=2)).isoformat(),
            "blocked_out": (c_in + dt.timedelta(days=5)).isoformat(),
            "long_cents": longer["total_cents"],
            "short_cents": shorter["total_cents"],
            "up_cents": longer["total_cents"] - a["total_cents"],
            "down_cents": longer["total_cents"] - shorter["total_cents"],
            "up_text": money(longer["total_cents"] - a["total_cents"], lcur),
            "down_text": money(longer["total_cents"] - shorter["total_cents"], lcur),
            "short_text": money(shorter["total_cents"], lcur),
            "up_card": card(longer["total_cents"] - a["total_cents"]),
            "down_card": card(longer["total_cents"] - shorter["total_cents"]),
            "short_card": card(shorter["total_cents"]),
            "long_card": card(longer["total_cents"]),
            "up_card_text": money(card(longer["total_cents"] - a["total_cents"]), cur),
            "down_card_text": money(card(longer["total_cents"] - shorter["total_cents"]), cur),
            "short_card_text": money(card(shorter["total_cents"]), cur),
            "blocker_in": blocker_in.isoformat(),
            "blocker_out": (blocker_in + dt.timedelta(days=2)).isoformat(),
            "blocker_cents": blocker["total_cents"],
            "blocker_card": card(blocker["total_cents"]),
        },
        "nonref": {
            "slug": hotel["slug"],
            "room": king["name"],
            "checkin": nr_in.isoformat(),
            "checkout": (nr_in + dt.timedelta(days=2)).isoformat(),
            "total_cents": nonref["total_cents"],
            "card_cents": card(nonref["total_cents"]),
        },
        "austin": upcoming[0]["confirmation"] if upcoming else None,
        "card_label": f"Visa •••• {_card(world)['last4']}",
        "mail_token": _mail_token(world),
        "bank": _bank_facts(world),
    }


def _bank_facts(world) -> dict:
    """Where the bank shows the card's pending lines: the signed-in cookie and the card account's page."""
    from apps.bank.seed import credentials as bank_credentials

    kind = _card(world)["account"]
    account_id = 1 + [a.kind for a in world.persona.accounts].index(kind)
    return {"token": bank_credentials(world)["session_token"], "url": f"http://larkspurbank.test/accounts/{account_id}"}


def _mail_token(world) -> str:
    from apps.mail.seed import credentials as mail_credentials

    return mail_credentials(world)["session_token"]


def _card(world) -> dict:
    from builder.world import payment_cards

    return payment_cards(world)[0]


def test_stays_seed_matches_world_and_is_byte_identical(world, tmp_path):
    """The seed's bookings are the world's (count, confirmation, dates, total = the check-out charge), every
    world hotel is in the inventory with the world's address and rate, and two seeds are byte-identical."""
    from apps.stays.seed import seed

    a, b = seed(world, tmp_path / "a.sqlite"), seed(world, tmp_path / "b.sqlite")
    assert hashlib.sha256(a.read_bytes()).hexdigest() == hashlib.sha256(b.read_bytes()).hexdigest()
    con = sqlite3.connect(a)
    rows = con.execute(
        "SELECT b.confirmation, b.check_in, b.check_out, b.total_cents, b.subtotal_cents + b.taxes_cents "
        "+ b.fees_cents, p.name, p.address, b.world_ref FROM bookings b JOIN properties p ON p.id = "
        "b.property_id ORDER BY b.id"
    ).fetchall()
    events = [e for e in world.of_kind("hotel_booking") if e.status == "done"]
    assert len(rows) == len(events) > 0
    checkouts = {e.data["confirmation"]: e for e in world.of_kind("hotel_checkout") if e.status == "done"}
    for row, e in zip(rows, events, strict=True):
        d = e.data
        assert row[:4] == (d["confirmation"], d["check_in"], d["check_out"], d["price"]["total_cents"])
        assert row[4] == row[3] and row[5:] == (d["hotel"], d["address"], e.id)
        if d["confirmation"] in checkouts:
            assert -checkouts[d["confirmation"]].postings[0].amount_cents == d["total_cents"], "the card's charge"
    # Inventory: >= 8 properties and >= 3 rentals with a host per city.
    for name, n, rentals in con.execute(
        "SELECT c.name, COUNT(*), SUM(p.kind = 'rental' AND p.host_name IS NOT NULL) FROM properties p "
        "JOIN cities c ON c.id = p.city_id GROUP BY c.id"
    ):
        assert n >= 8 and rentals >= 3, name
    # History visits go to the app's real pages: a search of the booking's city, the trip page of a world booking.
    from apps.stays.seed import visits

    confs = {e.data["confirmation"] for e in events}
    seen = visits(world)
    assert seen and all(v["at"] <= world.now for v in seen) and seen == sorted(seen, key=lambda v: (v["at"], v["url"]))
    for v in seen:
        path = urllib.parse.urlsplit(v["url"]).path
        assert path == "/search" or (path.startswith("/trips/") and path.removeprefix("/trips/") in confs), v
    held = con.execute("SELECT COUNT(*) FROM booking_nights").fetchone()[0]
    assert held == sum(e.data["nights"] for e in events)
    con.close()


def test_stays_every_persona_seeds(any_world, tmp_path):
    """Every shipped persona seeds (a destination spelled in German, a persona without trips)."""
    from apps.stays.seed import seed

    _, world = any_world
    con = sqlite3.connect(seed(world, tmp_path / "s.sqlite"))
    n = con.execute("SELECT COUNT(*) FROM bookings").fetchone()[0]
    assert n == sum(e.status == "done" for e in world.of_kind("hotel_booking"))
    con.close()


def test_stays_web_end_to_end(site_build, world, default_layer, tmp_path):
    facts = world_facts(world)
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        print(run_e2e("stays", facts, served, tmp_path)[-6000:])
        _check_state(served, world, facts)


def _check_state(served: Served, world, facts: dict) -> None:
    """What the browser run left: the rental (changed twice, then cancelled inside the window: refunded), the
    booking that blocked its first change, a non-refundable booking, the late cancellation (no refund); the bank
    holds a pending charge per booking and change, a refund for the shorter change and the free cancellation only;
    the changes are recorded; every action mailed the persona (confirmation with the stay's .ics, new dates with
    the updated .ics, cancellation with the refund or "No refund")."""
    con = sqlite3.connect(served.database("stays"))
    made = con.execute(
        "SELECT confirmation, status, total_cents, refund_cents, payment, authorization, property_id, id "
        "FROM bookings WHERE world_ref IS NULL ORDER BY id"
    ).fetchall()
    assert [m[1] for m in made] == ["cancelled", "confirmed", "confirmed", "cancelled"], made
    (
        (a_conf, _, a_total, a_refund, *_, a_id),
        (k_conf, *_),
        (n_conf, _, n_total, *_),
        (b_conf, _, b_total, b_refund, *_),
    ) = made
    c = facts["change"]
    assert (a_total, a_refund) == (c["short_cents"], c["short_cents"])
    assert (b_total, b_refund) == (facts["late"]["total_cents"], 0)
    assert n_total == facts["nonref"]["total_cents"]
    held = con.execute(
        "SELECT b.confirmation, COUNT(*) FROM booking_nights bn JOIN bookings b ON b.id = bn.booking_id "
        "WHERE b.world_ref IS NULL GROUP BY b.id ORDER BY b.id"
    ).fetchall()
    assert held == [(k_conf, 2), (n_conf, 2)], "cancelled bookings hold no nights"
    changes = con.execute(
        "SELECT old_check_in, old_check_out, new_check_in, new_check_out, old_total_cents, new_total_cents, "
        "difference_cents, reference FROM booking_changes WHERE booking_id = ? ORDER BY id",
        (a_id,),
    ).fetchall()
    r = facts["rental"]
    assert changes == [
        (
            r["checkin"],
            r["checkout"],
            c["checkin"],
            c["long_out"],
            r["total_cents"],
            c["long_cents"],
            c["up_cents"],
            f"{a_conf}-C1",
        ),
        (
            c["checkin"],
            c["long_out"],
            c["checkin"],
            c["short_out"],
            c["long_cents"],
            c["short_cents"],
            -c["down_cents"],
            f"{a_conf}-C2",
        ),
    ]
    assert con.execute("SELECT COUNT(*) FROM booking_changes").fetchone()[0] == 2, "only the changes made here"
    review = con.execute(
        "SELECT r.rating, r.body FROM reviews r JOIN bookings b ON b.id = r.booking_id "
        "WHERE b.confirmation = ? AND r.world_ref IS NULL",
        (facts["to_review"],),
    ).fetchall()
    assert len(review) == 1 and review[0][0] == 5
    msgs = con.execute(
        "SELECT m.sender, m.body FROM messages m JOIN threads t ON t.id = m.thread_id "
        "JOIN bookings b ON b.id = t.booking_id WHERE b.confirmation = ? ORDER BY m.id",
        (a_conf,),
    ).fetchall()
    assert [m[0] for m in msgs] == ["guest", "host"] and "<b>" in msgs[0][1], "stored verbatim, answered"
    con.close()
    bank = sqlite3.connect(served.database("bank"))
    lines = bank.execute(
        "SELECT kind, reference, amount_cents, status FROM card_authorizations WHERE app = 'stays' ORDER BY id"
    ).fetchall()
    bank.close()
    assert lines == [
        ("charge", a_conf, r["card_cents"], "pending"),
        ("charge", k_conf, c["blocker_card"], "pending"),
        ("charge", f"{a_conf}-C1", c["up_card"], "pending"),
        ("refund", f"{a_conf}-C2", c["down_card"], "pending"),
        ("charge", n_conf, facts["nonref"]["card_cents"], "pending"),
        ("refund", a_conf, c["short_card"], "pending"),
        ("charge", b_conf, facts["late"]["card_cents"], "pending"),
    ], lines
    _check_mails(served, world, facts, [a_conf, k_conf, n_conf, b_conf])


def _app_mails(served: Served, sender: str) -> list[tuple[str, str, dict[str, str]]]:
    """Mails the apps delivered (not seeded) from ``sender``: (subject, body, {attachment filename: text})."""
    con = sqlite3.connect(served.database("mail"))
    rows = con.execute(
        "SELECT id, subject, body FROM messages WHERE world_ref IS NULL AND from_email = ? ORDER BY id", (sender,)
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


def _check_mails(served: Served, world, facts: dict, confs: list[str]) -> None:
    """The Bramblestay mails of the browser run, in order, with their amounts and calendar files."""
    import icalendar

    from apps.stays.inventory import inventory

    a_conf, _, _, b_conf = confs
    zone = ZoneInfo(next(c["zone"] for c in inventory(world) if c["name"] == facts["search"]["city"]))
    mails = _app_mails(served, "reservations@bramblestay.test")
    by_subject = {m[0]: m for m in mails}
    r, c = facts["rental"], facts["change"]
    booked = [m for m in mails if m[0].startswith("Reservation confirmed: ")]
    assert [m[0].rsplit("#", 1)[1].rstrip(")") for m in booked] == confs
    first = booked[0]
    assert r["name"] in first[0] and f"Confirmation number: {a_conf}" in first[1] and r["total_text"] in first[1]
    ics = first[2][f"reservation-{a_conf}.ics"]
    ev = icalendar.Calendar.from_ical(ics).walk("VEVENT")[0]
    assert str(ev["UID"]) == f"{a_conf}@bramblestay.test"
    assert ev["DTSTART"].dt == dt.datetime.combine(dt.date.fromisoformat(r["checkin"]), dt.time(15), zone)
    assert ev["DTEND"].dt == dt.datetime.combine(dt.date.fromisoformat(r["checkout"]), dt.time(11), zone)
    assert all(len(line.encode()) <= 75 for line in ics.split("\r\n"))
    changed = [
        m for m in mails if m[0].startswith("Your reservation has new dates: ") and m[0].endswith(f"(#{a_conf})")
    ]
    assert len(changed) == 2
    assert f"charged the difference of {c['up_text']}" in changed[0][1]
    assert f"refunded the difference of {c['down_text']}" in changed[1][1]
    for m, out, seq in ((changed[0], c["long_out"], 1), (changed[1], c["short_out"], 2)):
        ev = icalendar.Calendar.from_ical(m[2][f"reservation-{a_conf}.ics"]).walk("VEVENT")[0]
        assert str(ev["UID"]) == f"{a_conf}@bramblestay.test" and int(ev["SEQUENCE"]) == seq
        assert ev["DTSTART"].dt == dt.datetime.combine(dt.date.fromisoformat(c["checkin"]), dt.time(15), zone)
        assert ev["DTEND"].dt == dt.datetime.combine(dt.date.fromisoformat(out), dt.time(11), zone)
    cancelled_a = by_subject[f"Your reservation is cancelled: {r['name']} (#{a_conf})"]
    assert f"Refund: {c['short_text']}" in cancelled_a[1] and not cancelled_a[2]
    cancelled_b = by_subject[f"Your reservation is cancelled: {facts['late']['name']} (#{b_conf})"]
    assert "No refund" in cancelled_b[1] and facts["late"]["total_text"] in cancelled_b[1]


def test_pay_at_property_cancellation_after_deadline(site_build, world, default_layer, tmp_path):
    """With the clock an hour past the world's upcoming stay's free-cancellation deadline (48 h before 15:00 at the
    hotel), cancelling it costs the first night with its tax, charged through the bank; nothing is refunded and
    the nights are released."""
    from apps.stays.inventory import inventory
    from apps.stays.seed import bookings, cancel_deadline, credentials

    today = world.now.date()
    up = next((b for b in bookings(world) if dt.date.fromisoformat(b["check_in"]) > today), None)
    if up is None:
        pytest.skip("no upcoming stay in the world")
    zone = next(c["zone"] for c in inventory(world) if c["name"] == up["city"])
    late = dt.datetime.fromisoformat(cancel_deadline(up["check_in"], zone, world.persona.timezone)) + dt.timedelta(
        hours=1
    )
    # In the stay's own currency (the booking's price), charged to the card at the site's reference rate.
    subtotal = up["price"]["subtotal_cents"]
    first = int(subtotal / up["nights"] + 0.5)
    fee = first + int(up["price"]["taxes_cents"] * first / subtotal + 0.5)
    fee_card = card_cents(fee, reference_rate(up["currency"], world.currency))
    cookie = f"bs_session={credentials(world)['session_token']}"
    with Served(default_layer, tmp_path, now=late.isoformat()) as served:
        status, location = _post(
            served, "/api/cancel", [("confirmation", up["confirmation"]), ("confirm", "yes")], cookie
        )
        assert status == 303 and "cancelled=1" in location, location
        con = sqlite3.connect(served.database("stays"))
        row = con.execute(
            "SELECT status, refund_cents, cancel_fee_cents, (SELECT COUNT(*) FROM booking_nights n "
            "WHERE n.booking_id = b.id) FROM bookings b WHERE confirmation = ?",
            (up["confirmation"],),
        ).fetchone()
        con.close()
        assert row == ("cancelled", 0, fee, 0)
        bank = sqlite3.connect(served.database("bank"))
        lines = bank.execute(
            "SELECT kind, reference, amount_cents FROM card_authorizations WHERE app = 'stays'"
        ).fetchall()
        bank.close()
        assert lines == [("charge", f"{up['confirmation']}-X", fee_card)]


def test_change_dates_of_a_world_booking_paid_at_the_property(site_build, world, default_layer, tmp_path):
    """The world's upcoming stay (paid at the property) moved a day later: re-priced with the site's price function,
    nothing moves on the card (the hotel charges at check-out), the change is recorded with the old and new dates,
    the nights move, and the new-dates mail carries the updated calendar file."""
    import icalendar

    from apps.stays.inventory import inventory
    from apps.stays.seed import bookings, credentials

    today = world.now.date()
    up = next((b for b in bookings(world) if dt.date.fromisoformat(b["check_in"]) > today + dt.timedelta(days=3)), None)
    if up is None:
        pytest.skip("no upcoming stay far enough ahead in the world")
    city = next(c for c in inventory(world) if c["name"] == up["city"])
    new_in = dt.date.fromisoformat(up["check_in"]) + dt.timedelta(days=1)
    new_out = dt.date.fromisoformat(up["check_out"]) + dt.timedelta(days=1)
    cookie = f"bs_session={credentials(world)['session_token']}"
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        con = sqlite3.connect(served.database("stays"))
        slug, room_name, policy, old_total = con.execute(
            "SELECT p.slug, r.name, b.rate_plan, b.total_cents FROM bookings b JOIN properties p ON p.id = b.property_id "
            "JOIN rooms r ON r.id = b.room_id WHERE b.confirmation = ?",
            (up["confirmation"],),
        ).fetchone()
        con.close()
        prop = next(p for p in city["properties"] if p["slug"] == slug)
        room = next(r for r in prop["rooms"] if r["name"] == room_name)
        expect = quote(prop, room, city, new_in, up["nights"], policy)["total_cents"]
        status, location = _post(
            served,
            "/api/change",
            [
                ("confirmation", up["confirmation"]),
                ("checkin", new_in.isoformat()),
                ("checkout", new_out.isoformat()),
                ("confirm", "yes"),
            ],
            cookie,
        )
        assert status == 303 and "changed=1" in location, location
        con = sqlite3.connect(served.database("stays"))
        row = con.execute(
            "SELECT check_in, check_out, total_cents, status, (SELECT MIN(night) || '/' || COUNT(*) FROM booking_nights n "
            "WHERE n.booking_id = b.id) FROM bookings b WHERE confirmation = ?",
            (up["confirmation"],),
        ).fetchone()
        change = con.execute(
            "SELECT old_check_in, new_check_in, old_total_cents, new_total_cents, difference_cents, authorization "
            "FROM booking_changes"
        ).fetchall()
        con.close()
        assert row == (
            new_in.isoformat(),
            new_out.isoformat(),
            expect,
            "confirmed",
            f"{new_in.isoformat()}/{up['nights']}",
        )
        assert change == [(up["check_in"], new_in.isoformat(), old_total, expect, expect - old_total, None)]
        bank = sqlite3.connect(served.database("bank"))
        assert bank.execute("SELECT COUNT(*) FROM card_authorizations").fetchone() == (0,), "paid at the property"
        bank.close()
        ((subject, body, files),) = _app_mails(served, "reservations@bramblestay.test")
        assert subject.startswith("Your reservation has new dates: ") and up["confirmation"] in subject
        assert "charged at check-out" in body
        ev = icalendar.Calendar.from_ical(files[f"reservation-{up['confirmation']}.ics"]).walk("VEVENT")[0]
        assert ev["DTSTART"].dt == dt.datetime.combine(new_in, dt.time(15), ZoneInfo(city["zone"]))


def test_cancel_after_a_dearer_change_refunds_every_charge(site_build, world, default_layer, tmp_path):
    """Book the rental, make the stay longer (the difference is a second charge), cancel inside the window: the bank
    refunds at most what was charged under a reference, so the refund is the first charge under the confirmation and
    the rest under ``<confirmation>-R``; together they are the new total, and the card is back where it was."""
    from apps.stays.seed import credentials

    facts = world_facts(world)
    r, c = facts["rental"], facts["change"]
    cookie = f"bs_session={credentials(world)['session_token']}"
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        con = sqlite3.connect(served.database("stays"))
        room = con.execute(
            "SELECT r.id FROM rooms r JOIN properties p ON p.id = r.property_id WHERE p.slug = ? ORDER BY r.id",
            (r["slug"],),
        ).fetchone()[0]
        con.close()
        status, location = _post(
            served,
            "/api/bookings",
            [
                ("p", r["slug"]),
                ("room", str(room)),
                ("plan", r["plan"]),
                ("checkin", r["checkin"]),
                ("checkout", r["checkout"]),
                ("guests", "2"),
                ("card", "1"),
                ("request", ""),
            ],
            cookie,
        )
        assert status == 303 and "booked=1" in location, location
        conf = location.split("/trips/")[1].split("?")[0]
        # Not confirmed: refused, nothing changes.
        status, location = _post(
            served,
            "/api/change",
            [("confirmation", conf), ("checkin", c["checkin"]), ("checkout", c["long_out"])],
            cookie,
        )
        assert "error=" in location and "confirm" in urllib.parse.unquote_plus(location)
        status, location = _post(
            served,
            "/api/change",
            [("confirmation", conf), ("checkin", c["checkin"]), ("checkout", c["long_out"]), ("confirm", "yes")],
            cookie,
        )
        assert status == 303 and "changed=1" in location, location
        status, location = _post(served, "/api/cancel", [("confirmation", conf), ("confirm", "yes")], cookie)
        assert status == 303 and "cancelled=1" in location, location
        bank = sqlite3.connect(served.database("bank"))
        lines = bank.execute(
            "SELECT kind, reference, amount_cents FROM card_authorizations WHERE app = 'stays' ORDER BY id"
        ).fetchall()
        bank.close()
        assert lines == [
            ("charge", conf, r["card_cents"]),
            ("charge", f"{conf}-C1", c["up_card"]),
            ("refund", conf, r["card_cents"]),
            ("refund", f"{conf}-R", c["up_card"]),
        ], lines
        con = sqlite3.connect(served.database("stays"))
        assert con.execute("SELECT status, refund_cents FROM bookings WHERE confirmation = ?", (conf,)).fetchone() == (
            "cancelled",
            c["long_cents"],
        )
        con.close()


def _post(served: Served, path: str, fields: list[tuple[str, str]], cookie: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    conn.request(
        "POST",
        path,
        body=urllib.parse.urlencode(fields),
        headers={"Host": HOST, "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie},
    )
    res = conn.getresponse()
    res.read()
    conn.close()
    return res.status, res.getheader("Location") or ""
