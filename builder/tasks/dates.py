"""Days and clock times as pages, mails and people write them, read back: the one date reader of the independent
readers (:mod:`builder.tasks.reader`; every app's ``reader.py`` and the scenarios' readers share it, since an app
must not import another app).

The apps format with ``Intl`` in the persona's locale, mails and chats as people write, so one day reads
``2026-11-09``, ``Nov 9, 2026``, ``Mon, Nov 9, 2026``, ``November 9th`` (en-US), ``9 Nov 2026``, ``Mon 9 Nov``,
``9 Sept 2026`` (en-GB), ``09.11.2026``, ``9.11.``, ``Mo., 9. Nov. 2026``, ``9. November`` (de-DE) or ``11/9/2026``
(US numeric); one clock time ``7:45 PM``, ``7 pm``, ``19:45``, ``19.45 Uhr`` or ``20 Uhr``. Month names are English
or German, full or short (:data:`MONTH_NAMES`).

A day written without its year takes the year that puts it nearest the ``today`` the caller passes (the desktop's
clock); with no ``today`` such a day is not read. Pure functions of their text: nothing here reads a page, the
world or a database, and nothing reads the wall clock.
"""

from __future__ import annotations

import datetime as dt
import re

from .reader import Unreadable

_EN = "january february march april may june july august september october november december".split()
_DE = "januar februar märz april mai juni juli august september oktober november dezember".split()
#: Every word the apps, mails and people write for a month, in English and German, lower case without its dot:
#: full names, three-letter abbreviations ("sept", "jän", "mrz", "maerz" too) -> 1..12.
MONTH_NAMES: dict[str, int] = {
    **{w: n for names in (_EN, _DE) for n, w in enumerate(names, 1)},
    **{w[:3]: n for names in (_EN, _DE) for n, w in enumerate(names, 1)},
    "sept": 9,
    "jänner": 1,
    "jän": 1,
    "mrz": 3,
    "maerz": 3,
}


def month_number(word: str) -> int | None:
    """1-12 of a month name or its abbreviation in English or German (``"Nov"``, ``"November"``, ``"Mär"``,
    ``"März"``, ``"Sept."``), else ``None``."""
    return MONTH_NAMES.get(word.strip().strip(".").lower())


# ---------------------------------------------------------------------------------------------------------- days

_MONTH = r"\b(?P<mon>" + "|".join(sorted(MONTH_NAMES, key=len, reverse=True)) + r")\b\.?"
_YEAR = r"(?P<y>\d{4})(?!\d)"
#: The forms a day is written in, in the order they claim text (an earlier form's match wins an overlap).
_DAY_FORMS = (
    # 2026-11-09
    re.compile(r"(?<!\d)(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})(?!\d)"),
    # 09.11.2026 · 9.11.26 · 9.11.
    re.compile(r"(?<![\d.:])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?:(?P<y>\d{4}|\d{2})(?![\d.]))?"),
    # Nov 9, 2026 · November 9 · Nov 9th, 2026 · Mon, Nov 9, 2026
    re.compile(_MONTH + r"\s+(?P<d>\d{1,2})(?![\d:])(?:st|nd|rd|th)?(?:,?\s+" + _YEAR + ")?", re.IGNORECASE),
    # 9 Nov 2026 · 9. November · Mo., 9. Nov. 2026 · 9 Sept 2026
    re.compile(r"(?<![\d.:])(?P<d>\d{1,2})(?:st|nd|rd|th|\.)?\s+" + _MONTH + r"(?:,?\s+" + _YEAR + ")?", re.IGNORECASE),
    # 11/9/2026 (US numeric, month first)
    re.compile(r"(?<![\d/])(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{4}|\d{2})(?![\d/])"),
)


def _placed(month: int, day: int, year: str | None, today: dt.date | None, after: dt.date | None) -> dt.date | None:
    """The date of ``day``.``month`` in ``year`` (two digits: 20xx); without one, the first such date on or after
    ``after`` when given, else the one nearest ``today``. ``None`` when no such date exists or nothing places it."""
    if year:
        y = int(year)
        try:
            return dt.date(y + 2000 if y < 100 else y, month, day)
        except ValueError:
            return None
    near = after or today
    if near is None:
        return None
    options = []
    for y in (near.year - 1, near.year, near.year + 1):
        try:
            options.append(dt.date(y, month, day))
        except ValueError:
            pass
    if after is not None:
        return min((d for d in options if d >= after), default=None)
    return min(options, key=lambda d: abs((d - near).days), default=None)


def _day_spans(text: str, today: dt.date | None, after: dt.date | None = None) -> list[tuple[int, int, dt.date]]:
    """Every day written in ``text`` as ``(start, end, date)``, in the text's order; overlapping matches go to the
    form listed first in :data:`_DAY_FORMS`."""
    out: list[tuple[int, int, dt.date]] = []
    for rx in _DAY_FORMS:
        for m in rx.finditer(text):
            if any(a < m.end() and m.start() < b for a, b, _ in out):
                continue
            g = m.groupdict()
            month = int(g["m"]) if g.get("m") else month_number(g["mon"])
            if not month or not 1 <= month <= 12:
                continue
            day = _placed(month, int(g["d"]), g.get("y"), today, after)
            if day is not None:
                out.append((m.start(), m.end(), day))
    return sorted(out, key=lambda x: x[0])


