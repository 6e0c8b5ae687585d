"""Independent readers of Daybook's own answer tasks (:mod:`builder.tasks.reader`), and the helpers the scenarios
homed in Daybook read its pages with: the week view (``/week?date=``, each event a chip with its title, local
start and end and its calendar's colour), the calendars in the side rail and an event's own page
(``/events/<id>``: where, which calendar, its reminders), as the persona sees them signed in; never the world or
the database."""

from __future__ import annotations

import datetime as dt
import re

from builder.tasks.reader import Reading, See, Unreadable, reader, visible_text
from builder.tasks.dates import clock_text

APP = "calendar"

#: Travel entries by their titles (English and German): a flight, a hotel stay, a trip's all-day span.
FLIGHT = re.compile(r"^(Flight|Flug) [A-Z]{2} ?\d+")
HOTEL = re.compile(r"^(Stay at |Hotel: )")
TRIP = re.compile(r"^(Trip to |Reise nach )")


def calendars(see: See) -> dict[str, str]:
    """The colour of each calendar the side rail lists -> its name (``{"#3f4bb8": "Personal", ...}``)."""
    page = see.page(APP, "/week")
    out = {}
    for b in page.xpath('//button[starts-with(@data-testid, "calendar-")]'):
        sw = b.xpath('./span[@class="dbk-check"]/@style')
        color = re.search(r"border-color:\s*(#[0-9a-fA-F]{3,8})", sw[0]) if sw else None
        if color:
            out[color.group(1).lower()] = visible_text(b).strip("✓ ").strip()
    if not out:
        raise Unreadable("Daybook's side rail lists no calendars")
    return out


def _when(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s) if "T" in s else dt.datetime.combine(dt.date.fromisoformat(s), dt.time())


def week(see: See, day: dt.date) -> list[dict]:
    """The events the week view shows for the week of ``day``: each ``{key, event, occ, title, start, end (naive
    local datetimes), all_day, banner, calendar, location, conflict, series, pending, declined}`` (``banner``: the
    all-day row, which also holds stays of a day or more; ``series``: an occurrence of a repeating event)."""
    page = see.page(APP, "/week", {"date": day.isoformat()})
    colors = calendars(see)
    out = []
    for c in page.xpath('//a[@data-testid="event-chip"]'):
        style = c.get("style") or ""
        color = re.search(r"(?:background|--c):\s*(#[0-9a-fA-F]{3,8})", style)
        key = c.get("data-key")
        event, _, occ = key.partition("|")
        title = c.get("data-title")
        location = ""
        tip = c.get("title") or ""
        if tip.startswith(title + ", "):
            rest = tip[len(title) + 2 :]
            parts = rest.split(", ", 1)
            location = parts[1] if len(parts) > 1 else ""
        cls = c.get("class") or ""
        out.append(
            {
                "key": key,
                "event": event,
                "occ": occ or None,
                "title": title,
                "start": _when(c.get("data-start")),
                "end": _when(c.get("data-end")),
                "all_day": "T" not in c.get("data-start"),
                "banner": c.get("data-kind") == "banner",
                "calendar": colors.get(color.group(1).lower(), "") if color else "",
                "location": location,
                "conflict": c.get("data-conflict") == "1",
                "series": bool(occ),
                "pending": " pending" in f" {cls}",
                "declined": " declined" in f" {cls}",
            }
        )
    return out


def between(see: See, first: dt.date, last: dt.date) -> list[dict]:
    """Every event that touches the days ``first``..``last`` (both included), by start: the week views covering
    them, each event once."""
    seen: dict[str, dict] = {}
    day = first
    while day <= last + dt.timedelta(days=6):
        for o in week(see, day):
            if o["key"] not in seen and o["start"].date() <= last and o["end"] > dt.datetime.combine(first, dt.time()):
                seen[o["key"]] = o
        day += dt.timedelta(days=7)
    return sorted(seen.values(), key=lambda o: (o["start"], o["title"]))


