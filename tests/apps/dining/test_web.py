"""TableTime (apps/dining) end to end: the production site on copies of the seeded databases.

Expected values come from the *world* (its ``restaurant_booking`` events and the meals' card purchases) and from
the catalogue the world draws from (``builder/reference/dining/restaurants.yaml``), never from the app's database. The
site is served with its clock at the world's now so "upcoming", the 24-hour fee window and today's tables are
judged against the frozen clock. After the browser run the test reads what the app left behind: its reservations
and holds, the bank's pending late-cancellation charge and the confirmation mail with its .ics.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import http.client
import json
import sqlite3
import urllib.parse
from collections import Counter

from builder.money import money

from tests.app_e2e import Served, run_e2e

HOST = "tabletime.test"


def _bookings(world) -> list[dict]:
    """The world's bookings as TableTime shows them: the restaurant's wall-clock day and time, in booking order."""
    out = []
    for e in world.of_kind("restaurant_booking"):
        d = e.data
        at = dt.datetime.fromisoformat(d["reservation_local"]).replace(tzinfo=None)
        out.append(
            {
                "confirmation": d["booking_id"],
                "restaurant": d["restaurant"],
                "address": d["address"],
                "day": at.date().isoformat(),
                "time": at.strftime("%H:%M"),
                "party": d["party_size"],
                "companions": d["companions"],
                "request": d.get("special_request"),
                "at": at,
                "event": e.id,
            }
        )
    return out


def _eur(cents: int) -> str:
    return f"€{cents // 100:,}.{cents % 100:02d}"


def world_facts(world) -> dict:
    """Every value the browser tests expect, from the world and the catalogue."""
    from apps.dining.seed import credentials
    from builder.world.dining import catalogue

    p = world.persona
    home = p.identity.address.city
    cat = list(catalogue())
    mine = _bookings(world)
    upcoming = sorted((b for b in mine if b["at"] > world.now), key=lambda b: (b["day"], b["time"]))
    past = [b for b in mine if b["at"] <= world.now]
    index = {(x["name"], x["address"]): i for i, x in enumerate(cat)}
    slug = {(x["name"], x["address"]): x["slug"] for x in cat}
    counts = Counter(index[(b["restaurant"], b["address"])] for b in mine)
    favourites = [cat[i]["slug"] for i, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]]
    top = max(Counter(index[(b["restaurant"], b["address"])] for b in past).items(), key=lambda kv: (kv[1], -kv[0]))
    city = [x for x in cat if x["city"] == home]
    cuisine = (p.preferences.cuisines or ["American"])[0]
    hood = city[0]["neighbourhood"]
    booked = {b["restaurant"] for b in mine}
    rest = next(x for x in city if x["name"] not in booked and x["slug"] not in favourites)
    # The last table: a 6-top is the only table for six where there is no 8-top; 40 days out no one else holds it.
    later = world.now.date() + dt.timedelta(days=40)
    wd = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][later.weekday()]
    last = next(
        x for x in city if 8 not in x["tables"] and wd in x["hours"]["dinner"]["days"] and x["slug"] != rest["slug"]
    )
    late = next(
        x
        for x in city
        if x["late_cancel_cents"] and x["currency"] == world.currency and x["slug"] not in (rest["slug"], last["slug"])
    )
    foreign = next(x for x in cat if x["city"] == "Lisbon")
    creds = credentials(world)
    with_companions = next(b for b in reversed(past) if b["companions"])
    with_request = next(b for b in reversed(mine) if b["request"])
    latest = past[-1]
    return {
        "username": creds["username"],
        "password": creds["password"],
        "session_token": creds["session_token"],
        "first_name": p.identity.name.split()[0],
        "today": world.now.date().isoformat(),
        "later_day": later.isoformat(),
        "too_far": (world.now.date() + dt.timedelta(days=120)).isoformat(),
        "upcoming": [{k: b[k] for k in ("confirmation", "restaurant", "day", "time", "party")} for b in upcoming],
        "past": [b["confirmation"] for b in past],
        "with_companions": {k: with_companions[k] for k in ("confirmation", "companions", "party", "request")},
        "with_request": {k: with_request[k] for k in ("confirmation", "request")},
        "to_review": {
            "confirmation": latest["confirmation"],
            "slug": slug[(latest["restaurant"], latest["address"])],
            "body": "Great <b>pad</b> & service; we'll be back.",
        },
        "favourites": favourites,
        "most_visited": {"slug": cat[top[0]]["slug"], "visits": top[1]},
        "search": {
            "city": home,
            "cuisine": cuisine,
            "cuisine_count": sum(x["cuisine"] == cuisine for x in city),
            "hood": hood,
            "hood_count": sum(x["neighbourhood"] == hood for x in city),
            "city_count": len(city),
        },
        "restaurant": {
            "slug": rest["slug"],
            "name": rest["name"],
            "address": rest["address"],
            "dishes": len(rest["menu"]),
            "first_dish": rest["menu"][0]["name"],
            "first_price": money(rest["menu"][0]["price_cents"], world.currency),
        },
        "foreign": {"slug": foreign["slug"], "first_price": _eur(foreign["menu"][0]["price_cents"])},
        "last_table": {
            "slug": last["slug"],
            "name": last["name"],
            "day": later.isoformat(),
            "time": "19:00",
            "party": 6,
        },
        "late": {
            "slug": late["slug"],
            "name": late["name"],
            "day": world.now.date().isoformat(),
            "fee_cents": late["late_cancel_cents"] * 2,
            "fee_text": money(late["late_cancel_cents"] * 2, world.currency),
            "request": "Window seat <please> & a high chair",
            "occasion": "birthday",
            "occasion_label": "Birthday",
        },
        "bank": _bank_facts(world),
    }


def _bank_facts(world) -> dict:
    from apps.bank.seed import credentials as bank_credentials

    return {"token": bank_credentials(world)["session_token"]}


def test_catalogue_sizes_and_world_bookings_in_it(any_world):
    """>= 30 restaurants in every shipped home city, >= 8 in every city the world books a table in, each with hours,
    tables and a menu; every world booking names a catalogue restaurant at its address, at a time it seats a party that fits."""
    from builder.reference.airports import airport_country
    from builder.world.dining import at_home, catalogue, in_city

    persona, world = any_world
    # The file's restaurants, and those generated for a home or trip city the file does not list.
    trips = [in_city(t.destination, airport_country(t.airport)) for t in persona.travel.trips]
    rows = [*catalogue(), *at_home(persona), *(x for found in trips for x in found)]
    cat = list({(x["name"], x["address"]): x for x in rows}.values())
    by_city = Counter(x["city"] for x in cat)
    assert by_city[persona.identity.address.city] >= 30
    for x in cat:
        assert x["menu"] and x["tables"] and "dinner" in x["hours"] and x["street"] in x["address"], x["slug"]
    listed = {(x["name"], x["address"]): x for x in cat}
    bookings = _bookings(world)
    assert bookings
    for city in sorted({listed[(b["restaurant"], b["address"])]["city"] for b in bookings}):  # every city booked in
        assert by_city[city] >= 8, city
    for b in bookings:
        x = listed[(b["restaurant"], b["address"])]
        wd = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][b["at"].weekday()]
        t = b["time"]
        assert any(
            wd in h["days"] and h["open"] <= t <= f"{int(h['close'][:2]) - 1:02d}{h['close'][2:]}"
            for h in x["hours"].values()
        ), (b["confirmation"], t, x["hours"])
        assert any(int(s) >= b["party"] for s in x["tables"])
    meals = {
        e.data["restaurant_booking"]: e for e in world.of_kind("card_purchase") if e.data.get("restaurant_booking")
    }
    # Every meal is on the persona's card but those a friend paid the whole table for (they ask to be paid back).
    theirs = {e.data["booking_id"] for e in world.of_kind("restaurant_booking") if e.data.get("paid_by")}
    assert {b["confirmation"] for b in bookings} - theirs == set(meals)
    assert all(
        meals[b["confirmation"]].data["merchant"] == b["restaurant"] for b in bookings if b["confirmation"] in meals
    )


def test_catalogue_file_is_what_the_generator_writes():
    """restaurants.yaml is generate.py's output of cuisines.yaml + cities.yaml (no hand edits)."""
    import yaml

    from builder.reference.dining.generate import OUT, generate

    assert yaml.safe_load(OUT.read_text(encoding="utf-8")) == generate()


