"""Answer checks and spellings shared by the reasoning tasks (contradiction, counterfactual, preference
inference) of the apps' ``tasks.py``: how a person may write a date, a clock time, an amount or a name.

Every helper is pure (no world access, no randomness); the apps pass in the world's values.
"""

from __future__ import annotations

import datetime as dt

from .model import Check

DE_MONTHS = [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
]


def amount(cents: int) -> Check:
    """The answer states ``cents`` (sign ignored: the grader reads amounts without their sign)."""
    return Check(type="answer_amount", cents=abs(int(cents)))


def text(*forms: str) -> Check:
    """The answer holds one of ``forms`` (case-insensitive); empty forms are dropped, order kept."""
    return Check(type="answer_text", any_of=[f for f in dict.fromkeys(forms) if f])


def number(value: int) -> Check:
    return Check(type="answer_number", value=int(value))


def names(items: list[list[str] | str], ordered: bool = False) -> Check:
    """The answer names every item (a name, or a list of its spellings), in order when ``ordered``."""
    rows = [[x] if isinstance(x, str) else [s for s in dict.fromkeys(x) if s] for x in items]
    return Check(type="answer_list", items=rows, ordered=ordered)


def person(name: str) -> list[str]:
    """A person's spellings: the full name and the first name."""
    return list(dict.fromkeys([name, name.split()[0]]))


def person_among(name: str, everyone) -> list[str]:
    """:func:`person`, less the first name when it also spells someone else among ``everyone`` (names): another
    Theo, or "Lena" inside "Elena Vasquez" (an answer check matches text inside words), so only the full name
    counts."""
    first = name.split()[0].lower()
    clash = any(first in other.lower() for other in everyone if other != name)
    return [name] if clash else person(name)


def date_forms(day: dt.date | dt.datetime | str) -> list[str]:
    """A day as people write it: ``November 17``, ``Nov 17``, ``17 November``, ``11/17``, ``2026-11-17``,
    ``17. November``, ``17.11.``."""
    if isinstance(day, str):
        day = dt.date.fromisoformat(day[:10])
    if isinstance(day, dt.datetime):
        day = day.date()
    return [
        f"{day:%B} {day.day}",
        f"{day:%b} {day.day}",
        f"{day.day} {day:%B}",
        f"{day.day} {day:%b}",
        f"{day.month}/{day.day}",
        day.isoformat(),
        f"{day.day}. {DE_MONTHS[day.month - 1]}",
        f"{day.day:02d}.{day.month:02d}.",
        f"{day.day}.{day.month}.",
    ]


def time_forms(t: dt.datetime | dt.time | str) -> list[str]:
    """A clock time as people write it: ``3:30 PM``, ``3:30pm``, ``15:30``, ``15.30``; on the hour also ``3 PM``,
    ``3pm``, ``15 Uhr``."""
    if isinstance(t, str):
        t = dt.datetime.fromisoformat(t)
    h12 = (t.hour - 1) % 12 + 1
    ampm = "AM" if t.hour < 12 else "PM"
    forms = [
        f"{h12}:{t.minute:02d} {ampm}",
        f"{h12}:{t.minute:02d}{ampm.lower()}",
        f"{t.hour:02d}:{t.minute:02d}",
        f"{t.hour}:{t.minute:02d} Uhr",
        f"{t.hour:02d}.{t.minute:02d}",
    ]
    if t.minute == 0:
        forms += [f"{h12} {ampm}", f"{h12}{ampm.lower()}", f"{h12} {ampm.lower()}", f"{t.hour} Uhr"]
    return forms


def clock(t: dt.datetime | str) -> str:
    """``t`` as said in an instruction: ``3:30 PM``."""
    if isinstance(t, str):
        t = dt.datetime.fromisoformat(t)
    return f"{(t.hour - 1) % 12 + 1}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def planted(world, item_id: str) -> dict | None:
    """The world's planted item ``item_id`` (``world/planted.json``), or None when it was not planted."""
    return next((x for x in world.planted if x.get("id") == item_id), None)


def planted_of(world, kind: str, what: str | None = None) -> list[dict]:
    """The planted items of ``kind`` (and sub-kind ``what``), in planting order."""
    return [x for x in world.planted if x.get("kind") == kind and (what is None or x.get("what") == what)]


def percent_forms(p: int) -> list[str]:
    return [f"{p}%", f"{p} %", f"{p} percent", f"{p} per cent", f"{p} Prozent"]


def distinct_forms(value: str, other: str) -> list[str]:
    """Spellings of ``value`` that an answer naming only ``other`` does not hold: ``value`` itself unless it is
    part of ``other`` (``Product Designer`` in ``Senior Product Designer``), then ``value`` quoted or introduced
    (``“Product Designer”``, ``says Product Designer``, ``: Product Designer``)."""
    if value.lower() not in other.lower():
        return [value]
    return [
        f"“{value}”",
        f'"{value}"',
        f"'{value}'",
        f"‘{value}’",
        f"*{value}*",
        f": {value}",
        f"says {value}",
        f"shows {value}",
        f"lists {value}",
        f"still {value}",
        f"just {value}",
        f"only {value}",
        f"as {value}",
        f"is {value}",
        f"plain {value}",
        f"- {value}",
    ]
