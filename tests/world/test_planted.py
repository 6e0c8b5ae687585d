"""Loose ends planted on purpose (builder/world/planted.py) and search history (builder/world/browsing.py),
on every shipped persona: counts by kind, every recorded event exists, the recorded facts match the events,
the module shifts no other module's events, and search pages are well-formed and grounded."""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from urllib.parse import parse_qs, urlsplit


from builder.world import simulate
from builder.reference.locale import Fmt


def _items(world, kind, what=None):
    return [i for i in world.planted if i["kind"] == kind and (what is None or i["what"] == what)]


def _events(world):
    return {e.id: e for e in world.events}


def _when(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value).replace(tzinfo=None)


def test_counts_by_kind_meet_the_bounds(any_world):
    _, world = any_world
    kinds = Counter(i["kind"] for i in world.planted)
    assert kinds["contradiction"] >= 5, kinds
    assert kinds["pending"] >= 3, kinds
    assert kinds["chain"] >= 2, kinds
    assert kinds["own_event"] == 1, kinds
    assert kinds["unread"] >= 3, kinds
    apps = {i["app"] for i in _items(world, "unread")}
    assert {"mail", "messaging"} <= apps, apps
    assert len({i["id"] for i in world.planted}) == len(world.planted)
    for i in world.planted:
        assert set(i) >= {"id", "kind", "what", "summary", "truth", "shows_in"}
        json.dumps(i)  # JSON-serialisable as written to world/planted.json


def test_every_shows_in_event_exists(any_world):
    _, world = any_world
    events = _events(world)
    for i in world.planted:
        assert i["kind"] == "skipped" or i["shows_in"], i["id"]
        for s in i["shows_in"]:
            e = events.get(s["event_id"])
            assert e is not None, (i["id"], s)
            assert e.kind == s["kind"]
        for step in i.get("steps", []):
            assert step["event_id"] is None or step["event_id"] in events, (i["id"], step)


def test_planted_messages_are_before_now(any_world):
    _, world = any_world
    events = _events(world)
    for i in world.planted:
        for s in i["shows_in"]:
            e = events[s["event_id"]]
            if e.kind in ("email", "chat_message", "work_chat_message"):
                assert e.at <= world.now, (i["id"], e.at)


def test_contradictions_hold_both_sides(any_world):
    persona, world = any_world
    fmt = Fmt(persona)
    events = _events(world)
    by = {i["what"]: i for i in _items(world, "contradiction")}
    shown = lambda i, kind: [events[s["event_id"]] for s in i["shows_in"] if s["kind"] == kind]  # noqa: E731

    m = by.get("meeting_moved")
    if m:
        (cal,) = shown(m, "calendar_event")
        (mail,) = shown(m, "email")
        assert cal.at == _when(m["calendar_start"]) != _when(m["mail_start"])
        assert fmt.time(_when(m["mail_start"])) in mail.data["body"] and mail.data["ref"] == cal.id
        assert cal.at > world.now and mail.at <= world.now

    c = by["paid_back_claim"]
    claimed = _when(c["claimed_at"])
    assert fmt.money(c["amount_cents"]) in shown(c, "chat_message")[0].data["text"]
    assert not [
        p
        for p in world.of_kind("p2p_payment")
        if p.data["contact"] == c["contact"]
        and p.data["direction"] == "received"
        and p.at >= claimed - dt.timedelta(days=3)
        and p.status == "done"
    ]
    assert c["truth"] == "bank"

    pt = by.get("plan_times")
    if pt:
        assert pt["organizer_time"] != pt["relay_time"] and pt["organizer"] != pt["relay"]
        texts = [e.data["text"] for e in shown(pt, "chat_message")]
        assert any(fmt.time(_when(pt["organizer_time"])) in t for t in texts)
        assert any(fmt.time(_when(pt["relay_time"])) in t for t in texts)
        assert _when(pt["organizer_time"]) > world.now

    rt = by.get("restaurant_time")
    if rt:
        (booking,) = shown(rt, "restaurant_booking")
        from builder.world.calendar import reservation_time

        class _S:  # reservation_time needs only the persona's zone
            persona = world.persona

        assert reservation_time(_S, booking) == _when(rt["booked_time"]) != _when(rt["friend_time"])
        assert fmt.time(_when(rt["friend_time"])) in shown(rt, "chat_message")[0].data["text"]

    b = by.get("bill_amount")
    if b:
        (pay,) = shown(b, "autopay")
        (mail,) = shown(b, "email")
        assert pay.data["amount_cents"] == b["autopay_cents"] != b["bill_cents"]
        assert fmt.money(b["bill_cents"]) in mail.data["body"] and pay.status == "scheduled"
    assert len(by) + len([s for s in _items(world, "skipped")]) >= 5


