"""Calendar: every planned thing in the persona's life as ``calendar_event`` events.

The calendar is a channel: :func:`add_entry`, :func:`add_timed` and :func:`add_all_day` enter an event, and each
life domain enters its own plans from its module (travel: trips, flights and hotel stays; orders: restaurant
tables). This module enters meetings, birthdays, holidays, life events, appointments and exercise. The rules below
hold for the whole calendar.

Rules (tasks and tests depend on them):

* An event's ``at`` is its start as naive local time in the persona's zone; ``data.start`` and
  ``data.end`` are aware ISO 8601 strings (a flight keeps the offsets of its airports). An all-day
  event starts at local midnight of its first day and ends at local midnight after its last day.
* Work meetings (``work.meetings``) fall on their listed weekdays; ``every_weeks`` counts weeks from
  the Monday :data:`MEETING_ANCHOR`, so a fortnightly meeting is on even weeks. A meeting is
  skipped on a public holiday (:func:`public_holidays`) and while the persona is away on a trip
  (:func:`away_dates`). A few one-off work meetings of the persona's occupation join them (an
  incident review for a data engineer, a studio visit for an artist, a parents' evening for a teacher;
  titles and descriptions in the persona's language; a freelancer has about half as many).
* Contacts' birthdays are all-day events every year of the simulated range; public holidays too.
* Life events keep their date, time, location and people; dentist/doctor ones are
  ``appointment``s, as are routine haircuts, dental cleanings and a yearly eye exam.
* Trips are all-day spans (depart..return), each flight is timed with its airports' offsets,
  each hotel stay runs from check-in (15:00) to check-out (11:00) in the hotel's zone.
* Restaurant bookings and exercise sessions (``routines.exercise_days``, not while away).
* The spec's ``recurring_events``: one series each in the personal calendar (weekly, or the nth weekday of each
  month), every occurrence kept.

Everything runs from the history start to the horizon's end; events after ``now`` are scheduled.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Any, Iterable
from zoneinfo import ZoneInfo

from ..persona.occupations import of_persona
from ..dates import birthday_in
from ..reference import gazetteer
from ..reference.airports import airport_tz
from ..reference.locale import territory
from ..rng import derived_id, token
from .context import Sim
from .engine import world_step
from .locale import phrase_bank
from .model import Event

MEETING_ANCHOR = dt.date(2024, 1, 1)  # a Monday: week 0 of every ``every_weeks`` cadence

_TIMED_MINUTES = {
    "dentist": 60,
    "doctor": 45,
    "party": 180,
    "wedding": 360,
    "concert": 180,
    "exam": 120,
    "moved": 240,
    "new_job": 480,
    "birthday": 180,
    "other": 60,
}
_ROOMS = ["Juniper", "Cedar", "Alder", "Madrona", "Hemlock", "Larch", "Spruce", "Willow"]


# Calendar titles, places and notes as the persona's language writes them (English for every other locale).
def words(sim: Sim) -> dict:
    """The calendar's words in the persona's language (``templates/agenda/<locale>.yaml`` ``words``)."""
    return phrase_bank("agenda", sim.persona.bank)["words"]


def birthday_title(sim: Sim, first_name: str) -> str:
    """The all-day title of a contact's birthday (``Priya's birthday``, ``Geburtstag Priya``)."""
    return words(sim)["birthday"].format(first=first_name)


_ONE_OFF_MEETINGS = [
    ("Quarterly planning", 90),
    ("Sprint retro", 45),
    ("Customer demo", 60),
    ("Roadmap review", 60),
    ("Vendor call", 30),
    ("All-hands", 60),
    ("Hiring debrief", 30),
    ("Usability test readout", 45),
    ("Architecture sync", 60),
    ("Budget check-in", 30),
]


# --- time helpers shared by mail and chat ---------------------------------------------------------


@lru_cache(maxsize=None)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def zone(sim: Sim) -> ZoneInfo:
    """The persona's time zone."""
    return _zone(sim.persona.timezone or "UTC")


