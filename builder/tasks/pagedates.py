"""Days and clock times as the apps' pages write them, read back for the independent readers
(:mod:`builder.tasks.reader`): ``Tue, Nov 3, 2026`` (en-US), ``Tue, 3 Nov 2026`` (en-GB), ``Di., 3. Nov. 2026``
(de-DE), ``2026-11-03``; ``10:06 PM`` or ``22:06``. Kept apart from the framework so that every app's reader and
the scenarios' readers can share it (an app must not import another app)."""

from __future__ import annotations

import datetime as dt
import re

from .reader import Unreadable
from .textread import month_number

_WORD = r"([A-Za-zÄÖÜäöü]+)\.?"


def parse_day(text: str) -> dt.date:
    """The first day ``text`` writes, in any of the apps' locales (see the module docstring), a month's name in
    English or German, full or short. Raises :class:`Unreadable` when ``text`` holds no day."""
    t = " ".join(text.split())
    if m := re.search(r"(\d{4})-(\d{2})-(\d{2})", t):
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    if m := re.search(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", t):
        return dt.date(int(m[3]), int(m[2]), int(m[1]))
    if (m := re.search(_WORD + r"\s+(\d{1,2}),?\s+(\d{4})", t)) and month_number(m[1]):
        return dt.date(int(m[3]), month_number(m[1]), int(m[2]))
    if (m := re.search(r"(\d{1,2})\.?\s+" + _WORD + r",?\s+(\d{4})", t)) and month_number(m[2]):
        return dt.date(int(m[3]), month_number(m[2]), int(m[1]))
    raise Unreadable(f"no day in {text!r}")


def parse_clock(text: str) -> dt.time:
    """The first clock time ``text`` writes: ``10:06 PM``, ``10:06 p.m.``, ``22:06``. Raises :class:`Unreadable`
    when it holds none."""
    m = re.search(r"(\d{1,2}):(\d{2})\s*([AaPp])?\.?\s*[Mm]?\.?", " ".join(text.split()))
    if not m:
        raise Unreadable(f"no time of day in {text!r}")
    h, mi = int(m[1]), int(m[2])
    if m[3]:
        h = h % 12 + (12 if m[3].lower() == "p" else 0)
    return dt.time(h, mi)


def parse_day_time(text: str) -> dt.datetime:
    """The day and the clock time after it in ``text`` (``Tue, Nov 3, 2026, 10:06 PM``), naive."""
    day = parse_day(text)
    m = re.search(r"\d{4}", " ".join(text.split()))
    rest = " ".join(text.split())[m.end() :] if m else text
    return dt.datetime.combine(day, parse_clock(rest))


def month_of(day: dt.date) -> str:
    """``YYYY-MM`` of ``day``."""
    return f"{day:%Y-%m}"


def last_month(today: dt.date) -> str:
    """``YYYY-MM`` of the calendar month before ``today``'s."""
    return month_of(today.replace(day=1) - dt.timedelta(days=1))
