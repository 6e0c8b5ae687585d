"""World -> rows of the Daybook calendar database (``calendar.sqlite``).

Every ``calendar_event`` of the world is projected, past and scheduled alike: single events as one
row each, and each world ``series`` (a recurring meeting, a weekly workout, a birthday) as ONE row
with an RFC 5545 RRULE plus EXDATEs and overrides (:mod:`apps.calendar.series`). Times keep their
own zone: a flight starts in its origin airport's zone and ends in its destination's, a hotel stay
runs in the hotel's zone, everything else in the persona's (see :mod:`apps.calendar.models`).

RSVP: the persona organizes (or owns) meetings it organizes and every event without an organizer,
and its row is ACCEPTED; meetings and life events organized by someone else are invitations. The
persona has been going to the recurring ones and to those already past, so its row is ACCEPTED
there; an upcoming one-off invitation still waits for an answer (NEEDS-ACTION: the world records
none). Organizers are ACCEPTED; companions of a booking or trip are ACCEPTED (they are in the
party); other guests of an upcoming one-off are NEEDS-ACTION, of everything else ACCEPTED.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile
from builder.dates import add_months
from builder.rng import rng
from builder.world import World
from builder.reference.airports import airport_tz
from builder.reference.locale import conventions
from builder.reference.locale import week_start as locale_week_start

from . import models as m
from .series import Occurrence, derive

DOMAIN = "daybook.test"
#: Calendar colours (Daybook's palette) and display names, in list order.
CALENDARS = {"personal": ("Personal", "#3f4bb8"), "work": ("Work", "#0d8a6a")}
#: Default reminders per source: (minutes before start, method). All-day: before local midnight.
REMINDERS = {
    "meeting": [(10, "popup")],
    "appointment": [(1440, "email"), (60, "popup")],
    "flight": [(180, "popup")],
    "hotel": [(60, "popup")],
    "restaurant": [(60, "popup")],
    "exercise": [(30, "popup")],
    "birthday": [(900, "popup")],
    "life_event": [(60, "popup")],
    "trip": [(1440, "popup")],
    "holiday": [],
}
UTC = dt.timezone.utc


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (derived from the seed, see builder.appkit)."""
    return appkit.credentials(world, "calendar")


@lru_cache(maxsize=None)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def utc_text(when: dt.datetime) -> str:
    """An aware datetime as ``YYYY-MM-DDTHH:MM:SSZ``."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def zone_of(aware: dt.datetime, candidates: list[str]) -> str:
    """The first IANA zone of ``candidates`` whose offset at ``aware`` equals ``aware``'s own offset;
    an ``Etc/GMT±N`` zone for whole-hour offsets none of them has, else ``UTC``."""
    for name in candidates:
        if aware.astimezone(_zone(name)).utcoffset() == aware.utcoffset():
            return name
    off = aware.utcoffset() or dt.timedelta(0)
    hours, rest = divmod(int(off.total_seconds()), 3600)
    if rest == 0 and off:
        return f"Etc/GMT{'-' if hours > 0 else '+'}{abs(hours)}"
    return "UTC"


def local_text(aware: dt.datetime, tz: str) -> str:
    """``aware`` as wall time ``YYYY-MM-DDTHH:MM:SS`` in zone ``tz``."""
    return aware.astimezone(_zone(tz)).strftime("%Y-%m-%dT%H:%M:%S")


def event_zones(world: World, e) -> tuple[str, str]:
    """(start zone, end zone) of a world ``calendar_event``: airports for flights, the trip's airport
    for hotel stays, the persona's zone otherwise (checked against the event's own offsets)."""
    home = world.persona.timezone or "UTC"
    d = e.data
    start, end = dt.datetime.fromisoformat(d["start"]), dt.datetime.fromisoformat(d["end"])
    prefer_start, prefer_end = [home], [home]
    if d["source"] == "flight" and d.get("ref"):
        flight = _by_id(world).get(d["ref"])
        if flight is not None:
            fd = flight.data
            for code, prefer in (
                (fd.get("from") or fd.get("origin"), prefer_start),
                (fd.get("to") or fd.get("destination"), prefer_end),
            ):
                z = airport_tz(code)
                if z is not None:
                    prefer.insert(0, z.key)
    trip_zones = [z.key for t in trips_of(world) if (z := airport_tz(t.airport)) is not None]
    return zone_of(start, prefer_start + trip_zones), zone_of(end, prefer_end + trip_zones)


def trips_of(world: World) -> list:
    """The persona's spec trips (see :func:`builder.world.calendar.trips`)."""
    travel = world.persona.travel
    return list(travel.trips or []) if travel else []


