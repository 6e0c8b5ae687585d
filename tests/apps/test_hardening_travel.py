"""The travel apps under concurrency and attack (issue 24): Meridian Air (airline), DashBite (delivery), ZipRide (rides).

One production site for the module, on copies of the default persona's databases, its clock at the world's day
18:30 (kitchens open). Every route that moves money or consumes inventory is hit by bursts of simultaneous requests
(tests/concurrency.py): the same form sent 50 times with one ``_idem`` token has one effect and one answer, replayed;
50 different tokens have exactly as many effects as the seats, the cart, the one-ride-at-a-time rule or the
once-per-ride rule allow, never a 500, and the bank's ``card_authorizations`` match the app's records one to one.
Plus one regression test per bug the tester found: a round trip in two fare families charges each journey at its own
family's fare (computed here from the documented fare formula, network.json ``fare``), and the airline sells nothing
past the schedule its search publishes; and strict parsing (ids, amounts, dates, bodies), signed error banners and
same-origin redirects.
"""

from __future__ import annotations

import datetime as dt
import http.client
import math
import re
import sqlite3
import urllib.parse
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

from builder.money import money

from tests.app_e2e import Served
from tests.concurrency import Answer, burst, send

# Every test here serves the site build (tests/app_e2e.py): out of the fast lane.
pytestmark = pytest.mark.usefixtures("site_build")

AIR, DASH, ZIP = "meridianair.test", "dashbite.test", "zipride.test"
N = 50


@dataclass
class Site:
    served: Served
    world: object
    now: dt.datetime
    cookies: dict

    def post(self, app: str, path: str, form, **kw) -> Answer:
        return send(
            self.served.port,
            HOSTS[app],
            path,
            form=form,
            cookie=self.cookies[app],
            **kw,
        )

    def get(self, app: str, path: str, cookie: bool = True) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.served.port, timeout=120)
        try:
            conn.request(
                "GET",
                path,
                headers={
                    "Host": HOSTS[app],
                    **({"Cookie": self.cookies[app]} if cookie else {}),
                },
            )
            res = conn.getresponse()
            return res.status, res.read().decode("utf-8", "replace")
        finally:
            conn.close()

    def rows(self, app: str, sql: str, params=()) -> list[tuple]:
        con = sqlite3.connect(self.served.database(app), timeout=60)
        try:
            return con.execute(sql, params).fetchall()
        finally:
            con.close()

    def one(self, app: str, sql: str, params=()):
        return self.rows(app, sql, params)[0][0]

    def bank(self, app: str) -> list[tuple[str, str, int]]:
        """The bank's card authorisations of ``app``: (reference, kind, amount), sorted."""
        return sorted(
            self.rows(
                "bank",
                "SELECT reference, kind, amount_cents FROM card_authorizations WHERE app = ?",
                (app,),
            )
        )


HOSTS = {"airline": AIR, "delivery": DASH, "rides": ZIP}


def token() -> str:
    return uuid.uuid4().hex


def with_field(form: list[tuple[str, str]], name: str, value: str) -> list[tuple[str, str]]:
    """``form`` with field ``name`` set to ``value`` (replaced where it was, else added)."""
    out = [(k, value if k == name else v) for k, v in form]
    return out if any(k == name for k, _ in form) else [*out, (name, value)]


def query(location: str) -> dict[str, str]:
    return {k: v[0] for k, v in urllib.parse.parse_qs(urllib.parse.urlsplit(location).query).items()}


def banner(page: str, words: str) -> bool:
    """Does the page show ``words`` in an alert? (The URL itself rides along in the page's RSC payload.)"""
    return re.search(rf'role="alert"[^>]*>[^<]*{re.escape(words)}', page) is not None


def no_server_errors(answers: list[Answer]) -> None:
    assert all(a.status < 500 for a in answers), sorted({(a.status, a.body[:200]) for a in answers if a.status >= 500})


@pytest.fixture(scope="module")
def site(world, default_layer, tmp_path_factory):
    from apps.airline.seed import credentials as air
    from apps.delivery.seed import credentials as dash
    from apps.rides.seed import credentials as zip_

    now = world.now.replace(hour=18, minute=30, second=0, microsecond=0)
    cookies = {
        "airline": f"ma_session={air(world)['session_token']}",
        "delivery": f"dash_session={dash(world)['session_token']}",
        "rides": f"zr_session={zip_(world)['session_token']}",
    }
    with Served(default_layer, tmp_path_factory.mktemp("hardening-travel"), now=now.isoformat()) as served:
        yield Site(served, world, now, cookies)


# ---------------------------------------------------------------------------------------------------- Meridian Air


def _fnv(text: str) -> int:
    """FNV-1a 32-bit over the characters (ASCII here) of ``text`` (apps/airline/web/lib/air.ts fnv)."""
    h = 0x811C9DC5
    for ch in text:
        h ^= ord(ch)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def fare(site: Site, origin: str, destination: str, key: str, family: str) -> int:
    """One-way fare per passenger of option ``key`` in ``family``, by the documented formula (network.json ``fare``):
    the route's Economy fare x the date factor (0.85-1.25 from the hash of salt, flights and date) x advance purchase
    x the family's multiplier, whole units plus the hash's cents. Departures here are 40+ days ahead (no advance
    surcharge)."""
    salt = site.one("airline", "SELECT value FROM meta WHERE key = 'seat_salt'")
    base = site.one(
        "airline",
        "SELECT base_fare_cents FROM routes WHERE origin = ? AND destination = ?",
        (origin, destination),
    )
    mult = site.one("airline", "SELECT multiplier FROM fare_families WHERE code = ?", (family,))
    legs = [p.split("@") for p in key.split("+")]
    assert dt.date.fromisoformat(legs[0][1]) - site.now.date() >= dt.timedelta(days=15)
    h = f"{salt}|fare|{'+'.join(f'MR {n}' for n, _ in legs)}|{legs[0][1]}"
    factor = 0.85 + (_fnv(h) % 401) / 1000
    cents = math.floor(base * factor * 1 * mult / 100) * 100
    return cents + _fnv(f"{h}|cents|{family}") % 100