def test_pending_obligations_are_open_after_now(any_world):
    _, world = any_world
    events = _events(world)
    pend = {}
    for i in _items(world, "pending"):
        pend.setdefault(i["what"], []).append(i)
    assert {"rsvp", "send_document"} <= set(pend)
    for i in pend.get("pay_back", []):
        req = events[i["request_id"]]
        assert req.kind == "money_request" and req.data["paid"] is False
        assert req.data["amount_cents"] == i["amount_cents"]
    (rsvp,) = pend["rsvp"]
    assert world.now.date() < dt.date.fromisoformat(rsvp["rsvp_by"]) < _when(rsvp["start"]).date()
    mail = next(events[s["event_id"]] for s in rsvp["shows_in"] if s["kind"] == "email")
    cal = next(events[s["event_id"]] for s in rsvp["shows_in"] if s["kind"] == "calendar_event")
    assert cal.at > world.now >= mail.at
    ics = mail.data["attachments"][0]["content"]
    assert "PARTSTAT=NEEDS-ACTION" in ics and "METHOD:REQUEST" in ics
    assert cal.data["organizer"]["email"] not in (world.persona.identity.email,)
    (doc,) = pend["send_document"]
    assert dt.date.fromisoformat(doc["due"]) > world.now.date()
    assert events[doc["shows_in"][0]["event_id"]].at <= world.now


def test_flight_change_chain_downstream_still_old(any_world):
    _, world = any_world
    events = _events(world)
    (chain,) = _items(world, "chain", "flight_change")
    steps = {s["step"]: s for s in chain["steps"]}
    booking, change = events[steps["booking"]["event_id"]], events[steps["airline_change"]["event_id"]]
    assert booking.at < change.at <= world.now
    flight = events[chain["flight_id"]]
    assert flight.status == "scheduled" and flight.data["dep_local"] == chain["old_departure"]
    assert _when(chain["new_departure"]) - _when(chain["old_departure"]) == dt.timedelta(days=1)
    assert steps["airline_change"]["new_flight"] in change.data["body"]
    assert len(chain["steps"]) >= 4
    if "calendar_flight" in steps:
        assert events[steps["calendar_flight"]["event_id"]].data["start"] == chain["old_departure"]
    if "hotel_check_in" in steps:
        stay = events[steps["hotel_check_in"]["event_id"]]
        assert stay.data["check_in"] == steps["hotel_check_in"]["old"]
    if "dinner_reservation" in steps:
        assert _when(steps["dinner_reservation"]["old"]) < _when(chain["new_arrival"])