_BY_ID: dict[int, dict] = {}


def _by_id(world: World) -> dict:
    key = id(world)
    if key not in _BY_ID:
        _BY_ID.clear()
        _BY_ID[key] = {e.id: e for e in world.events}
    return _BY_ID[key]


def self_emails(world: World) -> set[str]:
    """The persona's addresses (personal and work)."""
    p = world.persona
    return {a for a in (p.identity.email, p.work.email if p.work else None) if a}


def uid_of(e, series: str | None = None) -> str:
    """The iCalendar UID of a world event (or of its series): mail's ``invite.ics`` scheme,
    ``<series or event id>@<organizer's mail domain>``; ``<id>@daybook.test`` without organizer. A booked
    flight leg or stay keeps the UID the world gave it (``data["uid"]``, the one its confirmation's .ics carries)."""
    if not series and e.data.get("uid"):
        return e.data["uid"]
    org = (e.data.get("organizer") or {}).get("email")
    ident = series or e.data.get("series") or e.id
    if org and "@" in org:
        return f"{ident}@{org.split('@', 1)[1]}"
    return f"{ident}@{DOMAIN}"


def invitation_ids(world: World) -> dict[str, str]:
    """calendar_event id -> Message-ID of the invitation mail that refers to it (the world's mail)."""
    out = {}
    for mail in world.of_kind("email"):
        d = mail.data
        if "invitations" in (d.get("labels") or []) and d.get("ref") and d.get("in_reply_to") is None:
            out.setdefault(d["ref"], d["message_id"])
    return out


def is_invitation(world: World, e) -> bool:
    """Whether the persona was invited to ``e`` by someone else (meetings and life events)."""
    org = e.data.get("organizer")
    return bool(org and org.get("email") and org["email"] not in self_emails(world))


def _awaiting(world: World, e) -> bool:
    """Whether answers to ``e`` are still open: an upcoming event that is not part of a series."""
    return e.at > world.now and not e.data.get("series")


# A guest's answer to the persona's own event, as the world planted it (planted.json "own_event" replies).
_PARTSTAT = {"yes": "ACCEPTED", "no": "DECLINED", "maybe": "TENTATIVE", "pending": "NEEDS-ACTION"}


def _answers(world: World, e) -> dict[str, str]:
    """Guest name -> PARTSTAT (RFC 5545 3.2.12) for the persona's own event ``e``; empty for any other event."""
    for item in world.planted:
        if item.get("kind") == "own_event" and item.get("event_id") == e.id:
            return {name: _PARTSTAT.get(answer, "NEEDS-ACTION") for name, answer in (item.get("replies") or {}).items()}
    return {}


def _attendees(world: World, e) -> list[dict]:
    d = e.data
    mine = self_emails(world)
    open_ = _awaiting(world, e)
    answers = _answers(world, e)
    org = d.get("organizer") or None
    rows, seen = [], set()
    if org and org.get("email") not in mine:
        rows.append(
            {"name": org["name"], "email": org.get("email"), "role": "organizer", "partstat": "ACCEPTED", "is_self": 0}
        )
        seen.add(org.get("email") or org["name"])
    for a in d.get("attendees") or []:
        key = a.get("email") or a["name"]
        if key in seen:
            continue
        seen.add(key)
        me = a.get("email") in mine or a["name"] == world.persona.identity.name
        if me:
            invited = is_invitation(world, e)
            rows.append(
                {
                    "name": a["name"],
                    "email": a.get("email"),
                    "role": "guest" if invited else "organizer",
                    "partstat": "NEEDS-ACTION" if invited and open_ else "ACCEPTED",
                    "is_self": 1,
                }
            )
        else:
            companion = d["source"] in ("restaurant", "trip")
            partstat = answers.get(a["name"]) or ("ACCEPTED" if companion or not open_ else "NEEDS-ACTION")
            rows.append(
                {"name": a["name"], "email": a.get("email"), "role": "guest", "partstat": partstat, "is_self": 0}
            )
    if rows and not any(r["is_self"] for r in rows):
        p = world.persona
        email = p.work.email if d["calendar"] == "work" and p.work and p.work.email else p.identity.email
        invited = is_invitation(world, e)
        rows.insert(
            0 if not invited else 1,
            {
                "name": p.identity.name,
                "email": email,
                "role": "guest" if invited else "organizer",
                "partstat": "NEEDS-ACTION" if invited and open_ else "ACCEPTED",
                "is_self": 1,
            },
        )
    return rows


