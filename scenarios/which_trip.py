"""Telling one trip (or stay) from the others to the same place: "my trip to Milan" is ambiguous when the desktop
has two past trips to Milan, so a task names when it began, and its reader keeps only the trip that began then.

A task stores :func:`when_among` of the trip's first day against the first days of the others as a given value
(None when nothing else goes there, a month ``YYYY-MM`` when no other began that month, else the day
``YYYY-MM-DD``), states :func:`when_words` of it in its instruction, and its reader keeps what :func:`began`
matches.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable


def when_among(day: dt.date, others: Iterable[dt.date]) -> str | None:
    """What tells a trip beginning ``day`` from ``others`` (the first days of the other trips to the same place, the
    trip's own left out): None without others, ``YYYY-MM`` when none began in that month, else ``YYYY-MM-DD``. Raises
    ``ValueError`` when another began the same day (nothing tells them apart)."""
    others = list(others)
    if not others:
        return None
    if day in others:
        raise ValueError(f"two trips to the same place begin on {day}")
    month = f"{day:%Y-%m}"
    return month if not any(f"{o:%Y-%m}" == month for o in others) else day.isoformat()


def when_words(when: str | None, verb: str = "began") -> str:
    """The words an instruction adds for :func:`when_among`'s ``when``, with a leading space: ``""`` for None,
    ``" in September 2026"`` for a month, ``" that began on September 29, 2026"`` (``verb``) for a day."""
    if when is None:
        return ""
    if len(when) == 7:
        month = dt.date.fromisoformat(f"{when}-01")
        return f" in {month:%B %Y}"
    day = dt.date.fromisoformat(when)
    return f" that {verb} on {day:%B} {day.day}, {day.year}"


def began(day: dt.date, when: str | None) -> bool:
    """Whether a trip beginning ``day`` is the one ``when`` (:func:`when_among`) names: any when ``when`` is None."""
    return when is None or day.isoformat().startswith(when)
