"""Calendar, mail and chat of the simulated world: volumes, facts quoted from bookings, identities, timing."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
from collections import Counter, defaultdict

import pytest

from builder.money import money

from builder.world import simulate
from builder.world.calendar import MEETING_ANCHOR, public_holidays
from builder.reference.locale import Fmt

WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
# Bookings and orders come from the travel and orders modules; these tests need them in the tree.
needs_travel_and_orders = pytest.mark.skipif(
    importlib.util.find_spec("builder.world.travel") is None
    or importlib.util.find_spec("builder.world.orders") is None,
    reason="builder.world.travel / orders not present",
)


def _away(persona) -> set[dt.date]:
    out = set()
    for t in persona.travel.trips or []:
        d = t.depart
        while d <= t.return_:
            out.add(d)
            d += dt.timedelta(days=1)
    return out


def _by_ref(world, kind="email"):
    out = defaultdict(list)
    for e in world.of_kind(kind):
        if e.data.get("ref"):
            out[e.data["ref"]].append(e)
    return out


def test_volumes_of_the_default_persona(world):
    counts = Counter(e.kind for e in world.events)
    assert counts["calendar_event"] >= 660
    assert counts["email"] >= 1170
    assert counts["chat_message"] >= 2600


def test_no_mail_or_chat_after_now(any_world):
    _, world = any_world
    for e in world.events:
        if e.kind in ("email", "chat_message"):
            assert e.at <= world.now and e.status == "done", e
    # Calendar events may be planned into the horizon, but not past its end.
    assert any(e.at > world.now for e in world.of_kind("calendar_event"))
    assert all(e.at <= world.end for e in world.of_kind("calendar_event"))


def test_message_ids_unique_and_threads_consistent(any_world):
    _, world = any_world
    mails = world.of_kind("email")
    ids = [e.data["message_id"] for e in mails]
    assert len(ids) == len(set(ids))
    assert all(i.startswith("<") and i.endswith(">") and "@" in i for i in ids)
    by_id = {e.data["message_id"]: e for e in mails}
    threads = defaultdict(list)
    for e in mails:
        threads[e.data["thread_id"]].append(e)
        parent = e.data["in_reply_to"]
        if parent:
            assert parent in by_id, e.data["subject"]
            assert by_id[parent].data["thread_id"] == e.data["thread_id"]
            assert by_id[parent].at <= e.at
            assert e.data["references"][-1] == parent
    work = [
        t
        for t in threads.values()
        if "work" in t[0].data["labels"]
        and not t[0].data["attachments"]
        and not t[0].data["subject"].startswith(("Notes", "Recap", "Your pay"))
    ]
    assert work and all(1 <= len(t) <= 5 for t in work)
    assert sum(len(t) >= 2 for t in work) > len(work) / 2
    for e in mails:
        me = {world.persona.identity.email, world.persona.work.email}
        assert (e.data["folder"] == "sent") == (e.data["from"]["email"] in me)
        assert e.data["folder"] in ("inbox", "sent", "archive")


def test_contacts_are_identical_everywhere(any_world):
    persona, world = any_world
    by_name = {c.name: c for c in persona.contacts}
    by_email = {c.email: c for c in persona.contacts}
    me = {persona.identity.email, persona.work.email}
    for e in world.of_kind("email"):
        people = [e.data["from"], *e.data["to"], *e.data["cc"]]
        for x in people:
            if x["name"] in by_name:
                assert x["email"] == by_name[x["name"]].email, (e.data["subject"], x)
            if x["email"] in by_email:
                assert x["name"] == by_email[x["email"]].name
            if x["name"] == persona.identity.name:
                assert x["email"] in me
    for e in world.of_kind("calendar_event"):
        for x in [*e.data["attendees"], e.data["organizer"] or {}]:
            if x.get("name") in by_name:
                assert x["email"] == by_name[x["name"]].email
    threads = {}
    for e in world.of_kind("chat_message"):
        c = by_name[e.data["contact"]]
        assert "chat" in c.apps
        assert e.data["contact_phone"] == c.phone
        assert e.data["sender"] in ("me", c.name)
        assert threads.setdefault(c.name, e.data["thread_id"]) == e.data["thread_id"]
    assert len(set(threads.values())) == len(threads)


@needs_travel_and_orders
def test_every_booking_and_order_has_a_confirmation_quoting_its_facts(any_world):
    persona, world = any_world
    fmt = Fmt(persona)
    refs = _by_ref(world)
    kinds = (
        "flight_booking",
        "hotel_booking",
        "hotel_checkout",
        "restaurant_booking",
        "food_order",
        "grocery_order",
        "retail_order",
        "ride",
    )
    checked = Counter()
    for e in world.events:
        if e.kind not in kinds or e.at > world.now:
            continue
        d = e.data
        mails = [
            m
            for m in refs[e.id]
            if m.data["labels"][0] in ("travel", "receipts", "reservations")
            and m.data.get("series") not in ("checkin", "shipping")
        ]
        assert len(mails) == 1, (e.kind, e.id, [m.data["subject"] for m in mails])
        m = mails[0]
        body = m.data["subject"] + "\n" + m.data["body"]
        assert m.at >= e.at and m.at <= world.now
        if "total_cents" in d:
            assert fmt.money(d["total_cents"]) in body, (e.kind, body)
        if e.kind == "flight_booking":
            assert d["pnr"] in body
            for leg in d["itinerary"]:
                assert leg["flight_number"] in body
                dep = dt.datetime.fromisoformat(leg["dep_local"])
                assert fmt.local(leg["dep_local"], leg["from"]) in body
                assert fmt.time(dep) in body
        elif e.kind in ("hotel_booking", "hotel_checkout"):
            assert d["confirmation"] in body and d["hotel"] in body
            assert fmt.date(dt.date.fromisoformat(d["check_in"])) in body
            assert fmt.date(dt.date.fromisoformat(d["check_out"])) in body
        elif e.kind == "restaurant_booking":
            when = dt.datetime.fromisoformat(d["reservation_local"])
            assert d["booking_id"] in body and d["restaurant"] in body and fmt.time(when) in body
        elif e.kind in ("food_order", "grocery_order", "retail_order"):
            assert d["order_id"] in body
            for item in d["items"]:
                assert item["name"] in body
        elif e.kind == "ride":
            assert d["pickup"] in body and d["dropoff"] in body
        checked[e.kind] += 1
    assert checked["flight_booking"] >= 4 and checked["food_order"] >= 50 and checked["restaurant_booking"] >= 30


@needs_travel_and_orders
def test_deliveries_and_check_in_reminders(world):
    refs = _by_ref(world)
    orders = {e.data["order_id"]: e for e in world.of_kind("retail_order")}
    for e in world.of_kind("retail_delivery"):
        delivered = [m for m in refs[e.id] if m.data["subject"].startswith("Delivered")]
        assert len(delivered) == (1 if e.at <= world.now else 0)
        for m in delivered:
            assert e.data["order_id"] in m.data["body"] and e.data["tracking_number"] in m.data["body"]
            assert m.at >= e.at
        order = orders[e.data["order_id"]]
        shipped = [m for m in refs[order.id] if m.data["subject"].startswith("Shipped")]
        assert len(shipped) <= 1
        for m in shipped:
            assert order.at <= m.at <= world.now and e.data["tracking_number"] in m.data["body"]
    for f in world.of_kind("flight"):
        assert f.data["pnr"]
    checkins = [m for m in world.of_kind("email") if m.data["subject"].startswith("Check in")]
    assert checkins
    for m in checkins:
        assert m.data["labels"] == ["travel"]


def test_meetings_land_on_their_weekdays_and_cadence_and_not_while_away(any_world):
    persona, world = any_world
    away = _away(persona)
    holidays = set()
    for year in range(world.start.year, world.end.year + 1):
        holidays |= set(public_holidays(persona.bank, year))
    meetings = [e for e in world.of_kind("calendar_event") if e.data["source"] == "meeting" and e.data["series"]]
    for m in persona.work.meetings:
        dates = sorted(e.at.date() for e in meetings if e.data["title"] == m.title)
        expected = [
            d
            for d in (
                world.start.date() + dt.timedelta(days=k)
                for k in range((world.end.date() - world.start.date()).days + 1)
            )
            if WEEKDAYS[d.weekday()] in m.days
            and ((d - MEETING_ANCHOR).days // 7) % m.every_weeks == 0
            and d not in away
            and d not in holidays
        ]
        assert dates == expected, m.title
        assert dates[-1] > world.now.date() + dt.timedelta(days=50)  # the horizon is planned too
        hh, mm = map(int, m.time.split(":"))
        for e in meetings:
            if e.data["title"] == m.title:
                assert (e.at.hour, e.at.minute) == (hh, mm)
                end = dt.datetime.fromisoformat(e.data["end"]) - dt.datetime.fromisoformat(e.data["start"])
                assert end == dt.timedelta(minutes=m.duration_minutes)
    # No work meeting at all while away or on a holiday.
    for e in world.of_kind("calendar_event"):
        if e.data["source"] == "meeting":
            assert e.at.date() not in away and e.at.date() not in holidays and e.at.weekday() < 5


def test_birthdays_on_the_contacts_birthdays(any_world):
    persona, world = any_world
    cal = [e for e in world.of_kind("calendar_event") if e.data["source"] == "birthday"]
    for c in persona.contacts:
        mine = [e for e in cal if e.data["description"].startswith(c.name + " ")]
        years = [
            y
            for y in range(world.start.year, world.end.year + 1)
            if world.start.date() <= c.birthday.replace(year=y) <= world.end.date()
        ]
        assert sorted(e.at.date() for e in mine) == [c.birthday.replace(year=y) for y in years], c.name
        assert all(e.data["all_day"] and e.at.time() == dt.time(0, 0) for e in mine)
    # Chat greetings on the day, from the persona.
    for e in world.of_kind("chat_message"):
        if e.data["ref"] and any(e.data["ref"] == b.id for b in cal):
            c = persona.contacts[[x.name for x in persona.contacts].index(e.data["contact"])]
            assert (e.at.month, e.at.day) == (c.birthday.month, c.birthday.day)


def test_calendar_mirrors_trips_flights_hotels_restaurants_and_life_events(any_world):
    persona, world = any_world
    cal = world.of_kind("calendar_event")
    by_ref = _by_ref(world, "calendar_event")
    for f in world.of_kind("flight"):
        (e,) = by_ref[f.id]
        assert e.data["start"] == f.data["dep_local"] and e.data["end"] == f.data["arr_local"]
        assert e.at == f.at and f.data["flight_number"] in e.data["title"]
    for h in world.of_kind("hotel_stay"):
        (e,) = by_ref[h.id]
        assert e.data["start"] == h.data["check_in_local"]
        assert e.data["end"].startswith(h.data["check_out"])
    for b in world.of_kind("restaurant_booking"):
        (e,) = by_ref[b.id]
        assert e.data["start"] == b.data["reservation_local"]
        assert [a["name"] for a in e.data["attendees"]] == b.data["companions"]
    trips = [e for e in cal if e.data["source"] == "trip"]
    assert len(trips) == len([t for t in persona.travel.trips if t.depart <= world.end.date()])
    for le in persona.life_events:
        (e,) = [x for x in cal if x.data["title"] == le.title and x.at.date() == le.date]
        if le.time:
            assert e.at.strftime("%H:%M") == le.time
        assert [a["name"] for a in e.data["attendees"] if a["name"] != persona.identity.name] == list(le.with_)
    exercise = [e for e in cal if e.data["source"] == "exercise"]
    away = _away(persona)
    assert exercise and all(WEEKDAYS[e.at.weekday()] in persona.routines.exercise_days for e in exercise)
    assert not any(e.at.date() in away for e in exercise)
    for e in cal:
        start, end = dt.datetime.fromisoformat(e.data["start"]), dt.datetime.fromisoformat(e.data["end"])
        assert start.tzinfo is not None and end > start


@needs_travel_and_orders
def test_chat_quotes_payments_trips_and_dinners(world, persona):
    events = {e.id: e for e in world.events}
    cur = persona.finances.currency
    fmt = Fmt(persona)
    seen = Counter()
    for m in world.of_kind("chat_message"):
        ref = events.get(m.data["ref"]) if m.data["ref"] else None
        if ref is None:
            continue
        seen[ref.kind] += 1
        if ref.kind == "p2p_payment":
            assert ref.data["contact"] == m.data["contact"]
            assert abs((m.at - ref.at).total_seconds()) < 3600
    for p in world.of_kind("p2p_payment"):
        lines = [m for m in world.of_kind("chat_message") if m.data["ref"] == p.id]
        if "chat" in persona.contacts[[c.name for c in persona.contacts].index(p.data["contact"])].apps:
            assert any(money(p.data["amount_cents"], cur) in m.data["text"] for m in lines)
    for b in world.of_kind("flight_booking"):
        lines = [m for m in world.of_kind("chat_message") if m.data["ref"] == b.id and m.data["sender"] == "me"]
        leg = b.data["itinerary"][0]
        for m in lines[:1]:
            assert (
                leg["flight_number"] in m.data["text"]
                or persona.travel.trips[b.data["trip"]].destination in m.data["text"]
            )
            assert fmt.time(dt.datetime.fromisoformat(leg["dep_local"])) in m.data["text"]
    assert seen["p2p_payment"] >= 40 and seen["flight_booking"] >= 2 and seen["restaurant_booking"] >= 30


def test_chat_sessions_follow_closeness(world, persona):
    counts = Counter(e.data["contact"] for e in world.of_kind("chat_message"))
    close = {c.name: c.closeness for c in persona.contacts}
    five = min(counts[n] for n, k in close.items() if k == 5)
    one = max((counts[n] for n, k in close.items() if k == 1), default=0)
    assert five > 5 * one
    # Messages within a session are seconds to minutes apart.
    by_thread = defaultdict(list)
    for e in world.of_kind("chat_message"):
        by_thread[e.data["thread_id"]].append(e.at)
    gaps = [(b - a).total_seconds() for ts in by_thread.values() for a, b in zip(ts, ts[1:])]
    assert sum(g <= 900 for g in gaps) > 0.8 * len(gaps)


def test_invitations_carry_an_ics(world):
    invites = [e for e in world.of_kind("email") if "invitations" in e.data["labels"]]
    assert invites
    events = {e.id: e for e in world.of_kind("calendar_event")}
    for m in invites:
        (att,) = m.data["attachments"]
        assert att["filename"] == "invite.ics" and att["content_type"].startswith("text/calendar")
        assert att["size"] == len(att["content"].encode())
        assert "BEGIN:VEVENT" in att["content"] and "\r\n" in att["content"]
        cal = events[m.data["ref"]]
        assert cal.data["title"] in att["content"] and cal.data["title"] in m.data["subject"]


def test_statements_payslips_and_newsletters(world, persona):
    mails = world.of_kind("email")
    statements = [m for m in mails if m.data["from"]["email"] == "noreply@larkspurbank.test"]
    assert len(statements) >= 17 * len([a for a in persona.accounts if a.kind != "brokerage"])
    assert all(m.at.day == 3 for m in statements)
    pays = {p.id: p for p in world.of_kind("paycheck")}
    stubs = [m for m in mails if m.data["ref"] in pays]
    assert len(stubs) == sum(1 for p in pays.values() if p.at < world.now - dt.timedelta(hours=2))
    for m in stubs:
        assert Fmt(persona).money(pays[m.data["ref"]].data["net_cents"]) in m.data["body"]
    letters = Counter(m.data["from"]["email"] for m in mails if "newsletters" in m.data["labels"])
    sites = [s for s in persona.browsing if ".test" not in s.url]
    assert len(letters) == len(sites) and min(letters.values()) >= 50


def test_simulation_is_deterministic(world, persona):
    again = simulate(persona)
    kinds = ("calendar_event", "email", "chat_message")
    first = [json.dumps(e.to_json(), sort_keys=True) for e in world.events if e.kind in kinds]
    second = [json.dumps(e.to_json(), sort_keys=True) for e in again.events if e.kind in kinds]
    assert first == second
