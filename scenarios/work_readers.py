"""Page helpers of the independent readers (:mod:`builder.tasks.reader`) of the scenarios homed on Guildline, Huddle
and Cairn, for the other apps those tasks read: the calendar (agenda, event pages), the airline (My Trips, a trip's
flights) and Parley (the conversation list, a conversation). Each reads what the persona sees on the page, signed
in; dates and times as the page writes them in the persona's language (:func:`parse_day`, :func:`parse_clock`).
No ``SCENARIOS`` here: this module only serves the readers of ``scenarios/pairs``, ``scenarios/recaps``, and the
checks of their names (:func:`person_forms`)."""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import parse_qs, urlsplit

from builder.tasks import answers as A
from builder.tasks.reader import See, Unreadable, visible_text
from builder.tasks.dates import MONTH_NAMES

CALENDAR, AIRLINE, PARLEY = "calendar", "airline", "messaging"


def known_names(world) -> set[str]:
    """Every person's name the persona's desktop shows: the spec's contacts and colleagues, the Guildline profile's
    connections, invitations and other people, work chat's senders and the calendar's guests."""
    p = world.persona
    out = {c.name for c in p.contacts} | set(p.work.colleagues if p.work else ())
    for e in world.of_kind("career_profile"):
        out |= {x["name"] for x in e.data.get("connections", []) + e.data.get("people", [])}
    out |= {e.data["name"] for e in world.of_kind("network_invitation") if e.data.get("name")}
    out |= {e.data["sender"] for e in world.of_kind("work_chat_message")}
    for e in world.of_kind("calendar_event"):
        out |= {a["name"] for a in e.data.get("attendees") or [] if a.get("name")}
    return out


def person_forms(world, name: str) -> list[str]:
    """The spellings an answer may give ``name`` in: the full name, and the first name when no other person the
    desktop shows holds it (:func:`builder.tasks.answers.person_among`)."""
    return A.person_among(name, known_names(world))


_WORD = re.compile(r"[^\W\d_]+")
_CLOCK = re.compile(r"(\d{1,2})[:.](\d{2})(?:\s*(AM|PM|am|pm|a\.m\.|p\.m\.))?")


def parse_day(text: str, year: int | None = None) -> dt.date:
    """The day a page writes in ``text``: "Sat, Sep 12, 2026", "Di., 14. Juli 2026", "Fri, Nov 13 2026",
    "13. Nov.", "Nov 13" (``year`` when the text has none). Raises :class:`Unreadable` when it names no day."""
    month = next((MONTH_NAMES[w.lower()] for w in _WORD.findall(text) if w.lower() in MONTH_NAMES), None)
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    years = [n for n in numbers if n >= 1000]
    days = [n for n in numbers if 1 <= n <= 31]
    if month is None or not days or (not years and year is None):
        raise Unreadable(f"no day in {text!r}")
    return dt.date(years[0] if years else year, month, days[0])


def parse_clock(text: str) -> list[dt.time]:
    """Every time of day in ``text`` ("11:00 AM – 12:00 PM", "09:30 – 09:45", "5:30 PM PDT"), in order."""
    out = []
    for h, m, half in _CLOCK.findall(text):
        hour = int(h) % 12 + (12 if half and half.lower().startswith("p") else 0) if half else int(h)
        out.append(dt.time(hour, int(m)))
    return out


def clock_label(t: dt.time) -> str:
    """A time as an answer writes it: ``9:30 AM``."""
    return f"{t.hour % 12 or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def day_label(day: dt.date) -> str:
    """A day as an answer writes it: ``November 13``."""
    return f"{day:%B} {day.day}"


# --- the calendar -----------------------------------------------------------------------------------------------


def agenda(see: See, day: dt.date) -> list[dict]:
    """The calendar's agenda of the two weeks from ``day``: ``{day, title, start, end (naive local datetimes, None
    for an all-day item), location, href}`` in the page's order."""
    page = see.page(CALENDAR, "/agenda", {"date": day.isoformat()})
    out = []
    for sec in page.xpath("//section[@data-date]"):
        d = dt.date.fromisoformat(sec.get("data-date"))
        for li in sec.xpath('.//li[@data-testid="agenda-item"]'):
            when = li.xpath('./span[contains(@class, "when")]')
            times = parse_clock(visible_text(when[0])) if when else []
            where = li.xpath('./span[contains(@class, "where")]')
            link = li.xpath('.//a[contains(@class, "what")]')
            start = dt.datetime.combine(d, times[0]) if len(times) == 2 else None
            end = dt.datetime.combine(d, times[1]) if len(times) == 2 else None
            if end is not None and end <= start:
                end += dt.timedelta(days=1)
            out.append(
                {
                    "day": d,
                    "title": li.get("data-title"),
                    "start": start,
                    "end": end,
                    "location": visible_text(where[0]) if where else "",
                    "href": link[0].get("href") if link else None,
                }
            )
    return out