def results(site: Site, query_: dict) -> list[dict]:
    """The options of a results page: key and per family {cents, left, disabled}."""
    status, page = site.get("airline", f"/book/results?{urllib.parse.urlencode(query_)}")
    assert status == 200
    out = []
    for m in re.finditer(r'data-testid="result" data-key="([^"]+)"(.*?)</li>', page, re.DOTALL):
        fams = {
            f: {"cents": int(c), "left": int(left), "disabled": "disabled" in tag}
            for tag, f, c, left in re.findall(
                r'(<button[^>]*data-family="(\w+)" data-cents="(\d+)" data-left="(\d+)")',
                m.group(2),
            )
        }
        out.append({"key": m.group(1), "fams": fams})
    return out


@pytest.fixture(scope="module")
def route(site):
    """The shortest nonstop route from home (the cheapest fares) and the default card's id."""
    home = site.one("airline", "SELECT home_airport FROM users LIMIT 1")
    dest = site.one(
        "airline",
        "SELECT destination FROM routes WHERE origin = ? AND via IS NULL ORDER BY distance_km, destination LIMIT 1",
        (home,),
    )
    card = site.one("airline", "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1")
    return {"from": home, "to": dest, "card": str(card)}


def day(site: Site, days: int) -> str:
    return (site.now.date() + dt.timedelta(days=days)).isoformat()


def booking_form(route: dict, out: str, family: str, **extra) -> list[tuple[str, str]]:
    return [
        ("origin", route["from"]),
        ("destination", route["to"]),
        ("out", out),
        ("family", family),
        ("card", route["card"]),
        *extra.items(),
    ]


def airline_bank_matches(site: Site) -> None:
    """Every card payment Meridian Air recorded is the bank's authorisation, one to one (and none is left pending)."""
    app = sorted(
        site.rows(
            "airline",
            "SELECT reference, kind, amount_cents FROM payments WHERE world_ref IS NULL",
        )
    )
    assert app == site.bank("airline")
    assert site.rows(
        "airline",
        "SELECT COUNT(*) FROM payments WHERE world_ref IS NULL AND authorization IS NULL",
    ) == [(0,)]
    assert site.rows("airline", "SELECT COUNT(*) FROM bookings WHERE status = 'pending'") == [(0,)]


def book(site: Site, route: dict, out: str, family: str = "MAIN", **extra) -> str:
    a = site.post(
        "airline",
        "/api/bookings",
        booking_form(route, out, family, _idem=token(), **extra),
    )
    assert a.status == 303 and "booked=1" in a.location, a
    return a.location.split("/trips/")[1].split("?")[0]


def test_airline_identical_bookings_make_one(site, route):
    """50 identical submissions of one booking form (one token): one booking, one authorisation, one answer."""
    opt = results(site, {"from": route["from"], "to": route["to"], "date": day(site, 40)})[0]
    before = site.one("airline", "SELECT COUNT(*) FROM bookings")
    form = booking_form(route, opt["key"], "MAIN", _idem=token())
    answers = burst(N, lambda i: site.post("airline", "/api/bookings", form))
    assert {(a.status, a.location) for a in answers} == {(answers[0].status, answers[0].location)}
    assert answers[0].status == 303 and "booked=1" in answers[0].location
    assert site.one("airline", "SELECT COUNT(*) FROM bookings") == before + 1
    pnr = answers[0].location.split("/trips/")[1].split("?")[0]
    total = site.one("airline", "SELECT total_cents FROM bookings WHERE pnr = ?", (pnr,))
    assert total == opt["fams"]["MAIN"]["cents"]
    assert [r for r in site.bank("airline") if r[0] == pnr] == [(pnr, "charge", total)]
    airline_bank_matches(site)


def test_airline_distinct_bookings_sell_exactly_the_seats_left(site, route):
    """50 different bookings of a flight's last Business seats at once: exactly that many sold, the rest refused with
    a message (no 500), every seat held once, one authorisation per booking."""
    q = {
        "from": route["from"],
        "to": route["to"],
        "date": day(site, 41),
        "cabin": "business",
    }
    opts = [o for o in results(site, q) if o["fams"]["BUSINESS"]["left"] > 0]
    opt = min(opts, key=lambda o: o["fams"]["BUSINESS"]["left"])
    left = opt["fams"]["BUSINESS"]["left"]
    assert 0 < left < N
    answers = burst(
        N,
        lambda i: site.post(
            "airline",
            "/api/bookings",
            booking_form(route, opt["key"], "BUSINESS", _idem=token()),
        ),
    )
    no_server_errors(answers)
    sold = [a for a in answers if "booked=1" in a.location]
    refused = [a for a in answers if "error=" in a.location]
    assert len(sold) == left and len(refused) == N - left
    assert all(re.search(r"sold out|seats? (is|are) left", query(a.location)["error"]) for a in refused), refused[0]
    number, date = opt["key"].split("@")
    seats = site.rows(
        "airline",
        "SELECT t.seat FROM seats t JOIN segments s ON s.id = t.segment_id JOIN bookings b ON "
        "b.id = s.booking_id WHERE s.flight_number = ? AND substr(s.dep_local, 1, 10) = ? "
        "AND b.world_ref IS NULL",
        (f"MR {number}", date),
    )
    assert len(seats) == left == len(set(seats))
    after = next(o for o in results(site, q) if o["key"] == opt["key"])["fams"]["BUSINESS"]
    assert after["left"] == 0 and after["disabled"]
    airline_bank_matches(site)


