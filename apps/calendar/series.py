"""Recurring series from the world's occurrences: one RFC 5545 RRULE per ``series`` id, with EXDATEs
and overrides where the occurrences deviate from it.

Rules the derivation obeys (the tests check them against the world):

* The master time of day, duration, title, location and description are the most common ones of the
  occurrences (ties: the earliest occurrence's). DTSTART is the first occurrence's date at the master
  time; UNTIL is the last occurrence's rule start, so the rule never runs past the world.
* Same month and day every time: ``FREQ=YEARLY``. One weekday, at most once a month, always the nth (1-4) or
  always the last of its month: ``FREQ=MONTHLY;BYDAY=1TH`` (``-1FR``). Otherwise weekly: ``BYDAY`` is the set of weekdays,
  ``INTERVAL`` the greatest common divisor of the week gaps (weeks start on Monday, ``WKST=MO``);
  every weekday at interval 1 is ``FREQ=DAILY``.
* Every date the rule makes but the world skips (holidays, trips) is an EXDATE; every occurrence that
  differs from the master (another start, length, place or title) is an override keyed by its rule
  start (RECURRENCE-ID). A date the rule cannot make is an RDATE override (none in the shipped worlds).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from math import gcd
from typing import Any

_BYDAY = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


@dataclass
class Occurrence:
    """One world occurrence: naive local ``start``/``end`` (series zone) and its facts."""

    start: dt.datetime
    end: dt.datetime
    title: str
    location: str
    description: str
    world_id: str


@dataclass
class Series:
    """A derived series: ``rrule`` text (without ``RRULE:``), master values, EXDATEs and overrides."""

    rrule: str
    dtstart: dt.datetime
    duration: dt.timedelta
    title: str
    location: str
    description: str
    exdates: list[dt.datetime] = field(default_factory=list)
    overrides: list[tuple[dt.datetime, Occurrence]] = field(default_factory=list)  # (recurrence id, occurrence)
    rdates: list[Occurrence] = field(default_factory=list)


def _mode(values: list[Any]) -> Any:
    counts = Counter(values)
    best = max(counts.values())
    return next(v for v in values if counts[v] == best)


def _monday(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


def _nth(day: dt.date) -> int:
    """Which of its month's weekdays ``day`` is (1-5)."""
    return (day.day - 1) // 7 + 1


def _last_of_month(day: dt.date) -> bool:
    return (day + dt.timedelta(days=7)).month != day.month


def _monthly(dates: list[dt.date]) -> int | None:
    """The ordinal of a monthly series (1-4, or -1: the last) when ``dates`` (two or more) are one weekday, at most
    one a month, always the same of their month; else None."""
    if (
        len(dates) < 2
        or len({d.weekday() for d in dates}) != 1
        or len({(d.year, d.month) for d in dates}) != len(dates)
    ):
        return None
    if all(_last_of_month(d) for d in dates):
        return -1
    ords = {_nth(d) for d in dates}
    return ords.pop() if len(ords) == 1 and next(iter(ords)) <= 4 else None


def expand(
    freq: str,
    dtstart: dt.datetime,
    last: dt.date,
    interval: int = 1,
    byday: list[int] | None = None,
    nth: int | None = None,
) -> list[dt.datetime]:
    """Rule starts from ``dtstart`` up to the date ``last`` inclusive (naive local, series zone).

    ``freq`` is ``DAILY``, ``WEEKLY`` (``byday``: weekday numbers, Monday 0; weeks start Monday) or
    ``YEARLY`` (same month and day; 29 February only in leap years, as RFC 5545 says) or ``MONTHLY``
    (``byday`` one weekday, ``nth`` which of the month's: 1-4, or -1 for the last).
    """
    out: list[dt.datetime] = []
    t = dtstart.time()
    if freq == "YEARLY":
        year = dtstart.year
        while True:
            try:
                day = dtstart.date().replace(year=year)
            except ValueError:
                day = None
            if day and day > last:
                break
            if day:
                out.append(dt.datetime.combine(day, t))
            year += interval
            if year > last.year:
                break
        return out
    day = dtstart.date()
    week0 = _monday(day)
    days = set(byday if byday is not None else [dtstart.weekday()])
    while day <= last:
        weeks = (_monday(day) - week0).days // 7
        if freq == "MONTHLY":
            ok = day.weekday() in days and (_last_of_month(day) if nth == -1 else _nth(day) == nth)
        elif freq == "DAILY":
            ok = (day - dtstart.date()).days % interval == 0
        else:
            ok = day.weekday() in days and weeks % interval == 0
        if ok:
            out.append(dt.datetime.combine(day, t))
        day += dt.timedelta(days=1)
    return out


def derive(occurrences: list[Occurrence], until_text) -> Series:
    """The series of ``occurrences`` (sorted by start). ``until_text(last_rule_start)`` formats UNTIL
    (a UTC ``YYYYMMDDTHHMMSSZ`` for timed series, ``YYYYMMDD`` for all-day ones).

    Raises ``ValueError`` for an empty list.
    """
    if not occurrences:
        raise ValueError("a series needs at least one occurrence")
    occ = sorted(occurrences, key=lambda o: o.start)
    t = _mode([o.start.time() for o in occ])
    duration = _mode([o.end - o.start for o in occ])
    title = _mode([o.title for o in occ])
    location = _mode([o.location for o in occ])
    description = _mode([o.description for o in occ])
    dates = [o.start.date() for o in occ]
    dtstart = dt.datetime.combine(dates[0], t)
    last = dates[-1]
    nth = None
    if len(occ) == 1 or len({(d.month, d.day) for d in dates}) == 1 and len(set(d.year for d in dates)) == len(dates):
        freq, interval, byday = "YEARLY", 1, None
        parts = ["FREQ=YEARLY"]
    elif (nth := _monthly(dates)) is not None:
        freq, interval, byday = "MONTHLY", 1, [dates[0].weekday()]
        parts = ["FREQ=MONTHLY", f"BYDAY={nth}{_BYDAY[dates[0].weekday()]}"]
    else:
        weekdays = sorted({d.weekday() for d in dates})
        weeks = sorted({(_monday(d) - _monday(dates[0])).days // 7 for d in dates})
        interval = 0
        for w in weeks:
            interval = gcd(interval, w)
        interval = interval or 1
        if len(weekdays) == 7 and interval == 1:
            freq, byday = "DAILY", None
            parts = ["FREQ=DAILY"]
        else:
            freq, byday = "WEEKLY", weekdays
            parts = (
                ["FREQ=WEEKLY"]
                + ([f"INTERVAL={interval}"] if interval > 1 else [])
                + ["BYDAY=" + ",".join(_BYDAY[w] for w in weekdays)]
                + (["WKST=MO"] if interval > 1 else [])
            )
    rule_starts = expand(freq, dtstart, last, interval, byday, nth)
    by_date = {s.date(): s for s in rule_starts}
    parts.append(f"UNTIL={until_text(rule_starts[-1])}")
    series = Series(
        rrule=";".join(parts),
        dtstart=dtstart,
        duration=duration,
        title=title,
        location=location,
        description=description,
    )
    have = set(dates)
    series.exdates = [s for s in rule_starts if s.date() not in have]
    for o in occ:
        rid = by_date.get(o.start.date())
        if rid is None:
            series.rdates.append(o)
        elif (
            o.start != rid
            or o.end - o.start != duration
            or o.title != title
            or o.location != location
            or o.description != description
        ):
            series.overrides.append((rid, o))
    return series
