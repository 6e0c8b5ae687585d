"""Chat: the persona's text conversations as ``chat_message`` events (phrases in ``templates/chat``).

Rules (tasks and tests depend on them):

* One thread per contact with ``chat`` in its apps (``thread_id`` derived from the contact's name);
  ``contact`` and ``contact_phone`` are the spec's. ``sender`` is ``me`` or the contact's name.
* Sessions of 3-12 messages, a few seconds to minutes apart, at a weekly rate by closeness
  (5: 3, 4: 1.5, 3: 0.7, 2: 0.3, 1: 0.1); colleagues in working hours on workdays. Wording follows
  the contact's ``messaging_style`` (brief / chatty / formal / emoji); topics by relationship
  (plans around shared activities, small talk, family check-ins, errands, work pings).
* Sessions tied to the world (``ref`` = the event they talk about): P2P payments (the amount
  quoted exactly as the bank shows it), trips with companions (booking: flight number, departure
  time and airport; the evening before; the return), restaurant bookings with companions,
  life events with people (invitation a week or two before, a message on the day), birthdays
  (greetings on the day, both ways).
* Nothing is sent after ``now``: a session crossing it stops there. Messages from the contact in
  the last hours before ``now`` may be unread.
"""

from __future__ import annotations

import datetime as dt
import random
from functools import lru_cache
from typing import Any

import yaml

from ..persona import Contact
from ..rng import derived_id
from .calendar import birthday_in, first, reservation_time, trips
from .context import Sim
from .mail import TEMPLATES, Fmt, has_app, template_env

SESSIONS_PER_WEEK = {5: 3.0, 4: 1.5, 3: 0.7, 2: 0.3, 1: 0.1}
_SHOWS = ["The Bear", "Slow Horses", "Severance", "Shogun", "Only Murders in the Building", "Abbott Elementary",
          "The Rehearsal", "Poker Face", "Tomorrow, and Tomorrow, and Tomorrow", "Project Hail Mary",
          "Lessons in Chemistry", "Station Eleven", "The Great British Bake Off", "Reservation Dogs"]
_ITEMS = ["oat milk", "coffee", "eggs", "dish soap", "paper towels", "olive oil", "bread", "trash bags", "bananas",
          "toilet paper", "rice", "lemons"]
_WEEKEND = ["Saturday", "Sunday"]
_DOUBLE = {"status_good", "family_news", "weekend_a", "show_a", "tried_a", "dinner_a", "plan_accept", "recommend_reply"}
_PLANS = {"climbing": "go climbing", "running": "go for a run", "hiking": "go hiking", "cycling": "go for a ride",
          "cooking": "cook dinner together", "concerts": "catch a concert", "board games": "have a board game night",
          "trivia night": "do trivia night", "film nights": "do a film night", "book club": "do book club",
          "yoga": "do yoga", "football": "play football", "swimming": "go swimming", "weights": "hit the gym"}