def test_airline_round_trip_charges_each_journey_at_its_own_fare_family(site, route):
    """Regression: Basic out + Flex back was charged as Flex both ways. The review page, the booking, the bank's
    authorisation, the trip page and the confirmation mail all show Basic(out) + Flex(back); cancelling gives back
    the Flex journey as credit (Basic keeps nothing)."""
    out_day, ret_day = day(site, 45), day(site, 49)
    base = {
        "from": route["from"],
        "to": route["to"],
        "date": out_day,
        "return": ret_day,
    }
    out = results(site, base)[0]
    back = results(site, {**base, "out": out["key"], "family": "BASIC"})[0]
    basic, flex = (
        fare(site, route["from"], route["to"], out["key"], "BASIC"),
        fare(site, route["to"], route["from"], back["key"], "FLEX"),
    )
    assert (basic, flex) == (
        out["fams"]["BASIC"]["cents"],
        back["fams"]["FLEX"]["cents"],
    )
    expected = basic + flex
    wrong = fare(site, route["from"], route["to"], out["key"], "FLEX") + flex
    assert expected != wrong
    status, page = site.get(
        "airline",
        "/book/review?"
        + urllib.parse.urlencode(
            {
                "from": route["from"],
                "to": route["to"],
                "out": out["key"],
                "ret": back["key"],
                "family": "FLEX",
                "outfamily": "BASIC",
                "pax": "1",
            }
        ),
    )
    assert status == 200 and f'data-testid="review-total" data-cents="{expected}"' in page
    pnr = book(site, route, out["key"], "BASIC", ret=back["key"], retfamily="FLEX")
    assert site.rows(
        "airline",
        "SELECT total_cents, fare_per_passenger_cents, base_fare_cents + taxes_cents + "
        "carrier_fees_cents, fare_family FROM bookings WHERE pnr = ?",
        (pnr,),
    ) == [(expected, expected, expected, "BASIC")]
    assert site.rows(
        "airline",
        "SELECT s.direction, s.fare_family, s.fare_cents FROM segments s JOIN bookings b ON "
        "b.id = s.booking_id WHERE b.pnr = ? ORDER BY s.position",
        (pnr,),
    ) == [("outbound", "BASIC", basic), ("return", "FLEX", flex)]
    assert (pnr, "charge", expected) in site.bank("airline")
    cur = site.world.currency
    status, page = site.get("airline", f"/trips/{pnr}")
    assert status == 200 and re.search(rf'data-testid="total">{re.escape(money(expected, cur))}<', page)
    body = site.one(
        "mail",
        "SELECT body FROM messages WHERE world_ref IS NULL AND instr(subject, ?) > 0 AND "
        "subject LIKE 'Booking confirmed%'",
        (pnr,),
    )
    assert f"Total: {money(expected, cur)}" in body and re.search(
        rf"Total charged to .*: {re.escape(money(expected, cur))}", body
    )
    assert "Basic Economy (departing), Economy Flex (return)" in body
    status, page = site.get("airline", f"/trips/{pnr}/cancel")
    assert status == 200 and f"keep {money(flex, cur)} as travel credit" in page.replace("&#x27;", "'")
    a = site.post("airline", "/api/cancel", [("pnr", pnr), ("confirm", "yes"), ("_idem", token())])
    assert query(a.location).get("cancelled") == "credit", a
    assert site.rows(
        "airline",
        "SELECT credit_cents, refund_cents FROM bookings WHERE pnr = ?",
        (pnr,),
    ) == [(flex, 0)]
    airline_bank_matches(site)


def test_airline_sells_nothing_past_its_published_schedule(site, route):
    """Regression: a booking for 2030 was accepted. Search shows the schedule through today + 330 days and the
    booking route refuses a later departure with that message; nothing is written or charged."""
    from_, to = route["from"], route["to"]
    last = day(site, 330)
    assert results(site, {"from": from_, "to": to, "date": last})
    status, page = site.get(
        "airline",
        "/book/results?" + urllib.parse.urlencode({"from": from_, "to": to, "date": day(site, 331)}),
    )
    assert status == 200 and "schedule is published 330 days ahead" in page and 'data-testid="result"' not in page
    number = site.one(
        "airline",
        "SELECT numbers FROM routes WHERE origin = ? AND destination = ?",
        (from_, to),
    ).split(",")[0]
    before = (
        site.rows("airline", "SELECT COUNT(*) FROM bookings"),
        site.bank("airline"),
    )
    for key in (f"{number}@2030-03-01", f"{number}@{day(site, 331)}"):
        a = site.post("airline", "/api/bookings", booking_form(route, key, "MAIN", _idem=token()))
        err = query(a.location).get("error", "")
        assert (
            a.status == 303 and "not on our schedule" in err and "330 days ahead" in err and "es" in query(a.location)
        ), a
    for bad in (
        "1@2026-02-30",
        "0x1@2026-12-01",
        f"{number}@{day(site, 40)}+",
        "1' OR '1'='1",
    ):
        a = site.post("airline", "/api/bookings", booking_form(route, bad, "MAIN", _idem=token()))
        assert a.status == 303 and "schedule" in query(a.location).get("error", ""), (
            bad,
            a,
        )
    assert (
        site.rows("airline", "SELECT COUNT(*) FROM bookings"),
        site.bank("airline"),
    ) == before