def test_own_event_invited_before_now_held_after(any_world):
    persona, world = any_world
    events = _events(world)
    (own,) = _items(world, "own_event")
    cal = events[own["event_id"]]
    assert cal.at > world.now and cal.data["organizer"]["email"] == persona.identity.email
    assert _when(own["invited_at"]) <= world.now
    invites = [events[s["event_id"]] for s in own["shows_in"] if s["kind"] in ("chat_message", "email")]
    assert invites and all(e.at <= world.now for e in invites)
    answers = set(own["replies"].values())
    assert "yes" in answers and answers & {"pending", "maybe", "no"}
    if own["spec"]:
        assert any(le.kind == "party" and le.title == own["title"] for le in persona.life_events)
    (chain,) = _items(world, "chain", "party_headcount")
    assert chain["needed"] > chain["ordered_for"] and chain["event_id"] == cal.id
    order = events[chain["steps"][1]["event_id"]]
    assert str(chain["ordered_for"]) in order.data["body"] and order.at <= world.now
    assert dt.date.fromisoformat(chain["change_by"]) > world.now.date()


def test_unread_are_near_now_and_unread(any_world):
    _, world = any_world
    events = _events(world)
    for i in _items(world, "unread"):
        e = events[i["shows_in"][0]["event_id"]]
        assert e.data["read"] is False and world.now - dt.timedelta(days=3) <= e.at <= world.now


def test_planting_shifts_no_other_event(any_world):
    persona, world = any_world
    without = simulate(persona, without=("planted",))
    assert not without.planted
    mine = {e.id: e for e in world.events}
    for e in without.events:
        assert e.id in mine, e
        assert mine[e.id].to_json() == e.to_json()
    extra = set(mine) - {e.id for e in without.events}
    referenced = {s["event_id"] for i in world.planted for s in i["shows_in"]}
    assert extra and extra <= referenced
    assert {mine[x].kind for x in extra} <= {"email", "chat_message", "calendar_event"}
    assert not any(mine[x].postings for x in extra)


def test_planted_is_deterministic(any_world):
    persona, world = any_world
    again = simulate(persona)
    assert json.dumps(again.planted) == json.dumps(world.planted)


# --- search history (builder/world/browsing.py) ---------------------------------------------------------


def _searches(world):
    return [e for e in world.of_kind("web_visit") if "search_query" in e.data]


def test_search_pages_are_well_formed(any_world):
    from types import SimpleNamespace

    from builder.world.browsing import engine
    from builder.world.report import is_faker_title

    persona, world = any_world
    host, prefix, title = engine(SimpleNamespace(persona=persona))
    searches = _searches(world)
    assert len(searches) >= 40
    expected = {"en_US": "www.google.com", "en_GB": "www.google.co.uk", "de_DE": "www.google.de"}[persona.bank]
    assert host == expected
    for e in searches:
        q = e.data["search_query"]
        parts = urlsplit(e.data["url"])
        assert parts.scheme == "https" and parts.netloc == host and parts.path == prefix.split("?")[0]
        assert parse_qs(parts.query)["q"] == [q] and " " not in e.data["url"]
        assert e.data["title"] == title.format(query=q) and not is_faker_title(e.data["title"])
        assert e.status == "done" and e.data["transition"] == "typed"
    assert sum(1 for e in world.of_kind("web_visit") if e.data.get("site") == host) == len(searches)


def test_searches_are_grounded_in_the_persona_s_plans(any_world):
    persona, world = any_world
    searches = _searches(world)
    queries = [e.data["search_query"].casefold() for e in searches]
    for t in persona.travel.trips or []:
        window_start = dt.datetime.combine(t.depart - dt.timedelta(days=30), dt.time(0, 0))
        if window_start < world.start or window_start > world.now:
            continue
        before = [
            e
            for e in searches
            if e.at.date() < t.depart
            and e.at >= window_start - dt.timedelta(days=1)
            and t.destination.casefold() in e.data["search_query"].casefold()
        ]
        assert before, (t.destination, t.depart)
    booked = {e.data["restaurant"].casefold() for e in world.of_kind("restaurant_booking")}
    assert any(any(name in q for name in booked) for q in queries)
    cuisines = [c.casefold() for c in persona.preferences.cuisines]
    if cuisines:
        assert (
            sum(("recipe" in q or "rezept" in q or "how to make" in q or "selber machen" in q) for q in queries) >= 10
        )