@lru_cache(maxsize=None)
def phrases() -> dict[str, dict[str, list[str]]]:
    """The phrase bank (intent -> style -> variants)."""
    return yaml.safe_load((TEMPLATES / "chat" / "phrases.yaml").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _compiled(text: str):
    return template_env().from_string(text)


def say(intent: str, style: str, r: random.Random, **ctx: Any) -> str:
    """One phrase of ``intent`` in ``style`` (falling back to chatty, then the persona's voice), rendered."""
    bank = phrases()[intent]
    order = {"me_formal": ("me_formal", "me"), "me": ("me", "chatty")}.get(
        style, (style, "chatty", "brief", "formal", "emoji", "me"))
    variants = next((bank[s] for s in order if bank.get(s)), None) or next(iter(bank.values()))
    text = variants[r.randrange(len(variants))]
    return _compiled(text).render(**ctx) if "{" in text else text


class Chat:
    """Appends ``chat_message`` events for the sim's persona."""

    def __init__(self, sim: Sim):
        self.sim = sim
        self.p = sim.persona
        self.fmt = Fmt(self.p)
        self.contacts = [c for c in self.p.contacts if has_app(c, "chat") and c.phone]
        self.by_name = {c.name: c for c in self.contacts}
        self.unread = sim.rng("chat/read")
        self.calendar: dict | None = None  # (source, title, date) -> calendar_event id, built on first use

    def thread_id(self, c: Contact) -> str:
        return derived_id(self.sim.seed, "chat/thread", c.name)

    def my_style(self, c: Contact) -> str:
        return "me_formal" if c.messaging_style == "formal" or c.relationship == "parent" else "me"

    def post(self, c: Contact, at: dt.datetime, lines: list[tuple[bool, str]], key: object, r: random.Random,
             ref: str | None = None) -> int:
        """Send ``lines`` ((mine, text)) from ``at`` on, a few seconds to minutes apart; stops at ``now``."""
        sim = self.sim
        tid = self.thread_id(c)
        n = 0
        for i, (mine, text) in enumerate(lines):
            if i:
                gap = r.randint(4, 75) if r.random() < 0.8 else r.randint(90, 900)
                at = at + dt.timedelta(seconds=gap + len(text) // 3)
            if at > sim.now:
                break
            read = mine or (sim.now - at).total_seconds() > 6 * 3600 or self.unread.random() < 0.4
            sim.event("chat_message", at, {
                "app": "chat", "thread_id": tid, "contact": c.name, "contact_phone": c.phone,
                "sender": "me" if mine else c.name, "text": text, "read": read, "ref": ref}, key=(tid, key, i))
            n += 1
        return n


def simulate_chat(sim: Sim) -> None:
    """Append ``chat_message`` events (see module rules)."""
    chat = Chat(sim)
    if not chat.contacts:
        return
    for c in chat.contacts:
        _sessions(chat, c)
    _p2p(chat)
    _trips(chat)
    _restaurants(chat)
    _life_events(chat)
    _birthdays(chat)


# --- everyday sessions -----------------------------------------------------------------------------

def _session_time(r: random.Random, day: dt.date, work: bool) -> dt.datetime:
    if work:
        return dt.datetime.combine(day, dt.time(r.randint(9, 16), r.randint(0, 59), r.randint(0, 59)))
    if day.weekday() >= 5:
        hour = r.randint(9, 22)
    else:
        hour = r.choice([7, 12, 12, 13, 17, 18, 19, 19, 20, 20, 21, 21, 22])
    return dt.datetime.combine(day, dt.time(hour, r.randint(0, 59), r.randint(0, 59)))


def _script(chat: Chat, c: Contact, r: random.Random, day: dt.date) -> list[tuple[bool, str]]:
    """The lines of one everyday session: a topic by relationship, padded with small talk to 3-12 lines."""
    style = c.messaging_style or "brief"
    me = chat.my_style(c)
    acts = c.shared_activities or ["a walk"]
    activity = acts[r.randrange(len(acts))]
    ctx = {"name": c.name.split()[0], "activity": activity, "plan": _PLANS.get(activity, f"do some {activity}"),
           "day": _WEEKEND[r.randrange(2)], "item": _ITEMS[r.randrange(len(_ITEMS))],
           "time": casual_time(chat, r.choice([10, 11, 14, 17, 18, 19]), r.choice([0, 0, 30])),
           "show": _SHOWS[r.randrange(len(_SHOWS))]}
    mine_first = r.random() < (0.4 if c.relationship == "parent" else 0.5)
    rel = c.relationship
    if rel == "colleague":
        topic = "work"
    elif rel == "neighbor":
        topic = "neighbor"
    elif rel == "parent":
        topic = r.choice(["family", "family", "smalltalk"])
    elif rel == "roommate":
        topic = r.choice(["errand", "errand", "plan", "smalltalk", "recommend"])
    else:
        topic = r.choice(["plan", "plan", "smalltalk", "smalltalk", "recommend"])
    steps: list[tuple[bool, str]] = []  # (mine relative to initiator: True = initiator, intent)
    if topic == "work":
        steps = [(True, "work_ping"), (False, "work_reply"), (True, "work_detail"), (False, "thanks")]
    elif topic == "neighbor":
        steps = [(True, "neighbor"), (False, "neighbor_reply")]
    elif topic == "family":
        steps = [(True, "family_checkin"), (False, "status_good"), (False, "family_news"), (True, "react_positive"),
                 (True, "family_news")]
    elif topic == "errand":
        steps = [(True, "errand"), (False, "errand_reply")]
    elif topic == "recommend":
        steps = [(True, "recommend"), (False, "recommend_reply")]
    elif topic == "plan":
        steps = [(True, "plan_propose")]
        if r.random() < 0.8:
            steps += [(False, "plan_accept"), (True, "plan_time"), (False, "plan_confirm"), (True, "see_you")]
        else:
            steps += [(False, "plan_decline"), (True, "no_worries")]
    else:
        steps = [(True, "greet"), (False, "greet"), (True, "how_are_you"), (False, "status_good"), (False, "ask_back"),
                 (True, "status_good")]
    target = r.randint(3, 12)
    topics = r.sample(["weekend", "show", "tried", "dinner"], 4)
    while len(steps) < target:
        asker = r.random() < 0.5
        if rel == "colleague" or not topics:
            block = [(not asker, "work_detail"), (asker, "thanks"), (not asker, "welcome")] if rel == "colleague" \
                else [(asker, "react_laugh")]
        else:
            topic = topics.pop()
            block = [(asker, f"{topic}_q"), (not asker, f"{topic}_a")]
            if r.random() < 0.4:
                block.append((asker, "react_laugh" if r.random() < 0.5 else "react_positive"))
        if len(steps) + len(block) > 12:
            break
        steps += block
    if rel == "parent" and len(steps) < 12 and r.random() < 0.5:
        steps.append((not mine_first, "love_you"))
    lines = []
    for initiator, intent in steps:
        mine = initiator == mine_first
        lines.append((mine, say(intent, me if mine else style, r, **ctx)))
        # Chatty people double-text now and then.
        if not mine and style == "chatty" and intent in _DOUBLE and r.random() < 0.25 and len(lines) < 12:
            lines.append((False, say("react_positive", style, r, **ctx)))
    return lines[:12]


def casual_time(chat: Chat, hour: int, minute: int = 0) -> str:
    """``7pm`` / ``10:30am`` (US) or ``19:00`` elsewhere: how people write times in chats."""
    if not chat.fmt.us:
        return f"{hour:02d}:{minute:02d}"
    return f"{(hour - 1) % 12 + 1}{f':{minute:02d}' if minute else ''}{'am' if hour < 12 else 'pm'}"


def _sessions(chat: Chat, c: Contact) -> None:
    sim = chat.sim
    r = sim.rng(f"chat/sessions/{c.name}")
    rate = SESSIONS_PER_WEEK.get(c.closeness or 1, 0.1)
    work = c.relationship == "colleague"
    per_day = rate / 5 if work else rate / 7
    for day in sim.past_days():
        if work and day.weekday() >= 5:
            continue
        if r.random() >= per_day:
            continue
        at = _session_time(r, day, work)
        if at > sim.now:
            continue
        chat.post(c, at, _script(chat, c, r, day), ("s", day), r)


# --- sessions tied to the world --------------------------------------------------------------------

def _p2p(chat: Chat) -> None:
    sim = chat.sim
    for e in sim.of_kind("p2p_payment"):
        c = chat.by_name.get(e.data.get("contact"))
        if c is None or e.at > sim.now:
            continue
        r = sim.rng(f"chat/p2p/{e.id}")
        ctx = {"name": c.name.split()[0], "amount": chat.fmt.money(e.data["amount_cents"]),
               "memo": e.data.get("memo") or "that"}
        style, me = c.messaging_style or "brief", chat.my_style(c)
        if e.data.get("direction") == "received":
            lines = [(False, say("p2p_sent", style, r, **ctx)), (True, say("p2p_thanks", me, r, **ctx))]
        else:
            lines = [(True, say("p2p_sent", me, r, **ctx)), (False, say("p2p_thanks", style, r, **ctx))]
        if r.random() < 0.4:
            lines.append((lines[0][0], say("welcome", me if lines[0][0] else style, r, **ctx)))
        chat.post(c, e.at + dt.timedelta(seconds=r.randint(5, 150)), lines, ("p2p", e.id), r, ref=e.id)


def _trips(chat: Chat) -> None:
    sim = chat.sim
    bookings = {b.data.get("trip"): b for b in sim.of_kind("flight_booking")}
    flights: dict[Any, list] = {}
    for f in sim.of_kind("flight"):
        flights.setdefault(f.data.get("trip"), []).append(f)
    for i, t in enumerate(trips(sim)):
        people = [chat.by_name[n] for n in t.companions if n in chat.by_name]
        if not people:
            continue
        booking = bookings.get(i)
        legs = flights.get(i, [])
        out = [f for f in legs if f.data.get("direction", "outbound") == "outbound"] or legs[:1]
        first_leg = out[0] if out else None
        dep_iso = first(first_leg.data, "dep_local") if first_leg else None
        dep = dt.datetime.fromisoformat(dep_iso) if dep_iso else None
        for c in people:
            r = sim.rng(f"chat/trip/{i}/{c.name}")
            style, me = c.messaging_style or "brief", chat.my_style(c)
            ctx = {"name": c.name.split()[0], "dest": t.destination,
                   "flight": first_leg.data.get("flight_number", "") if first_leg else "our flight",
                   "airport": first_leg.data.get("from", "") if first_leg else "",
                   "time": chat.fmt.time(dep) if dep else "the morning",
                   "day": chat.fmt.long_date(dep) if dep else chat.fmt.long_date(t.depart)}
            when = booking.at + dt.timedelta(minutes=r.randint(2, 40)) if booking else \
                dt.datetime.combine(t.depart - dt.timedelta(days=30), dt.time(20, r.randint(0, 59)))
            if sim.start <= when <= sim.now:
                lines = [(True, say("trip_booked", me, r, **ctx)), (False, say("trip_excited", style, r, **ctx))]
                if r.random() < 0.6:
                    lines += [(True, say("react_positive", me, r, **ctx)), (False, say("see_you", style, r, **ctx))]
                chat.post(c, when, lines, ("trip-booked", i), r, ref=booking.id if booking else None)
            eve = dt.datetime.combine(t.depart - dt.timedelta(days=1), dt.time(r.randint(19, 21), r.randint(0, 59)))
            if sim.start <= eve <= sim.now:
                mine = r.random() < 0.5
                lines = [(mine, say("trip_eve", me if mine else style, r, **ctx)),
                         (not mine, say("trip_eve_reply", style if mine else me, r, **ctx))]
                chat.post(c, eve, lines, ("trip-eve", i), r, ref=first_leg.id if first_leg else None)
            back = dt.datetime.combine(t.return_ + dt.timedelta(days=1), dt.time(r.randint(18, 21), r.randint(0, 59)))
            if sim.start <= back <= sim.now:
                mine = r.random() < 0.5
                lines = [(mine, say("trip_back", me if mine else style, r, **ctx)),
                         (not mine, say("trip_back_reply", style if mine else me, r, **ctx))]
                chat.post(c, back, lines, ("trip-back", i), r, ref=booking.id if booking else None)


def _restaurants(chat: Chat) -> None:
    sim = chat.sim
    for b in sim.of_kind("restaurant_booking"):
        if b.at > sim.now:
            continue
        names = first(b.data, "companions", "with", default=[]) or []
        when = reservation_time(sim, b)
        for c in [chat.by_name[n] for n in names if n in chat.by_name]:
            r = sim.rng(f"chat/dinner/{b.id}/{c.name}")
            ctx = {"name": c.name.split()[0], "restaurant": first(b.data, "restaurant", default="the restaurant"),
                   "day": chat.fmt.weekday(when) if 0 < (when.date() - b.at.date()).days < 7 else chat.fmt.day(when),
                   "time": chat.fmt.time(when), "party": b.data.get("party_size", len(names) + 1)}
            style, me = c.messaging_style or "brief", chat.my_style(c)
            lines = [(True, say("dinner_booked", me, r, **ctx)), (False, say("dinner_reply", style, r, **ctx))]
            if r.random() < 0.3:
                lines.append((True, say("see_you", me, r, **ctx)))
            chat.post(c, b.at + dt.timedelta(minutes=r.randint(1, 30)), lines, ("dinner", b.id), r, ref=b.id)


def _calendar_ref(chat: Chat, source: str, title: str, day: dt.date) -> str | None:
    """The id of the calendar event of ``source`` titled ``title`` on ``day`` (None if there is none)."""
    if chat.calendar is None:
        chat.calendar = {}
        for e in chat.sim.of_kind("calendar_event"):
            chat.calendar.setdefault((e.data.get("source"), e.data.get("title"), e.at.date()), e.id)
    return chat.calendar.get((source, title, day))


def _life_events(chat: Chat) -> None:
    sim, p = chat.sim, chat.p
    me_first = p.identity.name.split()[0]
    for i, le in enumerate(p.life_events):
        people = [chat.by_name[n] for n in le.with_ if n in chat.by_name]
        if not people:
            continue
        mine = (le.location or "").lower() == "home" or me_first in le.title
        ref = _calendar_ref(chat, "appointment" if le.kind in ("dentist", "doctor") else "life_event", le.title, le.date)
        when = dt.datetime.combine(le.date, dt.time(*map(int, le.time.split(":")))) if le.time else None
        for k, c in enumerate(people):
            r = sim.rng(f"chat/life/{i}/{c.name}")
            style, me = c.messaging_style or "brief", chat.my_style(c)
            ctx = {"name": c.name.split()[0], "title": le.title, "day": chat.fmt.long_date(le.date),
                   "time": chat.fmt.time(when) if when else "7"}
            invite = dt.datetime.combine(le.date - dt.timedelta(days=r.randint(7, 16)),
                                         dt.time(r.randint(10, 21), r.randint(0, 59)))
            if (mine or k == 0) and sim.start <= invite <= sim.now:
                host_is_me = mine
                lines = [(host_is_me, say("party_invite", me if host_is_me else style, r, **ctx)),
                         (not host_is_me, say("party_accept", style if host_is_me else me, r, **ctx))]
                if r.random() < 0.5:
                    lines.append((host_is_me, say("react_positive", me if host_is_me else style, r, **ctx)))
                chat.post(c, invite, lines, ("life-invite", i), r, ref=ref)
            day_of = dt.datetime.combine(le.date, dt.time(r.randint(12, 16), r.randint(0, 59)))
            if sim.start <= day_of <= sim.now and r.random() < 0.8:
                who = r.random() < 0.5
                lines = [(who, say("party_day", me if who else style, r, **ctx)),
                         (not who, say("party_day_reply", style if who else me, r, **ctx))]
                chat.post(c, day_of, lines, ("life-day", i), r, ref=ref)


def _birthdays(chat: Chat) -> None:
    sim, p = chat.sim, chat.p
    for c in chat.contacts:
        if not c.birthday:
            continue
        for year in range(sim.start.year, sim.now.year + 1):
            day = birthday_in(c.birthday, year)
            r = sim.rng(f"chat/birthday/{c.name}/{year}")
            at = dt.datetime.combine(day, dt.time(r.randint(7, 11), r.randint(0, 59)))
            if not sim.start <= at <= sim.now:
                continue
            style, me = c.messaging_style or "brief", chat.my_style(c)
            ctx = {"name": c.name.split()[0], "age": year - c.birthday.year}
            lines = [(True, say("bday_wish", me, r, **ctx)), (False, say("bday_thanks", style, r, **ctx))]
            chat.post(c, at, lines, ("bday", year), r, ref=_calendar_ref(chat, "birthday", f"{c.name.split()[0]}'s birthday",
                                                                        day))
    born = p.identity.birth_date
    if not born:
        return
    for year in range(sim.start.year, sim.now.year + 1):
        day = birthday_in(born, year)
        for c in chat.contacts:
            if (c.closeness or 1) < 3:
                continue
            r = sim.rng(f"chat/birthday/me/{year}/{c.name}")
            at = dt.datetime.combine(day, dt.time(r.randint(7, 20), r.randint(0, 59)))
            if not sim.start <= at <= sim.now:
                continue
            style, me = c.messaging_style or "brief", chat.my_style(c)
            ctx = {"name": p.identity.name.split()[0], "age": year - born.year}
            lines = [(False, say("bday_to_me", style, r, **ctx)), (True, say("bday_to_me_thanks", me, r, **ctx))]
            chat.post(c, at, lines, ("bday-me", year), r)
