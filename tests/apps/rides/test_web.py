"""ZipRide (rides) end to end: the production site on copies of the seeded databases.

Expected values come from the *world* (its ``ride`` events) and from ``builder.reference.geo`` (the road
distance, duration and fare of two places), never from the database: the history's count and total, a
month's rides, a chosen ride's receipt; a scheduled ride's estimate per ride type, the fare estimate of
several place pairs (the TypeScript estimate equals the Python function); requesting charges the card (the
bank's ``card_authorizations`` has the pending line); cancelling refunds all (more than 60 min ahead) or all
but the fee; a tip is a new charge, once; bad input is refused with nothing written. Also: the seed is
byte-identical twice and agrees with the world; the tasks hold their contract.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import http.client
import sqlite3
import urllib.error
import urllib.parse
import urllib.request

from builder.money import money
from builder.reference import geo
from builder.world import payment_cards
from builder.reference.addresses import format_address
from builder.reference.airports import airport_label

from tests.app_e2e import Served, run_e2e

HOST = "zipride.test"
CANCEL_FEE_CENTS = 500


def _done(world):
    return [e for e in world.of_kind("ride") if e.status == "done"]


def _estimate(a: str, b: str, city: str, percent: int = 100, country: str | None = None) -> dict:
    """The Python side of the app's estimate: geo's road distance and duration (``city`` of ``country``, as the
    world's rides), the fare at ``percent``."""
    from apps.rides.seed import fare_parts

    est = geo.estimate(a, b, city, country)
    tenths = round(est["distance_miles"] * 10)
    return {
        "distance_miles": est["distance_miles"],
        "duration_minutes": est["duration_minutes"],
        **fare_parts(tenths, est["duration_minutes"], percent),
    }


def world_facts(world) -> dict:
    """Every value the browser tests expect, from the world and builder.reference.geo."""
    from apps.rides.seed import credentials, ride_types

    p = world.persona
    cur = world.currency
    city, country = p.identity.address.city, p.identity.address.country
    home = format_address(p.identity.address)
    work = format_address(p.work.office_address)
    airport = airport_label(p.travel.home_airport)
    rides = _done(world)
    chosen = next(e for e in reversed(rides) if e.data.get("trip") is not None and e.data["pickup"] == airport)
    last = rides[-1]
    month = last.data["pickup_local"][:7]
    now = world.now
    types = ride_types()
    schedule_at = (now + dt.timedelta(days=2)).replace(hour=7, minute=30)
    late_at = now + dt.timedelta(minutes=40)
    # Every place the history names in the home city, to and from home and the airport.
    local = sorted({t for e in rides if e.data.get("trip") is None for t in (e.data["pickup"], e.data["dropoff"])})
    pairs = [(home, airport), (airport, home), (home, work)] + [
        (a, b) for a in local for b in (home, airport) if a != b
    ]
    creds = credentials(world)
    card = payment_cards(world)[0]
    tip_cents = (last.data["fare_cents"] * 20 + 50) // 100
    return {
        "username": creds["username"],
        "password": creds["password"],
        "session_token": creds["session_token"],
        "now": now.isoformat(),
        "currency": cur,
        "city": city,
        "history": {
            "count": len(rides),
            "total_cents": sum(e.data["total_cents"] for e in rides),
            "month": month,
            "month_count": sum(e.data["pickup_local"][:7] == month for e in rides),
        },
        "receipt": {
            k: chosen.data[k]
            for k in (
                "ride_id",
                "pickup",
                "dropoff",
                "fare_cents",
                "tip_cents",
                "total_cents",
                "driver",
                "plate",
                "duration_minutes",
            )
        }
        | {"fare_text": money(chosen.data["fare_cents"], cur), "total_text": money(chosen.data["total_cents"], cur)},
        "schedule": {
            "pickup": "Home",
            "dropoff": airport,
            "at": schedule_at.strftime("%Y-%m-%dT%H:%M"),
            "late_at": late_at.strftime("%Y-%m-%dT%H:%M"),
            "quotes": {t["code"]: _estimate(home, airport, city, t["price_percent"], country) for t in types},
        },
        "request": {"pickup": "Home", "dropoff": "Work", "estimate": _estimate(home, work, city, country=country)},
        "pairs": [{"pickup": a, "dropoff": b, **_estimate(a, b, city, country=country)} for a, b in pairs],
        "last": {
            "ride_id": last.data["ride_id"],
            "fare_cents": last.data["fare_cents"],
            "tip_cents": tip_cents,
            "tip_before": last.data["tip_cents"],
        },
        "card": {"last4": card["last4"], "account": card["account"]},
        "unknown_address": "1 Nowhere Lane, Atlantis",
        "mail_token": _mail_token(world),
    }


def _mail_token(world) -> str:
    from apps.mail.seed import credentials as mail_credentials

    return mail_credentials(world)["session_token"]


def test_geo_points_are_deterministic_and_inside_the_city(world):
    """Airports exact; every other address of a ride within the radius of its city's centre; same text, same point."""
    from builder.reference.places import AIRPORTS

    home_city = world.persona.identity.address.city
    for e in _done(world):
        for text in (e.data["pickup"], e.data["dropoff"]):
            code = geo.airport_code(text)
            if code:
                assert geo.point(text) == AIRPORTS[code][1:3]
                continue
            city = geo.city_of(text, home_city)
            assert geo.haversine_km(geo.point(text, city), geo.centre(city)) <= geo.RADIUS_KM + 0.01, text
            assert geo.point(text, city) == geo.point(text, city)
        est = geo.estimate(e.data["pickup"], e.data["dropoff"], geo.city_of(e.data["dropoff"], home_city))
        assert e.data["fare_cents"] == geo.fare_cents(round(e.data["distance_miles"] * 10), e.data["duration_minutes"])
        assert (est["distance_miles"], est["duration_minutes"]) == (
            e.data["distance_miles"],
            e.data["duration_minutes"],
        )


def test_rides_web_end_to_end(site_build, world, default_layer, tmp_path):
    facts = world_facts(world)
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        print(run_e2e("rides", facts, served, tmp_path)[-6000:])
        _check_writes(served, facts)
        _check_mails(served, world, facts)


def _check_writes(served: Served, facts: dict) -> None:
    """What the browser did is what the app and the bank wrote: three rides, the charges, the refunds, the tip."""
    con = sqlite3.connect(served.database("rides"))
    made = con.execute(
        "SELECT ride_id, status, ride_type, fare_cents, cancel_fee_cents, refund_cents, pickup, dropoff "
        "FROM rides WHERE world_ref IS NULL ORDER BY id"
    ).fetchall()
    q = facts["schedule"]["quotes"]["zip"]
    req = facts["request"]["estimate"]
    assert [(m[1], m[3], m[4], m[5]) for m in made] == [
        ("cancelled", q["fare_cents"], 0, q["fare_cents"]),
        ("cancelled", q["fare_cents"], CANCEL_FEE_CENTS, q["fare_cents"] - CANCEL_FEE_CENTS),
        ("requested", req["fare_cents"], 0, 0),
    ], made
    last = con.execute(
        "SELECT tip_cents, tipped_at, rating FROM rides WHERE ride_id = ?", (facts["last"]["ride_id"],)
    ).fetchone()
    assert last[0] == facts["last"]["tip_before"] + facts["last"]["tip_cents"] and last[1] and last[2] == 4
    assert con.execute(
        "SELECT COUNT(*) FROM rides WHERE world_ref IS NOT NULL AND tipped_at IS NOT NULL"
    ).fetchone() == (1,)
    con.close()
    bank = sqlite3.connect(served.database("bank"))
    auth = bank.execute(
        "SELECT c.kind, c.reference, c.amount_cents, c.status, a.kind FROM card_authorizations c "
        "JOIN accounts a ON a.id = c.account_id WHERE c.app = 'rides' ORDER BY c.id"
    ).fetchall()
    bank.close()
    ids = [m[0] for m in made]
    acct = facts["card"]["account"]
    assert auth == [
        ("charge", ids[0], q["fare_cents"], "pending", acct),
        ("refund", ids[0], q["fare_cents"], "pending", acct),
        ("charge", ids[1], q["fare_cents"], "pending", acct),
        ("refund", ids[1], q["fare_cents"] - CANCEL_FEE_CENTS, "pending", acct),
        ("charge", ids[2], req["fare_cents"], "pending", acct),
        ("charge", f"{facts['last']['ride_id']}-TIP", facts["last"]["tip_cents"], "pending", acct),
    ], auth


def _ride_mails(served: Served) -> list[tuple[str, str, str]]:
    """ZipRide mails the app delivered (not seeded): (from, subject, body), in order."""
    con = sqlite3.connect(served.database("mail"))
    rows = con.execute(
        "SELECT from_email, subject, body FROM messages WHERE world_ref IS NULL AND from_email LIKE "
        "'%@zipride.test' ORDER BY id"
    ).fetchall()
    con.close()
    return rows


def _check_mails(served: Served, world, facts: dict) -> None:
    """Each scheduled ride mailed "Your ride is scheduled" with its fare, each cancellation the refund (and the fee
    inside the last hour); the ride requested now mails its receipt once it is over: its times are moved back as if
    the ride had happened, the next page the rider opens finishes it (status completed) and mails the receipt, once."""
    from apps.rides.seed import credentials

    cur = world.currency
    con = sqlite3.connect(served.database("rides"))
    made = con.execute(
        "SELECT id, ride_id, fare_cents, pickup_at, dropoff_at FROM rides WHERE world_ref IS NULL ORDER BY id"
    ).fetchall()
    con.close()
    q = facts["schedule"]["quotes"]["zip"]
    mails = _ride_mails(served)
    assert [m[1].split(" - ")[0] for m in mails] == [
        "Your ride is scheduled",
        "Your scheduled ride was cancelled",
        "Your ride is scheduled",
        "Your scheduled ride was cancelled",
    ], mails
    for (_, _, body), ride_id in zip(mails, [made[0][1], made[0][1], made[1][1], made[1][1]]):
        assert f"Ride {ride_id}" in body
    assert f"Fare: {money(q['fare_cents'], cur)}, charged to" in mails[0][2]
    assert f"Refund: {money(q['fare_cents'], cur)} to" in mails[1][2] and "No cancellation fee." in mails[1][2]
    assert f"Cancellation fee: {money(CANCEL_FEE_CENTS, cur)}" in mails[3][2]
    assert f"Refund: {money(q['fare_cents'] - CANCEL_FEE_CENTS, cur)} to" in mails[3][2]
    # The ride requested now: no receipt while it is under way.
    rid, ride_id, fare, pickup, dropoff = made[2]
    cookie = f"zr_session={credentials(world)['session_token']}"
    assert _get(served, HOST, "/activity", cookie) == 200
    assert len(_ride_mails(served)) == 4
    shift = dt.timedelta(hours=3)
    con = sqlite3.connect(served.database("rides"))
    con.execute(
        "UPDATE rides SET pickup_at = ?, dropoff_at = ? WHERE id = ?",
        (
            (dt.datetime.fromisoformat(pickup) - shift).isoformat(),
            (dt.datetime.fromisoformat(dropoff) - shift).isoformat(),
            rid,
        ),
    )
    con.commit()
    con.close()
    for _ in range(2):
        assert _get(served, HOST, "/activity", cookie) == 200
    con = sqlite3.connect(served.database("rides"))
    assert con.execute("SELECT status FROM rides WHERE id = ?", (rid,)).fetchone() == ("completed",)
    con.close()
    mails = _ride_mails(served)
    assert len(mails) == 5, "one receipt"
    sender, subject, body = mails[4]
    assert sender == "receipts@zipride.test" and subject.startswith("Your ZipRide receipt - ")
    assert f"Ride {ride_id}" in body and f"Fare: {money(fare, cur)}" in body and f"Total: {money(fare, cur)}" in body


def _get(served: Served, host: str, path: str, cookie: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    conn.request("GET", path, headers={"Host": host, "Cookie": cookie})
    res = conn.getresponse()
    res.read()
    conn.close()
    return res.status


def test_seed_is_byte_identical_and_agrees_with_the_world(world, tmp_path):
    from apps.rides.seed import seed

    a, b = seed(world, tmp_path / "a.sqlite"), seed(world, tmp_path / "b.sqlite")
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()
    con = sqlite3.connect(a)
    from apps.rides.seed import booked_ahead

    rides = _done(world)
    ahead = booked_ahead(world)
    assert [r[0] for r in con.execute("SELECT ride_id FROM rides WHERE status = 'scheduled' ORDER BY id")] == [
        e.data["ride_id"] for e in ahead
    ]
    rows = con.execute(
        "SELECT ride_id, pickup, dropoff, fare_cents, tip_cents, total_cents, base_cents + distance_cents "
        "+ time_cents + booking_fee_cents, distance_miles, duration_minutes FROM rides WHERE status = 'completed' ORDER BY id"
    ).fetchall()
    assert [r[0] for r in rows] == [e.data["ride_id"] for e in rides]
    for r, e in zip(rows, rides):
        d = e.data
        assert r[1:6] == (d["pickup"], d["dropoff"], d["fare_cents"], d["tip_cents"], d["total_cents"])
        assert r[6] == d["fare_cents"] and (r[7], r[8]) == (d["distance_miles"], d["duration_minutes"])
    saved = con.execute(
        "SELECT s.label, p.address FROM saved_places s JOIN places p ON p.id = s.place_id ORDER BY s.position"
    ).fetchall()
    assert saved[:2] == [
        ("Home", format_address(world.persona.identity.address)),
        ("Work", format_address(world.persona.work.office_address)),
    ]
    cards = con.execute("SELECT last4 FROM cards ORDER BY id").fetchall()
    assert [c[0] for c in cards] == [c["last4"] for c in payment_cards(world)]
    assert con.execute("SELECT COUNT(*) FROM rides WHERE world_ref IS NULL").fetchone() == (0,)
    con.close()


# --- tasks -------------------------------------------------------------------------------------------------


def _post(served: Served, host: str, path: str, fields: list[tuple[str, str]], cookie: str) -> tuple[int, str]:
    """POST a form to ``host`` on the test server without following redirects: (status, Location)."""

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


def test_tasks_contract(world):
    """≥ 8 tasks, ≥ 3 actions, ≥ 4 spanning two apps (tests/tasks/test_oracles.py runs the actions' reference solutions)."""
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("rides")

    ts = tasks(world)
    actions = [t for t in ts if t.kind == "action"]
    assert len(ts) >= 8 and len(actions) >= 3 and sum(len(t.apps_involved) > 1 for t in ts) >= 4