def test_airline_a_seat_goes_to_one_booking(site, route):
    """Three bookings on one flight all ask for the same free seat, 50 requests at once: one booking gets it."""
    opt = results(site, {"from": route["from"], "to": route["to"], "date": day(site, 50)})[0]
    pnrs = [book(site, route, opt["key"]) for _ in range(3)]
    who = [
        site.rows(
            "airline",
            "SELECT s.id, t.passenger_id FROM seats t JOIN segments s ON s.id = t.segment_id JOIN "
            "bookings b ON b.id = s.booking_id WHERE b.pnr = ?",
            (p,),
        )[0]
        for p in pnrs
    ]
    _, page = site.get("airline", f"/trips/{pnrs[0]}/seats?segment={who[0][0]}&passenger={who[0][1]}")
    seat = re.findall(r'data-seat="(\d+[A-K])" data-state="free"', page)[-1]
    answers = burst(
        N,
        lambda i: site.post(
            "airline",
            "/api/seat",
            [
                ("pnr", pnrs[i % 3]),
                ("segment", str(who[i % 3][0])),
                ("passenger", str(who[i % 3][1])),
                ("seat", seat),
                ("_idem", token()),
            ],
        ),
    )
    no_server_errors(answers)
    holders = site.rows(
        "airline",
        "SELECT b.pnr FROM seats t JOIN segments s ON s.id = t.segment_id JOIN bookings b ON "
        "b.id = s.booking_id WHERE s.id IN (?, ?, ?) AND t.seat = ?",
        (*(w[0] for w in who), seat),
    )
    assert len(holders) == 1
    won = [i for i, a in enumerate(answers) if query(a.location).get("saved") == seat]
    assert won and {pnrs[i % 3] for i in won} == {holders[0][0]}
    assert all("already taken" in query(answers[i].location)["error"] for i in range(N) if i not in won)


def test_airline_check_in_numbers_each_seat_once(site, route):
    """Tomorrow's flight (check-in open), two travellers, 50 check-ins at once: each seat one sequence number."""
    numbers, slots = site.rows(
        "airline",
        "SELECT numbers, slots FROM routes WHERE origin = ? AND destination = ?",
        (route["from"], route["to"]),
    )[0]
    first = min(zip(slots.split(","), numbers.split(",")))[1]  # the earliest departure: inside the 24 h window
    pnr = book(site, route, f"{first}@{day(site, 1)}", companion="Alex Morgan")
    seg = site.one(
        "airline",
        "SELECT s.id FROM segments s JOIN bookings b ON b.id = s.booking_id WHERE b.pnr = ?",
        (pnr,),
    )
    answers = burst(
        N,
        lambda i: site.post(
            "airline",
            "/api/checkin",
            [("pnr", pnr), ("segment", str(seg)), ("_idem", token())],
        ),
    )
    no_server_errors(answers)
    assert all("checked_in=1" in a.location for a in answers), answers[0]
    seqs = site.rows(
        "airline",
        "SELECT sequence, checked_in_at FROM seats WHERE segment_id = ?",
        (seg,),
    )
    assert len(seqs) == 2 and all(s and at for s, at in seqs) and len({s for s, _ in seqs}) == 2


def test_airline_change_is_made_and_paid_once(site, route):
    """50 different requests to move one booking to another flight at once: one change, paid (or credited) once."""
    opts = results(site, {"from": route["from"], "to": route["to"], "date": day(site, 55)})
    pnr = book(site, route, opts[0]["key"])
    new = opts[1]
    answers = burst(
        N,
        lambda i: site.post(
            "airline",
            "/api/change",
            [
                ("pnr", pnr),
                ("direction", "outbound"),
                ("option", new["key"]),
                ("_idem", token()),
            ],
        ),
    )
    no_server_errors(answers)
    changed = [a for a in answers if "changed=" in a.location]
    assert len(changed) == 1
    assert all("already on that flight" in query(a.location).get("error", "") for a in answers if a not in changed)
    diff = int(query(changed[0].location)["changed"])
    assert diff == new["fams"]["MAIN"]["cents"] - opts[0]["fams"]["MAIN"]["cents"]
    number = new["key"].split("@")[0]
    assert site.rows(
        "airline",
        "SELECT s.flight_number, s.fare_cents FROM segments s JOIN bookings b ON b.id = s.booking_id WHERE b.pnr = ?",
        (pnr,),
    ) == [(f"MR {number}", new["fams"]["MAIN"]["cents"])]
    paid = site.rows(
        "airline",
        "SELECT p.amount_cents FROM payments p JOIN bookings b ON b.id = p.booking_id WHERE "
        "b.pnr = ? AND p.reference LIKE '%-CHG%'",
        (pnr,),
    )
    credit = site.rows(
        "airline",
        "SELECT t.amount_cents FROM travel_credits t JOIN bookings b ON b.id = t.booking_id "
        "WHERE b.pnr = ? AND t.reason LIKE 'Fare difference%'",
        (pnr,),
    )
    assert (paid, credit) == (([(diff,)], []) if diff > 0 else ([], [(-diff,)]) if diff < 0 else ([], []))
    airline_bank_matches(site)


