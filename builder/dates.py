"""Calendar arithmetic shared by the spec, the world and the apps."""

from __future__ import annotations

import calendar
import datetime as dt
from typing import TypeVar

D = TypeVar("D", dt.date, dt.datetime)


def add_months(day: D, months: int) -> D:
    """``day`` (a date or datetime) shifted by whole months, clamped to the target month's last day.

    ``add_months(date(2028, 2, 29), 12)`` is 2029-02-28. Raises ``ValueError`` outside years 1..9999.
    """
    y, m = divmod(day.month - 1 + months, 12)
    y, m = day.year + y, m + 1
    return day.replace(year=y, month=m, day=min(day.day, calendar.monthrange(y, m)[1]))


def birthday_in(born: dt.date, year: int) -> dt.date:
    """The birthday of someone born on ``born`` in ``year`` (29 Feb -> 28 Feb in common years)."""
    try:
        return born.replace(year=year)
    except ValueError:
        return dt.date(year, 2, 28)