def detail(see: See, o: dict) -> dict:
    """An event's own page (its occurrence's): ``{title, when, location, calendar, reminders, description}`` as
    shown."""
    page = see.page(APP, f"/events/{o['event']}", {"occ": o["occ"]} if o.get("occ") else None)

    def one(testid: str) -> str:
        n = page.xpath(f'//*[@data-testid="{testid}"]')
        return visible_text(n[0]) if n else ""

    return {
        "title": one("event-title"),
        "when": one("event-when"),
        "location": one("event-location"),
        "calendar": one("event-calendar"),
        "reminders": one("event-reminders"),
        "description": one("event-description"),
    }


def is_travel(o: dict) -> bool:
    """A flight, a hotel stay or a trip's span, by its title."""
    return bool(FLIGHT.match(o["title"]) or HOTEL.match(o["title"]) or TRIP.match(o["title"]))


def is_appointment(see: See, o: dict) -> bool:
    """A one-off timed event whose page sets an emailed reminder the day before: how Daybook keeps appointments
    (doctor, dentist, haircut, eye exam)."""
    if o["banner"] or o["series"] or is_travel(o):
        return False
    return "(email)" in detail(see, o)["reminders"]


def is_meeting(o: dict) -> bool:
    """A timed event of the Work calendar that is not travel and not declined."""
    return o["calendar"] == "Work" and not o["banner"] and not is_travel(o) and not o["declined"]


@reader(unique=True)
def next_dentist(see: See, given: dict) -> Reading:
    """The first dentist's appointment after now (its title or place names a dentist); ``margin``: the days to the
    one after it."""
    today = see.now.date()
    found: list[dict] = []
    for w in range(0, 53):
        start = today + dt.timedelta(days=7 * w)
        for o in sorted(week(see, start), key=lambda o: o["start"]):
            text = f"{o['title']} {o['location']}".lower()
            if o["start"] > see.now and not o["banner"] and ("dent" in text or "zahn" in text):
                if o["key"] not in {f["key"] for f in found}:
                    found.append(o)
        if len(found) >= 2:
            break
    if not found:
        raise Unreadable("no dentist appointment on the calendar in the coming year")
    o = found[0]
    margin = (found[1]["start"] - o["start"]).total_seconds() / 86400 if len(found) > 1 else 365.0
    return Reading(
        values={"date": o["start"].date().isoformat(), "time": clock_text(o["start"]), "place": o["location"]},
        steps=[f"{o['title']} {o['start']:%Y-%m-%d %H:%M} at {o['location']}"]
        + ([f"the one after: {found[1]['start']:%Y-%m-%d}"] if len(found) > 1 else []),
        margin=margin,
    )


@reader("from", "to")
def meetings_last_week(see: See, given: dict) -> Reading:
    first, last = dt.date.fromisoformat(given["from"]), dt.date.fromisoformat(given["to"])
    met = [o for o in between(see, first, last) if first <= o["start"].date() <= last and is_meeting(o)]
    return Reading(
        values={"count": f"{len(met)} meeting{'' if len(met) == 1 else 's'}"},
        steps=[f"Work calendar {first}..{last}: {len(met)} timed events (no travel, none declined)"]
        + [f"{o['start']:%a %H:%M} {o['title']}" for o in met],
    )


@reader("from", "to")
def conflicts_next_week(see: See, given: dict) -> Reading:
    first, last = dt.date.fromisoformat(given["from"]), dt.date.fromisoformat(given["to"])
    timed = [
        o
        for o in between(see, first, last)
        if first <= o["start"].date() <= last and not o["banner"] and not o["declined"]
    ]
    pairs = [
        (a, b) for i, a in enumerate(timed) for b in timed[i + 1 :] if a["start"] < b["end"] and b["start"] < a["end"]
    ]
    titles = sorted({t for a, b in pairs for t in (a["title"], b["title"])})
    return Reading(
        values={f"event-{i}": t for i, t in enumerate(titles)},
        steps=[f"{len(timed)} timed events {first}..{last}"]
        + [
            f"{a['title']} {a['start']:%a %H:%M}-{a['end']:%H:%M} overlaps {b['title']} {b['start']:%H:%M}"
            for a, b in pairs
        ],
    )


READERS = {
    "next-dentist": next_dentist,
    "meetings-last-week": meetings_last_week,
    "conflicts-next-week": conflicts_next_week,
}