def _add_children(db: OrmSession, event_id: str, world: World, e) -> None:
    for i, a in enumerate(_attendees(world, e)):
        db.add(m.Attendee(event_id=event_id, position=i, **a))
    for minutes, method in REMINDERS.get(e.data["source"], [(30, "popup")]):
        db.add(m.Reminder(event_id=event_id, minutes=minutes, method=method))


def _organizer(world: World, e) -> tuple[str | None, str | None, int]:
    org = e.data.get("organizer")
    if org and org.get("email") not in self_emails(world):
        return org["name"], org.get("email"), 0
    p = world.persona
    if org:
        return org["name"], org.get("email"), 1
    return p.identity.name, p.identity.email, 1


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as the calendar database for ``world`` and return it.

    The file is written in journal_mode=DELETE and VACUUMed so its bytes depend only on the world.
    Raises ``FileExistsError`` if ``path`` exists.
    """
    p = world.persona
    ident = p.identity
    home = p.timezone or "UTC"
    engine = dbfile.create(path, m.Base.metadata)
    creds = credentials(world)
    created = world.start.isoformat()
    invites = invitation_ids(world)
    with OrmSession(engine) as db:
        db.add(
            m.User(
                id=1,
                username=creds["username"],
                full_name=ident.name,
                email=ident.email,
                work_email=p.work.email if p.work else None,
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, "calendar")),
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
        events = world.of_kind("calendar_event")
        used = sorted(
            {e.data["calendar"] for e in events} | {"personal"},
            key=lambda c: (c not in CALENDARS, list(CALENDARS).index(c) if c in CALENDARS else 0, c),
        )
        for i, cal in enumerate(used):
            name, color = CALENDARS.get(cal, (cal.replace("_", " ").capitalize(), "#8e5bb5"))
            owner = p.work.email if cal == "work" and p.work and p.work.email else ident.email
            db.add(m.Calendar(id=cal, name=name, color=color, owner_email=owner, position=i, hidden=0))

        groups: dict[str, list] = defaultdict(list)
        singles = []
        for e in events:
            (groups[e.data["series"]] if e.data.get("series") else singles).append(e)

        def single_row(e, event_id: str | None = None, series: str | None = None) -> None:
            d = e.data
            start, end = dt.datetime.fromisoformat(d["start"]), dt.datetime.fromisoformat(d["end"])
            if d["all_day"]:
                s_tz = e_tz = home
                s_loc, e_loc = local_text(start, home)[:10], local_text(end, home)[:10]
            else:
                s_tz, e_tz = event_zones(world, e)
                s_loc, e_loc = local_text(start, s_tz), local_text(end, e_tz)
            name, email, mine = _organizer(world, e)
            ident_ = event_id or e.id
            db.add(
                m.Event(
                    id=ident_,
                    uid=uid_of(e) if not series else f"{e.id}@{DOMAIN}",
                    calendar_id=d["calendar"],
                    title=d["title"],
                    description=d.get("description") or "",
                    location=d.get("location") or "",
                    all_day=int(bool(d["all_day"])),
                    start_local=s_loc,
                    start_tz=s_tz,
                    end_local=e_loc,
                    end_tz=e_tz,
                    start_utc=utc_text(start),
                    end_utc=utc_text(end),
                    last_utc=utc_text(end),
                    rrule=None,
                    exdates="",
                    organizer_name=name,
                    organizer_email=email,
                    organizer_is_self=mine,
                    source=d["source"],
                    ref=d.get("ref"),
                    invite_message_id=invites.get(e.id),
                    sequence=0,
                    world_ref=e.id,
                    created_at=created,
                    edited_at=None,
                )
            )
            _add_children(db, ident_, world, e)

        for e in singles:
            single_row(e)

        for sid in sorted(groups):
            occ_events = groups[sid]
            first = occ_events[0]
            fd = first.data
            tz = home
            zone = _zone(tz)
            all_day = bool(fd["all_day"])
            occ = []
            for e in occ_events:
                s = dt.datetime.fromisoformat(e.data["start"]).astimezone(zone).replace(tzinfo=None)
                en = dt.datetime.fromisoformat(e.data["end"]).astimezone(zone).replace(tzinfo=None)
                occ.append(
                    Occurrence(
                        start=s,
                        end=en,
                        title=e.data["title"],
                        location=e.data.get("location") or "",
                        description=e.data.get("description") or "",
                        world_id=e.id,
                    )
                )

            def until(rule_start: dt.datetime) -> str:
                if all_day:
                    return rule_start.strftime("%Y%m%d")
                return rule_start.replace(tzinfo=zone).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")

            s = derive(occ, until)
            fmt = "%Y-%m-%d" if all_day else "%Y-%m-%dT%H:%M:%S"
            dtend = s.dtstart + s.duration
            last_occ = max(occ, key=lambda o: o.end)
            name, email, mine = _organizer(world, first)
            invite = next((invites[e.id] for e in occ_events if e.id in invites), None)
            db.add(
                m.Event(
                    id=sid,
                    uid=uid_of(first, sid),
                    calendar_id=fd["calendar"],
                    title=s.title,
                    description=s.description,
                    location=s.location,
                    all_day=int(all_day),
                    start_local=s.dtstart.strftime(fmt),
                    start_tz=tz,
                    end_local=dtend.strftime(fmt),
                    end_tz=tz,
                    start_utc=utc_text(s.dtstart.replace(tzinfo=zone)),
                    end_utc=utc_text(dtend.replace(tzinfo=zone)),
                    last_utc=utc_text(last_occ.end.replace(tzinfo=zone)),
                    rrule=s.rrule,
                    exdates=",".join(x.strftime("%Y%m%d" if all_day else "%Y%m%dT%H%M%S") for x in s.exdates),
                    organizer_name=name,
                    organizer_email=email,
                    organizer_is_self=mine,
                    source=fd["source"],
                    ref=fd.get("ref"),
                    invite_message_id=invite,
                    sequence=0,
                    world_ref=sid,
                    created_at=created,
                    edited_at=None,
                )
            )
            _add_children(db, sid, world, first)
            for rid, o in s.overrides:
                db.add(
                    m.Override(
                        event_id=sid,
                        recurrence_id=rid.strftime(fmt),
                        start_local=o.start.strftime(fmt),
                        end_local=o.end.strftime(fmt),
                        title=o.title if o.title != s.title else None,
                        location=o.location if o.location != s.location else None,
                        description=o.description if o.description != s.description else None,
                        cancelled=0,
                        world_ref=o.world_id,
                        edited_at=None,
                    )
                )
            by_id = {e.id: e for e in occ_events}
            for o in s.rdates:  # occurrences the rule cannot make: their own rows, tied to the series by title
                single_row(by_id[o.world_id], event_id=o.world_id, series=sid)

        for key, value in [
            ("as_of", p.as_of.isoformat()),
            ("now", world.now.isoformat()),
            ("timezone", home),
            ("locale", p.bank.replace("_", "-")),
            ("week_start", conventions(p.bank)["week_start"]),
            ("history_start", world.start.isoformat()),
            ("horizon_end", world.end.isoformat()),
        ]:
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path


def bookmarks(world: World) -> list[dict]:
    """Daybook on the bookmarks toolbar: ``[{"title", "url", "folder"}]``."""
    return [{"title": "Daybook", "url": f"http://{DOMAIN}/", "folder": "toolbar"}]


def week_start(world: World, day: dt.date) -> dt.date:
    """The first day of ``day``'s week in the persona's locale (Sunday for en_US, else Monday)."""
    return locale_week_start(day, world.persona.bank)


def visits(world: World) -> list[dict]:
    """History visits from the stream ``calendar/visits``: the week view on most workday mornings
    (8:00-9:20 local, typed or from the bookmark) and the event page of a one-off meeting 5-25
    minutes before it starts. ``at`` is naive local time; only visits up to the world's now."""
    r = rng(world.seed, "calendar/visits")
    out = []
    day = world.start.date()
    while day <= world.now.date():
        if day.weekday() < 5 and r.random() < 0.6:
            at = dt.datetime.combine(day, dt.time(8, 0)) + dt.timedelta(minutes=r.randint(0, 80))
            ws = week_start(world, day)
            out.append(
                {
                    "url": f"http://{DOMAIN}/week?date={ws.isoformat()}",
                    "title": f"Week of {ws:%B} {ws.day}, {ws.year} - Daybook",
                    "at": at,
                    "transition": r.choice(["typed", "bookmark"]),
                }
            )
        day += dt.timedelta(days=1)
    for e in world.of_kind("calendar_event"):
        d = e.data
        if d["source"] != "meeting" or d.get("series") or e.at > world.now:
            continue
        if r.random() < 0.7:
            out.append(
                {
                    "url": f"http://{DOMAIN}/events/{e.id}",
                    "title": f"{d['title']} - Daybook",
                    "at": e.at - dt.timedelta(minutes=r.randint(5, 25)),
                    "transition": "link",
                }
            )
    return [v for v in out if v["at"] <= world.now]