def test_dining_seed_matches_world_and_is_byte_identical(world, tmp_path):
    """The seed's reservations are the world's (count, confirmation, day, time, party, companions, request), past ones
    completed and later ones booked; each holds one table for its sitting; two seeds are byte-identical."""
    from apps.dining.seed import seed, visits

    a, b = seed(world, tmp_path / "a.sqlite"), seed(world, tmp_path / "b.sqlite")
    assert hashlib.sha256(a.read_bytes()).hexdigest() == hashlib.sha256(b.read_bytes()).hexdigest()
    con = sqlite3.connect(a)
    rows = con.execute(
        "SELECT v.confirmation, v.day, v.time, v.party_size, v.companions, v.special_request, v.status, "
        "r.name, r.address, v.world_ref, (SELECT COUNT(*) FROM table_holds h WHERE h.reservation_id = v.id), "
        "t.seats FROM reservations v JOIN restaurants r ON r.id = v.restaurant_id "
        "JOIN dining_tables t ON t.id = v.table_id ORDER BY v.id"
    ).fetchall()
    events = _bookings(world)
    assert len(rows) == len(events) > 0
    for row, e in zip(rows, events, strict=True):
        assert row[:6] == (
            e["confirmation"],
            e["day"],
            e["time"],
            e["party"],
            json.dumps(e["companions"]),
            e["request"],
        )
        assert row[6] == ("completed" if e["at"] <= world.now else "booked")
        assert row[7:10] == (e["restaurant"], e["address"], e["event"])
        assert row[10] == (8 if e["party"] > 4 else 6) and e["party"] <= row[11]
    assert con.execute("SELECT COUNT(*) FROM restaurants").fetchone()[0] >= 250
    assert con.execute("SELECT COUNT(*) FROM favourites").fetchone()[0] == 3
    con.close()
    confs = {e["confirmation"] for e in events}
    seen = visits(world)
    assert seen and all(v["at"] <= world.now for v in seen)
    for v in seen:
        path = urllib.parse.urlsplit(v["url"]).path
        assert path.startswith("/r/") or path.removeprefix("/reservations/") in confs, v


