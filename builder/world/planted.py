"""Loose ends planted on purpose: contradictions, pending obligations, dependency chains, unread
messages and the persona's own upcoming event, each recorded in ``sim.planted`` (``world/planted.json``).

Runs after money requests and before browsing (:func:`simulate_planted`). It reads the other modules'
events and adds ``email``, ``chat_message`` and ``calendar_event`` events with the same data keys those
modules write; it adds no postings and no ``site_url``, so settlement and browsing (which run later and
scan events) see nothing of them and every other module's events stay byte-identical. Every draw comes
from ``planted/...`` streams. Phrases: ``templates/planted/<locale>.yaml`` (en_US when the locale has none).

The record (``World.planted``), one dict per item in planting order, is what tasks read::

    {"id": "contradiction/meeting-moved",       # unique, stable: "<kind>/<what>[-n]"
     "kind": "contradiction" | "pending" | "chain" | "unread" | "own_event" | "skipped",
     "what": "meeting_moved" | ...,             # the sub-kind (see below)
     "summary": "<one sentence in English>",
     "truth": "mail" | "bank" | ... | None,     # which source is right, where one is
     "shows_in": [{"kind": <event kind>, "event_id": <Event.id>, "app": "mail" | "messaging" |
                   "workchat" | "calendar" | "bank" | "world"}, ...],
     ...facts}                                  # kind-specific, below; times naive local ISO 8601

Kinds and their facts:

* ``contradiction``: ``meeting_moved`` (title, calendar_start, mail_start: the organizer's mail moves a
  meeting, the calendar still has the old slot; truth ``mail``); ``paid_back_claim`` (contact,
  amount_cents, claimed_at, owed_for: a friend says in chat they paid the persona back, no ``p2p_payment``
  from them has arrived; truth ``bank``); ``plan_times`` (plan, day, organizer, organizer_time, relay,
  relay_time: two chat messages give different times for one plan; truth ``organizer``);
  ``restaurant_time`` (restaurant, booking_id, booked_time, friend, friend_time; truth ``booking``);
  ``bill_amount`` (payee, bill_cents, autopay_cents, autopay_at: the biller's mail states another
  amount than the bank's scheduled autopay; truth ``mail``); ``delivery_date`` (order_id, carrier, tracking_number,
  shop_day, carrier_day: the carrier's tracking mail, newer than the shop's shipping mail, moves the delivery to
  another day than the shop still shows; truth ``carrier``: the newest notice from the party that has the parcel).
* ``pending``: ``pay_back`` (an open ``money_request``: contact, amount_cents, memo), ``rsvp`` (an
  invitation with an ICS still NEEDS-ACTION: title, start, rsvp_by, organizer), ``send_document``
  (a mail asking for a signed form: form, due, sender).
* ``chain``: ``flight_change`` and ``party_headcount``, with ``steps``: a list of
  ``{"step", "event_id" | None, "old", "new"}`` in causal order (the downstream ones still show the old
  value), and ``trip`` / ``event_id`` facts.
* ``unread``: one per unread message in the last 3 days before ``now`` (app, sender, at).
* ``own_event``: the persona's own upcoming event (title, start, event_id, invited_at, replies:
  ``{name: "yes" | "no" | "maybe" | "pending"}``); ``spec`` is true if it is the spec's party.
* ``skipped``: an item the world lacks material for (``what`` and ``why``), so a task knows it is absent.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from contextlib import contextmanager
from functools import cached_property
from typing import Any

from ..money import to_unit
from ..persona import Contact
from ..persona.model import name_key, spec_fact
from ..reference import prices
from ..reference.people import called
from ..reference.services import app_of
from ..rng import derived_id, token
from .calendar import add_timed, aware, birthday_in, parse_when, reservation_time, trips  # noqa: F401
from .context import Sim
from .engine import world_step
from ..reference.locale import Fmt
from .locale import fmt_of, phrase_bank, tongue_of
from .model import Event

UNREAD_DAYS = 3
# Event kind -> the app (by the role it provides) whose screen shows the event.
APPS = {
    kind: app_of(role)
    for kind, role in {
        "email": "mail-delivery",
        "chat_message": "messaging",
        "work_chat_message": "work-chat",
        "calendar_event": "calendar",
        "money_request": "bank",
        "p2p_payment": "bank",
        "autopay": "bank",
        "bill_payment": "bank",
        "card_purchase": "bank",
    }.items()
}
_FRIENDLY = ("friend", "sibling", "partner", "spouse", "roommate", "child", "parent")


def bank(locale: str) -> dict:
    """The phrase bank of ``locale`` (en_US when the locale has none)."""
    return phrase_bank("planted", locale)


def compose(r: random.Random, entry: list, **ctx: Any) -> str:
    """One text from a bank ``entry``: a list of strings (pick one) or a list of parts (pick one of each, join)."""
    if entry and isinstance(entry[0], str):
        text = entry[r.randrange(len(entry))]
    else:
        text = "".join(part[r.randrange(len(part))] for part in entry)
    text = text.format(**ctx)
    return re.sub(r"[ \t]+\n", "\n", re.sub(r"  +", " ", text)).strip()


def where(e: Event) -> dict[str, Any]:
    """A ``shows_in`` entry for event ``e``."""
    return {"kind": e.kind, "event_id": e.id, "app": APPS.get(e.kind, "world")}


def _iso(t: dt.datetime) -> str:
    return t.replace(tzinfo=None).isoformat()


class Planter:
    """Adds the planted events and records the items; one instance per simulation."""

    def __init__(self, sim: Sim):
        self.sim = sim
        self.p = sim.persona
        self.fmt = Fmt(self.p)
        self.b = bank(self.p.bank)
        self.tongue = self.p.bank  # the bank of the text being written: a contact's language (see speaking)
        self.first = self.p.identity.name.split()[0]
        # How a business addresses the persona in German (Sie): "Frau Petersen", else the full name.
        title = {"female": "Frau", "male": "Herr"}.get(self.p.identity.gender or "")
        self.sie = f"{title} {self.p.identity.name.split()[-1]}" if title else self.p.identity.name
        self.me = {"name": self.p.identity.name, "email": self.p.identity.email}
        self.me_work = {
            "name": self.p.identity.name,
            "email": self.p.work.email if self.p.work and self.p.work.email else self.p.identity.email,
        }
        self.chat_people = [c for c in self.p.contacts if "chat" in (c.apps or []) and c.phone]
        self.friends = [c for c in self.chat_people if c.relationship in _FRIENDLY]
        self.friends.sort(key=lambda c: (-(c.closeness or 1), self.p.contacts.index(c)))
        self.items: list[dict[str, Any]] = []
        # What the contributor's contradictions and chains name (``("travel.trips", 1)``...): the builder's own
        # changes (a rebooked flight, a moved meeting, a bill that differs) leave those alone, so the spec's value
        # stays the truth its task expects.
        self.pinned: set[tuple[str, int]] = {
            (m.group(1), int(m.group(2)))
            for path in [c.fact for c in self.p.contradictions] + [s.fact for ch in self.p.chains for s in ch.steps]
            if (m := re.match(r"^([a-z_.]+)\[(\d+)\]", path))
        }
        self.used: set[str] = set()  # contacts already given a planted role (spreads roles over people)

    # --- recording ------------------------------------------------------------------------------

    def add(
        self, kind: str, sub: str, summary: str, shows_in: list[Event], truth: str | None = None, **facts: Any
    ) -> dict[str, Any]:
        """Record one item of ``kind`` and sub-kind ``sub`` (its ``what``); its id is ``<kind>/<sub>`` (``-2``,
        ``-3``... when repeated). ``facts`` become top-level keys of the record."""
        what = sub
        base = f"{kind}/{what.replace('_', '-')}"
        n = sum(1 for i in self.items if i["id"] == base or i["id"].startswith(base + "-"))
        item = {
            "id": base if n == 0 else f"{base}-{n + 1}",
            "kind": kind,
            "what": what,
            "summary": summary,
            "truth": truth,
            "shows_in": [where(e) for e in shows_in],
            **facts,
        }
        self.items.append(item)
        return item

    def skip(self, sub: str, why: str) -> None:
        """Record that item ``sub`` could not be planted in this world, and why."""
        self.add("skipped", sub, f"Not planted: {why}", [], why=why)

    # --- writing events ---------------------------------------------------------------------------

    def mail(
        self,
        key: object,
        at: dt.datetime,
        sender: dict,
        to: list[dict],
        subject: str,
        body: str,
        *,
        read: bool,
        labels: list[str],
        ref: str | None = None,
        series: str | None = None,
        attachments: list[dict] = (),
        in_reply_to: Event | None = None,
    ) -> Event:
        """One ``email`` event with the data keys of :class:`builder.world.mail.Mailbox` (``at`` <= now)."""
        sim = self.sim
        assert at <= sim.now, (key, at)
        domain = (sender.get("email") or "mail.test").split("@")[-1]
        mid = f"<{token(sim.seed, 'planted/mail', key, length=24)}@{domain}>"
        outgoing = sender.get("email") in (self.me["email"], self.me_work["email"])
        if in_reply_to is not None:
            tid = in_reply_to.data["thread_id"]
            refs = [*in_reply_to.data["references"], in_reply_to.data["message_id"]]
        else:
            tid, refs = token(sim.seed, "planted/thread", key, length=20), []
        data = {
            "message_id": mid,
            "thread_id": tid,
            "in_reply_to": refs[-1] if refs else None,
            "references": refs,
            "folder": "sent" if outgoing else "inbox",
            "from": dict(sender),
            "to": [dict(x) for x in to],
            "cc": [],
            "subject": " ".join(subject.split()),
            "body": body.rstrip() + "\n",
            "attachments": list(attachments),
            "read": True if outgoing else read,
            "labels": list(labels),
            "ref": ref,
        }
        if series:
            data["series"] = series
        return sim.event("email", at, data, key=("planted", mid))

    def chat(
        self,
        c: Contact,
        at: dt.datetime,
        mine: bool,
        text: str,
        key: object,
        *,
        read: bool = True,
        ref: str | None = None,
    ) -> Event:
        """One ``chat_message`` in ``c``'s thread (keys of :class:`builder.world.chat.Chat`), at or before now."""
        assert at <= self.sim.now, (key, at)
        tid = derived_id(self.sim.seed, "chat/thread", c.name)
        return self.sim.event(
            "chat_message",
            at,
            {
                "app": "chat",
                "thread_id": tid,
                "contact": c.name,
                "contact_phone": c.phone,
                "sender": "me" if mine else c.name,
                "text": text,
                "read": True if mine else read,
                "ref": ref,
            },
            key=("planted", tid, key),
        )

    @cached_property
    def spec(self) -> dict[str, Any]:
        """The persona as JSON (:func:`builder.persona.model.spec_fact` reads the facts the spec's claims name)."""
        return self.p.model_dump(mode="json", by_alias=True, exclude={"contradictions", "chains"})

    def tongue_of(self, c: Contact) -> str:
        """The phrase bank ``c`` and the persona write to each other in (``Contact.language``, else the persona's)."""
        return tongue_of(self.p, c)

    @contextmanager
    def speaking(self, c: Contact):
        """Within the block, ``b``, ``fmt`` and ``tongue`` are those of ``c``'s language (a no-op for a contact who
        writes in the persona's)."""
        saved = self.b, self.fmt, self.tongue
        self.tongue = self.tongue_of(c)
        if self.tongue != self.p.bank:
            self.b, self.fmt = bank(self.tongue), fmt_of(self.p, c)
        try:
            yield self
        finally:
            self.b, self.fmt, self.tongue = saved

    def say(self, r: random.Random, entry: str, **ctx: Any) -> str:
        """A text of bank ``entry`` (see :func:`compose`); ``{sie}``, ``{full}`` and ``{Item}`` are always there."""
        ctx.setdefault("sie", self.sie)
        ctx.setdefault("full", self.p.identity.name)
        if "item" in ctx:
            ctx["Item"] = ctx["item"][:1].upper() + ctx["item"][1:]
        return compose(r, self.b[entry], **ctx)

    def pick(self, r: random.Random, word: str) -> str:
        """One value of the bank's ``vocab[word]`` list."""
        values = self.b["vocab"][word]
        return values[r.randrange(len(values))]

    def waking(self, r: random.Random, day: dt.date, lo: int = 9, hi: int = 20) -> dt.datetime:
        return dt.datetime.combine(day, dt.time(r.randint(lo, hi), r.randint(0, 59)))

    def before_now(self, r: random.Random, days_lo: int, days_hi: int, lo: int = 9, hi: int = 20) -> dt.datetime:
        """A waking time ``days_lo``..``days_hi`` days before now (capped at now - 10 minutes)."""
        day = self.sim.now.date() - dt.timedelta(days=r.randint(days_lo, days_hi))
        return min(self.waking(r, day, lo, hi), self.sim.now - dt.timedelta(minutes=r.randint(10, 120)))

    def free_friend(self, *exclude: str, bank_app: bool = False, peers: bool = False) -> Contact | None:
        """The closest friend in chat not given a role yet (else the closest), or None; ``peers``: no parents or
        children (friends, siblings, partners, roommates)."""
        people = [
            c
            for c in self.friends
            if c.name not in exclude
            and (not bank_app or "bank" in (c.apps or []))
            and (not peers or c.relationship not in ("parent", "child"))
        ]
        fresh = [c for c in people if c.name not in self.used]
        c = (fresh or people or [None])[0]
        if c is not None:
            self.used.add(c.name)
        return c

    def first_of(self, c: Contact) -> str:
        return c.name.split()[0]

    def called(self, c: Contact) -> str:
        """How a friend names ``c`` to the persona: the first name, the whole name when the persona knows another
        person of that first name (:func:`builder.reference.people.called`)."""
        return called(c.name, [x.name for x in self.p.contacts])


