"""World -> rows of Parley's database (``messaging.sqlite``).

What the seed writes, and the rules it keeps (tests and tasks depend on them):

* **Contacts**: the spec's contacts who use chat and have a phone, in spec order, with the
  contact card the reply engine answers from (``builder.world.cards.contact_card``).
* **Direct conversations**: one per contact with at least one ``chat_message`` in the world;
  every message is projected verbatim (``world_ref`` = the event id). A contact's message is
  read (``read_at`` = its time) when the world says ``read``; unread ones have ``read_at`` NULL.
* **Group conversations** (:func:`groups`), derived from the world in this order, a member set
  never repeated: the family (contacts whose relationship is parent, sibling, child, spouse or
  partner; two or more), the usual dinner companions (the set of two or more chat contacts met
  most often at the world's restaurant bookings, at least twice), friends sharing a pastime
  (the shared activity of the most non-colleague, non-parent contacts, two or more; ties by
  name) and each trip with two or more chat companions. Their history comes from the world's
  facts (restaurant bookings already eaten, birthdays, trips, flights) in the words of
  ``phrases/<locale>.yaml``, drawn from ``messaging/group/<slug>`` streams; ``world_ref`` is
  ``seed:group/<slug>/<n>``.
* **Tapbacks** the contacts and the persona left on a few world messages
  (``messaging/tapbacks``), ``world_ref`` ``seed:tapback/<n>``.
* Nothing is sent after the world's ``now``; ids follow (time, conversation, order).
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile, yamlfile
from builder.dates import add_months, birthday_in
from builder.rng import rng
from builder.world import World, contact_card as world_card, reservation_time
from builder.reference.locale import Fmt

from . import models as m

HERE = Path(__file__).resolve().parent
DOMAIN = "parley.test"
#: The tapbacks Parley offers, in menu order.
TAPBACKS = ["❤️", "👍", "😂", "😮", "😢", "❗"]
FAMILY = ("parent", "sibling", "child", "spouse", "partner")
#: Share of world messages that got a tapback (contact on the persona's, the persona on a contact's).
_TAPBACK_RATE = {"contact": 0.035, "me": 0.02}
_TAPBACK_WEIGHTS = [35, 25, 25, 5, 5, 5]


def signed_in_text(world: World) -> str:
    """What the signed-in conversation list shows for sure: the contact of the latest delivered message."""
    latest = max((e for e in world.of_kind("chat_message") if e.status == "done"), key=lambda e: (e.at, e.id))
    return latest.data["contact"]


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (derived from the seed, see builder.appkit)."""
    return appkit.credentials(world, "messaging")


# --- phrases ----------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def phrase_bank(locale: str) -> dict[str, dict[str, list[str]]]:
    """The phrase bank of ``locale`` (``en_US``, ``en_GB``...), falling back to ``en_US``."""
    path = HERE / "phrases" / f"{locale}.yaml"
    if not path.exists():
        path = HERE / "phrases" / "en_US.yaml"
    return yamlfile.safe_load(path.read_text(encoding="utf-8"))


_ENV = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)


def say(world: World, intent: str, voice: str, r, **ctx: Any) -> str:
    """One variant of ``intent`` in ``voice`` (a messaging style or ``me``; falls back to chatty), rendered."""
    bank = phrase_bank(world.persona.bank)[intent]
    variants = bank.get(voice) or bank.get("chatty") or next(iter(bank.values()))
    return _ENV.from_string(variants[r.randrange(len(variants))]).render(**ctx)


# --- contacts and groups ----------------------------------------------------------------------------


def chat_contacts(world: World) -> list:
    """The spec's contacts who use chat and have a phone, in spec order."""
    return [c for c in world.persona.contacts if "chat" in (c.apps or []) and c.phone]


def _first(name: str) -> str:
    return name.split()[0]


@dataclass(frozen=True)
class Group:
    """A group conversation the seed derives: ``kind`` family / dinner / pastime / trip, members by name."""

    slug: str
    kind: str
    title: str
    members: tuple[str, ...]
    activity: str | None = None
    trip: int | None = None


def _title(world: World, kind: str, r=None, **ctx) -> str:
    variants = phrase_bank(world.persona.bank)["titles"][kind]
    return _ENV.from_string(variants[0]).render(**ctx)