def test_dining_every_persona_seeds(any_world, tmp_path):
    """Every shipped persona seeds (a German menu, a persona completed from the seed)."""
    from apps.dining.seed import seed

    _, world = any_world
    con = sqlite3.connect(seed(world, tmp_path / "d.sqlite"))
    assert con.execute("SELECT COUNT(*) FROM reservations").fetchone()[0] == len(world.of_kind("restaurant_booking"))
    con.close()


def test_dining_web_end_to_end(site_build, world, default_layer, tmp_path):
    facts = world_facts(world)
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        print(run_e2e("dining", facts, served, tmp_path)[-6000:])
        _check_state(served, world, facts)


def _check_state(served: Served, world, facts: dict) -> None:
    """What the browser run left: the race's winner and the fee booking cancelled with their tables released, the
    upcoming reservation changed, one review; the bank holds the late fee pending; the mail app got the confirmation."""
    con = sqlite3.connect(served.database("dining"))
    made = con.execute(
        "SELECT v.confirmation, v.status, v.party_size, v.cancel_fee_cents, v.special_request, r.slug, v.occasion "
        "FROM reservations v JOIN restaurants r ON r.id = v.restaurant_id WHERE v.world_ref IS NULL "
        "ORDER BY v.id"
    ).fetchall()
    assert [(m[1], m[5]) for m in made] == [
        ("cancelled", facts["last_table"]["slug"]),
        ("cancelled", facts["late"]["slug"]),
        ("requested", facts["last_table"]["slug"]),
    ]
    assert made[2][2] == 12
    assert made[1][3] == facts["late"]["fee_cents"] and made[1][4] == facts["late"]["request"]
    assert [m[6] for m in made] == [None, "birthday", "business"]
    # The request holds no table.
    assert con.execute("SELECT table_id FROM reservations WHERE confirmation = ?", (made[2][0],)).fetchone() == (None,)
    assert (
        con.execute(
            "SELECT COUNT(*) FROM table_holds h JOIN reservations v ON v.id = h.reservation_id "
            "WHERE v.world_ref IS NULL"
        ).fetchone()[0]
        == 0
    )
    up = facts["upcoming"][0]
    assert (
        con.execute("SELECT party_size FROM reservations WHERE confirmation = ?", (up["confirmation"],)).fetchone()[0]
        == up["party"] + 1
    )
    assert con.execute("SELECT COUNT(*) FROM reviews WHERE world_ref IS NULL").fetchone()[0] == 1
    con.close()
    bank = sqlite3.connect(served.database("bank"))
    lines = bank.execute(
        "SELECT kind, reference, amount_cents, status FROM card_authorizations WHERE app = 'dining'"
    ).fetchall()
    bank.close()
    assert lines == [("charge", f"{made[1][0]}-LC", facts["late"]["fee_cents"], "pending")]
    mail = sqlite3.connect(served.database("mail"))
    got = mail.execute(
        "SELECT m.subject, a.filename, a.content, m.body FROM messages m JOIN attachments a ON a.message_id = m.id "
        "WHERE m.subject = ?",
        (f"Your reservation at {facts['late']['name']} is confirmed",),
    ).fetchall()
    mail.close()
    assert len(got) == 1 and got[0][1] == f"{made[1][0]}.ics"
    ics = got[0][2].decode()
    assert "BEGIN:VEVENT" in ics and f"UID:{made[1][0]}@{HOST}" in ics
    assert "\nOccasion: Birthday\nSpecial request: Window seat <please> & a high chair\n" in got[0][3]
    mail = sqlite3.connect(served.database("mail"))
    (sent,) = mail.execute(
        "SELECT body FROM messages WHERE subject = ?",
        (f"Your request to {facts['last_table']['name']} has been sent",),
    ).fetchall()
    mail.close()
    assert "Party: 12 guests\nOccasion: Business meal\n" in sent[0] and made[2][0] in sent[0]


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


def test_tasks_contract(world):
    """>= 8 tasks, >= 3 actions, >= 4 spanning two apps (tests/tasks/test_oracles.py runs the actions' reference solutions)."""
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("dining")

    ts = tasks(world)
    actions = [t for t in ts if t.kind == "action"]
    assert len(ts) >= 8 and len(actions) >= 3 and sum(len(t.apps_involved) > 1 for t in ts) >= 4