def test_airline_cancellation_refunds_once(site, route):
    """A refundable (Business) trip cancelled by 25 copies of one form and 25 other submissions at once: cancelled
    once, one refund of what was paid, the copies all get the first answer."""
    opt = results(
        site,
        {
            "from": route["from"],
            "to": route["to"],
            "date": day(site, 60),
            "cabin": "business",
        },
    )[0]
    pnr = book(site, route, opt["key"], "BUSINESS")
    total = site.one("airline", "SELECT total_cents FROM bookings WHERE pnr = ?", (pnr,))
    same = token()
    answers = burst(
        N,
        lambda i: site.post(
            "airline",
            "/api/cancel",
            [("pnr", pnr), ("confirm", "yes"), ("_idem", same if i % 2 else token())],
        ),
    )
    no_server_errors(answers)
    copies = [answers[i] for i in range(1, N, 2)]
    assert {(a.status, a.location) for a in copies} == {(copies[0].status, copies[0].location)}
    # The copies' answer is the first of them: the cancellation, or (when another submission came first) the refusal.
    assert len([a for a in answers if "cancelled=refund" in a.location]) in (
        1,
        len(copies),
    )
    assert site.rows(
        "airline",
        "SELECT status, refund_cents, credit_cents FROM bookings WHERE pnr = ?",
        (pnr,),
    ) == [("cancelled", total, 0)]
    assert [r for r in site.bank("airline") if r[0] == f"{pnr}-CXL"] == [(f"{pnr}-CXL", "refund", total)]
    airline_bank_matches(site)