def dinner_companions(world: World) -> tuple[str, ...] | None:
    """The set of two or more chat contacts met most often at done restaurant bookings (at least twice), sorted."""
    names = {c.name for c in chat_contacts(world)}
    counts = Counter(
        tuple(sorted(set(b.data.get("companions") or []) & names))
        for b in world.of_kind("restaurant_booking")
        if b.status == "done"
    )
    best = sorted((k for k, n in counts.items() if len(k) >= 2 and n >= 2), key=lambda k: (-counts[k], k))
    return best[0] if best else None


def trips(world: World) -> list:
    """The persona's trips in spec order (``persona.travel.trips``; a group per trip with 2+ contacts on it)."""
    travel = world.persona.travel
    return list(travel.trips or []) if travel else []


def groups(world: World) -> list[Group]:
    """The group conversations of ``world`` (rules in the module docstring), in id order."""
    contacts = chat_contacts(world)
    names = [c.name for c in contacts]
    out: list[Group] = []
    seen: set[frozenset] = set()

    def add(g: Group) -> None:
        if frozenset(g.members) not in seen:
            seen.add(frozenset(g.members))
            out.append(g)

    family = tuple(c.name for c in contacts if c.relationship in FAMILY)
    if len(family) >= 2:
        surname = world.persona.identity.name.split()[-1]
        add(Group("family", "family", _title(world, "family", surname=surname), family))
    dinner = dinner_companions(world)
    if dinner:
        add(Group("dinner", "dinner", _title(world, "dinner"), tuple(n for n in names if n in dinner)))
    by_activity: dict[str, list[str]] = {}
    for c in contacts:
        if c.relationship in ("colleague", "parent"):
            continue
        for a in c.shared_activities or []:
            by_activity.setdefault(a, []).append(c.name)
    ranked = sorted((a for a, ms in by_activity.items() if len(ms) >= 2), key=lambda a: (-len(by_activity[a]), a))
    if ranked:
        a = ranked[0]
        add(
            Group(
                f"pastime-{a.replace(' ', '-')}",
                "pastime",
                _title(world, "pastime", activity=a),
                tuple(by_activity[a]),
                activity=a,
            )
        )
    for i, t in enumerate(trips(world)):
        people = tuple(n for n in names if n in t.companions)
        if len(people) >= 2:
            add(Group(f"trip-{i}", "trip", _title(world, "trip", dest=t.destination), people, trip=i))
    return out


# --- the projection ---------------------------------------------------------------------------------


@dataclass
class Row:
    """One message before ids are assigned; ``sender`` is a contact name or None (the persona)."""

    conv: int
    sender: str | None
    body: str
    at: dt.datetime
    read: bool
    ref: str | None
    world_ref: str
    order: int = 0


@dataclass
class Projection:
    """Everything the seed writes, ids assigned: conversations, members, messages, tapbacks."""

    contacts: list
    conversations: list[dict] = field(default_factory=list)
    members: list[tuple[int, str]] = field(default_factory=list)
    messages: list[Row] = field(default_factory=list)
    tapbacks: list[tuple[int, str | None, str, dt.datetime, str]] = field(default_factory=list)


def _read_flag(world: World, at: dt.datetime, r) -> bool:
    """A contact's seeded group message is read unless it came in the last six hours (then 40%)."""
    return (world.now - at).total_seconds() > 6 * 3600 or r.random() < 0.4


def project(world: World) -> Projection:
    """Compute every row of the database from ``world`` (no I/O); the seed and the hooks share it."""
    contacts = chat_contacts(world)
    by_name = {c.name: c for c in contacts}
    proj = Projection(contacts=contacts)
    msgs = [
        e
        for e in world.of_kind("chat_message")
        if e.status == "done" and e.at <= world.now and e.data.get("contact") in by_name
    ]
    first_at: dict[str, dt.datetime] = {}
    thread: dict[str, str] = {}
    for e in msgs:
        first_at.setdefault(e.data["contact"], e.at)
        thread.setdefault(e.data["contact"], e.data["thread_id"])
    conv_of: dict[str, int] = {}
    for c in contacts:
        if c.name in first_at:
            conv_of[c.name] = len(proj.conversations) + 1
            proj.conversations.append(
                {
                    "id": conv_of[c.name],
                    "kind": "direct",
                    "title": None,
                    "contact": c.name,
                    "created_at": first_at[c.name],
                    "thread_id": thread[c.name],
                    "world_ref": None,
                }
            )
    for e in msgs:
        mine = e.data["sender"] == "me"
        proj.messages.append(
            Row(
                conv_of[e.data["contact"]],
                None if mine else e.data["contact"],
                e.data["text"],
                e.at,
                bool(e.data.get("read", True)),
                e.data.get("ref"),
                e.id,
            )
        )
    for g in groups(world):
        rows = _group_history(world, g)
        if not rows:
            continue
        cid = len(proj.conversations) + 1
        created = rows[0][1] - dt.timedelta(minutes=3)
        proj.conversations.append(
            {
                "id": cid,
                "kind": "group",
                "title": g.title,
                "contact": None,
                "created_at": created,
                "thread_id": None,
                "world_ref": f"seed:group/{g.slug}",
            }
        )
        proj.members += [(cid, n) for n in g.members]
        r = rng(world.seed, f"messaging/group/{g.slug}/read")
        for n, (sender, at, body, ref) in enumerate(rows):
            proj.messages.append(
                Row(
                    cid,
                    sender,
                    body,
                    at,
                    True if sender is None else _read_flag(world, at, r),
                    ref,
                    f"seed:group/{g.slug}/{n}",
                    order=n,
                )
            )
    proj.messages.sort(key=lambda row: (row.at, row.conv, row.order, row.world_ref))
    _tapbacks(world, proj)
    return proj