def test_search_result_clicks_follow_a_search(any_world):
    _, world = any_world
    visits = world.of_kind("web_visit")
    clicks = [i for i, e in enumerate(visits) if e.data.get("search_result")]
    assert clicks
    for i in clicks:
        e = visits[i]
        prior = [
            v
            for v in visits[max(0, i - 30) : i]
            if "search_query" in v.data and dt.timedelta(0) < e.at - v.at <= dt.timedelta(minutes=1)
        ]
        assert prior, e.data
        assert e.data["url"].startswith(("https://", "http://")) and " " not in e.data["url"]


def test_delivery_contradiction_names_two_days(any_world):
    persona, world = any_world
    events = _events(world)
    for i in _items(world, "contradiction", "delivery_date"):
        mail = next(
            events[s["event_id"]]
            for s in i["shows_in"]
            if s["kind"] == "email" and events[s["event_id"]].data.get("series") == "tracking"
        )
        delivery = next(events[s["event_id"]] for s in i["shows_in"] if s["kind"] == "retail_delivery")
        assert delivery.at.date().isoformat() == i["shop_day"] < i["carrier_day"]
        assert Fmt(persona).long_date(dt.date.fromisoformat(i["carrier_day"])) in mail.data["body"]
        assert i["tracking_number"] in mail.data["body"] and mail.at <= world.now < delivery.at


def test_contributors_contradictions_and_chains_are_planted_as_written_and_refused_when_unfounded(tmp_path):
    """The spec's ``contradictions`` become the contact's message, verbatim, and a ``spec_claim`` record whose truth
    is the spec's value in the app that shows it; ``chains`` are recorded step by step; what names no fact, a fact
    the spec lacks, a claim equal to the truth or missing from its message, or a contact outside the messaging app
    is refused, one line each."""
    from pathlib import Path

    import pytest

    from builder.persona import SpecError, complete, load
    from builder.persona.model import Persona

    spec = json.loads((Path(__file__).parents[2] / "personas" / "jordan-lee.json").read_text())
    spec["contacts"] = [{"name": "Priya Raman", "relationship": "friend", "closeness": 5}]
    spec["life_events"] = [{"date": "2026-12-04", "kind": "exam", "title": "Ethics exam", "time": "09:00"}]
    spec["contradictions"] = [
        {
            "fact": "life_events[0].time",
            "claim": "10:30",
            "by": "Priya Raman",
            "at": "2026-11-10T19:42",
            "text": "Your exam is at 10:30 <b>on the 4th</b>, right?",
            "about": "the time of my ethics exam",
        }
    ]
    spec["chains"] = [
        {
            "about": "The exam day decides the dinner",
            "steps": [
                {"fact": "life_events[0].date", "label": "the day of my exam"},
                {"fact": "contacts[0].phone", "label": "Priya's number"},
            ],
        }
    ]
    spec["contacts"][0]["phone"] = "+1 503 555 0142"
    p = complete(Persona.model_validate(spec))
    world = simulate(p)
    (claim,) = _items(world, "contradiction", "spec_claim")
    assert (claim["value"], claim["claim"], claim["truth"], claim["contact"]) == (
        "09:00",
        "10:30",
        "calendar",
        "Priya Raman",
    )
    (event,) = [_events(world)[s["event_id"]] for s in claim["shows_in"]]
    assert event.data["text"] == "Your exam is at 10:30 <b>on the 4th</b>, right?" and event.at == dt.datetime(
        2026, 11, 10, 19, 42
    )
    # No everyday chat of the builder's own with her that day (messages tied to the world, a booking, may be).
    day = [
        e
        for e in world.of_kind("chat_message")
        if e.data["contact"] == "Priya Raman" and e.at.date() == event.at.date()
    ]
    assert {e.data.get("topic") for e in day if e.id != event.id} <= {"dinner", "p2p", "trip", "life_event", "birthday"}
    (chain,) = _items(world, "chain", "spec")
    assert [(s["value"], s["app"]) for s in chain["steps"]] == [
        ("2026-12-04", "calendar"),
        ("+1 503 555 0142", "messaging"),
    ]
    exam = [e for e in world.of_kind("calendar_event") if e.data.get("title") == "Ethics exam"]
    assert exam and exam[0].data["start"].startswith("2026-12-04T09:00")

    bad_cases = [
        ({"fact": "identity.name"}, "contradictions[0].fact: 'identity.name' is not a fact"),
        ({"fact": "life_events[0].location"}, "has no value in this spec"),
        ({"claim": "09:00", "text": "at 09:00?"}, "contradictions[0].claim: must differ"),
        ({"text": "see you then"}, "contradictions[0].text: the message must state the claim"),
        ({"by": "Nobody Here"}, "contradictions[0].by: 'Nobody Here' is not the name of a contact"),
        ({"at": "2026-12-01T10:00"}, "contradictions[0].at: must be on a day of the history"),
    ]
    for change, message in bad_cases:
        bad = json.loads(json.dumps(spec))
        bad["contradictions"][0].update(change)
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(bad))
        with pytest.raises(SpecError) as err:
            load(path)
        assert any(message in line for line in err.value.lines), (message, err.value.lines)
    bad = json.loads(json.dumps(spec))
    bad["contacts"][0]["apps"] = ["mail"]
    bad["chains"][0]["steps"][1]["fact"] = "life_events[0].date"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(SpecError) as err:
        load(path)
    assert any("contradictions[0].by: Priya Raman is not in the messaging app" in line for line in err.value.lines)
    assert any("chains[0].steps[1].fact: also steps[0]'s fact" in line for line in err.value.lines)
    bad = json.loads(json.dumps(spec))
    bad["work"] = {**bad.get("work", {}), "work_apps": ["mail"]}
    path.write_text(json.dumps(bad))
    with pytest.raises(SpecError) as err:
        load(path)
    assert any("work.work_apps: is not read" in line for line in err.value.lines), err.value.lines