def test_airline_strict_input_signed_banners_and_no_stray_writes(site, route):
    """Ids are digits only, bodies are forms, error banners are the app's own (signed), keys are well formed."""
    before = (
        site.rows("airline", "SELECT COUNT(*), COALESCE(SUM(total_cents), 0) FROM bookings"),
        site.bank("airline"),
    )
    opt = results(site, {"from": route["from"], "to": route["to"], "date": day(site, 42)})[0]
    a = site.post(
        "airline",
        "/api/bookings",
        with_field(booking_form(route, opt["key"], "MAIN", _idem=token()), "card", "1 OR 1=1"),
    )
    assert "saved cards" in query(a.location).get("error", ""), a
    a = send(
        site.served.port,
        AIR,
        "/api/bookings",
        json_body={"origin": route["from"], "card": 1},
        cookie=site.cookies["airline"],
    )
    assert a.status == 303 and "not a form" in query(a.location).get("error", ""), a
    a = send(
        site.served.port,
        AIR,
        "/api/bookings",
        body=b"",
        cookie=site.cookies["airline"],
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert a.status == 303 and query(a.location).get("error"), a
    a = site.post(
        "airline",
        "/api/seat",
        [
            ("pnr", "ZZZZZZ"),
            ("segment", "1 OR 1=1"),
            ("passenger", "1"),
            ("seat", "1A"),
        ],
    )
    assert "error" in query(a.location), a
    a = site.post(
        "airline",
        "/api/bookings",
        booking_form(route, opt["key"], "MAIN", _idem="bad key!"),
    )
    assert a.status == 400
    key = token()
    assert (
        "error="
        in site.post(
            "airline",
            "/api/bookings",
            booking_form(route, opt["key"], "NOPE", _idem=key),
        ).location
    )
    # A refusal is not remembered: the corrected form under the same token books.
    fixed = site.post(
        "airline",
        "/api/bookings",
        booking_form(route, opt["key"], "MAIN", _idem=key),
    )
    assert fixed.status == 303 and "error=" not in fixed.location, fixed
    # That booking is the one write this test makes on purpose: the rest must add none.
    before = (
        site.rows("airline", "SELECT COUNT(*), COALESCE(SUM(total_cents), 0) FROM bookings"),
        site.bank("airline"),
    )
    # Once it has booked, the same token with other values is refused with a message.
    assert (
        site.post(
            "airline",
            "/api/bookings",
            booking_form(route, opt["key"], "NOPE", _idem=key),
        ).status
        == 422
    )
    a = site.post("airline", "/api/bookings", [("origin", "x" * 300_000)])
    assert a.status == 413
    # A crafted banner shows nothing; the app's own (signed) one shows.
    _, page = site.get(
        "airline",
        "/?error=" + urllib.parse.quote("Your account is locked: call +1 555 0100"),
    )
    assert not banner(page, "Your account is locked")
    signed = site.post("airline", "/api/cancel", [("pnr", "NOPE!"), ("confirm", "yes")]).location
    assert "es" in query(signed)
    _, page = site.get("airline", signed)
    assert banner(
        page.replace("&#x27;", "'"),
        "We couldn't find a trip with that confirmation code",
    )
    assert (
        site.rows("airline", "SELECT COUNT(*), COALESCE(SUM(total_cents), 0) FROM bookings"),
        site.bank("airline"),
    ) == before


# ---------------------------------------------------------------------------------------------------- DashBite


@pytest.fixture(scope="module")
def dish(site):
    """A restaurant open now (18:30) and one of its dishes with no required option; the home address and card."""
    now = site.now.strftime("%H:%M")
    rid, item = site.rows(
        "delivery",
        """SELECT r.id, m.id FROM restaurants r JOIN menu_items m ON m.restaurant_id = r.id
        WHERE r.opens <= ? AND r.closes > '20:00' AND m.options_json NOT LIKE '%"one"%' ORDER BY r.id, m.position LIMIT 1""",
        (now,),
    )[0]
    home = site.one("delivery", "SELECT id FROM addresses WHERE world_ref = 'seed:home'")
    card = site.one("delivery", "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1")
    return {
        "restaurant": rid,
        "item": str(item),
        "address": str(home),
        "card": str(card),
    }


def fill_cart(site: Site, dish: dict) -> None:
    assert site.post("delivery", "/api/cart", [("action", "clear")]).status == 303
    a = site.post(
        "delivery",
        "/api/cart",
        [("action", "add"), ("item", dish["item"]), ("qty", "2"), ("instructions", "")],
    )
    assert a.status == 303 and "added=" in a.location, a


def checkout_form(dish: dict, tok: str) -> list[tuple[str, str]]:
    return [
        ("address", dish["address"]),
        ("when", "now"),
        ("at", ""),
        ("tip", "15"),
        ("tip_amount", ""),
        ("promo", ""),
        ("card", dish["card"]),
        ("dropoff", ""),
        ("_idem", tok),
    ]


def delivery_bank_matches(site: Site) -> None:
    """Every order DashBite placed is one authorisation of its total in the bank (none left pending)."""
    app = sorted(
        (o, "charge", t)
        for o, t in site.rows(
            "delivery",
            "SELECT order_id, total_cents FROM orders WHERE world_ref IS NULL",
        )
    )
    assert app == site.bank("delivery")
    assert site.rows(
        "delivery",
        "SELECT COUNT(*) FROM orders WHERE world_ref IS NULL AND (status = 'pending' OR charge_auth IS NULL)",
    ) == [(0,)]


def test_delivery_one_cart_makes_one_order(site, dish):
    """The checkout of one cart sent 50 times with one token, then 50 times with different tokens: one order each
    time (the first takes the cart; the rest find it empty), one authorisation of its total."""
    before = site.one("delivery", "SELECT COUNT(*) FROM orders")
    fill_cart(site, dish)
    form = checkout_form(dish, token())
    answers = burst(N, lambda i: site.post("delivery", "/api/orders", form))
    assert {(a.status, a.location) for a in answers} == {(answers[0].status, answers[0].location)}
    assert re.match(r"^/orders/\d+\?placed=1$", answers[0].location), answers[0]
    fill_cart(site, dish)
    answers = burst(N, lambda i: site.post("delivery", "/api/orders", checkout_form(dish, token())))
    no_server_errors(answers)
    placed = [a for a in answers if "placed=1" in a.location]
    assert len(placed) == 1
    assert all(query(a.location).get("error") == "Your cart is empty." for a in answers if a not in placed)
    assert site.one("delivery", "SELECT COUNT(*) FROM orders") == before + 2
    assert site.rows("delivery", "SELECT COUNT(*) FROM cart_items") == [(0,)]
    delivery_bank_matches(site)


def test_delivery_reorder_now_once_per_submission(site):
    """ "Reorder now" of a past order sent 50 times with one token: one new order and one charge."""
    before = site.one("delivery", "SELECT COUNT(*) FROM orders")
    oid = site.one(
        "delivery",
        "SELECT id FROM orders WHERE usual = 1 AND world_ref IS NOT NULL ORDER BY placed_at DESC LIMIT 1",
    )
    form = [("mode", "now"), ("_idem", token())]
    answers = burst(N, lambda i: site.post("delivery", f"/api/orders/{oid}/reorder", form))
    assert {(a.status, a.location) for a in answers} == {(answers[0].status, answers[0].location)}
    assert answers[0].status == 303
    placed = 1 if "placed=1" in answers[0].location else 0  # the usual restaurant may be closed at 18:30
    assert site.one("delivery", "SELECT COUNT(*) FROM orders") == before + placed
    delivery_bank_matches(site)


def test_delivery_rating_and_addresses_once(site):
    """50 different ratings of one delivered order at once: one is kept; 50 saves of one new address label: one row."""
    oid = site.one(
        "delivery",
        "SELECT id FROM orders WHERE world_ref IS NOT NULL AND rating IS NULL AND eta_at >= ? "
        "ORDER BY eta_at DESC LIMIT 1",
        ((site.now - dt.timedelta(days=25)).isoformat(),),
    )
    answers = burst(
        N,
        lambda i: site.post(
            "delivery",
            f"/api/orders/{oid}/rate",
            [("stars", str(i % 5 + 1)), ("comment", f"take {i}"), ("_idem", token())],
        ),
    )
    no_server_errors(answers)
    ok = [i for i, a in enumerate(answers) if "rated=1" in a.location]
    assert len(ok) == 1
    assert site.rows("delivery", "SELECT rating, rating_comment FROM orders WHERE id = ?", (oid,)) == [
        (ok[0] % 5 + 1, f"take {ok[0]}")
    ]
    answers = burst(
        N,
        lambda i: site.post(
            "delivery",
            "/api/addresses",
            [
                ("label", "Climbing gym"),
                ("line", f"{100 + i} Wall Street, Portland"),
                ("instructions", ""),
                ("_idem", token()),
            ],
        ),
    )
    no_server_errors(answers)
    assert site.rows("delivery", "SELECT COUNT(*) FROM addresses WHERE label = 'Climbing gym'") == [(1,)]
    assert sum("saved=1" in a.location for a in answers) == 1


def test_delivery_strict_input_and_same_origin_redirects(site, dish):
    """Ids digits only, real dates within the schedule window, bodies forms, `back` same-origin only."""
    before = (
        site.rows("delivery", "SELECT COUNT(*) FROM orders"),
        site.bank("delivery"),
    )
    for back in (
        "//evil.example/x",
        "/\t/evil.example",
        "https://evil.example/",
        "/\\evil.example",
    ):
        a = site.post(
            "delivery",
            "/api/cart",
            [("action", "add"), ("item", "1 OR 1=1"), ("back", back)],
        )
        assert a.status == 303 and a.location.startswith("/") and not a.location.startswith("//"), (back, a)
        assert (
            "evil" not in urllib.parse.unquote(a.location.split("?")[0]) and "on the menu" in query(a.location)["error"]
        )
    fill_cart(site, dish)
    later = (site.now + dt.timedelta(days=1)).strftime("%Y-%m-%d")
    for at, words in (
        ("2026-02-30T19:00", "Pick a delivery"),
        (f"{later}T25:00", "Pick a delivery"),
        ((site.now + dt.timedelta(days=9)).strftime("%Y-%m-%dT19:00"), "7 days"),
    ):
        form = with_field(with_field(checkout_form(dish, token()), "when", "later"), "at", at)
        a = site.post("delivery", "/api/orders", form)
        assert words in query(a.location).get("error", ""), (at, a)
    a = site.post(
        "delivery",
        "/api/orders",
        with_field(checkout_form(dish, token()), "card", "2 OR 1=1"),
    )
    assert "card" in query(a.location).get("error", ""), a
    a = send(
        site.served.port,
        DASH,
        "/api/orders",
        json_body={"card": 1},
        cookie=site.cookies["delivery"],
        headers={"Accept": "application/json"},
    )
    assert a.status == 400 and "form" in a.json()["error"]
    _, page = site.get(
        "delivery",
        "/checkout?error=" + urllib.parse.quote("Card blocked: call 555 0100"),
    )
    assert not banner(page, "Card blocked")
    assert (
        site.rows("delivery", "SELECT COUNT(*) FROM orders"),
        site.bank("delivery"),
    ) == before
    assert site.post("delivery", "/api/cart", [("action", "clear")]).status == 303


# ---------------------------------------------------------------------------------------------------- ZipRide


def ride_form(site: Site, when: str, at: str, tok: str) -> list[tuple[str, str]]:
    card = site.one("rides", "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1")
    work = site.one("rides", "SELECT label FROM saved_places ORDER BY position LIMIT 1 OFFSET 1")
    return [
        ("pickup", "Home"),
        ("dropoff", work),
        ("ride_type", "zip"),
        ("when", when),
        ("at", at),
        ("card", str(card)),
        ("purpose", "personal"),
        ("_idem", tok),
    ]


def rides_bank_matches(site: Site, tips: dict[str, int]) -> None:
    """The bank holds exactly ZipRide's charges (fares), refunds and the tips made here (``tips``: ride id -> cents)."""
    want = []
    for rid, fare_, refund, auth in site.rows(
        "rides",
        "SELECT ride_id, fare_cents, refund_cents, charge_auth FROM rides WHERE world_ref IS NULL",
    ):
        assert auth
        want.append((rid, "charge", fare_))
        if refund:
            want.append((rid, "refund", refund))
    want += [(f"{rid}-TIP", "charge", cents) for rid, cents in tips.items()]
    assert sorted(want) == site.bank("rides")


def test_rides_one_ride_at_a_time(site):
    """50 different requests for a ride now: one ride (one at a time), one charge; then one scheduling form sent 50
    times: one scheduled ride, one charge, one answer."""
    answers = burst(
        N,
        lambda i: site.post("rides", "/api/rides", ride_form(site, "now", "", token())),
    )
    no_server_errors(answers)
    ok = [a for a in answers if re.match(r"^/rides/\d+\?requested=1$", a.location)]
    assert len(ok) == 1
    assert all("already have a ride on its way" in query(a.location).get("error", "") for a in answers if a not in ok)
    at = (site.now + dt.timedelta(days=2)).strftime("%Y-%m-%dT10:00")
    form = ride_form(site, "later", at, token())
    answers = burst(N, lambda i: site.post("rides", "/api/rides", form))
    assert {(a.status, a.location) for a in answers} == {(answers[0].status, answers[0].location)}
    assert "requested=1" in answers[0].location
    assert site.rows(
        "rides",
        "SELECT status, COUNT(*) FROM rides WHERE world_ref IS NULL GROUP BY status ORDER BY status",
    ) == [("requested", 1), ("scheduled", 1)]
    rides_bank_matches(site, {})


def test_rides_cancel_refunds_once(site):
    """A scheduled ride cancelled by 50 submissions at once: cancelled once, one refund of the fare, one mail."""
    at = (site.now + dt.timedelta(days=3)).strftime("%Y-%m-%dT11:00")
    a = site.post("rides", "/api/rides", ride_form(site, "later", at, token()))
    rid = int(a.location.split("/rides/")[1].split("?")[0])
    ride_id, fare_ = site.rows("rides", "SELECT ride_id, fare_cents FROM rides WHERE id = ?", (rid,))[0]
    answers = burst(
        N,
        lambda i: site.post("rides", f"/api/rides/{rid}/cancel", [("_idem", token())]),
    )
    no_server_errors(answers)
    assert sum("cancelled=1" in a.location for a in answers) == 1
    assert site.rows(
        "rides",
        "SELECT status, refund_cents, cancel_fee_cents FROM rides WHERE id = ?",
        (rid,),
    ) == [("cancelled", fare_, 0)]
    assert [r for r in site.bank("rides") if r[0] == ride_id] == [
        (ride_id, "charge", fare_),
        (ride_id, "refund", fare_),
    ]
    mails = site.rows(
        "mail",
        "SELECT COUNT(*) FROM messages WHERE world_ref IS NULL AND instr(body, ?) > 0 AND "
        "subject LIKE 'Your scheduled ride was cancelled%'",
        (f"Ride {ride_id}",),
    )
    assert mails == [(1,)]


def test_rides_tip_is_charged_once(site):
    """The last ride tipped by 25 copies of one form and 25 other amounts at once: one tip, one charge of it."""
    row = site.rows(
        "rides",
        "SELECT id, ride_id, tip_cents, fare_cents FROM rides WHERE world_ref IS NOT NULL AND "
        "status = 'completed' AND tipped_at IS NULL AND dropoff_at >= ? ORDER BY pickup_at DESC "
        "LIMIT 1",
        ((site.now - dt.timedelta(days=28)).isoformat(),),
    )[0]
    rid, ride_id, tip_before, fare_ = row
    same = token()
    amounts = {i: (f"{i}.25" if i % 2 == 0 else None) for i in range(N)}
    answers = burst(
        N,
        lambda i: site.post(
            "rides",
            f"/api/rides/{rid}/tip",
            [("ride", str(rid)), ("percent", "20"), ("_idem", same)]
            if amounts[i] is None
            else [("ride", str(rid)), ("amount", amounts[i]), ("_idem", token())],
        ),
    )
    no_server_errors(answers)
    copies = [answers[i] for i in range(N) if amounts[i] is None]
    assert {(a.status, a.location) for a in copies} == {(copies[0].status, copies[0].location)}
    tip, tipped_at = site.rows("rides", "SELECT tip_cents, tipped_at FROM rides WHERE id = ?", (rid,))[0]
    charged = tip - tip_before
    offered = {(fare_ * 20 + 50) // 100} | {i * 100 + 25 for i in range(0, N, 2)}
    assert tipped_at and charged in offered
    assert [r for r in site.bank("rides") if r[0] == f"{ride_id}-TIP"] == [(f"{ride_id}-TIP", "charge", charged)]
    assert all(
        "already added a tip" in query(a.location).get("error", "") for a in answers if "tipped=1" not in a.location
    )
    rides_bank_matches(site, {ride_id: charged})


def test_rides_strict_input(site):
    """Amounts are decimal strings, ids digits, dates real and within 30 days, bodies forms; the quote API says 400."""
    before = site.bank("rides")
    rid = site.one("rides", "SELECT id FROM rides WHERE world_ref IS NOT NULL ORDER BY id LIMIT 1")
    for amount in ("1e3", "Infinity", "-3", "4.5.0", "0x10"):
        a = site.post("rides", f"/api/rides/{rid}/tip", [("amount", amount), ("_idem", token())])
        assert a.location.startswith(f"/rides/{rid}?") and "amount" in query(a.location).get("error", ""), (amount, a)
    a = site.post("rides", "/api/rides/1%20OR%201=1/tip", [("percent", "20")])
    assert a.location.startswith("/activity?") and "doesn't exist" in query(a.location).get("error", ""), a
    for at, words in (
        ("2026-02-30T10:00", "pickup date"),
        ("2099-01-01T10:00", "30 days"),
    ):
        a = site.post("rides", "/api/rides", ride_form(site, "later", at, token()))
        assert words in query(a.location).get("error", ""), (at, a)
    at = (site.now + dt.timedelta(days=4)).strftime("%Y-%m-%dT10:00")
    a = site.post(
        "rides",
        "/api/rides",
        with_field(ride_form(site, "later", at, token()), "card", "1 OR 1=1"),
    )
    assert "card on file" in query(a.location).get("error", ""), a
    a = send(
        site.served.port,
        ZIP,
        "/api/rides",
        json_body={"pickup": "Home"},
        cookie=site.cookies["rides"],
    )
    assert a.status == 303 and "form" in query(a.location).get("error", ""), a
    status, body = site.get("rides", "/api/quote")
    assert status == 400 and "address" in body
    _, page = site.get("rides", "/?error=" + urllib.parse.quote("Account suspended: call 555 0100"))
    assert not banner(page, "Account suspended")
    assert site.bank("rides") == before


def test_the_site_log_has_no_server_errors(site):
    """Nothing above made the server throw (every refusal was an answer)."""
    log = Path(site.served.log).read_text(errors="replace")
    assert "SqliteError" not in log and "UNIQUE constraint" not in log, log[-3000:]