def airport_zone(code: str | None, default: ZoneInfo | None) -> ZoneInfo | None:
    """The IANA zone of airport ``code`` (``default`` if unknown): :func:`builder.reference.airports.airport_tz`."""
    return airport_tz(code, default)


def aware(sim: Sim, naive: dt.datetime, tz: ZoneInfo | None = None) -> str:
    """``naive`` (wall time in ``tz``, default the persona's zone) as an aware ISO 8601 string."""
    return naive.replace(tzinfo=tz or zone(sim)).isoformat()


def parse_when(sim: Sim, value: Any) -> dt.datetime | None:
    """An ISO string/date/datetime as naive local time in the persona's zone (aware values are converted)."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        when = value
    elif isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time(0, 0))
    else:
        try:
            when = dt.datetime.fromisoformat(str(value))
        except ValueError:
            return None
    if when.tzinfo is not None:
        when = when.astimezone(zone(sim)).replace(tzinfo=None)
    return when


def first(data: dict[str, Any], *keys: str, default: Any = None) -> Any:
    """The value of the first of ``keys`` present (and not None) in ``data``."""
    for k in keys:
        if data.get(k) is not None:
            return data[k]
    return default


def _easter(year: int) -> dt.date:
    """Gregorian Easter Sunday (anonymous Gregorian algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7  # noqa: E741 (the algorithm's own letters)
    m = (a + 11 * h + 22 * l) // 451
    month, day = divmod(h + l - 7 * m + 114, 31)
    return dt.date(year, month, day + 1)


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date:
    """The ``n``-th (1-based; -1 = last) ``weekday`` (0 = Monday) of a month."""
    if n > 0:
        d = dt.date(year, month, 1)
        d += dt.timedelta(days=(weekday - d.weekday()) % 7)
        return d + dt.timedelta(weeks=n - 1)
    d = dt.date(year + (month == 12), month % 12 + 1, 1) - dt.timedelta(days=1)
    return d - dt.timedelta(days=(d.weekday() - weekday) % 7)


def _observed(day: dt.date) -> dt.date:
    """US rule: Saturday holidays are observed Friday, Sunday ones Monday."""
    return (
        day - dt.timedelta(days=1) if day.weekday() == 5 else day + dt.timedelta(days=1) if day.weekday() == 6 else day
    )


def _holiday_date(rule: dict[str, Any], year: int, easter: dt.date) -> dt.date:
    """The observed date in ``year`` of one holiday rule of a calendar bank (its fields: the bank's header)."""
    if "easter" in rule:
        day = easter + dt.timedelta(days=rule["easter"])
    elif "nth" in rule:
        day = _nth_weekday(year, rule["month"], rule["weekday"], rule["nth"])
    else:
        day = dt.date(year, rule["month"], rule["day"])
    day += dt.timedelta(days=rule.get("offset", 0))
    observed = rule.get("observed")
    if observed == "nearest_weekday":
        return _observed(day)
    if observed == "next_weekday":
        return day + dt.timedelta(days=(7 - day.weekday()) % 7 if day.weekday() >= 5 else 0)
    if isinstance(observed, dict):
        dates = [dt.date(year, *map(int, md.split("-"))) for md in observed["when_weekend"]]
        if any(d.weekday() >= 5 for d in dates):
            return dt.date(year, *map(int, observed["to"].split("-")))
    return day


@lru_cache(maxsize=None)
def public_holidays(locale: str, year: int, country: str | None = None) -> dict[dt.date, str]:
    """The public holidays (observed dates) modelled for ``locale`` in ``year``: date -> name, from the
    ``holidays`` rules of ``templates/agenda/<locale>.yaml`` (en_US's for a locale without a bank). A ``country``
    other than the locale's own (a home abroad) keeps that country's holidays instead, as the ``holidays`` package
    lists them, named in the locale's language where the package has it (English otherwise)."""
    if country and country != territory(locale):
        return dict(gazetteer.public_holidays(country, (year,), language=_holiday_language(country, locale)))
    easter = _easter(year)
    days: dict[dt.date, str] = {}
    for rule in phrase_bank("agenda", locale)["holidays"]:
        days[_holiday_date(rule, year, easter)] = rule["name"]
    return dict(sorted(days.items()))


def _holiday_language(country: str, locale: str) -> str | None:
    """The ``holidays`` language code to name ``country``'s holidays in for a reader of ``locale``: the country's
    own default when it is the reader's language (``en_NG`` for an English reader in Lagos), else the reader's
    language, else US English, else the package's default (None)."""
    import holidays

    table = holidays.country_holidays(country)
    supported, default = table.supported_languages, table.default_language
    language = locale.split("_")[0]
    if default and default.split("_")[0] == language:
        return default
    for code in (language, locale, "en_US"):
        if code in supported:
            return code
    return None


def holidays_of(p, year: int) -> dict[dt.date, str]:
    """:func:`public_holidays` of persona ``p`` in ``year``: its locale's, or its home country's when it lives
    abroad."""
    return public_holidays(p.bank, year, p.identity.address.country if p.identity.address else None)


def is_holiday(sim: Sim, day: dt.date) -> bool:
    """Whether ``day`` is a public holiday the persona keeps (:func:`holidays_of`)."""
    return day in holidays_of(sim.persona, day.year)


def trips(sim: Sim) -> list:
    """The persona's trips (spec order)."""
    travel = sim.persona.travel
    return list(travel.trips or []) if travel else []


def away_dates(sim: Sim) -> set[dt.date]:
    """Every date the persona is away on a trip (depart .. return inclusive)."""
    out: set[dt.date] = set()
    for t in trips(sim):
        d = t.depart
        while d <= t.return_:
            out.add(d)
            d += dt.timedelta(days=1)
    return out


def person(sim: Sim, name: str) -> dict[str, Any]:
    """``{name, email}`` of a contact (as in the spec), or of the persona if ``name`` is the persona's."""
    p = sim.persona
    if name == p.identity.name:
        return {"name": name, "email": p.identity.email}
    try:
        c = sim.contact(name)
    except KeyError:
        return {"name": name, "email": None}
    return {"name": c.name, "email": c.email}


def work_person(sim: Sim, name: str) -> dict[str, Any]:
    """``{name, email}`` of a colleague at work: their address at the employer's mail domain (a contact whose
    spec email is elsewhere gets ``first.last@<domain>``); the persona's work address for the persona."""
    p = sim.persona
    if name == p.identity.name:
        return _me_work(sim)
    who = person(sim, name)
    domain = _work_domain(sim)
    if who["email"] and who["email"].rsplit("@", 1)[-1].lower() == domain.lower():
        return who
    from ..persona.complete import _mailbox  # the same local part as builder.world.work_chat.work_email

    return {"name": who["name"], "email": f"{_mailbox(name, sim.seed, f'work_chat/email/{name}')}@{domain}"}


def meeting_dates(sim: Sim, meeting, start: dt.date | None = None, end: dt.date | None = None) -> list[dt.date]:
    """The dates one ``work.meetings`` entry takes place on (see module rules)."""
    away = away_dates(sim)
    out = []
    for day in sim.days(start, end):
        if sim.weekday(day) not in meeting.days:
            continue
        if ((day - MEETING_ANCHOR).days // 7) % meeting.every_weeks:
            continue
        if day in away or is_holiday(sim, day):
            continue
        out.append(day)
    return out


# --- the module -----------------------------------------------------------------------------------


def _work_domain(sim: Sim) -> str:
    email = sim.persona.work.email if sim.persona.work else None
    return email.split("@", 1)[1] if email else "work.test"


def booking_uid(ref: str, site_url: str | None) -> str:
    """The iCalendar UID of a booked flight leg or hotel stay: ``<world event id>@<booking site's host>``.

    The booking's confirmation mail attaches the same UID in its ``.ics``, so adding it to the
    calendar finds the entry the calendar already has instead of making a second one."""
    host = (site_url or "").split("//", 1)[-1].split("/", 1)[0] or "bookings.invalid"
    return f"{ref}@{host}"


def add_entry(
    sim: Sim,
    at: dt.datetime,
    *,
    title: str,
    start: str,
    end: str,
    calendar: str = "personal",
    all_day: bool = False,
    location: str | None = None,
    attendees: Iterable[dict] = (),
    organizer: dict | None = None,
    source: str,
    ref: str | None = None,
    series: str | None = None,
    description: str = "",
    key: object = "",
    uid: str | None = None,
) -> Event:
    """Enter one ``calendar_event`` starting at naive local ``at`` (``start``/``end`` aware ISO 8601); its id is keyed
    by (``source``, ``series``, ``key``); ``uid`` is the iCalendar UID a booking site gave it."""
    data = {
        "calendar": calendar,
        "title": title,
        "start": start,
        "end": end,
        "all_day": all_day,
        "location": location or "",
        "attendees": list(attendees),
        "organizer": organizer,
        "source": source,
        "ref": ref,
        "series": series,
        "description": description,
    }
    if uid:
        data["uid"] = uid
    return sim.event("calendar_event", at, data, key=(source, series or "", key))


def add_all_day(sim: Sim, first_day: dt.date, last_day: dt.date, **kw) -> Event:
    """Enter an all-day event from local midnight of ``first_day`` to midnight after ``last_day`` (``kw`` as in
    :func:`add_entry`)."""
    start = dt.datetime.combine(first_day, dt.time(0, 0))
    end = dt.datetime.combine(last_day + dt.timedelta(days=1), dt.time(0, 0))
    return add_entry(sim, start, start=aware(sim, start), end=aware(sim, end), all_day=True, **kw)


def add_timed(sim: Sim, start: dt.datetime, minutes: int, **kw) -> Event:
    """Enter an event of ``minutes`` from naive local ``start`` in the persona's zone (``kw`` as in :func:`add_entry`)."""
    end = start + dt.timedelta(minutes=minutes)
    return add_entry(sim, start, start=aware(sim, start), end=aware(sim, end), **kw)


@world_step(rank=60, writes=("calendar_event",))
def simulate_calendar(sim: Sim) -> None:
    """Append ``calendar_event`` events (see module rules)."""
    _meetings(sim)
    _one_off_meetings(sim)
    _birthdays(sim)
    _holidays(sim)
    _life_events(sim)
    _recurring_events(sim)
    _routine_appointments(sim)


@world_step(rank=63, writes=("calendar_event",))
def simulate_exercise(sim: Sim) -> None:
    """Append the persona's exercise sessions (after the trips and tables the travel and orders modules enter)."""
    _exercise(sim)


def _me_work(sim: Sim) -> dict[str, Any]:
    p = sim.persona
    return {"name": p.identity.name, "email": p.work.email if p.work and p.work.email else p.identity.email}


def _meetings(sim: Sim) -> None:
    p = sim.persona
    if not p.work or not p.work.meetings:
        return
    r = sim.rng("calendar/meetings")
    office = p.work.office_address
    office_days = p.work.office_days
    domain = _work_domain(sim)
    me = _me_work(sim)
    for i, m in enumerate(p.work.meetings):
        series = derived_id(sim.seed, "calendar/series/meeting", i, m.title)
        people = [work_person(sim, n) for n in m.attendees if n != p.identity.name]
        organizer = me if (not people or r.random() < 0.35) else people[r.randrange(len(people))]
        room = words(sim)["room"].format(room=_ROOMS[r.randrange(len(_ROOMS))])
        link = f"https://meet.{domain}/{_meet_code(sim, series)}"
        hh, mm = map(int, m.time.split(":"))
        desc = _cadence(sim, m, link)
        for day in meeting_dates(sim, m):
            where = f"{room}, {office.street}" if office and sim.weekday(day) in office_days else words(sim)["video"]
            add_timed(
                sim,
                dt.datetime.combine(day, dt.time(hh, mm)),
                m.duration_minutes,
                title=m.title,
                calendar="work",
                location=where,
                attendees=[me, *people],
                organizer=organizer,
                source="meeting",
                series=series,
                description=desc,
                key=day,
            )


def _cadence(sim: Sim, m, link: str) -> str:
    """A series' description in the persona's language: its cadence, then the join link."""
    words = of_persona(sim.persona).mail["cadence"]
    names = of_persona(sim.persona).mail["weekdays"]
    days = ", ".join(names.get(d, d.capitalize()) for d in m.days)
    line = words["weekly"] if m.every_weeks == 1 else words["every"]
    return f"{line.format(days=days, n=m.every_weeks)}\n{words['join'].format(link=link)}"


def _meet_code(sim: Sim, *parts: object) -> str:
    """A video-call room code like ``kqv-mzpt-hwd`` derived from ``parts``."""
    digest = token(sim.seed, "calendar/meet", *parts, length=20)
    letters = "".join("abcdefghijkmnopqrstuvwxyz"[int(digest[i : i + 2], 16) % 25] for i in range(0, 20, 2))
    return f"{letters[:3]}-{letters[3:7]}-{letters[7:10]}"


def _workdays(sim: Sim) -> list[dt.date]:
    away = away_dates(sim)
    return [d for d in sim.days() if d.weekday() < 5 and d not in away and not is_holiday(sim, d)]


def _one_off_meetings(sim: Sim) -> None:
    """About two ad-hoc work meetings a month with some of the colleagues (invitations go out by mail)."""
    p = sim.persona
    if not p.work:
        return
    r = sim.rng("calendar/one_off")
    colleagues = [n for n in p.work.colleagues]
    me = _me_work(sim)
    domain = _work_domain(sim)
    office = p.work.office_address
    occ = of_persona(p)
    kinds = [tuple(k) for k in occ.get("one_offs") or []] or _ONE_OFF_MEETINGS
    rate = 0.05 if occ.freelance else 0.09  # a freelancer has fewer meetings
    join = occ.mail["cadence"]["join"]
    for day in _workdays(sim):
        if r.random() >= rate:
            continue
        title, minutes = kinds[r.randrange(len(kinds))]
        start = dt.datetime.combine(day, dt.time(r.choice([10, 11, 13, 14, 15, 16]), r.choice([0, 0, 30])))
        k = r.randint(1, max(1, len(colleagues))) if colleagues else 0
        people = [work_person(sim, n) for n in r.sample(colleagues, k)] if k else []
        organizer = me if not people or r.random() < 0.3 else people[0]
        link = f"https://meet.{domain}/{_meet_code(sim, 'one-off', day)}"
        where = (
            f"{words(sim)['room'].format(room=_ROOMS[r.randrange(len(_ROOMS))])}, {office.street}"
            if office and sim.weekday(day) in p.work.office_days
            else words(sim)["video"]
        )
        add_timed(
            sim,
            start,
            minutes,
            title=title,
            calendar="work",
            location=where,
            attendees=[me, *people],
            organizer=organizer,
            source="meeting",
            description=join.format(link=link),
            key=day,
        )


def _birthdays(sim: Sim) -> None:
    for c in sim.persona.contacts:
        if not c.birthday:
            continue
        series = derived_id(sim.seed, "calendar/series/birthday", c.name)
        for year in range(sim.start.year, sim.end.year + 1):
            day = birthday_in(c.birthday, year)
            if sim.start.date() <= day <= sim.end.date():
                add_all_day(
                    sim,
                    day,
                    day,
                    title=birthday_title(sim, c.name.split()[0]),
                    source="birthday",
                    attendees=[],
                    organizer=None,
                    series=series,
                    description=words(sim)["turns"].format(name=c.name, age=year - c.birthday.year),
                    key=(c.name, year),
                )


def _holidays(sim: Sim) -> None:
    for year in range(sim.start.year, sim.end.year + 1):
        for day, name in holidays_of(sim.persona, year).items():
            if sim.start.date() <= day <= sim.end.date():
                add_all_day(sim, day, day, title=name, source="holiday", key=day)


def _life_events(sim: Sim) -> None:
    p = sim.persona
    for i, le in enumerate(p.life_events):
        if not sim.start.date() <= le.date <= sim.end.date():
            continue
        people = [person(sim, n) for n in le.with_]
        mine = (le.location or "").lower() == "home" or p.identity.name.split()[0] in le.title
        me = {"name": p.identity.name, "email": p.identity.email}
        organizer = me if mine or not people else people[0]
        location = (
            p.identity.address.street if (le.location or "").lower() == "home" and p.identity.address else le.location
        )
        source = "appointment" if le.kind in ("dentist", "doctor") else "life_event"
        kw = dict(
            title=le.title,
            location=location,
            attendees=[me, *people] if people else [],
            organizer=organizer,
            source=source,
            description=f"{le.kind.replace('_', ' ').capitalize()}",
            key=("life", i),
        )
        if le.time:
            hh, mm = map(int, le.time.split(":"))
            add_timed(sim, dt.datetime.combine(le.date, dt.time(hh, mm)), _TIMED_MINUTES[le.kind], **kw)
        else:
            add_all_day(sim, le.date, le.date, **kw)


def recurring_dates(sim: Sim, event) -> list[dt.date]:
    """The dates of one spec ``recurring_events`` entry in the simulated range (module rules): weekly on its days
    every ``every_weeks`` weeks from :data:`MEETING_ANCHOR`, or monthly on the ``nth`` (``-1``: last) of its weekday."""
    out = []
    first = max(event.start or sim.start.date(), sim.start.date())
    last = min(event.until or sim.end.date(), sim.end.date())
    for day in sim.days(first, last):
        if sim.weekday(day) not in event.days:
            continue
        if event.freq == "weekly":
            if ((day - MEETING_ANCHOR).days // 7) % event.every_weeks:
                continue
        elif event.nth == -1:
            if (day + dt.timedelta(days=7)).month == day.month:
                continue
        elif (day.day - 1) // 7 + 1 != event.nth:
            continue
        out.append(day)
    return out


def _recurring_events(sim: Sim) -> None:
    """The spec's recurring personal events: one series each in the personal calendar, every occurrence kept (a
    calendar holds the plan; trips do not delete it)."""
    p = sim.persona
    me = {"name": p.identity.name, "email": p.identity.email}
    for i, ev in enumerate(p.recurring_events):
        series = derived_id(sim.seed, "calendar/series/recurring", i, ev.title)
        people = [person(sim, n) for n in ev.with_]
        hh, mm = map(int, ev.time.split(":"))
        for day in recurring_dates(sim, ev):
            add_timed(
                sim,
                dt.datetime.combine(day, dt.time(hh, mm)),
                ev.duration_minutes,
                title=ev.title,
                location=ev.location,
                attendees=[me, *people] if people else [],
                organizer=me,
                source="recurring",
                series=series,
                key=day,
            )


def place_names(sim: Sim) -> dict[str, str]:
    """Stable names of the persona's dentist, doctor, hair salon and optician (life events' locations win)."""
    p = sim.persona
    fake = sim.people("calendar/places")
    # Faker draws in the order English did (last, last, first, last) so the English names stay as they were.
    drawn = {
        "dentist": {"last": fake.last_name()},
        "doctor": {"last": fake.last_name()},
        "haircut": {"first": fake.first_name()},
        "optician": {"last": fake.last_name()},
    }
    names = {k: words(sim)["places"][k].format(**v) for k, v in drawn.items()}
    for le in p.life_events:
        if le.kind in ("dentist", "doctor") and le.location:
            names[le.kind] = le.location
    return names


def _routine_appointments(sim: Sim) -> None:
    """Haircuts every 6-8 weeks, dental cleanings every six months (unless a life event has one near),
    and a yearly eye exam, never while away or on a holiday."""
    p = sim.persona
    r = sim.rng("calendar/appointments")
    away = away_dates(sim)
    names = place_names(sim)
    given = [le.date for le in p.life_events if le.kind == "dentist"]

    def free(day: dt.date, weekend_ok: bool) -> dt.date:
        while day in away or is_holiday(sim, day) or (not weekend_ok and day.weekday() >= 5):
            day += dt.timedelta(days=1)
        return day

    day = sim.start.date() + dt.timedelta(days=r.randint(3, 40))
    while day <= sim.end.date():
        day = free(day, True)
        start = dt.datetime.combine(day, dt.time(11, 0) if day.weekday() >= 5 else dt.time(17, 30))
        if day <= sim.end.date():
            add_timed(
                sim, start, 45, title=words(sim)["haircut"], location=names["haircut"], source="appointment", key=day
            )
        day += dt.timedelta(days=r.randint(42, 56))

    day = sim.start.date() + dt.timedelta(days=r.randint(20, 120))
    while day <= sim.end.date():
        day = free(day, False)
        if day <= sim.end.date() and not any(abs((g - day).days) < 100 for g in given):
            start = dt.datetime.combine(day, dt.time(r.choice([8, 9, 13, 16]), 0))
            add_timed(
                sim, start, 60, title=words(sim)["dental"], location=names["dentist"], source="appointment", key=day
            )
        day += dt.timedelta(days=r.randint(175, 190))

    day = sim.start.date() + dt.timedelta(days=r.randint(60, 300))
    while day <= sim.end.date():
        day = free(day, False)
        if day <= sim.end.date():
            add_timed(
                sim,
                dt.datetime.combine(day, dt.time(r.choice([9, 10, 15]), 30)),
                45,
                title=words(sim)["eye"],
                location=names["optician"],
                source="appointment",
                key=day,
            )
        day += dt.timedelta(days=365)


def trip_of(sim: Sim, day: dt.date):
    """The spec trip whose span contains ``day`` (or None)."""
    for t in trips(sim):
        if t.depart <= day <= t.return_:
            return t
    return None


def reservation_time(sim: Sim, booking: Event) -> dt.datetime:
    """When a ``restaurant_booking`` is for (naive local), from its data, else the event's own time."""
    d = booking.data
    return (
        parse_when(
            sim,
            first(
                d,
                "reservation_local",
                "reservation_at",
                "reserved_for",
                "reservation",
                "time_local",
                "datetime",
                "when",
                "start",
            ),
        )
        or booking.at
    )


def _exercise(sim: Sim) -> None:
    p = sim.persona
    ro = p.routines
    if not ro or not ro.exercise or not ro.exercise_days:
        return
    r = sim.rng("calendar/exercise")
    morning = r.random() < 0.3
    gym = next((c.payee for c in p.recurring_charges if c.category == "health"), None)
    label = ro.exercise.capitalize()
    minutes = 90 if ro.exercise in ("climbing", "cycling", "hiking") else 60
    away = away_dates(sim)
    for wd in ro.exercise_days:
        series = derived_id(sim.seed, "calendar/series/exercise", wd)
        for day in sim.days():
            if sim.weekday(day) != wd or day in away:
                continue
            time = dt.time(10, 0) if day.weekday() >= 5 else dt.time(6, 45) if morning else dt.time(18, 30)
            add_timed(
                sim,
                dt.datetime.combine(day, time),
                minutes,
                title=words(sim)["at"].format(what=label, where=gym) if gym else label,
                location=gym or "",
                source="exercise",
                series=series,
                key=day,
            )