def event(see: See, href: str) -> dict:
    """An event's page (``/events/<id>?occ=...``): ``{title, when (its line as shown), start, end (times of day),
    location, guests: [names, "(you)" left out], me_invited (whether the persona is a guest), count (the guests
    heading's number)}``."""
    parts = urlsplit(href)
    page = see.page(CALENDAR, parts.path, {k: v[0] for k, v in parse_qs(parts.query).items()})
    title = page.xpath('//*[@data-testid="event-title"]')
    if not title:
        raise Unreadable(f"{href} shows no event")
    when = visible_text(page.xpath('//*[@data-testid="event-when"]')[0])
    times = parse_clock(when)
    where = page.xpath('//*[@data-testid="event-location"]')
    guests, me = [], False
    for li in page.xpath('//li[@data-testid="guest"]'):
        name = li.xpath('./span[contains(@class, "name")]')
        tags = name[0].xpath('./span[contains(@class, "tag")]') if name else []
        text = visible_text(name[0]) if name else ""
        for t in tags:
            text = text.removesuffix(visible_text(t)).strip()
        if text.endswith("(you)"):
            me = True
            continue
        guests.append(text)
    head = page.xpath('//section[@data-testid="guests"]/h3')
    count = int(re.match(r"\d+", visible_text(head[0])).group(0)) if head else 0
    return {
        "title": visible_text(title[0]),
        "when": when,
        "start": times[0] if times else None,
        "end": times[1] if len(times) > 1 else None,
        "location": visible_text(where[0]) if where else "",
        "guests": guests,
        "me_invited": me,
        "count": count,
    }


# --- the airline ------------------------------------------------------------------------------------------------


def trips(see: See, tab: str) -> list[str]:
    """The confirmation codes of My Trips' ``tab`` (``upcoming``, ``past``, ``cancelled``), in the page's order."""
    page = see.page(AIRLINE, "/", {} if tab == "upcoming" else {"tab": tab})
    return [li.get("data-pnr") for li in page.xpath(f'//ul[@data-testid="trips-{tab}"]/li[@data-testid="trip"]')]


def trip(see: See, pnr: str) -> dict:
    """A trip's page: ``{pnr, outbound, return}``, each journey a list of flights ``{flight, origin, destination,
    dep, arr (naive local datetimes at each airport)}`` in order."""
    page = see.page(AIRLINE, f"/trips/{pnr}")
    out: dict = {"pnr": pnr, "outbound": [], "return": []}
    for direction in ("outbound", "return"):
        for seg in page.xpath(f'//section[@data-testid="journey-{direction}"]//div[@data-testid="segment"]'):
            ends = seg.xpath('./div[contains(@class, "ma-flight-end")]')
            legs = []
            for end in ends[:2]:
                code = visible_text(end.xpath('./span[contains(@class, "ma-code")]')[0])
                time = parse_clock(visible_text(end.xpath('./span[contains(@class, "ma-time")]')[0]))
                day = parse_day(visible_text(end.xpath('./span[contains(@class, "ma-muted")]')[0]))
                legs.append((code, dt.datetime.combine(day, time[0])))
            out[direction].append(
                {
                    "flight": seg.get("data-flight"),
                    "origin": legs[0][0],
                    "destination": legs[1][0],
                    "dep": legs[0][1],
                    "arr": legs[1][1],
                }
            )
    return out


# --- Parley -----------------------------------------------------------------------------------------------------


def conversations(see: See) -> list[dict]:
    """Parley's conversation list, most recent first: ``{id, name, kind ("direct" or "group")}``."""
    page = see.page(PARLEY, "/")
    return [
        {"id": a.get("data-id"), "name": a.get("data-name"), "kind": a.get("data-kind")}
        for a in page.xpath('//a[@data-testid="conversation"]')
    ]


def last_message_at(see: See, conversation: str) -> dt.datetime | None:
    """When the newest message of a Parley conversation was sent (naive local), or None when it has none."""
    page = see.page(PARLEY, f"/c/{conversation}")
    times = page.xpath('//section[@data-testid="thread"]//div[@data-testid="message"]//time/@datetime')
    return max((dt.datetime.fromisoformat(t) for t in times), default=None)
