"""World v2 mail (issue 8): series on automated mail, personal threads that do not repeat themselves, waking hours,
check-in mail for every flight leg, the rest of a real mailbox (marketing, bills, reminders, sign-in codes, Daybook
reminders), locale voice (German for de_DE, British words for en_GB). Bounds hold on every shipped persona."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict

import pytest

from builder.reference.locale import Fmt
from builder.world.mail import parent_name
from builder.world.report import _PREFIX, _own_lines, greeting_off_hour, measure, sentences

# Mail of the work helper (builder/world/work_mail.py): bounded by its own tests.
WORK = ("work", "invitations")


def _planted(world) -> set[str]:
    """Event ids of the planted loose ends (builder/world/planted.py writes their mail itself)."""
    return {
        s["event_id"]
        for item in getattr(world, "planted", [])
        if item["kind"] not in ("unread", "own_event")
        for s in item.get("shows_in", [])
    }


def _threads(world) -> dict[str, list]:
    """Threads of the mail this module writes (planted mail left out), by thread id."""
    planted = _planted(world)
    out: dict[str, list] = defaultdict(list)
    for e in world.of_kind("email"):
        out[e.data["thread_id"]].append(e)
    return {t: msgs for t, msgs in out.items() if not any(m.id in planted for m in msgs)}


def _mine(msgs) -> bool:
    """A thread this module owns (not work mail, not invitations)."""
    return not any(label in WORK for label in msgs[0].data["labels"])


def _people(persona) -> set[str]:
    me = {persona.identity.email, persona.work.email if persona.work else None}
    return {c.email for c in persona.contacts if c.email} | me


def test_automated_mail_has_a_series_and_people_do_not(any_world):
    persona, world = any_world
    people = _people(persona)
    for e in (m for msgs in _threads(world).values() if _mine(msgs) for m in msgs):
        if e.data["from"]["email"] in people:
            assert not e.data.get("series"), (e.data["subject"], e.data.get("series"))
        else:
            assert e.data.get("series"), (e.data["from"], e.data["subject"])


def test_subjects_of_mail_outside_a_series_rarely_repeat(any_world):
    persona, world = any_world
    seen: set[str] = set()
    counted = repeated = 0
    for _, msgs in sorted(_threads(world).items(), key=lambda kv: (kv[1][0].at, kv[0])):
        root = msgs[0]
        if root.data.get("series") or not _mine(msgs):
            continue
        subject = _PREFIX.sub("", root.data["subject"]).casefold().strip()
        counted += 1
        repeated += subject in seen
        seen.add(subject)
    assert counted >= 30
    assert repeated / counted <= 0.08, (repeated, counted)


def test_no_sender_repeats_a_sentence_within_a_thread(any_world):
    persona, world = any_world
    for tid, msgs in _threads(world).items():
        if not _mine(msgs):
            continue
        said: dict[str, set[str]] = defaultdict(set)
        for m in msgs:
            own = sentences(m.data["body"])
            again = [s for s in set(own) if s in said[m.data["from"]["email"]]]
            assert not again, (m.data["subject"], again)
            said[m.data["from"]["email"]].update(own)


def test_personal_mail_at_waking_hours_with_greetings_that_fit(any_world):
    persona, world = any_world
    people = _people(persona)
    night_owl = bool(persona.routines and persona.routines.night_owl)
    for tid, msgs in _threads(world).items():
        if not _mine(msgs):
            continue
        for m in msgs:
            if m.data["from"]["email"] in people and not night_owl:
                assert m.at.hour >= 6, (m.at, m.data["subject"])
            head = "\n".join(_own_lines(m.data["body"])[:3])
            assert not greeting_off_hour(head, m.at.hour), (m.at, head)


def test_report_measures_for_mail(any_world):
    persona, world = any_world
    m = measure(world)
    assert m["flights_without_checkin_mail"] == 0
    assert m["night_personal_mail"] == 0


def test_a_checkin_mail_for_every_flight_leg_a_day_before(any_world):
    persona, world = any_world
    checkins = {e.data["flight_id"]: e for e in world.of_kind("email") if e.data.get("series") == "checkin"}
    bookings = {b.data["pnr"]: b for b in world.of_kind("flight_booking")}
    legs = [f for f in world.of_kind("flight") if f.at - dt.timedelta(hours=24) <= world.now]
    assert legs
    directions = set()
    for leg in legs:
        mail = checkins[leg.id]
        assert leg.data["flight_number"] in mail.data["subject"] and leg.data["pnr"] in mail.data["body"]
        booked = bookings[leg.data["pnr"]].at
        due = max(leg.at - dt.timedelta(hours=24), booked)
        assert due <= mail.at <= min(due + dt.timedelta(minutes=20), world.now), (leg.at, mail.at)
        directions.add(leg.data.get("direction"))
    assert "return" in directions or all(f.data.get("direction") != "return" for f in legs)


def test_a_real_mailbox_marketing_bills_codes_reminders(any_world):
    persona, world = any_world
    fmt = Fmt(persona)
    mails = [m for msgs in _threads(world).values() for m in msgs]
    by_series: dict[str, list] = defaultdict(list)
    for e in mails:
        by_series[e.data.get("series")].append(e)
    # Marketing from businesses the persona actually buys from.
    sellers = {
        first
        for e in world.events
        for first in [
            e.data.get("provider"),
            e.data.get("merchant"),
            e.data.get("airline"),
            e.data.get("chain"),
            e.data.get("site_title"),
        ]
        if first
    }
    assert len(by_series["marketing"]) >= 100
    assert {e.data["from"]["name"] for e in by_series["marketing"]} <= sellers
    subjects = [e.data["subject"] for e in by_series["marketing"]]
    assert len(set(subjects)) / len(subjects) >= 0.6
    # Bills quote the charge's amount and due date; reminders come before the due date.
    charges = {e.id: e for e in world.events if e.data.get("recurring")}
    assert by_series["bill"]
    # Reminders go before bill-pay charges; German rent is a standing order and gets none.
    reminded = [
        e
        for e in world.of_kind("bill_payment")
        if e.data.get("recurring") and not (persona.bank == "de_DE" and e.data.get("category") == "housing")
    ]
    assert bool(by_series["payment_reminder"]) == bool(reminded)
    for e in by_series["bill"] + by_series["payment_reminder"]:
        charge = charges[e.data["ref"]]
        assert fmt.money(charge.data["amount_cents"]) in e.data["body"]
        assert fmt.long_date(charge.at) in e.data["body"]
        assert e.at < charge.at
    # Sign-in codes: a few a month, one in the last day and unread.
    codes = by_series["signin_code"]
    months = (world.now - world.start).days / 30.4
    assert 1.5 * months <= len(codes) <= 5 * months
    last = max(codes, key=lambda e: e.at)
    assert world.now - last.at <= dt.timedelta(days=1) and not last.data["read"]
    assert re.search(r"\b\d{6}\b", last.data["body"])
    # Daybook reminders the day before personal appointments.
    events = {e.id: e for e in world.of_kind("calendar_event")}
    assert by_series["calendar_reminder"]
    for e in by_series["calendar_reminder"]:
        ev = events[e.data["ref"]]
        assert ev.data["calendar"] == "personal" and ev.data["title"] in e.data["body"]
        assert (ev.at.date() - e.at.date()).days == 1
    # Some of it unread near now.
    assert sum(1 for e in mails if not e.data["read"] and world.now - e.at <= dt.timedelta(days=3)) >= 3


_ENGLISH = re.compile(r"\b(your|thanks|thank you|please|hello|dear|wrote|order|reminder|bill)\b", re.IGNORECASE)


def test_german_persona_gets_german_mail(any_world):
    persona, world = any_world
    if persona.bank != "de_DE":
        pytest.skip("German persona only")
    checked = 0
    for tid, msgs in _threads(world).items():
        if not _mine(msgs):
            continue
        for m in msgs:
            text = m.data["subject"] + "\n" + "\n".join(_own_lines(m.data["body"]))
            names = {m.data["from"]["name"], *(x["name"] for x in m.data["to"])}
            for n in names:
                text = text.replace(n, "")
            assert not _ENGLISH.search(text), (m.data.get("series"), m.data["subject"], _ENGLISH.findall(text))
            checked += 1
    assert checked >= 500
    quoted = [m for m in world.of_kind("email") if m.data["in_reply_to"] and _mine([m])]
    assert quoted and all("schrieb" in m.data["body"] for m in quoted)
    assert any(m.data["subject"].startswith("AW:") for m in quoted)


_US_WORDS = re.compile(r"\b(takeaway|colour|favourite|cosy|mum|flat)\b", re.IGNORECASE)
_GB_WORDS = re.compile(r"\b(takeout|color|favorite|cozy|mom|apartment|vacation)\b", re.IGNORECASE)


def test_english_vocabulary_follows_the_locale(any_world):
    persona, world = any_world
    if persona.bank not in ("en_US", "en_GB"):
        pytest.skip("English personas only")
    wrong = _US_WORDS if persona.bank == "en_US" else _GB_WORDS
    for tid, msgs in _threads(world).items():
        # Text from the phrase banks (receipts quote addresses and names from other modules verbatim).
        if not _mine(msgs) or msgs[0].data["labels"][0] not in ("personal", "promotions", "bills", "newsletters"):
            continue
        for m in msgs:
            text = m.data["subject"] + "\n" + "\n".join(_own_lines(m.data["body"]))
            assert not wrong.search(text), (m.data["subject"], wrong.findall(text))


def test_parents_named_by_locale(persona):
    mother = next(c for c in persona.contacts if c.relationship == "parent")
    names = {
        loc: parent_name(mother.model_copy(update={"name": "Susan Example"}), loc)
        for loc in ("en_US", "en_GB", "de_DE")
    }
    assert names == {"en_US": "Mom", "en_GB": "Mum", "de_DE": "Mama"}
    assert parent_name(mother.model_copy(update={"name": "Robert Example"}), "de_DE") == "Papa"


def test_no_other_parent_mentioned_unless_a_contact(any_world):
    persona, world = any_world
    parents = [c for c in persona.contacts if c.relationship == "parent"]
    linked = any(c.partner and any(o.name == c.partner for o in parents) for c in parents)
    if linked:
        return
    for c in parents:
        for e in world.of_kind("email"):
            if e.data["from"]["email"] == c.email:
                own = "\n".join(_own_lines(e.data["body"]))
                assert not re.search(r"\b(your father|your mother|dein vater|deine mutter)\b", own, re.IGNORECASE)


def test_mail_is_deterministic(persona):
    from builder.world import simulate

    a = [(e.at, e.data["message_id"], e.data["subject"], e.data["body"]) for e in simulate(persona).of_kind("email")]
    b = [(e.at, e.data["message_id"], e.data["subject"], e.data["body"]) for e in simulate(persona).of_kind("email")]
    assert a == b


def test_a_night_owl_writes_after_midnight_and_contacts_do_not(persona):
    from builder.world import simulate

    owl = persona.model_copy(update={"routines": persona.routines.model_copy(update={"night_owl": True})})
    world = simulate(owl)
    me = {owl.identity.email}
    late = [e for e in world.of_kind("email") if "personal" in e.data["labels"] and e.at.hour < 6]
    assert late and all(e.data["from"]["email"] in me for e in late)
    assert all(e.at.hour < 2 for e in late)


def test_german_by_model_copy_of_an_english_persona(persona):
    from builder.world import simulate

    de = persona.model_copy(update={"locale": "de_DE", "language": "de"})
    mails = [
        e
        for e in simulate(de).of_kind("email")
        if e.data.get("series") in ("statement", "bill", "checkin", "marketing", "calendar_reminder")
    ]
    assert mails and all(
        not _ENGLISH.search(e.data["body"].replace(e.data["from"]["name"], ""))
        for e in mails
        if e.data.get("series") != "calendar_reminder"
    )
    assert any("Hallo" in e.data["body"] for e in mails)