def _tapbacks(world: World, proj: Projection) -> None:
    """A few tapbacks on direct messages: the contact's on the persona's, the persona's on the contact's."""
    r = rng(world.seed, "messaging/tapbacks")
    n = 0
    following: dict[int, dt.datetime] = {}
    for i in range(len(proj.messages) - 1, -1, -1):
        row = proj.messages[i]
        nxt = following.get(row.conv)
        following[row.conv] = row.at
        if not row.world_ref or row.world_ref.startswith("seed:"):
            continue
        conv = proj.conversations[row.conv - 1]
        who = conv["contact"] if row.sender is None else None
        if r.random() >= _TAPBACK_RATE["contact" if row.sender is None else "me"]:
            continue
        emoji = r.choices(TAPBACKS, weights=_TAPBACK_WEIGHTS)[0]
        at = min(nxt or row.at + dt.timedelta(minutes=2), row.at + dt.timedelta(minutes=r.randint(1, 30)))
        if at > world.now:
            continue
        n += 1
        proj.tapbacks.append((i + 1, who, emoji, at, f"seed:tapback/{n}"))
    proj.tapbacks.sort(key=lambda t: (t[0], t[3], t[4]))


def _at(day: dt.date, hour: int, minute: int) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute))


def _group_history(world: World, g: Group) -> list[tuple[str | None, dt.datetime, str, str | None]]:
    """(sender or None, at, text, ref) of one group's seeded history, in time order, none after now."""
    r = rng(world.seed, f"messaging/group/{g.slug}")
    fmt = Fmt(world.persona)
    contacts = {c.name: c for c in chat_contacts(world)}
    style = {n: contacts[n].messaging_style or "chatty" for n in g.members}
    lines: list[tuple[str | None, dt.datetime, str, str | None]] = []

    def post(start: dt.datetime, said: list[tuple[str | None, str]], ref: str | None = None) -> None:
        at = start
        for k, (who, text) in enumerate(said):
            if k:
                at += dt.timedelta(seconds=r.randint(20, 600))
            if at > world.now or at < world.start:
                return
            lines.append((who, at, text, ref))

    def voice(who: str | None) -> str:
        return "me" if who is None else style[who]

    bookings = [b for b in world.of_kind("restaurant_booking") if b.status == "done" and b.at <= world.now]
    if g.kind == "family":
        day = world.start.date() + dt.timedelta(days=r.randint(1, 6))
        first_day = day
        post(
            _at(day, 19, r.randint(0, 59)),
            [(None, say(world, "group_created", "me", r))]
            + [(n, say(world, "family_reply", style[n], r)) for n in g.members],
        )
        while day <= world.now.date():
            day += dt.timedelta(days=r.randint(6, 14))
            who = r.choice([None, *g.members])
            said = [(who, say(world, "family_checkin", voice(who), r))]
            said += [
                (n, say(world, "family_reply", voice(n), r))
                for n in [None, *g.members]
                if n != who and r.random() < 0.7
            ]
            post(_at(day, r.randint(17, 21), r.randint(0, 59)), said)
        for n in g.members:
            c = contacts[n]
            if not c.birthday:
                continue
            for year in range(world.start.year, world.now.year + 1):
                bday = birthday_in(c.birthday, year)
                if bday <= first_day:
                    continue
                others = [o for o in [None, *g.members] if o != n]
                said = [(o, say(world, "bday_group", voice(o), r, name=_first(n))) for o in others]
                said.append((n, say(world, "bday_group_thanks", style[n], r)))
                post(_at(bday, r.randint(8, 11), r.randint(0, 59)), said)
        outbound = {}
        for f in world.of_kind("flight"):
            if f.data.get("direction") == "outbound":
                outbound.setdefault(f.data.get("trip"), f)
        for i, t in enumerate(trips(world)):
            f = outbound.get(i)
            dep = dt.datetime.fromisoformat(f.data["dep_local"]) if f else None
            ctx = {
                "dest": t.destination,
                "flight": f.data["flight_number"] if f else "",
                "time": fmt.time(dep) if dep else "",
            }
            eve = _at(t.depart - dt.timedelta(days=1), r.randint(18, 21), r.randint(0, 59))
            wishers = [n for n in g.members if r.random() < 0.8] or [g.members[0]]
            said = [(n, say(world, "trip_send_off", style[n], r, **ctx)) for n in wishers]
            said.append(
                (None, say(world, "trip_send_off_reply", "me", r, **ctx) if f else say(world, "pastime_yes", "me", r))
            )
            post(eve, said, ref=f.id if f else None)
    elif g.kind == "dinner":
        members = set(g.members)
        for b in bookings:
            when = reservation_time(world, b)
            # Only meals already eaten: telling the group about an upcoming booking is the agent's task.
            if not members <= set(b.data.get("companions") or []) or when is None or when > world.now:
                continue
            ctx = {
                "restaurant": b.data.get("restaurant", ""),
                "party": b.data.get("party_size", len(members) + 1),
                "day": fmt.weekday(when) if 0 < (when.date() - b.at.date()).days < 7 else fmt.day(when),
                "time": fmt.time(when),
            }
            said = [(None, say(world, "dinner_booked", "me", r, **ctx))]
            said += [(n, say(world, "dinner_in", style[n], r)) for n in g.members]
            post(b.at + dt.timedelta(minutes=r.randint(3, 25)), said, ref=b.id)
            if r.random() < 0.6:
                who = r.choice(g.members)
                post(
                    when + dt.timedelta(hours=2, minutes=r.randint(30, 90)),
                    [(who, say(world, "dinner_after", style[who], r))],
                    ref=b.id,
                )
    elif g.kind == "pastime":
        from builder.world import activity_plans

        plan_words = activity_plans()
        a = g.activity or ""
        day = world.start.date() + dt.timedelta(days=r.randint(2, 9))
        first = True
        while day <= world.now.date():
            who = None if first else r.choice([None, *g.members])
            ctx = {"activity": a, "plan": plan_words.get(a, f"do some {a}"), "day": r.choice(["Saturday", "Sunday"])}
            said = [(None, say(world, "group_created", "me", r))] if first else []
            said.append((who, say(world, "pastime_propose", voice(who), r, **ctx)))
            for n in [None, *g.members]:
                if n != who:
                    said.append((n, say(world, "pastime_yes" if r.random() < 0.75 else "pastime_no", voice(n), r)))
            post(_at(day, r.randint(12, 20), r.randint(0, 59)), said)
            first = False
            day += dt.timedelta(days=r.randint(9, 21))
    elif g.kind == "trip":
        t = trips(world)[g.trip]
        booking = next((b for b in world.of_kind("flight_booking") if b.data.get("trip") == g.trip), None)
        leg = booking.data["itinerary"][0] if booking else None
        if booking and leg:
            dep = dt.datetime.fromisoformat(leg["dep_local"])
            ctx = {
                "flight": leg["flight_number"],
                "airport": leg["from"],
                "time": fmt.time(dep),
                "day": fmt.long_date(dep),
                "dest": t.destination,
            }
            said = [(None, say(world, "group_created", "me", r)), (None, say(world, "trip_plan", "me", r, **ctx))]
            said += [(n, say(world, "trip_plan_reply", style[n], r)) for n in g.members]
            post(booking.at + dt.timedelta(minutes=r.randint(5, 40)), said, ref=booking.id)
    lines.sort(key=lambda x: x[1])
    return lines