def test_the_builders_own_changes_leave_what_a_contributors_claim_names_alone():
    """A flight rebooked a day later (the ``flight_change`` chain) would move the very day a contributor's
    contradiction says the airline shows: the builder's own changes skip the trips, meetings and bills the spec's
    contradictions and chains name."""
    from pathlib import Path

    from builder.persona import complete
    from builder.persona.model import Persona

    spec = json.loads((Path(__file__).parents[2] / "personas" / "jordan-lee.json").read_text())
    p = complete(Persona.model_validate(spec))
    plain = simulate(p)
    (change,) = _items(plain, "chain", "flight_change")
    trip = p.travel.trips[change["trip"]]
    spec["travel"] = p.travel.model_dump(mode="json", by_alias=True)
    spec["contacts"] = [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in p.contacts]
    friend = next(c for c in p.contacts if c.relationship == "friend" and "chat" in (c.apps or []))
    spec["contradictions"] = [
        {
            "fact": f"travel.trips[{change['trip']}].depart",
            "claim": "the day after",
            "by": friend.name,
            "at": f"{p.as_of - dt.timedelta(days=3)}T18:00",
            "text": f"we fly the day after, right? to {trip.destination}",
            "about": "the day we fly",
        }
    ]
    world = simulate(complete(Persona.model_validate(spec)))
    assert all(i.get("trip") != change["trip"] for i in _items(world, "chain", "flight_change"))
    legs = [
        e
        for e in world.of_kind("flight")
        if e.data.get("trip") == change["trip"] and e.data.get("direction") == "outbound" and e.data.get("leg") == 1
    ]
    assert [dt.date.fromisoformat(e.data["dep_local"][:10]) for e in legs if e.status == "scheduled"] == [trip.depart]