@world_step(
    rank=110,
    reads=(
        "autopay",
        "card_purchase",
        "p2p_payment",
        "money_request",
        "flight_booking",
        "flight",
        "hotel_stay",
        "ride",
        "restaurant_booking",
        "retail_order",
        "retail_delivery",
        "calendar_event",
        "email",
        "chat_message",
        "work_chat_message",
    ),
    writes=("email", "chat_message"),
    amends=("calendar_event",),
)
def simulate_planted(sim: Sim) -> None:
    """Plant the loose ends (see module rules) and append their records to ``sim.planted``."""
    pl = Planter(sim)
    _meeting_moved(pl)
    _paid_back_claim(pl)
    _plan_times(pl)
    _restaurant_time(pl)
    _bill_amount(pl)
    _delivery_date(pl)
    _pay_back(pl)
    _rsvp(pl)
    _send_document(pl)
    _flight_change(pl)
    _own_event(pl)
    _spec_claims(pl)
    _spec_chains(pl)
    _unread(pl)
    sim.planted.extend(pl.items)


# --- contradictions ------------------------------------------------------------------------------


def _meeting_moved(pl: Planter) -> None:
    sim = pl.sim
    r = sim.rng("planted/meeting")
    me = {pl.me["email"], pl.me_work["email"]}
    meetings = pl.p.work.meetings or [] if pl.p.work else []
    pinned = {m.title for i, m in enumerate(meetings) if ("work.meetings", i) in pl.pinned}
    soon = [
        e
        for e in sim.of_kind("calendar_event")
        if e.status == "scheduled"
        and e.data["calendar"] == "work"
        and e.data["source"] == "meeting"
        and (e.data.get("organizer") or {}).get("email") not in me | {None}
        and sim.now + dt.timedelta(days=1) <= e.at <= sim.now + dt.timedelta(days=10)
        and e.data["title"] not in pinned
    ]
    if not soon:
        pl.skip("meeting_moved", "no upcoming work meeting organized by a colleague in the next 10 days")
        return
    one_off = [e for e in soon if not e.data.get("series")]
    target = (one_off or soon)[0]
    old = target.at
    minutes = int((parse_when(sim, target.data["end"]) - old).total_seconds() // 60)
    if target.data.get("series"):  # a recurring one moves within its day (the next one is still on)
        new = old.replace(hour=15 if old.hour < 13 else 11, minute=old.minute)
    else:
        new = old + dt.timedelta(days=1)
        while new.weekday() >= 5:
            new += dt.timedelta(days=1)
        new = new.replace(hour=14 if old.hour < 12 else 10, minute=0 if old.minute < 30 else 30)
    org = target.data["organizer"]
    sent = pl.before_now(r, 0, 1, 9, 16)
    if sent.date() == sim.now.date():
        sent = dt.datetime.combine(sim.now.date() - dt.timedelta(days=1), dt.time(r.randint(14, 17), r.randint(0, 59)))
    f = pl.fmt
    ctx = dict(
        first=pl.first,
        title=target.data["title"],
        old=f"{f.weekday(old)} {f.time(old)}",
        new=f"{f.long_date(new)}, {f.time(new)}",
        new_day=f.weekday(new),
        reason=pl.pick(r, "meeting_reasons"),
        sign=pl.pick(r, "sign_off"),
        sender=org["name"].split()[0],
    )
    mail = pl.mail(
        ("meeting", target.id),
        sent,
        org,
        [pl.me_work],
        pl.say(r, "meeting_subject", **ctx),
        pl.say(r, "meeting_body", **ctx),
        read=False,
        labels=["work"],
        ref=target.id,
    )
    pl.add(
        "contradiction",
        "meeting_moved",
        f"{org['name']} moved '{target.data['title']}' by mail to {_iso(new)}; the calendar still shows {_iso(old)}.",
        [mail, target],
        truth="mail",
        title=target.data["title"],
        organizer=org["name"],
        calendar_start=_iso(old),
        mail_start=_iso(new),
        minutes=minutes,
    )


def _received_from(sim: Sim, name: str, since: dt.datetime) -> list[Event]:
    return [
        e
        for e in sim.of_kind("p2p_payment")
        if e.data.get("contact") == name and e.data.get("direction") == "received" and e.at >= since
    ]


def _paid_back_claim(pl: Planter) -> None:
    sim = pl.sim
    r = sim.rng("planted/claim")
    # What the friend owes: a shared meal the persona paid for (the card shows the whole table).
    meals = [
        e
        for e in sim.of_kind("card_purchase")
        if e.status == "done"
        and e.data.get("paid_for") == "table"
        and e.at >= sim.now - dt.timedelta(days=40)
        and e.data.get("restaurant_booking")
    ]
    bookings = {e.data.get("booking_id"): e for e in sim.of_kind("restaurant_booking")}
    claim_at = pl.before_now(r, 1, 3, 10, 21)
    friend, what, amount, ref = None, None, None, None
    for meal in sorted(meals, key=lambda e: e.at, reverse=True):
        b = bookings.get(meal.data["restaurant_booking"])
        if b is None:
            continue
        names = [n for n in b.data.get("companions") or [] if any(c.name == n for c in pl.friends)]
        names = [
            n
            for n in names
            if "bank" in (sim.contact(n).apps or []) and not _received_from(sim, n, claim_at - dt.timedelta(days=3))
        ]
        if names:
            friend = sim.contact(names[0])
            party = max(2, int(meal.data.get("party_size") or 2))
            amount = to_unit(meal.data["amount_cents"] // party, sim.persona.finances.currency)
            meal_at = reservation_time(sim, b)
            what = (
                {"de_DE": "das Essen bei {r}"}.get(pl.tongue_of(friend))
                or ("dinner at {r}" if meal_at.hour >= 16 else "lunch at {r}")
            ).format(r=b.data["restaurant"])
            ref = meal.id
            break
    if friend is None:
        friend = next(
            (
                c
                for c in pl.friends
                if "bank" in (c.apps or []) and not _received_from(sim, c.name, claim_at - dt.timedelta(days=3))
            ),
            None,
        )
        if friend is None:
            pl.skip("paid_back_claim", "no friend who uses the bank")
            return
        amount = prices.figure(r.randrange(1800, 6500, 50), sim.persona.finances.currency)
        what = {"de_DE": "die Konzertkarten"}.get(pl.tongue_of(friend), "the concert tickets")
    pl.used.add(friend.name)
    with pl.speaking(friend):
        amount_text = pl.fmt.money(amount)
        text = pl.say(r, "claim", amount=amount_text, what=what)
        e1 = pl.chat(friend, claim_at, False, text, "claim", read=True, ref=ref)
        ack_at = claim_at + dt.timedelta(minutes=r.randint(2, 40))
        e2 = pl.chat(friend, ack_at, True, pl.say(r, "claim_ack"), "claim-ack")
    pl.add(
        "contradiction",
        "paid_back_claim",
        f"{friend.name} says in chat they sent {amount_text} for {what}; no payment from them reached the bank.",
        [e1, e2],
        truth="bank",
        contact=friend.name,
        amount_cents=amount,
        claimed_at=_iso(claim_at),
        owed_for=what,
    )


def _plan_phrase(pl: Planter, activity: str) -> str:
    """How the locale says doing ``activity`` together (``go hiking``, ``ins Konzert gehen``)."""
    mine = (pl.b["vocab"].get("plans") or {}).get(activity)
    if mine:
        return mine
    try:
        from .chat import plans

        words = plans(pl.tongue)
    except ImportError:  # an older chat module: the en_US table only
        from .chat import _PLANS as words
    return words.get(activity) or words.get(activity.lower()) or activity


def _next_weekend_day(sim: Sim, r: random.Random, min_days: int = 2) -> dt.date:
    day = sim.now.date() + dt.timedelta(days=min_days)
    while day.weekday() < 5:
        day += dt.timedelta(days=1)
    return day + dt.timedelta(days=r.randint(0, 1))


def _plan_times(pl: Planter) -> None:
    sim = pl.sim
    r = sim.rng("planted/plan")
    a = pl.free_friend(peers=True)
    b = pl.free_friend(a.name, peers=True) if a else None
    if a is None or b is None or a.name == b.name:
        pl.skip("plan_times", "fewer than two friends in chat")
        return
    acts = a.shared_activities or b.shared_activities or ["brunch"]
    activity = acts[r.randrange(len(acts))]
    plan = _plan_phrase(pl, activity)
    day = _next_weekend_day(sim, r)
    low = activity.lower()
    # Evenings for concerts, quizzes, films, games and cooking; daytime for the rest.
    evening = any(
        w in low
        for w in (
            "concert",
            "konzert",
            "quiz",
            "trivia",
            "film",
            "movie",
            "kino",
            "game",
            "spiel",
            "cook",
            "koch",
            "book",
            "buch",
            "dinner",
            "essen",
        )
    )
    hour = r.choice([18, 19, 20]) if evening else r.choice([10, 11, 14, 15])
    t1 = dt.datetime.combine(day, dt.time(hour, 0))
    t2 = t1 + dt.timedelta(minutes=r.choice([30, 60, -30]))
    # Cooking, games, films and books happen at home; the rest at a meeting point.
    at_home = any(w in activity.lower() for w in ("cook", "koch", "game", "spiel", "film", "movie", "book", "buch"))
    ask_at = pl.before_now(r, 3, 5, 11, 20)
    with pl.speaking(a):  # the organizer's words are the record's (each friend writes in their own language)
        plan, f = _plan_phrase(pl, activity), pl.fmt
        place = {
            "de_DE": "bei mir" if at_home else "am Treffpunkt",
            "en_GB": "mine" if at_home else "the usual spot",
        }.get(pl.tongue, "my place" if at_home else "the usual place")
        ask = pl.say(r, "plan_ask", plan=plan, day=f.weekday(day), where=place, time=f.time(t1))
        e1 = pl.chat(a, ask_at, False, ask, "plan-ask")
        e2 = pl.chat(a, ask_at + dt.timedelta(minutes=r.randint(3, 50)), True, pl.say(r, "plan_yes"), "plan-yes")
    relay_at = pl.before_now(r, 0, 1, 10, 20)
    with pl.speaking(b):
        f = pl.fmt
        relay = pl.say(
            r, "plan_relay", name=pl.called(a), plan=_plan_phrase(pl, activity), day=f.weekday(day), time=f.time(t2)
        )
        e3 = pl.chat(b, relay_at, False, relay, "plan-relay", read=False)
    f = pl.fmt
    pl.add(
        "contradiction",
        "plan_times",
        f"{a.name} set {plan} for {_iso(t1)}; {b.name} says {a.name.split()[0]} said {f.time(t2)}.",
        [e1, e2, e3],
        truth="organizer",
        plan=plan,
        day=day.isoformat(),
        organizer=a.name,
        organizer_time=_iso(t1),
        relay=b.name,
        relay_time=_iso(t2),
    )


def _restaurant_time(pl: Planter) -> None:
    sim = pl.sim
    r = sim.rng("planted/restaurant")
    for booking in sorted(sim.of_kind("restaurant_booking"), key=lambda e: reservation_time(sim, e)):
        when = reservation_time(sim, booking)
        if when <= sim.now + dt.timedelta(hours=6) or booking.at > sim.now:
            continue
        friends = [
            sim.contact(n) for n in booking.data.get("companions") or [] if any(c.name == n for c in pl.chat_people)
        ]
        if not friends:
            continue
        c = friends[0]
        wrong = when + dt.timedelta(minutes=r.choice([30, 60, -30]))
        at = max(booking.at + dt.timedelta(minutes=5), pl.before_now(r, 0, 2, 10, 21))
        if at > sim.now:
            continue
        with pl.speaking(c):
            day, time = pl.fmt.weekday(when), pl.fmt.time(wrong)
            text = pl.say(r, "resto_friend", restaurant=booking.data["restaurant"], day=day, time=time)
            e = pl.chat(c, at, False, text, ("resto", booking.id), read=False, ref=booking.id)
        shows = [e, booking] + [x for x in sim.of_kind("email", "calendar_event") if x.data.get("ref") == booking.id]
        pl.add(
            "contradiction",
            "restaurant_time",
            f"The booking at {booking.data['restaurant']} is for {_iso(when)}; {c.name} says {pl.fmt.time(wrong)}.",
            shows,
            truth="booking",
            restaurant=booking.data["restaurant"],
            booking_id=booking.data.get("booking_id"),
            booked_time=_iso(when),
            friend=c.name,
            friend_time=_iso(wrong),
        )
        return
    pl.skip("restaurant_time", "no upcoming restaurant booking with a companion in chat")


def _bill_amount(pl: Planter) -> None:
    sim = pl.sim
    r = sim.rng("planted/bill")
    charges = pl.p.recurring_charges or []
    pinned = {c.payee for i, c in enumerate(charges) if ("finances.recurring_charges", i) in pl.pinned}
    upcoming = sorted(
        (
            e
            for e in sim.of_kind("autopay")
            if e.status == "scheduled" and e.at <= sim.now + dt.timedelta(days=25) and e.data["payee"] not in pinned
        ),
        key=lambda e: (e.at, e.id),
    )
    if not upcoming:
        pl.skip("bill_amount", "no autopay scheduled in the next 25 days")
        return
    # An energy bill varies month to month; else any utility, else the first autopay.
    energy = ("electric", "energy", "power", "strom", "gas", "water", "wasser")
    pay = next(
        (e for e in upcoming if any(w in f"{e.data['name']} {e.data['payee']}".lower() for w in energy)), None
    ) or next((e for e in upcoming if e.data.get("category") == "utilities"), upcoming[0])
    usual = pay.data["amount_cents"]
    bill = usual + max(100, usual * r.randint(12, 35) // 100)
    bill -= bill % 10
    bill = to_unit(bill, pl.p.finances.currency)  # whole rupees, yen, CFA francs: as the mail writes it
    sent = pl.before_now(r, 2, 6, 7, 11)
    # The charge's own monthly bill (finance.mail_bills) may be in the mailbox already: this one comes after it (a
    # rebilled amount), so the newest bill from the payee is the one that says what is owed.
    regular = [m.at for m in sim.of_kind("email") if m.data.get("ref") == pay.id and m.data.get("series") == "bill"]
    if regular and sent <= max(regular):
        last = max(regular)
        halfway = dt.timedelta(minutes=max(1, int((sim.now - last).total_seconds() // 120)))
        sent = min(last + dt.timedelta(hours=r.randint(20, 30)), last + halfway)
    payee = pay.data["payee"]
    from .mail import automated_bank, site_domain

    sender = {"name": payee, "email": f"billing@{site_domain(None, payee)}"}
    f = pl.fmt
    ctx = dict(
        first=pl.first,
        full=pl.p.identity.name,
        month=f.month(sent).split()[0],
        bill=pay.data["name"].lower() if automated_bank(pl.p.bank)["bill"]["lowercase_name"] else pay.data["name"],
        payee=payee,
        amount=f.money(bill),
        due=f.date(pay.at),
    )
    mail = pl.mail(
        ("bill", pay.id),
        sent,
        sender,
        [pl.me],
        pl.say(r, "bill_subject", **ctx),
        pl.say(r, "bill_body", **ctx),
        read=True,
        labels=["bills"],
        ref=pay.id,
        series="bill",
    )
    pl.add(
        "contradiction",
        "bill_amount",
        f"{payee} bills {f.money(bill)}; the bank's autopay scheduled for {pay.at.date()} takes {f.money(usual)}.",
        [mail, pay],
        truth="mail",
        payee=payee,
        bill_cents=bill,
        autopay_cents=usual,
        autopay_at=_iso(pay.at),
    )


def _delivery_date(pl: Planter) -> None:
    """The carrier's tracking mail, after the shop's shipping mail, gives a later day than the shop still shows (the
    world's ``retail_delivery``): the carrier's newer notice is the one to go by."""
    sim = pl.sim
    r = sim.rng("planted/delivery")
    orders = {e.data.get("order_id"): e for e in sim.of_kind("retail_order")}
    for d in sorted(sim.of_kind("retail_delivery"), key=lambda e: (e.at, e.id)):
        if d.status != "scheduled" or d.at > sim.now + dt.timedelta(days=10):
            continue
        order = orders.get(d.data.get("order_id"))
        shipped = [
            m
            for m in sim.of_kind("email")
            if order is not None and m.data.get("ref") == order.id and m.data.get("series") == "shipping"
        ]
        if not shipped or shipped[-1].at >= sim.now - dt.timedelta(hours=1):
            continue
        carrier = d.data.get("carrier") or "Carrier"
        says = d.at.date() + dt.timedelta(days=r.choice([1, 2, 3]))
        at = min(
            shipped[-1].at + dt.timedelta(hours=r.randint(6, 30)), sim.now - dt.timedelta(minutes=r.randint(15, 90))
        )
        if at.hour < 7:
            at = at.replace(hour=r.randint(7, 9))
        at = min(at, sim.now - dt.timedelta(minutes=5))
        at = max(at, shipped[-1].at + dt.timedelta(minutes=5))  # the carrier writes after the shop's shipping mail
        f = pl.fmt
        ctx = dict(
            first=pl.first,
            carrier=carrier,
            tracking=d.data.get("tracking_number") or "",
            day=f.long_date(says),
            shop=d.data.get("provider") or "",
        )
        mail = pl.mail(
            ("delivery", d.id),
            at,
            {"name": carrier, "email": f"tracking@{_slug(carrier)}.test"},
            [pl.me],
            pl.say(r, "delivery_subject", **ctx),
            pl.say(r, "delivery_body", **ctx),
            read=False,
            labels=["receipts"],
            ref=d.id,
            series="tracking",
        )
        pl.add(
            "contradiction",
            "delivery_date",
            f"{carrier} now expects parcel {ctx['tracking']} on {says}; {ctx['shop']} still shows {d.at.date()}.",
            [mail, shipped[-1], d],
            truth="carrier",
            order_id=d.data.get("order_id"),
            carrier=carrier,
            tracking_number=ctx["tracking"],
            shop_day=d.at.date().isoformat(),
            carrier_day=says.isoformat(),
        )
        return
    pl.skip("delivery_date", "no parcel on its way with a shipping mail")


# --- pending obligations --------------------------------------------------------------------------


def _pay_back(pl: Planter) -> None:
    sim = pl.sim
    for req in sim.of_kind("money_request"):
        if req.data.get("paid"):
            continue
        shows = [req] + [e for e in sim.of_kind("chat_message") if e.data.get("ref") == req.id]
        pl.add(
            "pending",
            "pay_back",
            f"{req.data['contact']} asked to be paid back {pl.fmt.money(req.data['amount_cents'])}"
            f" for {req.data['memo']}.",
            shows,
            truth=None,
            contact=req.data["contact"],
            amount_cents=req.data["amount_cents"],
            memo=req.data["memo"],
            request_id=req.id,
        )


def _rsvp(pl: Planter) -> None:
    """A friend's upcoming event, invited by mail with an ICS still NEEDS-ACTION, answer due after now."""
    sim = pl.sim
    r = sim.rng("planted/rsvp")
    from .mail import ics

    hosts = (
        [c for c in pl.p.contacts if c.email and c.relationship == "friend"]
        or [c for c in pl.friends if c.email and c.relationship != "parent"]
        or [c for c in pl.friends if c.email]
    )
    host = next((c for c in hosts if c.name not in pl.used), None) or (hosts or [None])[0]
    if host is None:
        pl.skip("rsvp", "no friend with a mail address")
        return
    pl.used.add(host.name)
    day = _next_weekend_day(sim, r, 12)
    start = dt.datetime.combine(day, dt.time(r.choice([18, 19, 20]), r.choice([0, 30])))
    title = pl.pick(r, "rsvp_titles").format(first=pl.first_of(host))
    place = (host.address.street if host.address else None) or {"de_DE": "bei mir"}.get(pl.p.bank, "my place")
    org = {"name": host.name, "email": host.email}
    cal = add_timed(
        sim,
        start,
        180,
        title=title,
        location=place,
        attendees=[org, pl.me],
        organizer=org,
        source="life_event",
        description="",
        key=("planted", "rsvp"),
    )
    sent = pl.before_now(r, 2, 5, 10, 20)
    due = day - dt.timedelta(days=r.randint(3, 6))
    f = pl.fmt
    ctx = dict(
        first=pl.first,
        title=title,
        day=f.long_date(day),
        time=f.time(start),
        where=place,
        due=f.long_date(due),
        sender=pl.first_of(host),
    )
    content = ics(sim, cal, sent)
    att = [
        {
            "filename": "invite.ics",
            "content_type": "text/calendar; method=REQUEST",
            "size": len(content.encode()),
            "content": content,
        }
    ]
    mail = pl.mail(
        ("rsvp", cal.id),
        sent,
        org,
        [pl.me],
        pl.say(r, "rsvp_subject", **ctx),
        pl.say(r, "rsvp_body", **ctx),
        read=True,
        labels=["invitations"],
        ref=cal.id,
        attachments=att,
    )
    pl.add(
        "pending",
        "rsvp",
        f"{host.name} invited the persona to '{title}' on {day}; the answer is due {due}.",
        [mail, cal],
        truth=None,
        title=title,
        start=_iso(start),
        rsvp_by=due.isoformat(),
        organizer=host.name,
    )


def _send_document(pl: Planter) -> None:
    sim = pl.sim
    r = sim.rng("planted/document")
    p = pl.p
    f = pl.fmt
    due = sim.now.date() + dt.timedelta(days=r.randint(4, 12))
    sent = pl.before_now(r, 1, 4, 9, 16)
    # An employer with colleagues has a people team; the self-employed hear from the letting agent.
    own_firm = bool(p.work and p.work.employer and p.identity.name.split()[-1] in p.work.employer)
    work_domain = p.work.email.split("@", 1)[1] if p.work and p.work.email and not own_firm else None
    if work_domain:
        form = pl.pick(r, "form_names")
        name = {"de_DE": "Personalabteilung"}.get(p.bank, "People Team")
        sender = {"name": f"{p.work.employer} {name}" if p.work.employer else name, "email": f"people@{work_domain}"}
        portal, to, entry, labels = f"https://hr.{work_domain}/documents", [pl.me_work], "form_body", ["work"]
    else:
        form = pl.pick(r, "landlord_forms")
        sender = {
            "name": {"de_DE": "Hausverwaltung"}.get(p.bank, "Property management"),
            "email": "office@property-management.test",
        }
        portal, to, labels = "https://portal.property-management.test", [pl.me], ["home"]
        entry = "form_body_sie" if "form_body_sie" in pl.b else "form_body"
    ctx = dict(
        first=pl.first,
        full=p.identity.name,
        form=form,
        due=f.long_date(due),
        portal=portal,
        sign=pl.pick(r, "sign_off"),
        sender=sender["name"],
    )
    mail = pl.mail(
        ("document", form),
        sent,
        sender,
        to,
        pl.say(r, "form_subject", **ctx),
        pl.say(r, entry, **ctx),
        read=True,
        labels=labels,
    )
    pl.add(
        "pending",
        "send_document",
        f"{sender['name']} asks for the signed {form} by {due}.",
        [mail],
        truth=None,
        form=form,
        due=due.isoformat(),
        sender=sender["name"],
        sender_email=sender["email"],
    )


# --- dependency chains ----------------------------------------------------------------------------


def _flight_change(pl: Planter) -> None:
    """The next trip's outbound flight is cancelled and rebooked a day later; the ride, the hotel's first night
    and the calendar still hold the old day, and a dinner booked for the first evening starts before the new
    arrival."""
    sim = pl.sim
    r = sim.rng("planted/flight")
    flights = sorted(
        (
            e
            for e in sim.of_kind("flight")
            if e.status == "scheduled" and e.data.get("leg") == 1 and e.data.get("direction") == "outbound"
        ),
        key=lambda e: e.at,
    )
    booking = None
    for fl in flights:
        if ("travel.trips", fl.data.get("trip")) in pl.pinned:
            continue
        booking = next(
            (
                b
                for b in sim.of_kind("flight_booking")
                if b.data.get("pnr") == fl.data.get("pnr") and b.at < sim.now - dt.timedelta(days=2)
            ),
            None,
        )
        if booking:
            break
    if not booking:
        pl.skip("flight_change", "no upcoming flight booked before now")
        return
    d = fl.data
    idx = d.get("trip")
    legs = sorted(
        (
            e
            for e in sim.of_kind("flight")
            if e.data.get("pnr") == d.get("pnr") and e.data.get("direction") == "outbound"
        ),
        key=lambda e: e.at,
    )
    last_leg = legs[-1].data if legs else d
    trip = trips(sim)[idx] if isinstance(idx, int) else None
    # The whole outbound journey moves a day: the first leg's departure, the last leg's arrival.
    old_dep, old_arr = dt.datetime.fromisoformat(d["dep_local"]), dt.datetime.fromisoformat(last_leg["arr_local"])
    new_dep, new_arr = old_dep + dt.timedelta(days=1), old_arr + dt.timedelta(days=1)
    code = (d["flight_number"].split() or ["XX"])[0]
    new_number = f"{code} {r.randint(1000, 2999)}"
    f = pl.fmt
    sent = max(booking.at + dt.timedelta(days=1), pl.before_now(r, 1, 4, 8, 20))
    airline = {"name": d.get("airline") or "Airline", "email": f"notifications@{_slug(d.get('airline') or 'air')}.test"}
    ctx = dict(
        name=pl.p.identity.name,
        flight=d["flight_number"],
        old_day=f.long_date(old_dep),
        new_flight=new_number,
        new_dep=f"{f.long_date(new_dep)} {f.time(new_dep)}",
        new_arr=f"{f.long_date(new_arr)} {f.time(new_arr)}",
        pnr=d.get("pnr"),
        airline=airline["name"],
        **{"from": d.get("from_name") or d.get("from"), "to": last_leg.get("to_name") or last_leg.get("to")},
    )
    change = pl.mail(
        ("flight", fl.id),
        sent,
        airline,
        [pl.me],
        pl.say(r, "flight_subject", **ctx),
        pl.say(r, "flight_body", **ctx),
        read=False,
        labels=["travel"],
        ref=fl.id,
        series="schedule_change",
        attachments=_revised_itinerary(
            sim, legs, fl.id, d["flight_number"], new_number, sent, f"{d.get('pnr') or 'itinerary'}-changed.ics"
        ),
    )
    steps: list[dict[str, Any]] = [
        {"step": "booking", "event_id": booking.id, "old": d["dep_local"], "new": None},
        {
            "step": "airline_change",
            "event_id": change.id,
            "old": d["dep_local"],
            "new": new_dep.isoformat(),
            "new_flight": new_number,
        },
    ]
    shows = [booking, change, fl]
    cal = next((e for e in sim.of_kind("calendar_event") if e.data.get("ref") == fl.id), None)
    if cal:
        steps.append(
            {"step": "calendar_flight", "event_id": cal.id, "old": cal.data["start"], "new": new_dep.isoformat()}
        )
        shows.append(cal)
    ride = next(
        (e for e in sim.of_kind("ride") if e.status == "scheduled" and e.data.get("trip") == idx and e.at <= fl.at),
        None,
    )
    if ride:
        steps.append(
            {
                "step": "airport_ride",
                "event_id": ride.id,
                "old": ride.data.get("pickup_local"),
                "new": (dt.datetime.fromisoformat(ride.data["pickup_local"]) + dt.timedelta(days=1)).isoformat(),
            }
        )
        shows.append(ride)
    stay = next((e for e in sim.of_kind("hotel_stay") if e.data.get("trip") == idx), None)
    if stay:
        ci = dt.date.fromisoformat(stay.data["check_in"])
        steps.append(
            {
                "step": "hotel_check_in",
                "event_id": stay.id,
                "old": ci.isoformat(),
                "new": (ci + dt.timedelta(days=1)).isoformat(),
                "hotel": stay.data.get("hotel"),
                "confirmation": stay.data.get("confirmation"),
            }
        )
        shows.append(stay)
    # A dinner booked at the destination for the first evening, which the new arrival misses.
    dinner_day = old_arr.date() if old_arr.hour < 17 else old_arr.date() + dt.timedelta(days=1)
    dinner = dt.datetime.combine(dinner_day, dt.time(r.choice([19, 20]), r.choice([0, 30])))
    if dinner.replace(tzinfo=old_arr.tzinfo) < new_arr:
        name = f"{pl.pick(r, 'restaurant_first')} {pl.pick(r, 'restaurant_second')}".replace("The The", "The")
        city = trip.destination if trip else d.get("to")
        booked = booking.at + dt.timedelta(days=r.randint(1, 2))
        booked = min(booked.replace(hour=r.randint(9, 20), minute=r.randint(0, 59)), sent - dt.timedelta(hours=1))
        party = 1 + len(trip.companions if trip else [])
        dctx = dict(
            first=pl.first,
            full=pl.p.identity.name,
            restaurant=name,
            city=city,
            day=f.long_date(dinner),
            time=f.time(dinner),
            party=party,
        )
        conf = pl.mail(
            ("dinner", fl.id),
            booked,
            {"name": name, "email": f"reservations@{_slug(name)}.test"},
            [pl.me],
            pl.say(r, "dinner_subject", **dctx),
            pl.say(r, "dinner_body", **dctx),
            read=True,
            labels=["travel"],
            series="reservation",
        )
        steps.append(
            {
                "step": "dinner_reservation",
                "event_id": conf.id,
                "old": _iso(dinner),
                "new": None,
                "restaurant": name,
                "city": city,
            }
        )
        shows.append(conf)
    pl.add(
        "chain",
        "flight_change",
        f"Flight {d['flight_number']} on {old_dep.date()} was cancelled and rebooked as {new_number} a day later;"
        f" the ride, the hotel's first night and the calendar still hold the old day"
        + (
            "; the dinner booked for the first evening there starts before the new arrival."
            if any(st["step"] == "dinner_reservation" for st in steps)
            else "."
        ),
        shows,
        truth="mail",
        trip=idx,
        destination=trip.destination if trip else d.get("to"),
        pnr=d.get("pnr"),
        old_departure=d["dep_local"],
        new_departure=new_dep.isoformat(),
        new_arrival=new_arr.isoformat(),
        flight_id=fl.id,
        steps=steps,
    )


def _revised_itinerary(
    sim: Sim, legs: list[Event], first_id: str, old_number: str, new_number: str, sent: dt.datetime, filename: str
) -> list[dict]:
    """The changed itinerary the schedule-change mail carries: the calendar's entries of the moved legs a day
    later, the first under its new number, at SEQUENCE 1, so "Add to calendar" takes the new times."""
    from .mail import publish_ics

    ids = {leg.id for leg in legs}
    out = []
    for c in sim.of_kind("calendar_event"):
        d = c.data
        if d.get("source") == "flight" and d.get("ref") in ids and d.get("uid"):
            title = d["title"].replace(old_number, new_number) if d["ref"] == first_id else d["title"]
            out.append(
                {**d, "title": title, "start": _shift_iso(d["start"], 1), "end": _shift_iso(d["end"], 1), "sequence": 1}
            )
    return publish_ics(sim, out, sent, filename)


def _slug(text: str) -> str:
    from .mail import slug

    return slug(text)


# --- the persona's own event ----------------------------------------------------------------------


def _own_event(pl: Planter) -> None:
    """The persona's own upcoming party (the spec's, else planted), with invitations and replies before now;
    a food order for the headcount makes the second chain (a +1 outgrows it)."""
    sim = pl.sim
    p = pl.p
    r = sim.rng("planted/own")
    f = pl.fmt
    spec = next(
        (
            le
            for le in p.life_events
            if le.kind == "party"
            and le.date > sim.now.date()
            and ((le.location or "").lower() == "home" or pl.first in le.title)
        ),
        None,
    )
    cal = None
    if spec:
        cal = next(
            (
                e
                for e in sim.of_kind("calendar_event")
                if e.data["source"] == "life_event" and e.data["title"] == spec.title and e.at.date() == spec.date
            ),
            None,
        )
    if cal is None:
        spec = None
        day = _next_weekend_day(sim, r, 10)
        while day.weekday() != 5:
            day += dt.timedelta(days=1)
        start = dt.datetime.combine(day, dt.time(19, 0))
        title = pl.pick(r, "party_titles")
        guests = [c for c in p.contacts if c.relationship in ("friend", "sibling", "partner", "roommate")][:5]
        people = [{"name": c.name, "email": c.email} for c in guests]
        location = p.identity.address.street if p.identity.address else ""
        cal = add_timed(
            sim,
            start,
            240,
            title=title,
            location=location,
            attendees=[pl.me, *people],
            organizer=pl.me,
            source="life_event",
            description="Party",
            key=("planted", "own"),
        )
        names = [c.name for c in guests]
    else:
        names = list(spec.with_)
    start, title = cal.at, cal.data["title"]
    invited_at = min(pl.before_now(r, 6, 10, 18, 21), start - dt.timedelta(days=7))
    guests = [c for c in (sim.contact(n) for n in names) if c in pl.chat_people]
    shows: list[Event] = [cal]
    replies: dict[str, str] = {}
    answered: dict[str, dt.datetime] = {}
    # Guests the chat module already invited (the spec's party) said yes there: record, don't repeat.
    earlier = [e for e in sim.of_kind("chat_message") if e.data.get("ref") == cal.id and e.at <= sim.now]
    for c in list(guests):
        mine = [e for e in earlier if e.data["contact"] == c.name]
        if mine:
            shows.extend(mine)
            replies[c.name] = "yes"
            answered[c.name] = max(e.at for e in mine)
            guests.remove(c)
    answers = ["yes", "no", "maybe", "pending"]
    r.shuffle(answers)
    answers += [r.choice(["yes", "yes", "maybe", "pending"]) for _ in range(max(0, len(guests) - 4))]
    if guests and "yes" not in answers[: len(guests)] and "yes" not in replies.values():
        answers[answers.index("yes")], answers[0] = answers[0], "yes"
    for i, c in enumerate(guests):
        at = invited_at + dt.timedelta(minutes=3 * i)
        with pl.speaking(c):
            text = pl.say(r, "party_invite", title=title, day=pl.fmt.long_date(start), time=pl.fmt.time(start))
            shows.append(pl.chat(c, at, True, text, ("own", i), ref=cal.id))
        answer = answers[i]
        replies[c.name] = answer
        if answer == "pending":
            continue
        reply_at = at + dt.timedelta(hours=r.randint(1, 30), minutes=r.randint(0, 59))
        if reply_at.hour < 8:
            reply_at = reply_at.replace(hour=r.randint(8, 11))
        reply_at = min(reply_at, sim.now - dt.timedelta(hours=3))
        answered[c.name] = reply_at
        with pl.speaking(c):
            shows.append(pl.chat(c, reply_at, False, pl.say(r, f"party_{answer}"), ("own", i, "r"), ref=cal.id))
    # The mail module's own invitation (with its ICS) for the spec's party, when it went out before now.
    shows.extend(e for e in sim.of_kind("email") if e.data.get("ref") == cal.id and "invitations" in e.data["labels"])
    # Invitees without chat but with mail get the ICS by mail (the calendar app shows it).
    from .mail import ics

    by_mail = [c for c in (sim.contact(n) for n in names) if c not in pl.chat_people and c.email]
    if by_mail:
        content = ics(sim, cal, invited_at)
        att = [
            {
                "filename": "invite.ics",
                "content_type": "text/calendar; method=REQUEST",
                "size": len(content.encode()),
                "content": content,
            }
        ]
        due = start.date() - dt.timedelta(days=5)
        ctx = dict(
            first=", ".join(c.name.split()[0] for c in by_mail),
            title=title,
            day=f.long_date(start),
            time=f.time(start),
            where=cal.data["location"] or pl.b["vocab"]["home"],
            due=f.long_date(due),
            sender=pl.first,
        )
        shows.append(
            pl.mail(
                ("own", cal.id),
                invited_at,
                pl.me,
                [{"name": c.name, "email": c.email} for c in by_mail],
                pl.say(r, "rsvp_subject", **ctx),
                pl.say(r, "rsvp_body", **ctx),
                read=True,
                labels=["invitations"],
                ref=cal.id,
                attachments=att,
            )
        )
        for c in by_mail:
            replies[c.name] = "pending"
    item = pl.add(
        "own_event",
        "party",
        f"The persona hosts '{title}' on {start.date()}; invitations went out {invited_at.date()}.",
        shows,
        truth=None,
        title=title,
        start=_iso(start),
        event_id=cal.id,
        invited_at=_iso(invited_at),
        replies=replies,
        spec=spec is not None,
    )
    _party_headcount(pl, cal, item, answered, r)


def _party_headcount(
    pl: Planter, cal: Event, own: dict[str, Any], answered: dict[str, dt.datetime], r: random.Random
) -> None:
    """Chain: the food ordered for the guests who said yes; then one of them asks to bring someone."""
    sim = pl.sim
    f = pl.fmt
    replies = own["replies"]
    yes = [n for n, v in replies.items() if v == "yes" and sim.contact(n) in pl.chat_people]
    if not yes:
        pl.skip("party_headcount", "no guest in chat said yes")
        return
    last = max(answered.values())
    trigger_at = min(
        max(last + dt.timedelta(hours=r.randint(3, 20)), sim.now - dt.timedelta(hours=30)),
        sim.now - dt.timedelta(minutes=20),
    )
    if trigger_at.hour < 9:
        trigger_at = min(
            trigger_at.replace(hour=r.randint(9, 12), minute=r.randint(0, 59)), sim.now - dt.timedelta(minutes=20)
        )
    placed = (last + (trigger_at - last) / 2).replace(microsecond=0)
    if not 8 <= placed.hour < 22:  # orders are placed at waking hours, between the last answer and the +1
        placed = placed.replace(hour=r.randint(10, 19), minute=r.randint(0, 59), second=0)
        if not last < placed < trigger_at:
            placed = last + dt.timedelta(minutes=r.randint(10, 25))
    c = sim.contact(yes[0])
    partner = c.partner.split()[0] if c.partner else {"de_DE": "eine Freundin"}.get(pl.tongue_of(c), "a friend")
    with pl.speaking(c):
        plus = pl.say(r, "party_plus", partner=partner, day=pl.fmt.weekday(cal.at))
        trigger = pl.chat(c, trigger_at, False, plus, ("own", "plus"), read=False, ref=cal.id)
    own["shows_in"].append(where(trigger))
    ordered_for = 1 + len([v for v in replies.values() if v in ("yes", "maybe")])  # the host counts the maybes
    needed = ordered_for + 1
    item = pl.pick(r, "party_food")
    shop = {"de_DE": "Feinkost Hansen", "en_GB": "Corner Deli"}.get(pl.p.bank, "Corner Deli & Catering")
    order = f"CD-{r.randint(10000, 99999)}"
    pickup_day = cal.at.date()
    cutoff = pickup_day - dt.timedelta(days=2)
    price = ordered_for * r.randint(900, 1600)
    ctx = dict(
        first=pl.first,
        full=pl.p.identity.name,
        item=item,
        n=ordered_for,
        day=f.long_date(pickup_day),
        pickup=f.time(cal.at - dt.timedelta(hours=2)),
        amount=f.money(price),
        cutoff=f.long_date(cutoff),
        order=order,
        shop=shop,
    )
    conf = pl.mail(
        ("party-order", cal.id),
        placed,
        {"name": shop, "email": f"orders@{_slug(shop)}.test"},
        [pl.me],
        pl.say(r, "party_order_subject", **ctx),
        pl.say(r, "party_order_body", **ctx),
        read=True,
        labels=["orders"],
        series="order",
    )
    why = f"{c.name} asks to bring {partner}"
    steps = [
        {"step": "invitations", "event_id": cal.id, "old": None, "new": None},
        {
            "step": "food_order",
            "event_id": conf.id,
            "old": ordered_for,
            "new": None,
            "order": order,
            "change_by": cutoff.isoformat(),
        },
        {"step": "headcount_change", "event_id": trigger.id, "old": ordered_for, "new": needed, "why": why},
    ]
    pl.add(
        "chain",
        "party_headcount",
        f"The food order {order} serves {ordered_for}; {why}, so it needs {needed} (changes until {cutoff}).",
        [cal, conf, trigger],
        truth=None,
        event_id=cal.id,
        order=order,
        ordered_for=ordered_for,
        needed=needed,
        change_by=cutoff.isoformat(),
        price_cents=price,
        steps=steps,
    )


# --- unread --------------------------------------------------------------------------------------


# --- the contributor's own (the spec's contradictions and chains) ---------------------------------------------


def _spec_claims(pl: Planter) -> None:
    """Each of the spec's ``contradictions``: the contact's message as written, at its time; the spec's value of the
    fact is the truth, shown by the app of the fact's service. Record: ``what`` ``spec_claim``, ``fact`` (the
    path), ``value`` (the spec's), ``claim``, ``contact``, ``about``, ``at``; ``truth`` the app's name."""
    by_key = {name_key(c.name): c for c in pl.p.contacts}
    for i, claim in enumerate(pl.p.contradictions):
        value, role = spec_fact(pl.spec, claim.fact)
        c = by_key.get(name_key(claim.by))
        if value is None or c is None or c not in pl.chat_people or claim.at > pl.sim.now:
            pl.skip("spec_claim", f"contradictions[{i}]: {claim.by} cannot write in the messaging app then")
            continue
        e = pl.chat(c, claim.at, False, claim.text, ("spec-claim", i))
        pl.add(
            "contradiction",
            "spec_claim",
            f"{c.name} says {claim.about} is {claim.claim}; the spec's {value} is right",
            [e],
            truth=app_of(role),
            fact=claim.fact,
            value=value,
            claim=claim.claim,
            contact=c.name,
            about=claim.about,
            at=_iso(claim.at),
        )


def _spec_chains(pl: Planter) -> None:
    """Each of the spec's ``chains``, recorded as written: ``what`` ``spec``, ``about``, ``steps`` (``step`` the
    label, ``fact`` the path, ``value`` the spec's value, ``app`` the app that shows it, in order); no event of its
    own (every step is a fact the world already shows)."""
    for chain in pl.p.chains:
        steps = []
        for step in chain.steps:
            value, role = spec_fact(pl.spec, step.fact)
            steps.append({"step": step.label, "fact": step.fact, "value": value, "app": app_of(role)})
        pl.add("chain", "spec", chain.about, [], about=chain.about, steps=steps)


def _unread(pl: Planter) -> None:
    sim = pl.sim
    since = sim.now - dt.timedelta(days=UNREAD_DAYS)
    me = {pl.me["email"], pl.me_work["email"]}
    for e in sorted(sim.events, key=lambda e: (e.at, e.id)):
        if e.at < since or e.at > sim.now or e.data.get("read", True):
            continue
        if e.kind == "chat_message" and e.data["sender"] != "me":
            who = e.data["sender"]
        elif e.kind == "work_chat_message":
            who = e.data["sender"]
        elif e.kind == "email" and e.data["from"].get("email") not in me and e.data.get("folder") != "sent":
            who = e.data["from"].get("name") or e.data["from"].get("email")
        else:
            continue
        pl.add(
            "unread",
            APPS[e.kind],
            f"Unread {APPS[e.kind]} message from {who} at {_iso(e.at)}.",
            [e],
            app=APPS[e.kind],
            sender=who,
            at=_iso(e.at),
        )


# --- what the apps that hold the truth show ---------------------------------------------------------


def _shift_iso(value: str, days: int) -> str:
    """An ISO 8601 instant (offset or ``Z``) moved by ``days``, in the same form."""
    if value.endswith("Z"):
        return (dt.datetime.fromisoformat(value[:-1]) + dt.timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return (dt.datetime.fromisoformat(value) + dt.timedelta(days=days)).isoformat()


def airline_flights(world) -> dict[str, dict[str, Any]]:
    """Flight event id -> the leg as the airline's own records hold it after the planted schedule change
    (``chain/flight-change``): the outbound legs of that booking a day later, the first under its new flight
    number, status ``rebooked``. The other apps keep the old day on purpose (that is the chain to resolve);
    the airline, which made the change, shows it. Legs the change does not touch are absent."""
    item = next((x for x in world.planted if x.get("id") == "chain/flight-change"), None)
    if not item:
        return {}
    out = {}
    legs = sorted(
        (
            f
            for f in world.of_kind("flight")
            if f.data.get("pnr") == item.get("pnr") and f.data.get("direction") == "outbound"
        ),
        key=lambda f: f.data["dep_utc"],
    )
    new_number = next((s.get("new_flight") for s in item.get("steps", []) if s.get("step") == "airline_change"), None)
    for f in legs:
        d = f.data
        out[f.id] = {
            **d,
            "dep_local": _shift_iso(d["dep_local"], 1),
            "arr_local": _shift_iso(d["arr_local"], 1),
            "dep_utc": _shift_iso(d["dep_utc"], 1),
            "arr_utc": _shift_iso(d["arr_utc"], 1),
            "flight_number": new_number if f.id == item.get("flight_id") and new_number else d["flight_number"],
            "original_flight_number": d["flight_number"],
            "original_dep_local": d["dep_local"],
            "status": "rebooked",
        }
    return out
