"""Days and times as the apps' pages and mails write them, read back: for the independent readers
(:mod:`builder.tasks.reader`), which see only what the persona sees.

The apps format with ``Intl`` in the persona's locale (en-US, en-GB, de-DE): ``Nov 15, 2026``, ``15 Nov 2026``,
``15.11.2026``, ``Thursday, November 12, 2026``, ``Thu 19 Nov``, ``Do., 19. Nov.``, ``2026-11-15``; times ``7:45 PM``,
``19:45``, ``19.45 Uhr``. Pure functions, no clock: a day written without its year takes the year that puts it
nearest to the ``today`` the caller passes (the desktop's clock).
"""

from __future__ import annotations

import datetime as dt
import re

from .reader import Unreadable
from .textread import MONTH_NAMES

_MONTH_WORD = r"(?P<month>" + "|".join(sorted(MONTH_NAMES, key=len, reverse=True)) + r")\.?"
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DOTTED = re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})?(?!\d)")
_DAY_MONTH = re.compile(r"\b(?P<day>\d{1,2})\.?\s+" + _MONTH_WORD + r"(?:\s+(?P<year>\d{4}))?", re.IGNORECASE)
_MONTH_DAY = re.compile(
    _MONTH_WORD + r"\s+(?P<day>\d{1,2})(?!\d)(?:(?:st|nd|rd|th)?,?\s+(?P<year>\d{4}))?", re.IGNORECASE
)
_TIME = re.compile(
    r"\b(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s*(?P<ampm>[ap]\.?\s?m\.?)(?![a-z])|\b(?P<H>\d{1,2})[:.](?P<M>\d{2})\b",
    re.IGNORECASE,
)


def _month(word: str) -> int:
    return MONTH_NAMES[word.lower().rstrip(".")]


def _with_year(month: int, day: int, year: str | None, today: dt.date | None, text: str) -> dt.date:
    if year:
        y = int(year)
        return dt.date(y + 2000 if y < 100 else y, month, day)
    if today is None:
        raise Unreadable(f"{text!r} has no year and no today to place it")
    options = [dt.date(y, month, day) for y in (today.year - 1, today.year, today.year + 1) if _valid(y, month, day)]
    return min(options, key=lambda d: abs((d - today).days))


def _valid(y: int, m: int, d: int) -> bool:
    try:
        dt.date(y, m, d)
    except ValueError:
        return False
    return True


def day_in(text: str, today: dt.date | None = None) -> dt.date:
    """The first day written in ``text`` (any of the forms in this module's docstring). A day without a year takes
    the year nearest ``today``. Raises :class:`~builder.tasks.reader.Unreadable` when ``text`` names no day."""
    found = []
    for rx, kind in ((_ISO, "iso"), (_DAY_MONTH, "dm"), (_MONTH_DAY, "md"), (_DOTTED, "dot")):
        for m in rx.finditer(text):
            found.append((m.start(), kind, m))
            break
    if not found:
        raise Unreadable(f"no day in {text!r}")
    _, kind, m = min(found, key=lambda x: x[0])
    if kind == "iso":
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    if kind == "dot":
        return _with_year(int(m.group(2)), int(m.group(1)), m.group(3), today, text)
    return _with_year(_month(m.group("month")), int(m.group("day")), m.group("year"), today, text)


def days_in(text: str, today: dt.date | None = None) -> list[dt.date]:
    """Every day written in ``text``, in the order they are written (see :func:`day_in`)."""
    out: list[tuple[int, dt.date]] = []
    taken: list[tuple[int, int]] = []
    for rx, kind in ((_ISO, "iso"), (_DAY_MONTH, "dm"), (_MONTH_DAY, "md"), (_DOTTED, "dot")):
        for m in rx.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            try:
                d = day_in(m.group(0), today)
            except (Unreadable, ValueError):
                continue
            taken.append((m.start(), m.end()))
            out.append((m.start(), d))
    return [d for _, d in sorted(out, key=lambda x: x[0])]


def time_in(text: str) -> str:
    """The first time of day written in ``text`` as ``HH:MM`` (``7:45 PM``, ``7 pm``, ``19:45``, ``19.45 Uhr``).
    Raises :class:`~builder.tasks.reader.Unreadable` when there is none."""
    m = _TIME.search(text)
    if m is None:
        raise Unreadable(f"no time of day in {text!r}")
    if m.group("ampm"):
        h, mi = int(m.group("h")) % 12, int(m.group("m") or 0)
        if m.group("ampm").lower().startswith("p"):
            h += 12
    else:
        h, mi = int(m.group("H")), int(m.group("M"))
    return f"{h:02d}:{mi:02d}"


def month_of(text: str) -> str:
    """``YYYY-MM`` of a day written in ``text`` (see :func:`day_in`; the year must be written)."""
    return day_in(text).isoformat()[:7]