def days_in(text: str, today: dt.date | None = None, *, after: dt.date | None = None) -> list[dt.date]:
    """Every day written in ``text`` (the forms of this module's docstring), in the text's order. A day without its
    year is the first such day on or after ``after`` when that is given (a delivery day after the order's), else
    the one nearest ``today``; with neither it is left out."""
    return [d for _, _, d in _day_spans(text, today, after)]


def first_day(text: str, today: dt.date | None = None, *, after: dt.date | None = None) -> dt.date | None:
    """The first day written in ``text`` (see :func:`days_in`), or ``None`` when it names none."""
    found = _day_spans(text, today, after)
    return found[0][2] if found else None


def day_in(text: str, today: dt.date | None = None, *, after: dt.date | None = None) -> dt.date:
    """The first day written in ``text`` (see :func:`days_in`). Raises :class:`~builder.tasks.reader.Unreadable`
    when ``text`` names none."""
    found = first_day(text, today, after=after)
    if found is None:
        raise Unreadable(f"no day in {text!r}" + ("" if today or after else " with its year"))
    return found


def day_time_in(text: str, today: dt.date | None = None) -> dt.datetime:
    """The first day written in ``text`` and the first clock time after it (``Tue, Nov 3, 2026, 10:06 PM``), naive.
    Raises :class:`~builder.tasks.reader.Unreadable` when either is missing."""
    found = _day_spans(text, today)
    if not found:
        raise Unreadable(f"no day in {text!r}")
    _, end, day = found[0]
    return dt.datetime.combine(day, clock_in(text[end:]))


def last_month(today: dt.date) -> str:
    """``YYYY-MM`` of the calendar month before ``today``'s."""
    return f"{today.replace(day=1) - dt.timedelta(days=1):%Y-%m}"


# ------------------------------------------------------------------------------------------------- clock times

#: A clock time as people and pages write it: "7:45 PM", "7:45pm", "7:45 p.m.", "19:45", "19.45 Uhr", "8 PM",
#: "20 Uhr".
CLOCK = re.compile(
    r"(?<![\d:.])(?P<h>2[0-3]|[01]?\d)(?!\d)(?:[:.](?P<m>[0-5]\d))?\s*"
    r"(?:(?P<ampm>[AaPp])\.?\s?[Mm]\.?(?![a-z])|(?P<uhr>Uhr\b))?"
)


def clocks(text: str) -> list[tuple[str, dt.time]]:
    """Every clock time written in ``text``, in order: ``(as written, time)``. A bare number counts only with
    minutes after a colon ("19:45"), AM/PM or "Uhr" ("19.45" alone may be a price or a day); "7 PM" is 19:00,
    "12 AM" midnight; "15:00 am" (German "at the") 15:00."""
    out = []
    for m in CLOCK.finditer(text):
        h, mi, ampm, uhr = m.group("h"), m.group("m"), m.group("ampm"), m.group("uhr")
        if mi is None and not ampm and not uhr:
            continue
        if mi is not None and not ampm and not uhr and ":" not in m.group(0):
            continue
        hour, minute = int(h), int(mi or 0)
        if ampm and (hour > 12 or hour == 0):
            if mi is None or ":" not in m.group(0):
                continue
            # a 24-hour time before the German "am" ("um 15:00 am Treffpunkt": at the meeting point), not AM
            out.append((f"{h}:{mi}", dt.time(hour, minute)))
            continue
        if ampm:
            hour = hour % 12 + (12 if ampm.lower() == "p" else 0)
        out.append((m.group(0).strip(), dt.time(hour, minute)))
    return out


def clock_in(text: str) -> dt.time:
    """The first clock time written in ``text`` (see :func:`clocks`). Raises
    :class:`~builder.tasks.reader.Unreadable` when there is none."""
    found = clocks(text)
    if not found:
        raise Unreadable(f"no time of day in {text!r}")
    return found[0][1]


def clock_as_written(text: str) -> str:
    """The first clock time of ``text`` as written there, spaces made plain and without the zone or "Uhr" after it
    (``3:55\\u202fPM PST`` -> ``3:55 PM``, ``15:55 Uhr`` -> ``15:55``). Raises
    :class:`~builder.tasks.reader.Unreadable` when there is none."""
    found = clocks(text.replace("\u202f", " ").replace("\u00a0", " "))
    if not found:
        raise Unreadable(f"no time of day in {text!r}")
    return found[0][0].removesuffix("Uhr").strip()


def clock_text(t: dt.time | dt.datetime) -> str:
    """A clock time as a 24-hour ``HH:MM`` (the form every time answer accepts)."""
    return f"{t.hour:02d}:{t.minute:02d}"
