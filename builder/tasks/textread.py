"""Reading what pages and messages write in words: clock times ("7:45 PM", "19:45", "20 Uhr") and days ("Nov 9,
2026", "9 Nov 2026", "09.11.2026", "So., 8. Nov. 2026"), as the independent readers need them
(:mod:`builder.tasks.reader`; the apps' ``reader.py`` and the scenarios' readers share these).

Pure functions of their text; nothing here reads a page, the world or a database.
"""

from __future__ import annotations

import datetime as dt
import re

from .reader import Unreadable

_EN = "january february march april may june july august september october november december".split()
_DE = "januar februar märz april mai juni juli august september oktober november dezember".split()
#: Every word the apps, mails and people write for a month, in English and German, lower case without its dot:
#: full names, three-letter abbreviations ("sept", "jän", "mrz", "maerz" too) -> 1..12. The one table of the
#: readers (:mod:`builder.tasks.reader`).
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
    w = word.strip(".").lower()
    return MONTH_NAMES.get(w) or (MONTH_NAMES.get(w[:3]) if len(w) > 3 and w[:3] in MONTH_NAMES else None)


#: A clock time as people and pages write it: "7:45 PM", "7:45pm", "19:45", "19.45 Uhr", "8 PM", "20 Uhr".
CLOCK = re.compile(
    r"(?<![\d:.])(?P<h>2[0-3]|[01]?\d)(?!\d)(?:[:.](?P<m>[0-5]\d))?\s*"
    r"(?:(?P<ampm>[AaPp])\.?\s?[Mm]\.?(?![a-z])|(?P<uhr>Uhr\b))?"
)


def clocks(text: str) -> list[tuple[str, dt.time]]:
    """Every clock time written in ``text``, in order: ``(as written, time)``. A bare number counts only with
    minutes ("19:45"), AM/PM or "Uhr"; "7 PM" is 19:00, "12 AM" midnight; "15:00 am" (German "at the") 15:00."""
    out = []
    for m in CLOCK.finditer(text):
        h, mi, ampm, uhr = m.group("h"), m.group("m"), m.group("ampm"), m.group("uhr")
        if mi is None and not ampm and not uhr:
            continue
        if mi is not None and not ampm and not uhr and ":" not in m.group(0):
            continue  # "19.45" alone may be a price or a date; only with "Uhr"
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


def clock_text(t: dt.time | dt.datetime) -> str:
    """A clock time as a 24-hour ``HH:MM`` (the form every time answer accepts)."""
    return f"{t.hour:02d}:{t.minute:02d}"


_DAY_FORMS = [
    # Nov 9, 2026 · November 9, 2026 · Mon, Nov 9, 2026
    re.compile(r"(?P<mon>[A-Za-zäÄ]{3,9})\.?\s+(?P<d>\d{1,2}),\s*(?P<y>\d{4})"),
    # 9 Nov 2026 · 9 November 2026 · 8. Nov. 2026 · 8. November 2026
    re.compile(r"(?<!\d)(?P<d>\d{1,2})\.?\s+(?P<mon>[A-Za-zäÄ]{3,9})\.?,?\s+(?P<y>\d{4})"),
    # 09.11.2026
    re.compile(r"(?<!\d)(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})"),
    # 2026-11-09
    re.compile(r"(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})"),
    # 11/9/2026 (US)
    re.compile(r"(?<!\d)(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{4}|\d{2})(?!\d)"),
]


def days_in(text: str) -> list[dt.date]:
    """Every full date (with its year) written in ``text``, in the text's order."""
    out = []
    taken: list[tuple[int, int]] = []
    for rx in _DAY_FORMS:
        for m in rx.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            g = m.groupdict()
            month = int(g["m"]) if g.get("m") else month_number(g["mon"])
            if not month:
                continue
            year = int(g["y"]) + (2000 if len(g["y"]) == 2 else 0)
            try:
                out.append((m.start(), dt.date(year, month, int(g["d"]))))
            except ValueError:
                continue
            taken.append((m.start(), m.end()))
    return [d for _, d in sorted(out, key=lambda x: x[0])]


def day_of(text: str) -> dt.date:
    """The one full date written in ``text`` (the first found). Raises :class:`Unreadable` when there is none."""
    found = days_in(text)
    if not found:
        raise Unreadable(f"no date in {text!r}")
    return found[0]


def days_without_year(text: str, near: dt.date) -> list[dt.date]:
    """Every day written without its year ("Nov 18", "18 Nov", "18. November", "18.11."), in the text's order, each
    as the date nearest ``near`` (the year before, of or after it)."""
    found = []
    for m in re.finditer(r"(?P<mon>[A-Za-zäÄ]{3,9})\.?\s+(?P<d>\d{1,2})(?![\d:]|\.\d)", text):
        found.append((m.start(), month_number(m.group("mon")), int(m.group("d"))))
    for m in re.finditer(r"(?<![\d:])(?P<d>\d{1,2})\.?\s+(?P<mon>[A-Za-zäÄ]{3,9})\b", text):
        found.append((m.start(), month_number(m.group("mon")), int(m.group("d"))))
    for m in re.finditer(r"(?<![\d.:])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?!\d)", text):
        found.append((m.start(), int(m.group("m")), int(m.group("d"))))
    out = []
    for _, month, day in sorted(found):
        if not month:
            continue
        options = []
        for y in (near.year - 1, near.year, near.year + 1):
            try:
                options.append(dt.date(y, month, day))
            except ValueError:
                pass
        if options:
            out.append(min(options, key=lambda d: abs((d - near).days)))
    return out


def day_without_year(text: str, near: dt.date) -> dt.date | None:
    """The first day :func:`days_without_year` finds in ``text``, or ``None``."""
    found = days_without_year(text, near)
    return found[0] if found else None