# --- contact cards ----------------------------------------------------------------------------------


def contact_card(world: World, name: str) -> dict:
    """The reply engine's card of contact ``name`` (``builder.world.cards.contact_card``), a JSON-able dict."""
    return world_card(world, name)


# --- the database -----------------------------------------------------------------------------------


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as Parley's database for ``world`` and return it.

    Written through :mod:`builder.dbfile` (journal_mode=DELETE, VACUUMed), so the bytes depend only
    on the world. Raises ``FileExistsError`` if ``path`` exists.
    """
    p = world.persona
    ident = p.identity
    proj = project(world)
    creds = credentials(world)
    engine = dbfile.create(path, m.Base.metadata)
    contact_id = {c.name: i for i, c in enumerate(proj.contacts, start=1)}
    with OrmSession(engine) as db:
        db.add(
            m.User(
                id=1,
                username=creds["username"],
                full_name=ident.name,
                phone=ident.phone or "",
                email=ident.email or "",
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, "messaging")),
            )
        )
        db.add(
            m.Session(
                token=creds["session_token"],
                user_id=1,
                created_at=world.now.isoformat(),
                expires_at=add_months(world.now, 12).isoformat(),
            )
        )
        for c in proj.contacts:
            db.add(
                m.Contact(
                    id=contact_id[c.name],
                    name=c.name,
                    phone=c.phone,
                    email=c.email,
                    relationship=c.relationship,
                    messaging_style=c.messaging_style,
                    closeness=c.closeness,
                    birthday=c.birthday.isoformat() if c.birthday else None,
                    city=c.address.city if c.address else None,
                    shared_activities=json.dumps(list(c.shared_activities or []), ensure_ascii=False),
                    card_json=json.dumps(contact_card(world, c.name), ensure_ascii=False, sort_keys=True),
                )
            )
        db.flush()
        for conv in proj.conversations:
            db.add(
                m.Conversation(
                    id=conv["id"],
                    kind=conv["kind"],
                    title=conv["title"],
                    contact_id=contact_id[conv["contact"]] if conv["contact"] else None,
                    created_at=conv["created_at"].isoformat(),
                    thread_id=conv["thread_id"],
                    world_ref=conv["world_ref"] or conv["thread_id"],
                )
            )
        db.flush()
        for cid, name in proj.members:
            db.add(m.Member(conversation_id=cid, contact_id=contact_id[name]))
        db.flush()
        for i, row in enumerate(proj.messages, start=1):
            at = row.at.isoformat()
            db.add(
                m.Message(
                    id=i,
                    conversation_id=row.conv,
                    sender_id=contact_id[row.sender] if row.sender else None,
                    body=row.body,
                    sent_at=at,
                    deliver_at=at,
                    read_at=at if row.sender and row.read else None,
                    ref=row.ref,
                    world_ref=row.world_ref,
                )
            )
        db.flush()
        for k, (mid, who, emoji, at, ref) in enumerate(proj.tapbacks, start=1):
            db.add(
                m.Reaction(
                    id=k,
                    message_id=mid,
                    contact_id=contact_id[who] if who else None,
                    emoji=emoji,
                    created_at=at.isoformat(),
                    world_ref=ref,
                )
            )
        for key, value in [
            ("as_of", p.as_of.isoformat()),
            ("now", world.now.isoformat()),
            ("timezone", p.timezone),
            ("locale", p.bank.replace("_", "-")),
            ("seed", str(world.seed)),
            ("user_name", ident.name),
        ]:
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path


# --- layer hooks ------------------------------------------------------------------------------------


def bookmarks(world: World) -> list[dict]:
    """Parley on the Firefox toolbar: ``[{"title", "url", "folder"}]``."""
    return [{"title": "Parley", "url": f"http://{DOMAIN}/", "folder": "toolbar"}]


def visits(world: World) -> list[dict]:
    """History visits to Parley around the world's chat sessions (stream ``messaging/visits``).

    A session is a run of one conversation's messages with gaps under 30 minutes; about one in
    five gets a visit to the conversation a minute or two after it starts (typed the first time,
    a link after). Returns ``[{"url", "title", "at", "transition"}]`` in time order, none after now.
    """
    proj = project(world)
    r = rng(world.seed, "messaging/visits")
    last: dict[int, dt.datetime] = {}
    out: list[dict] = []
    titles = {c["id"]: c["title"] or c["contact"] for c in proj.conversations}
    for row in proj.messages:
        prev = last.get(row.conv)
        last[row.conv] = row.at
        if prev is not None and (row.at - prev) < dt.timedelta(minutes=30):
            continue
        if r.random() >= 0.2:
            continue
        at = row.at + dt.timedelta(seconds=r.randint(20, 150))
        if at > world.now:
            continue
        out.append(
            {
                "url": f"http://{DOMAIN}/c/{row.conv}",
                "title": f"{titles[row.conv]} · Parley",
                "at": at,
                "transition": "typed" if not out else "link",
            }
        )
    return out
