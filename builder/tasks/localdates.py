"""Days and clock times as the apps print them, read back: the shared parsing of the independent readers
(:mod:`builder.tasks.reader`) of the travel apps.

The apps format with ``Intl`` in the persona's locale, so one day reads ``Fri, Dec 11, 2026`` (en-US),
``Fri 11 Dec 2026`` or ``11 Sept 2026`` (en-GB), ``Fr., 11. Dez. 2026`` or ``11.12.2026`` (de-DE), ``December 11``
(a mail) or ``2026-12-11``; one clock time ``3:55 PM``, ``15:55`` or ``15:55 Uhr``. Pure functions, no I/O.
"""

from __future__ import annotations

import datetime as dt
import re

from .reader import Unreadable
from .textread import month_number

_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DOTTED = re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})?")
_TOKEN = re.compile(r"[^\W\d_]+|\d+")
_CLOCK = re.compile(r"\b(\d{1,2})[:.](\d{2})(?:\s*([AaPp])\.?\s*[Mm]\.?)?")


def parse_day(text: str, year: int | None = None) -> dt.date:
    """The first day written in ``text``, in any of the forms the module names. ``year``: the year when the text
    gives none (``December 11``, ``11.12.``). Raises :class:`~builder.tasks.reader.Unreadable` when ``text`` holds no
    day (or no year and ``year`` is None)."""
    m = _ISO.search(text)
    if m:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = _DOTTED.search(text)
    if m and 1 <= int(m.group(2)) <= 12:
        y = int(m.group(3)) if m.group(3) else year
        if y is not None:
            return dt.date(y, int(m.group(2)), int(m.group(1)))
    month = day = found_year = None
    for tok in _TOKEN.findall(text):
        if tok.isdigit():
            if len(tok) == 4 and found_year is None and month is not None:
                found_year = int(tok)
            elif len(tok) <= 2 and day is None and 1 <= int(tok) <= 31:
                day = int(tok)
        elif month is None and len(tok) >= 3 and month_number(tok[:3]):
            month = month_number(tok[:3])
        if month is not None and day is not None and found_year is not None:
            break
    y = found_year if found_year is not None else year
    if month is None or day is None or y is None:
        raise Unreadable(f"no day in {text!r}")
    return dt.date(y, month, day)


def parse_clock(text: str) -> dt.time:
    """The first clock time in ``text`` (``3:55 PM``, ``15:55``, ``15.55``). Raises
    :class:`~builder.tasks.reader.Unreadable` when there is none."""
    m = _CLOCK.search(text)
    if m is None:
        raise Unreadable(f"no clock time in {text!r}")
    h, mi = int(m.group(1)), int(m.group(2))
    if m.group(3):
        h = h % 12 + (12 if m.group(3).lower() == "p" else 0)
    return dt.time(h, mi)


def clock_text(text: str) -> str:
    """The clock time of ``text`` as written there, without the zone after it (``3:55 PM PST`` -> ``3:55 PM``).
    Raises :class:`~builder.tasks.reader.Unreadable` when there is none."""
    m = _CLOCK.search(text.replace("\u202f", " ").replace("\u00a0", " "))
    if m is None:
        raise Unreadable(f"no clock time in {text!r}")
    return m.group(0).strip()
