"""Chat: the persona's text conversations as ``chat_message`` events (banks in ``templates/chat/<locale>.yaml``).

Rules (tasks and tests depend on them):

* One thread per contact with ``chat`` in its apps (``thread_id`` derived from the contact's name);
  ``contact`` and ``contact_phone`` are the spec's. ``sender`` is ``me`` or the contact's name.
  ``topic`` names what the message's session is about (``plan``, ``question``, ``news``, ``recommend``,
  ``followup``, ``errand``, ``checkin``, ``work``, ``neighbor``, ``smalltalk``, ``meal``, ``together``,
  ``trip_checkin``, ``holiday``, ``p2p``, ``trip``, ``dinner``, ``life_event``, ``birthday``, ``morning``,
  ``scripted``; a side topic shares its session's). Messages of a ``plan`` session carry ``plan_on``, the ISO date proposed.
* Everyday sessions of 4-12 messages, seconds to minutes apart (gaps under 15 minutes), at a weekly rate by closeness
  (5: 3, 4: 1.5, 3: 0.7, 2: 0.3, 1: 0.1); colleagues in working hours on workdays (not public
  holidays, not while the persona is away unless travelling together). Each session follows a dialogue
  plan about one thing: a concrete plan (a shared activity on a named day and time the persona is free:
  no calendar event then, not away), a question and the answer to it, news from the contact's own life
  (``Contact.partner/.children/.pets/.job/.city`` when set), a recommendation (a show, book or podcast
  from the bank; a restaurant the persona really booked), an errand (roommate/partner), a family
  check-in (parents), work pings (colleagues), neighbourly matters; at most one side topic of another
  kind may follow (none mid-trip, none after a parent's goodbye). Memory: a title is recommended to a
  contact once and may be followed up in a later session ("did you start ...?"), never in the same one;
  a question is not re-asked for 60 days; a piece of news is told once (a shared pet's story once for
  both parents); one open plan per contact at a time (6 days) and no two plans for the same day; a
  contact asks about a trip once.
* Names: greetings name the other person; a contact never writes their own first name. The persona
  calls a parent what :func:`builder.world.mail.parent_name` says (Mom/Mum/Mama, Dad/Papa; the English
  name lists decide when the locale's do not know the name); parents call the persona by first name or
  a pet name from the bank. German banks (``registers: true``) say Sie to neighbours and formal
  colleagues (``{du form|Sie form}`` in a line) and du to everyone else; Sie contacts only get the
  register-aware dialogues (work, meals, neighbourly matters and the world-tied sessions).
* Time: sessions start 07:00-22:59 local and never run into the next day (unless
  ``routines.night_owl``; a world-tied message whose event falls at night moves to that morning);
  greetings fit the hour of each message (a line whose greeting would not is dropped), lunch talk
  11-14, dinner talk 16-21; weather and garden
  talk follows :func:`builder.reference.locale.season`; public holidays, Christmas Eve, New Year's Eve (and
  Thanksgiving in en_US) bring holiday messages with family and close friends on and before the day.
* Trips: while the persona is away, trip companions talk as people travelling together (the lobby,
  sights, dinner tonight, photos, the flight home; ``topic`` ``together``), others may ask how the trip
  is going; no plan is made for a day the persona is away and no weekend plans are made mid-trip.
* Sessions tied to the world (``ref`` = the event they talk about): P2P payments (the amount quoted
  exactly as the bank shows it, ``Fmt.money``), trips with companions (booking: flight number,
  departure time; the evening before; the return), restaurant bookings with companions, life events
  with people (invitation a week or two before, a message on the day), birthdays (both ways).
* Scripted conversations (``contacts[].conversations`` of the spec) are sent verbatim, in order, from their
  ``at``, 20-90 seconds apart; the contact has no everyday session that day.
* Nothing is sent after ``now``: a session crossing it stops there. A contact's messages within
  :data:`UNREAD_HOURS` of ``now`` that the persona has not answered are unread; on the morning of
  ``now`` one or two close contacts have written and wait for an answer.
* Wording: banks compose lines from parts and slots (``{slot}``, seasonal ``slot@winter``); questions
  and their answers are drawn as pairs (``qa``, paired ``news`` items, ``dinner_qa``); an exact text of
  4+ words is avoided when a fresh one can be drawn (see :class:`Voice`). The code never branches on
  the locale. Every draw comes from ``chat/...`` streams; other modules may post through
  :meth:`Chat.post` (they pass no ``topic``).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any


from ..dates import birthday_in
from ..persona import Contact
from ..persona.model import name_key
from ..rng import derived_id
from .calendar import (
    away_dates,
    birthday_title,
    first,
    is_holiday,
    holidays_of,
    reservation_time,
    trips,
)
from .engine import world_step
from .context import Sim
from ..reference.locale import felt_season, territory
from .locale import fmt_of, phrase_bank, tongue_of
from ..reference.locale import Fmt
from .mail import TEMPLATES, has_app, parent_name, template_env
from .report import greeting_off_hour, words

BANKS = TEMPLATES / "chat"
SESSIONS_PER_WEEK = {5: 3.0, 4: 1.5, 3: 0.7, 2: 0.3, 1: 0.1}
UNREAD_HOURS = 12
FRESH_TRIES = 14  # draws tried for a line of 4+ words not sent before
QA_COOLDOWN_DAYS = 60
FAMILY = {"parent", "sibling", "partner", "spouse", "child"}
HOUSEHOLD = {"roommate", "partner", "spouse"}
_SLOT = re.compile(r"\{(\w+)\}")
_REGISTER = re.compile(r"\{([^{}|]*)\|([^{}|]*)\}")  # {du form|Sie form}


# --- the bank --------------------------------------------------------------------------------------


def bank(locale: str) -> dict[str, Any]:
    """The chat bank of ``locale`` (``templates/chat/<locale>.yaml``, else en_US), read-only.

    A bank may say ``extends: <locale>``: its top-level maps are laid over that bank's key by key.
    Keys: ``slots`` (name -> variants; ``name@<season>`` adds seasonal variants), ``say`` (intent ->
    style -> variants), ``qa``/``news``/``work``/``neighbor``/``together``/``holidays`` (keyed dialogue
    parts), ``activities`` (spec activity -> {plan, hour}), ``shows``/``books``/``podcasts``
    (lists of {title, about}), ``pet_names``, ``words`` (small fixed words).
    """
    return phrase_bank("chat", locale)


@lru_cache(maxsize=None)
def _compiled(text: str):
    """A jinja2 template of ``text`` (kept for modules that render their own chat lines)."""
    return template_env().from_string(text)


def plans(locale: str = "en_US") -> dict[str, str]:
    """Spec activity -> how the bank of ``locale`` writes doing it together (``climbing`` -> ``go climbing``)."""
    return {
        k: v["plan"] for k, v in bank(locale)["activities"].items() if not k.startswith("_") and "{" not in v["plan"]
    }


_PLANS = plans()  # en_US, for modules that word a plan themselves (planted)


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


class Voice:
    """Renders bank lines for one world, avoiding exact repeats of lines of 4+ words."""

    def __init__(self, locale: str, country: str | None, city: str | None = None):
        self.b = bank(locale)
        self.country = country
        self.city = city
        self.used: set[str] = set()
        # A home outside the locale's country leaves out the bank's ``home_only`` lines ("it's 95 out").
        abroad = country is not None and country != territory(locale)
        self.left_out = frozenset(self.b.get("home_only", ())) if abroad else frozenset()

    def season(self, when: dt.date) -> str:
        """The bank's season key of ``when`` at the home (:func:`felt_season`: ``mild`` for a warm home's winter)."""
        return felt_season(when, self.country, self.city)

    def pool(self, name: str, when: dt.date | None) -> list:
        """The slot ``name``'s options: its own, plus its season's (``name@winter``...) on day ``when``; a warm
        home's ``mild`` winter takes ``name@mild`` where the bank has it, else ``name@autumn`` (never frost)."""
        slots = self.b["slots"]
        out = list(slots.get(name, []))
        if when is not None:
            key = self.season(when)
            if key == "mild" and f"{name}@mild" not in slots:
                key = "autumn"
            out += slots.get(f"{name}@{key}", [])
        return [x for x in out if x not in self.left_out] if self.left_out else out

    def fill(self, text: str, r: random.Random, ctx: dict[str, Any], depth: int = 0) -> str:
        """``text`` with each ``{slot}`` replaced: from ``ctx`` first, else a draw from the bank's slots.

        Slots named ``o_*`` (openers) and ``t_*`` (tails) are left empty for a brief speaker. ``{a|b}`` is the
        register: ``a`` (du) unless ``ctx["_sie"]``, then ``b`` (Sie)."""

        def one(m: re.Match) -> str:
            key = m.group(1)
            if key in ctx:
                return str(ctx[key])
            if ctx.get("_brief") and key[:2] in ("o_", "t_"):
                return ""
            options = self.pool(key, ctx.get("_day"))
            if not options:
                return ""
            pick = options[r.randrange(len(options))]
            return self.fill(pick, r, ctx, depth + 1) if depth < 4 and "{" in pick else pick

        out = _SLOT.sub(one, text)
        return _REGISTER.sub(lambda m: m.group(2 if ctx.get("_sie") else 1), out)

    def variants(self, section: dict, style: str) -> list[str]:
        order = {
            "me_formal": ("me_formal", "formal", "me", "default"),
            "me": ("me", "default"),
            "sie": ("sie", "formal", "default"),
            "me_sie": ("sie", "me_formal", "formal", "default"),
        }.get(style, (style, "default"))
        for s in order:
            if section.get(s):
                return section[s]
        return next(iter(section.values()))

    def say(
        self, section: dict | list, style: str, r: random.Random, ctx: dict[str, Any], forbid: str | None = None
    ) -> str:
        """One line of ``section`` (style -> variants, or a plain list) for a speaker of ``style``.

        Tries :data:`FRESH_TRIES` draws for a text of 4+ words not sent before in this world and without
        the word ``forbid`` (the speaker's own first name); a short line may repeat freely."""
        options = section if isinstance(section, list) else self.variants(section, style)
        ctx = {**ctx, "_brief": style == "brief"}
        best = None
        for _ in range(FRESH_TRIES):
            text = self.finish(self.fill(options[r.randrange(len(options))], r, ctx), style, r, ctx)
            if forbid and re.search(rf"(?<!\w){re.escape(forbid)}(?!\w)", text):
                continue
            if best is None:
                best = text
            if len(words(text)) < 4 or _norm(text) not in self.used:
                best = text
                break
        text = best if best is not None else self.b["words"]["ok"]
        self.used.add(_norm(text))
        return text

    def finish(self, text: str, style: str, r: random.Random, ctx: dict[str, Any]) -> str:
        """Tidy spacing and add the speaker's habits (an emoji, a chatty tail)."""
        text = re.sub(r"\s+([,.!?])", r"\1", re.sub(r"\s{2,}", " ", text)).strip()
        text = re.sub(r"^[,\s]+", "", text)
        if not text:
            return text
        if style == "emoji" and r.random() < 0.6 and not text.endswith(tuple(self.b["slots"]["emoji_end"])):
            text += " " + self.fill("{emoji}", r, ctx)
        elif style == "chatty" and r.random() < 0.3:
            text += self.fill("{chatty_tail}", r, ctx)
        elif style in ("formal", "me_formal", "sie", "me_sie"):
            text = re.sub(r"(^|[.!?] )([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
        elif style == "brief" and r.random() < 0.5:
            text = text.rstrip("!") or text
        return text


# --- the chat --------------------------------------------------------------------------------------


@dataclass
class Memory:
    """What one contact's thread remembers across sessions."""

    recommended: set[str] = field(default_factory=set)  # titles recommended either way
    pending: list[dict[str, Any]] = field(default_factory=list)  # recommendations not yet followed up
    asked: dict[str, dt.date] = field(default_factory=dict)  # qa key -> last asked
    told: set = field(default_factory=set)
    last_plan: dt.date = dt.date.min  # the day of the latest plan proposal
    trips_asked: set[int] = field(
        default_factory=set
    )  # trips this contact has asked about  # life news indexes / (kind, index) of paired news this contact has told


class Chat:
    """Appends ``chat_message`` events for the sim's persona (one instance per module run)."""

    def __init__(self, sim: Sim):
        self.sim = sim
        self.p = sim.persona
        self.fmt = Fmt(self.p)
        self.contacts = [c for c in self.p.contacts if has_app(c, "chat") and c.phone]
        self.by_name = {c.name: c for c in self.contacts}
        self.voice = Voice(self.p.bank, self.fmt.country, self.fmt.city)
        self.b = self.voice.b
        # A contact who writes in another language (``Contact.language``): that bank's voice and formats, swapped in
        # while the persona and that contact talk (:meth:`speaking`); the persona's own stay the default.
        self._tongues: dict[str, tuple[Voice, Fmt]] = {self.p.bank: (self.voice, self.fmt)}
        self.me_first = self.p.identity.name.split()[0]
        self.night_owl = bool(getattr(self.p.routines, "night_owl", False)) if self.p.routines else False
        self.memory: dict[str, Memory] = defaultdict(Memory)
        self.calendar: dict | None = None  # (source, title, date) -> calendar_event id, built on first use
        self._busy: dict[dt.date, list[tuple[dt.datetime, dt.datetime]]] | None = None
        self.away = away_dates(sim)
        self.planned: dt.date | None = None  # the day the latest plan proposal is for
        self.plan_days: set[dt.date] = set()  # days something is already planned in chat
        self.told: set[tuple] = set()  # (kind, index, facts) of news told: a shared cat's story is told once
        # Days of the spec's scripted conversations per contact: no everyday session of ours then.
        self.scripted = {c.name: {t.at.date() for t in c.conversations or []} for c in self.contacts}
        for claim in self.p.contradictions:  # a planted claim's day is the contributor's too (world/planted.py)
            for c in self.contacts:
                if name_key(c.name) == name_key(claim.by):
                    self.scripted[c.name].add(claim.at.date())

    def bank_of(self, c: Contact) -> str:
        """The phrase bank the persona and ``c`` write to each other in: ``c.language``'s (with the persona's
        locale, :func:`builder.reference.locale.bank_of`), else the persona's."""
        return tongue_of(self.p, c)

    @contextmanager
    def speaking(self, c: Contact):
        """Within the block, ``b``, ``voice`` and ``fmt`` are those of ``c``'s language (a no-op for a contact who
        writes in the persona's)."""
        tongue = self.bank_of(c)
        if tongue not in self._tongues:
            self._tongues[tongue] = (Voice(tongue, self.fmt.country, self.fmt.city), fmt_of(self.p, c))
        saved = self.voice, self.fmt
        self.voice, self.fmt = self._tongues[tongue]
        self.b = self.voice.b
        try:
            yield self
        finally:
            self.voice, self.fmt = saved
            self.b = self.voice.b

    def thread_id(self, c: Contact) -> str:
        return derived_id(self.sim.seed, "chat/thread", c.name)

    def my_style(self, c: Contact) -> str:
        return "me_formal" if c.messaging_style == "formal" or c.relationship == "parent" else "me"

    def address(self, c: Contact) -> str:
        """What the persona calls ``c`` in a greeting: a parent's Mom/Mum/Mama/Dad/Papa, else the first name."""
        given = c.name.split()[0]
        if c.relationship != "parent":
            return given
        word = parent_name(c, self.p.bank, self.sim.country)
        if word == given:  # the locale's name lists do not know the name: ask the English lists
            en = parent_name(c, "en_US")
            word = {"Mom": self.b["words"]["mom"], "Dad": self.b["words"]["dad"]}.get(en, given)
        return word

    def my_name_for(self, c: Contact, r: random.Random) -> str:
        """What ``c`` calls the persona: a parent now and then uses a pet name."""
        if c.relationship == "parent" and r.random() < 0.4:
            names = self.b["pet_names"]
            return names[r.randrange(len(names))]
        return self.me_first

    def busy(self, day: dt.date) -> list[tuple[dt.datetime, dt.datetime]]:
        """Timed calendar events of ``day`` as naive local (start, end)."""
        if self._busy is None:
            self._busy = defaultdict(list)
            for e in self.sim.of_kind("calendar_event"):
                if e.data.get("all_day"):
                    continue
                try:
                    s = dt.datetime.fromisoformat(e.data["start"]).replace(tzinfo=None)
                    t = dt.datetime.fromisoformat(e.data["end"]).replace(tzinfo=None)
                except (KeyError, TypeError, ValueError):
                    continue
                self._busy[s.date()].append((s, t))
        return self._busy.get(day, [])

    def free(self, when: dt.datetime, hours: float = 2.0) -> bool:
        """Whether the persona is home and has no calendar event in [when - 1 h, when + ``hours``]."""
        if when.date() in self.away:
            return False
        lo, hi = when - dt.timedelta(hours=1), when + dt.timedelta(hours=hours)
        return not any(s < hi and t > lo for s, t in self.busy(when.date()))

    def sie(self, c: Contact) -> bool:
        """Whether the persona and ``c`` say Sie (banks with ``registers``: neighbours, formal colleagues)."""
        return bool(self.b.get("registers")) and (
            c.relationship == "neighbor" or (c.relationship in ("colleague", "other") and c.messaging_style == "formal")
        )

    def render(
        self,
        c: Contact,
        mine: bool,
        section: dict | list,
        r: random.Random,
        ctx: dict[str, Any],
        day: dt.date | None = None,
    ) -> str:
        """One line by the persona (``mine``) or by ``c``, naming the other person."""
        sie = self.sie(c)
        style = ("me_sie" if sie else self.my_style(c)) if mine else ("sie" if sie else c.messaging_style or "brief")
        full = {"name": self.address(c) if mine else self.my_name_for(c, r), "_day": day, "_sie": sie, **ctx}
        return self.voice.say(section, style, r, full, forbid=None if mine else c.name.split()[0])

    def line(
        self,
        c: Contact,
        mine: bool,
        intent: str,
        r: random.Random,
        ctx: dict[str, Any] | None = None,
        day: dt.date | None = None,
    ) -> tuple[bool, str]:
        """``(mine, text)`` for the bank's ``say.<intent>``."""
        return mine, self.render(c, mine, self.b["say"][intent], r, ctx or {}, day)

    def post(
        self,
        c: Contact,
        at: dt.datetime,
        lines: list[tuple[bool, str]],
        key: object,
        r: random.Random,
        ref: str | None = None,
        topic: str | None = None,
        extra: dict[str, Any] | None = None,
        verbatim: bool = False,
    ) -> int:
        """Send ``lines`` ((mine, text)) from ``at`` on, a few seconds to minutes apart; returns how many were sent.

        Stops at ``now`` and (unless the persona is a night owl) at midnight; drops a line whose greeting
        does not fit its hour. ``verbatim`` (a spec's scripted conversation) sends every line as written, 20-90
        seconds apart (60 lines take at most 1.5 hours: one started the evening before ``now`` ends before it),
        across midnight too."""
        sim = self.sim
        tid = self.thread_id(c)
        stamped: list[tuple[dt.datetime, bool, str]] = []
        start = at
        for i, (mine, text) in enumerate(lines):
            if i and verbatim:
                at = at + dt.timedelta(seconds=r.randint(20, 90))
            elif i:
                gap = r.randint(4, 75) if r.random() < 0.85 else r.randint(90, 840)
                at = at + dt.timedelta(seconds=gap + min(len(text) // 3, 40))
            if at > sim.now or (i and not verbatim and not self.night_owl and at.date() != start.date()):
                break
            if not verbatim and (not text or greeting_off_hour(text, at.hour)):
                continue
            stamped.append((at, mine, text))
        last_mine = max((k for k, (_, mine, _) in enumerate(stamped) if mine), default=-1)
        for k, (when, mine, text) in enumerate(stamped):
            unread = not mine and k > last_mine and (sim.now - when).total_seconds() <= UNREAD_HOURS * 3600
            data = {
                "app": "chat",
                "thread_id": tid,
                "contact": c.name,
                "contact_phone": c.phone,
                "sender": "me" if mine else c.name,
                "text": text,
                "read": not unread,
                "ref": ref,
            }
            if topic:
                data["topic"] = topic
            if extra:
                data.update(extra)
            sim.event("chat_message", when, data, key=(tid, key, k))
        return len(stamped)


def say(intent: str, style: str, r: random.Random, locale: str = "en_US", **ctx: Any) -> str:
    """One line of the bank's ``say.<intent>`` for a speaker of ``style`` in ``locale`` (no repeat memory)."""
    return Voice(locale, None).say(bank(locale)["say"][intent], style, r, ctx)


def casual_time(chat: Chat, hour: int, minute: int = 0) -> str:
    """``7pm`` / ``10:30am`` (US) or ``19:00`` elsewhere: how people write times in chats."""
    if not chat.fmt.us:
        return f"{hour:02d}:{minute:02d}"
    return f"{(hour - 1) % 12 + 1}{f':{minute:02d}' if minute else ''}{'am' if hour < 12 else 'pm'}"


@world_step(
    rank=80,
    reads=("p2p_payment", "flight_booking", "flight", "hotel_stay", "restaurant_booking", "calendar_event"),
    writes=("chat_message",),
)
def simulate_chat(sim: Sim) -> None:
    """Append ``chat_message`` events (see module rules)."""
    chat = Chat(sim)
    if not chat.contacts:
        return
    for c in chat.contacts:
        with chat.speaking(c):
            _sessions(chat, c)
    _scripted(chat)
    _together(chat)
    _holidays(chat)
    _p2p(chat)
    _trips(chat)
    _restaurants(chat)
    _life_events(chat)
    _birthdays(chat)
    _morning(chat)


# --- everyday sessions -----------------------------------------------------------------------------

Step = tuple[bool, str]  # (mine, text)


def _session_time(chat: Chat, r: random.Random, day: dt.date, work: bool) -> dt.datetime:
    if work:
        return dt.datetime.combine(day, dt.time(r.randint(9, 16), r.randint(0, 59), r.randint(0, 59)))
    if day.weekday() >= 5 or is_holiday(chat.sim, day):
        hour = r.randint(9, 21)
    else:
        hour = r.choice([7, 8, 12, 12, 13, 17, 18, 19, 19, 20, 20, 21, 21])
    if chat.night_owl and r.random() < 0.15:
        hour = r.choice([23, 0, 1])
    return dt.datetime.combine(day, dt.time(hour, r.randint(0, 59), r.randint(0, 59)))


def _part(hour: int) -> str:
    return "morning" if 5 <= hour < 11 else "afternoon" if 12 <= hour < 17 else "evening" if 18 <= hour < 23 else "any"


def _trip_on(chat: Chat, day: dt.date):
    for i, t in enumerate(trips(chat.sim)):
        if t.depart <= day <= t.return_:
            return i, t
    return None


def _pick(r: random.Random, weights: dict[str, float]) -> str:
    keys = [k for k, w in weights.items() if w > 0]
    total = sum(weights[k] for k in keys)
    x = r.random() * total
    for k in keys:
        x -= weights[k]
        if x <= 0:
            return k
    return keys[-1]


def _sessions(chat: Chat, c: Contact) -> None:
    sim = chat.sim
    r = sim.rng(f"chat/sessions/{c.name}")
    rate = SESSIONS_PER_WEEK.get(c.closeness or 1, 0.1)
    work = c.relationship == "colleague"
    per_day = rate / 5 if work else rate / 7
    for day in sim.past_days():
        if work and (day.weekday() >= 5 or is_holiday(sim, day)):
            continue
        if r.random() >= per_day:
            continue
        at = _session_time(chat, r, day, work)
        if at > sim.now:
            continue
        trip = _trip_on(chat, day)
        if trip and c.name in trip[1].companions:
            continue  # travelling together: see _together
        if work and trip:
            continue
        if day in chat.scripted[c.name]:
            continue  # the spec's own conversation that day: see _scripted
        chat.planned = None
        lines, topic, ref = _script(chat, c, r, at, trip)
        if lines:
            extra = {"plan_on": chat.planned.isoformat()} if topic == "plan" and chat.planned else None
            chat.post(c, at, lines, ("s", day), r, ref=ref, topic=topic, extra=extra)


def _scripted(chat: Chat) -> None:
    """The spec's scripted conversations (``contacts[].conversations``), every message verbatim and in order from
    the conversation's ``at`` (``topic`` ``scripted``); stream ``chat/scripted/<name>``."""
    for c in chat.contacts:
        r = chat.sim.rng(f"chat/scripted/{c.name}")
        for j, talk in enumerate(c.conversations or []):
            lines = [(m.from_ == "me", m.text) for m in talk.messages]
            chat.post(c, talk.at, lines, ("scripted", j), r, topic="scripted", verbatim=True)


def _script(chat: Chat, c: Contact, r: random.Random, at: dt.datetime, trip) -> tuple[list[Step], str, str | None]:
    """The lines of one everyday session, its topic and ref."""
    rel, day, mem = c.relationship, at.date(), chat.memory[c.name]
    due = [p for p in mem.pending if (day - p["day"]).days >= 7]
    if rel == "neighbor":
        weights = {"neighbor": 1}
    elif trip:
        weights = {
            "trip_checkin": 0 if trip[0] in mem.trips_asked else 3 if (c.closeness or 1) >= 3 else 1,
            "question": 1,
            "news": 1,
            "followup": 1 if due else 0,
        }
    elif rel == "colleague":
        weights = {"work": 5, "question": 1, "meal": 1 if 11 <= at.hour < 13 else 0}
    elif rel == "parent":
        weights = {
            "checkin": 3,
            "news": 2,
            "question": 1,
            "plan": 1,
            "recommend": 0.5,
            "followup": 2 if due else 0,
            "smalltalk": 1,
        }
    elif rel in ("roommate",):
        weights = {
            "errand": 3,
            "plan": 1.5,
            "question": 1.5,
            "recommend": 1,
            "followup": 1.5 if due else 0,
            "meal": 1,
            "news": 0.5,
        }
    else:
        weights = {
            "plan": 3,
            "news": 2,
            "question": 2,
            "recommend": 1.5,
            "followup": 2 if due else 0,
            "smalltalk": 1.5,
            "meal": 1,
            "errand": 1.5 if rel in HOUSEHOLD else 0,
        }
    if (day - mem.last_plan).days < 6:  # one plan at a time with a contact
        weights.pop("plan", None)
    if chat.sie(c):  # the bank's du-only dialogues are not for Sie contacts
        weights = {k: w for k, w in weights.items() if k in ("work", "meal", "neighbor")} or {"neighbor": 1}
    topic = _pick(r, weights)
    mine_first = r.random() < (0.4 if rel == "parent" else 0.5)
    block, ref = _topic(chat, c, r, at, topic, mine_first)
    if not block:
        topic = "question"
        block, ref = _topic(chat, c, r, at, topic, mine_first)
    if not block:
        return [], topic, None
    lines: list[Step] = []
    part = _part(at.hour)
    if r.random() < 0.6 and topic not in ("trip_checkin",):
        opener = block[0][0]
        lines.append(chat.line(c, opener, f"greet_{part}", r, day=day))
        if r.random() < 0.4:
            lines.append(chat.line(c, not opener, "greet_back", r, day=day))
    lines += block
    # One side topic of another kind, never the plan or a recommendation just made.
    if (
        rel not in ("colleague", "neighbor")
        and topic != "checkin"
        and not trip
        and not chat.sie(c)
        and len(lines) < 9
        and r.random() < 0.7
    ):
        side = _pick(
            r,
            {
                k: w
                for k, w in {
                    "smalltalk": 1,
                    "meal": 1,
                    "news": 0.7,
                    "followup": 1 if due and topic not in ("recommend", "followup") else 0,
                }.items()
                if k != topic
            },
        )
        extra, _ = _topic(chat, c, r, at, side, r.random() < 0.5)
        lines += extra
    closed = r.random() < 0.5 and len(lines) < 12
    if closed:
        lines.append(chat.line(c, lines[-1][0] if r.random() < 0.5 else not lines[-1][0], f"close_{part}", r, day=day))
    if len(lines) < 4 and not closed:
        lines.append(chat.line(c, not lines[-1][0], f"close_{part}", r, day=day))
    while len(lines) < 4:  # a reaction before the goodbye, never after it
        at_ = len(lines) - 1 if closed and len(lines) > 1 else len(lines)
        lines.insert(at_, chat.line(c, not lines[at_ - 1][0], "react", r, day=day))
    return lines[:12], topic, ref


def _topic(
    chat: Chat, c: Contact, r: random.Random, at: dt.datetime, topic: str, a: bool
) -> tuple[list[Step], str | None]:
    """The block of one topic; ``a`` is True when the persona opens it. Empty when the world offers nothing."""
    fn = {
        "plan": _plan,
        "question": _question,
        "news": _news,
        "recommend": _recommend,
        "followup": _followup,
        "errand": _errand,
        "checkin": _checkin,
        "work": _keyed("work"),
        "neighbor": _keyed("neighbor"),
        "smalltalk": _smalltalk,
        "meal": _meal,
        "trip_checkin": _trip_checkin,
    }[topic]
    return fn(chat, c, r, at, a)


def _plan(chat, c, r, at, a):
    b = chat.b
    acts = list(c.shared_activities or [])
    if c.relationship == "parent":
        acts = ["_visit"] + acts[:1]
    act = acts[r.randrange(len(acts))] if acts else "_walk"
    info = b["activities"].get(act) or b["activities"]["_default"]
    for offset in r.sample(range(1, 7), 6):
        day = at.date() + dt.timedelta(days=offset)
        if day in chat.plan_days:
            continue
        workday = day.weekday() < 5 and not is_holiday(chat.sim, day)
        hours = info.get("weekend_hours" if not workday else "evening_hours") or ([18, 19] if workday else [10, 14])
        hour = hours[r.randrange(len(hours))]
        when = dt.datetime.combine(day, dt.time(hour, r.choice([0, 0, 30])))
        if chat.free(when, 2.5):
            break
    else:
        return [], None
    chat.planned = day
    w = b["words"]
    chat.memory[c.name].last_plan = at.date()
    phrase = (
        w["tomorrow"]
        if offset == 1
        else (w["this_weekday"] if offset < 5 else w["on_weekday"]).format(weekday=chat.fmt.weekday(day))
    )
    ctx = {
        "plan": info["plan"].format(activity=act) if "{activity}" in info["plan"] else info["plan"],
        "when": phrase,
        "time": casual_time(chat, when.hour, when.minute),
        "weekday": chat.fmt.weekday(day),
    }
    d = at.date()
    lines = [chat.line(c, a, "plan_propose", r, ctx, d)]
    if r.random() < 0.78:
        chat.plan_days.add(day)
        lines.append(chat.line(c, not a, "plan_accept", r, ctx, d))
        lines.append(chat.line(c, a, "plan_time", r, ctx, d))
        lines.append(chat.line(c, not a, "plan_confirm", r, ctx, d))
        if r.random() < 0.5:
            lines.append(chat.line(c, a, "see_you", r, ctx, d))
    else:
        lines.append(chat.line(c, not a, "plan_decline", r, ctx, d))
        lines.append(chat.line(c, a, "no_worries", r, ctx, d))
    return lines, None


def _qa_ctx(chat: Chat, c: Contact, at: dt.datetime, needs: list[str]) -> dict[str, Any] | None:
    ctx: dict[str, Any] = {}
    for need in needs:
        if need == "trip":
            nxt = next((t for t in trips(chat.sim) if 3 <= (t.depart - at.date()).days <= 45), None)
            if nxt is None:
                return None
            ctx.update(
                dest=nxt.destination, depart=chat.fmt.long_date(nxt.depart), back=chat.fmt.long_date(nxt.return_)
            )
        elif need == "restaurant_with":
            past = [
                b
                for b in chat.sim.of_kind("restaurant_booking")
                if c.name in (b.data.get("companions") or []) and (reservation_time(chat.sim, b) or b.at) < at
            ]
            if not past:
                return None
            ctx["restaurant"] = past[-1].data.get("restaurant")
        elif need == "household" and c.relationship not in HOUSEHOLD:
            return None
        elif need == "family" and c.relationship not in FAMILY:
            return None
        elif need == "friend" and c.relationship in ("parent", "colleague", "neighbor"):
            return None
    return ctx


def _question(chat, c, r, at, a):
    mem = chat.memory[c.name]
    qa = chat.b["qa"]
    keys = [k for k in qa if k not in mem.asked or (at.date() - mem.asked[k]).days >= QA_COOLDOWN_DAYS]
    r.shuffle(keys)
    d = at.date()
    for k in keys:
        entry = qa[k]
        ctx = _qa_ctx(chat, c, at, entry.get("needs", []))
        if ctx is None:
            continue
        asker = a if entry.get("asker") is None else entry["asker"] == "me"
        mem.asked[k] = d
        lines = [
            (asker, chat.render(c, asker, entry["q"], r, ctx, d)),
            (not asker, chat.render(c, not asker, entry["a"], r, ctx, d)),
        ]
        if entry.get("more") and r.random() < 0.6:
            lines.append((asker, chat.render(c, asker, entry["more"], r, ctx, d)))
            if entry.get("more_a"):
                lines.append((not asker, chat.render(c, not asker, entry["more_a"], r, ctx, d)))
        elif r.random() < 0.5:
            lines.append(chat.line(c, asker, "thanks_short", r, ctx, d))
        return lines, None
    return [], None


_PET = re.compile(
    r"^(?:an?|ein|eine|einen)?\s*(?:[\w-]+\s+)*?([\w-]+)\s+(?:called|named|namens|mit namen)\s+([\w-]+)", re.I
)
_RETIRED = re.compile(r"\b(retired|im ruhestand|rentner\w*|pensioniert\w*)\b", re.I)


def _facts(chat: Chat, c: Contact) -> list[tuple[str, dict[str, Any]]]:
    """News-worthy facts of ``c``'s own life: (kind, slots). A partner who is the persona or another of its
    contacts (the other parent) is not news; a retired contact has no work news."""
    out: list[tuple[str, dict[str, Any]]] = []
    known = {x.name for x in chat.p.contacts} | {chat.p.identity.name}
    if c.partner and c.partner not in known and c.partner.split()[0] != chat.me_first:
        out.append(("partner", {"partner": c.partner.split()[0]}))
    for kid in (c.children or []) if c.relationship not in ("parent", "child") else []:
        out.append(("child", {"child": kid.split()[0]}))
    for pet in c.pets or []:
        m = _PET.match(pet.strip())
        if m:
            out.append(("pet", {"pet_kind": m.group(1).lower(), "pet": m.group(2)}))
    if c.job and not _RETIRED.search(c.job):
        out.append(("job", {"job": c.job}))
    if c.city:
        out.append(("city", {"city": c.city}))
    return out


def _news(chat, c, r, at, a):
    news = chat.b["news"]
    home = chat.p.identity.address.city if chat.p.identity.address else None
    facts = [f for f in _facts(chat, c) if f[0] in news and not (f[0] == "city" and f[1]["city"] == home)]
    d = at.date()
    if facts and r.random() < 0.7:
        kind, ctx = facts[r.randrange(len(facts))]
        entry = news[kind]
        items = entry.get("items") or [{"tell": t} for t in entry["tell"]]
        facts_key = (c.name,) if entry.get("items") else tuple(sorted(ctx.items()))
        fresh = [i for i in range(len(items)) if (kind, i, facts_key) not in chat.told]
        if not fresh:
            return [], None
        i = fresh[r.randrange(len(fresh))]
        chat.told.add((kind, i, facts_key))
        item = items[i]
        # Paired news: an item brings its own question and answers.
        entry = {
            **entry,
            "tell": [f"{{o_news}}{item['tell']}"],
            "ask": item.get("ask") or entry["ask"],
            "answer": item.get("answer") or entry["answer"],
        }
    elif c.relationship == "parent":
        entry, ctx = news["parent_generic"], {}
    else:
        mem = chat.memory[c.name]
        life = chat.b["life"]
        fresh = [i for i in range(len(life)) if i not in mem.told]
        if not fresh:
            return [], None
        i = fresh[r.randrange(len(fresh))]
        mem.told.add(i)
        entry, ctx = {**news["generic"], "tell": [f"{{o_news}}{life[i]['tell']}"], "answer": life[i]["more"]}, {}
    lines = [
        (False, chat.render(c, False, entry["tell"], r, ctx, d)),
        (True, chat.render(c, True, entry["react"], r, ctx, d)),
    ]
    if r.random() < 0.7:
        lines.append((True, chat.render(c, True, entry["ask"], r, ctx, d)))
        lines.append((False, chat.render(c, False, entry["answer"], r, ctx, d)))
    return lines, None


def _items(chat: Chat, c: Contact, at: dt.datetime) -> list[dict[str, Any]]:
    b = chat.b
    out = [{"kind": kind, **item} for kind in ("show", "book", "podcast") for item in b[f"{kind}s"]]
    home = chat.p.identity.address.city if chat.p.identity.address else None
    seen = set()
    for e in chat.sim.of_kind("restaurant_booking"):
        name = e.data.get("restaurant")
        if not name or name in seen or c.name in (e.data.get("companions") or []):
            continue
        meal = reservation_time(chat.sim, e) or e.at
        if meal < at and (at - meal).days < 120:
            seen.add(name)
            out.append({"kind": "restaurant", "title": name, "about": None, "by_me": True, "city": home})
    return out


def _recommend(chat, c, r, at, a):
    mem = chat.memory[c.name]
    items = [i for i in _items(chat, c, at) if i["title"] not in mem.recommended]
    if not items:
        return [], None
    item = items[r.randrange(len(items))]
    me = True if item.get("by_me") else a
    d = at.date()
    sec = chat.b["recommend"][item["kind"]]
    ctx = {"title": item["title"], "about": item.get("about") or ""}
    lines = [(me, chat.render(c, me, sec["offer"], r, ctx, d))]
    if item.get("about") and r.random() < 0.6:
        lines.append((not me, chat.render(c, not me, sec["what"], r, ctx, d)))
        lines.append((me, chat.render(c, me, sec["about"], r, ctx, d)))
    lines.append((not me, chat.render(c, not me, sec["take"], r, ctx, d)))
    mem.recommended.add(item["title"])
    mem.pending.append({"title": item["title"], "kind": item["kind"], "by_me": me, "day": d})
    return lines, None


def _followup(chat, c, r, at, a):
    mem = chat.memory[c.name]
    d = at.date()
    due = [p for p in mem.pending if (d - p["day"]).days >= 7]
    if not due:
        return [], None
    item = due[0]
    mem.pending.remove(item)
    asker = item["by_me"]
    sec = chat.b["recommend"][item["kind"]]
    ctx = {"title": item["title"]}
    done = r.random() < 0.6
    lines = [
        (asker, chat.render(c, asker, sec["check"], r, ctx, d)),
        (not asker, chat.render(c, not asker, sec["did" if done else "not_yet"], r, ctx, d)),
    ]
    if r.random() < 0.6:
        lines.append((asker, chat.render(c, asker, sec["glad" if done else "no_rush"], r, ctx, d)))
    return lines, None


def _errand(chat, c, r, at, a):
    if c.relationship not in HOUSEHOLD:
        return [], None
    d = at.date()
    sec = chat.b["errand"]
    lines = [(a, chat.render(c, a, sec["ask"], r, {}, d))]
    if r.random() < 0.4:
        lines.append((not a, chat.render(c, not a, sec["which"], r, {}, d)))
        lines.append((a, chat.render(c, a, sec["detail"], r, {}, d)))
    lines.append((not a, chat.render(c, not a, sec["ok"], r, {}, d)))
    if r.random() < 0.5:
        lines.append(chat.line(c, a, "thanks_short", r, {}, d))
    return lines, None


def _checkin(chat, c, r, at, a):
    d = at.date()
    sec = chat.b["checkin"]
    others = [x for x in chat.p.contacts if x.relationship == "parent" and x.name != c.name]
    ctx = {"other": others[0].name.split()[0]} if others else {}
    parent_news = sec["parent_news_other"] if others and r.random() < 0.4 else sec["parent_news"]
    if a:
        lines = [
            (True, chat.render(c, True, sec["me_ask"], r, ctx, d)),
            (False, chat.render(c, False, parent_news, r, ctx, d)),
            (False, chat.render(c, False, sec["parent_ask"], r, ctx, d)),
            (True, chat.render(c, True, sec["me_answer"], r, ctx, d)),
        ]
    else:
        lines = [
            (False, chat.render(c, False, sec["parent_ask"], r, ctx, d)),
            (True, chat.render(c, True, sec["me_answer"], r, ctx, d)),
            (True, chat.render(c, True, sec["me_ask_back"], r, ctx, d)),
            (False, chat.render(c, False, parent_news, r, ctx, d)),
        ]
    if r.random() < 0.5:
        lines.append((False, chat.render(c, False, sec["parent_close"], r, ctx, d)))
        if r.random() < 0.6:
            lines.append((True, chat.render(c, True, sec["me_close"], r, ctx, d)))
    return lines, None


def _keyed(section: str):
    def run(chat, c, r, at, a):
        entries = chat.b[section]
        keys = [k for k, e in entries.items() if _hour_ok(e, at.hour)]
        if not keys:
            return [], None
        k = keys[r.randrange(len(keys))]
        e = entries[k]
        d = at.date()
        asker = a
        lines = [
            (asker, chat.render(c, asker, e["q"], r, {}, d)),
            (not asker, chat.render(c, not asker, e["a"], r, {}, d)),
        ]
        if e.get("more") and r.random() < 0.6:
            lines.append((asker, chat.render(c, asker, e["more"], r, {}, d)))
        elif r.random() < 0.6:
            lines.append(chat.line(c, asker, "thanks_short" if r.random() < 0.5 else "react", r, {}, d))
        return lines, None

    return run


def _hour_ok(entry: dict, hour: int) -> bool:
    lo, hi = entry.get("hours", [0, 24])
    return lo <= hour < hi


def _smalltalk(chat, c, r, at, a):
    d = at.date()
    sec = chat.b["season"][chat.voice.season(d)]
    lines = [(a, chat.render(c, a, sec["say"], r, {}, d)), (not a, chat.render(c, not a, sec["reply"], r, {}, d))]
    return lines, None


def _meal(chat, c, r, at, a):
    h = at.hour
    meal = "lunch" if 11 <= h < 14 else "dinner" if 16 <= h < 21 else None
    if meal is None:
        return [], None
    sec = chat.b["meal"][meal]
    d = at.date()
    lines = [(a, chat.render(c, a, sec["q"], r, {}, d)), (not a, chat.render(c, not a, sec["a"], r, {}, d))]
    if r.random() < 0.5:
        lines.append(chat.line(c, a, "react", r, {}, d))
    return lines, None


def _trip_checkin(chat, c, r, at, a):
    trip = _trip_on(chat, at.date())
    if not trip:
        return [], None
    i, t = trip
    chat.memory[c.name].trips_asked.add(i)
    d = at.date()
    sec = chat.b["trip_checkin"]
    ctx = {"dest": t.destination}
    lines = [
        (False, chat.render(c, False, sec["ask"], r, ctx, d)),
        (True, chat.render(c, True, sec["report"], r, ctx, d)),
        (False, chat.render(c, False, sec["react"], r, ctx, d)),
    ]
    if r.random() < 0.4:
        lines.append((True, chat.render(c, True, sec["back"], r, {**ctx, "weekday": chat.fmt.weekday(t.return_)}, d)))
    return lines, None


# --- trips: companions travelling together ---------------------------------------------------------


def _together(chat: Chat) -> None:
    sim = chat.sim
    hotels = {h.data.get("trip"): h.data.get("hotel") for h in sim.of_kind("hotel_stay")}
    for i, t in enumerate(trips(sim)):
        people = [chat.by_name[n] for n in t.companions if n in chat.by_name]
        for c in people:
            with chat.speaking(c):
                sec = chat.b["together"]
                r = sim.rng(f"chat/together/{i}/{c.name}")
                day = t.depart
                while day <= t.return_:
                    slots = []
                    if day == t.return_:
                        slots.append(("home", r.randint(7, 9)))
                    elif day != t.depart:
                        if r.random() < 0.6:
                            slots.append(("lobby", r.randint(7, 9)))
                        if r.random() < 0.5:
                            slots.append(("sight", r.randint(11, 14)))
                        if r.random() < 0.6:
                            slots.append(("dinner", r.randint(16, 17)))
                        if r.random() < 0.35:
                            slots.append(("photos", r.randint(21, 22)))
                    else:
                        slots.append(("landed", r.randint(17, 20)))
                    for key, hour in slots:
                        at = dt.datetime.combine(day, dt.time(hour, r.randint(0, 59), r.randint(0, 59)))
                        if not sim.start <= at <= sim.now:
                            continue
                        e = sec[key]
                        a = r.random() < 0.5
                        ctx = {
                            "dest": t.destination,
                            "time": casual_time(chat, min(hour + 1, 22), r.choice([0, 15, 30])),
                            "hotel": t.hotel or hotels.get(i) or chat.b["words"]["the_hotel"],
                        }
                        lines = [
                            (a, chat.render(c, a, e["q"], r, ctx, day)),
                            (not a, chat.render(c, not a, e["a"], r, ctx, day)),
                        ]
                        if e.get("more") and r.random() < 0.7:
                            lines.append((a, chat.render(c, a, e["more"], r, ctx, day)))
                        if r.random() < 0.5:
                            lines.append(chat.line(c, not lines[-1][0], "react", r, {}, day))
                        chat.post(c, at, lines, ("together", i, day, key), r, topic="together")
                    day += dt.timedelta(days=1)


# --- holidays --------------------------------------------------------------------------------------


def _holiday_days(chat: Chat) -> list[tuple[dt.date, str, str]]:
    """(day, key, name) of the holidays chat talks about: Christmas Eve and Day, New Year's Eve and Day, Thanksgiving
    (when the persona keeps it) and the other public holidays it keeps (``public``), on their real dates."""
    sim = chat.sim
    out: dict[dt.date, tuple[str, str]] = {}
    big = ("christmas", "weihnacht", "boxing", "new year", "neujahr", "thanksgiving")
    for year in range(sim.start.year, sim.now.year + 1):
        for day, name in holidays_of(chat.p, year).items():
            low = name.lower()
            if low == "thanksgiving day":
                out[day] = ("thanksgiving", name)
            elif not any(w in low for w in big):
                out[day] = ("public", name)
        out[dt.date(year, 1, 1)] = ("new_year", "")
        out[dt.date(year, 12, 24)] = ("christmas_eve", "")
        out[dt.date(year, 12, 25)] = ("christmas", "")
        out[dt.date(year, 12, 31)] = ("nye", "")
    return [(d, k, n) for d, (k, n) in sorted(out.items()) if sim.start.date() <= d <= sim.now.date()]


def _holidays(chat: Chat) -> None:
    sim = chat.sim
    for day, key, name in _holiday_days(chat):
        for c in chat.contacts:
            with chat.speaking(c):
                entry = chat.b["holidays"].get(key)
                if not entry:
                    continue
                close = (c.closeness or 1) >= 4
                if c.relationship == "colleague" or not (c.relationship in FAMILY or close):
                    continue
                if key == "public" and not ((c.closeness or 1) >= 5 or c.relationship in FAMILY):
                    continue
                r = sim.rng(f"chat/holiday/{day.isoformat()}/{c.name}")
                ctx = {"holiday": name}
                # A few days before: plans with family for the big days.
                if entry.get("pre") and c.relationship in FAMILY and r.random() < 0.8:
                    before = day - dt.timedelta(days=r.randint(2, 6))
                    at = dt.datetime.combine(before, dt.time(r.randint(18, 21), r.randint(0, 59)))
                    if sim.start <= at <= sim.now:
                        a = r.random() < 0.5
                        lines = [
                            (a, chat.render(c, a, entry["pre"], r, ctx, before)),
                            (not a, chat.render(c, not a, entry["pre_reply"], r, ctx, before)),
                        ]
                        if r.random() < 0.5:
                            lines.append(chat.line(c, a, "react", r, {}, before))
                        chat.post(c, at, lines, ("holiday-pre", day), r, topic="holiday")
                if r.random() < (0.45 if key == "public" else 0.9 if c.relationship in FAMILY else 0.75):
                    hour = r.randint(20, 22) if key == "nye" else r.randint(9, 19)
                    at = dt.datetime.combine(day, dt.time(hour, r.randint(0, 59)))
                    if sim.start <= at <= sim.now:
                        a = r.random() < 0.5
                        lines = [
                            (a, chat.render(c, a, entry["wish"], r, ctx, day)),
                            (not a, chat.render(c, not a, entry["reply"], r, ctx, day)),
                        ]
                        if entry.get("ask") and r.random() < 0.6:
                            lines += [
                                (not a, chat.render(c, not a, entry["ask"], r, ctx, day)),
                                (a, chat.render(c, a, entry["answer"], r, ctx, day)),
                            ]
                        if entry.get("more") and r.random() < 0.8:
                            lines.append((a, chat.render(c, a, entry["more"], r, ctx, day)))
                        if r.random() < 0.5:
                            lines.append(chat.line(c, not lines[-1][0], "react", r, {}, day))
                        chat.post(c, at, lines, ("holiday", day), r, topic="holiday")


# --- sessions tied to the world --------------------------------------------------------------------


def _waking(at: dt.datetime, r: random.Random) -> dt.datetime:
    """``at`` moved to the same day's morning when it falls at night (people text when awake)."""
    if at.hour < 7:
        return at.replace(hour=r.randint(7, 9), minute=r.randint(0, 59))
    return at


def _p2p(chat: Chat) -> None:
    sim = chat.sim
    for e in sim.of_kind("p2p_payment"):
        c = chat.by_name.get(e.data.get("contact"))
        if c is None or e.at > sim.now:
            continue
        with chat.speaking(c):
            _p2p_lines(chat, c, e)


def _p2p_lines(chat: Chat, c: Contact, e) -> None:
    """The chat of one ``p2p_payment`` ``e`` with ``c``."""
    sim = chat.sim
    r = sim.rng(f"chat/p2p/{e.id}")
    d = e.at.date()
    ctx = {"amount": chat.fmt.money(e.data["amount_cents"]), "memo": e.data.get("memo") or chat.b["words"]["that"]}
    if e.data.get("direction") == "received":
        lines = [
            (False, chat.render(c, False, chat.b["say"]["p2p_sent"], r, ctx, d)),
            chat.line(c, True, "p2p_thanks", r, ctx, d),
        ]
    else:
        lines = [chat.line(c, True, "p2p_sent", r, ctx, d), chat.line(c, False, "p2p_thanks", r, ctx, d)]
    if r.random() < 0.6:
        lines.append(chat.line(c, lines[0][0], "welcome", r, ctx, d))
        if r.random() < 0.4:
            lines.append(chat.line(c, not lines[0][0], "react", r, {}, d))
    chat.post(c, e.at + dt.timedelta(seconds=r.randint(5, 150)), lines, ("p2p", e.id), r, ref=e.id, topic="p2p")


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
            with chat.speaking(c):
                r = sim.rng(f"chat/trip/{i}/{c.name}")
                ctx = {
                    "dest": t.destination,
                    "flight": first_leg.data.get("flight_number", "") if first_leg else chat.b["words"]["our_flight"],
                    "airport": first_leg.data.get("from", "") if first_leg else "",
                    "time": chat.fmt.time(dep) if dep else chat.b["words"]["the_morning"],
                    "day": chat.fmt.long_date(dep) if dep else chat.fmt.long_date(t.depart),
                }
                when = (
                    booking.at + dt.timedelta(minutes=r.randint(2, 40))
                    if booking
                    else dt.datetime.combine(t.depart - dt.timedelta(days=30), dt.time(20, r.randint(0, 59)))
                )
                when = _waking(when, r)
                d = when.date()
                if sim.start <= when <= sim.now:
                    lines = [
                        chat.line(c, True, "trip_booked", r, ctx, d),
                        chat.line(c, False, "trip_excited", r, ctx, d),
                    ]
                    if r.random() < 0.6:
                        lines += [chat.line(c, True, "react", r, ctx, d), chat.line(c, False, "trip_soon", r, ctx, d)]
                    chat.post(c, when, lines, ("trip-booked", i), r, ref=booking.id if booking else None, topic="trip")
                eve = dt.datetime.combine(t.depart - dt.timedelta(days=1), dt.time(r.randint(19, 21), r.randint(0, 59)))
                if sim.start <= eve <= sim.now:
                    mine = r.random() < 0.5
                    lines = [
                        chat.line(c, mine, "trip_eve", r, ctx, eve.date()),
                        chat.line(c, not mine, "trip_eve_reply", r, ctx, eve.date()),
                    ]
                    chat.post(c, eve, lines, ("trip-eve", i), r, ref=first_leg.id if first_leg else None, topic="trip")
                back = dt.datetime.combine(
                    t.return_ + dt.timedelta(days=1), dt.time(r.randint(18, 21), r.randint(0, 59))
                )
                if sim.start <= back <= sim.now:
                    mine = r.random() < 0.5
                    lines = [
                        chat.line(c, mine, "trip_back", r, ctx, back.date()),
                        chat.line(c, not mine, "trip_back_reply", r, ctx, back.date()),
                    ]
                    chat.post(c, back, lines, ("trip-back", i), r, ref=booking.id if booking else None, topic="trip")


def _restaurants(chat: Chat) -> None:
    sim = chat.sim
    for b in sim.of_kind("restaurant_booking"):
        if b.at > sim.now:
            continue
        names = first(b.data, "companions", "with", default=[]) or []
        when = reservation_time(sim, b)
        for c in [chat.by_name[n] for n in names if n in chat.by_name]:
            with chat.speaking(c):
                r = sim.rng(f"chat/dinner/{b.id}/{c.name}")
                sent = _waking(b.at + dt.timedelta(minutes=r.randint(1, 30)), r)
                ctx = {
                    "restaurant": first(b.data, "restaurant", default=chat.b["words"]["the_restaurant"]),
                    "day": chat.fmt.weekday(when)
                    if 0 < (when.date() - sent.date()).days < 7
                    else (chat.b["words"]["today"] if when.date() == sent.date() else chat.fmt.day(when)),
                    "time": chat.fmt.time(when),
                    "party": b.data.get("party_size", len(names) + 1),
                }
                d = sent.date()
                if d in chat.scripted[c.name]:
                    continue  # the spec's own conversation with them that day is the day's only one (see _scripted)
                lines = [chat.line(c, True, "dinner_booked", r, ctx, d), chat.line(c, False, "dinner_reply", r, ctx, d)]
                pairs = [q for q in chat.b["dinner_qa"] if not q.get("solo") or (len(names) == 1 and ctx["party"] <= 2)]
                if r.random() < 0.75 and pairs:
                    qa = pairs[r.randrange(len(pairs))]
                    lines += [
                        (False, chat.render(c, False, qa["q"], r, ctx, d)),
                        (True, chat.render(c, True, qa["a"], r, ctx, d)),
                    ]
                if r.random() < 0.6:
                    lines.append(chat.line(c, True, "see_you_then", r, ctx, d))
                chat.post(c, sent, lines, ("dinner", b.id), r, ref=b.id, topic="dinner")


def _calendar_ref(chat: Chat, source: str, title: str, day: dt.date) -> str | None:
    """The id of the calendar event of ``source`` titled ``title`` on ``day`` (None if there is none)."""
    if chat.calendar is None:
        chat.calendar = {}
        for e in chat.sim.of_kind("calendar_event"):
            chat.calendar.setdefault((e.data.get("source"), e.data.get("title"), e.at.date()), e.id)
    return chat.calendar.get((source, title, day))


def _life_events(chat: Chat) -> None:
    sim, p = chat.sim, chat.p
    for i, le in enumerate(p.life_events):
        people = [chat.by_name[n] for n in le.with_ if n in chat.by_name]
        if not people:
            continue
        mine = (le.location or "").lower() == "home" or chat.me_first in le.title
        ref = _calendar_ref(
            chat, "appointment" if le.kind in ("dentist", "doctor") else "life_event", le.title, le.date
        )
        when = dt.datetime.combine(le.date, dt.time(*map(int, le.time.split(":")))) if le.time else None
        for k, c in enumerate(people):
            with chat.speaking(c):
                r = sim.rng(f"chat/life/{i}/{c.name}")
                ctx = {
                    "title": le.title,
                    "day": chat.fmt.long_date(le.date),
                    "time": chat.fmt.time(when) if when else chat.b["words"]["evening_time"],
                }
                invite = dt.datetime.combine(
                    le.date - dt.timedelta(days=r.randint(7, 16)), dt.time(r.randint(10, 21), r.randint(0, 59))
                )
                if (mine or k == 0) and sim.start <= invite <= sim.now:
                    d = invite.date()
                    lines = [
                        chat.line(c, mine, "party_invite", r, ctx, d),
                        chat.line(c, not mine, "party_accept", r, ctx, d),
                    ]
                    if r.random() < 0.5:
                        lines.append(chat.line(c, mine, "react", r, ctx, d))
                    chat.post(c, invite, lines, ("life-invite", i), r, ref=ref, topic="life_event")
                day_of = dt.datetime.combine(le.date, dt.time(r.randint(12, 16), r.randint(0, 59)))
                if sim.start <= day_of <= sim.now and r.random() < 0.8:
                    who = r.random() < 0.5
                    lines = [
                        chat.line(c, who, "party_day", r, ctx, le.date),
                        chat.line(c, not who, "party_day_reply", r, ctx, le.date),
                    ]
                    chat.post(c, day_of, lines, ("life-day", i), r, ref=ref, topic="life_event")


def _birthdays(chat: Chat) -> None:
    sim, p = chat.sim, chat.p
    for c in chat.contacts:
        with chat.speaking(c):
            if not c.birthday:
                continue
            for year in range(sim.start.year, sim.now.year + 1):
                day = birthday_in(c.birthday, year)
                r = sim.rng(f"chat/birthday/{c.name}/{year}")
                at = dt.datetime.combine(day, dt.time(r.randint(8, 11), r.randint(0, 59)))
                if not sim.start <= at <= sim.now:
                    continue
                ctx = {"age": year - c.birthday.year}
                lines = [chat.line(c, True, "bday_wish", r, ctx, day), chat.line(c, False, "bday_thanks", r, ctx, day)]
                if r.random() < 0.6:
                    lines.append(chat.line(c, True, "react", r, {}, day))
                chat.post(
                    c,
                    at,
                    lines,
                    ("bday", year),
                    r,
                    topic="birthday",
                    ref=_calendar_ref(chat, "birthday", birthday_title(chat.sim, c.name.split()[0]), day),
                )
    born = p.identity.birth_date
    if not born:
        return
    for year in range(sim.start.year, sim.now.year + 1):
        day = birthday_in(born, year)
        for c in chat.contacts:
            with chat.speaking(c):
                if (c.closeness or 1) < 3:
                    continue
                r = sim.rng(f"chat/birthday/me/{year}/{c.name}")
                at = dt.datetime.combine(day, dt.time(r.randint(8, 20), r.randint(0, 59)))
                if not sim.start <= at <= sim.now:
                    continue
                ctx = {"age": year - born.year}
                lines = [
                    chat.line(c, False, "bday_to_me", r, ctx, day),
                    chat.line(c, True, "bday_to_me_thanks", r, ctx, day),
                ]
                if r.random() < 0.5:
                    lines.append(chat.line(c, False, "react", r, {}, day))
                chat.post(c, at, lines, ("bday-me", year), r, topic="birthday")


def _morning(chat: Chat) -> None:
    """On the morning of ``now``, one or two of the closest contacts have written; the persona has not answered."""
    sim = chat.sim
    r = sim.rng("chat/morning")
    day = sim.now.date()
    close = sorted(
        (c for c in chat.contacts if c.relationship != "colleague" and (c.closeness or 1) >= 4),
        key=lambda c: (-(c.closeness or 1), c.name),
    )
    if not close:
        return
    for c in close[: 2 if r.random() < 0.6 else 1]:
        with chat.speaking(c):
            at = sim.now - dt.timedelta(minutes=r.randint(20, 110), seconds=r.randint(0, 59))
            if at.hour < 7 and not chat.night_owl:
                continue
            lines = [chat.line(c, False, "morning_ping", r, {}, day)]
            if r.random() < 0.6:
                lines.append(chat.line(c, False, "morning_more", r, {}, day))
            chat.post(c, at, lines, ("morning", day), r, topic="morning")
