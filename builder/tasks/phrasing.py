"""How a person names days and months relative to today (the world's frozen clock) in a request.

``day_phrase(date(2026, 11, 13), today=date(2026, 11, 16))`` -> ``"last Friday"``; a day further off
is named by its date (``"on Thursday, October 29"``). Weeks run Monday to Sunday (ISO 8601), so on a
Monday "last Friday" is three days ago and "this Friday" four days ahead.
"""

from __future__ import annotations

import datetime as dt


def _date(day: dt.date, today: dt.date) -> str:
    text = f"{day:%A}, {day:%B} {day.day}"
    return text if day.year == today.year else f"{text}, {day.year}"


def day_phrase(day: dt.date, today: dt.date, *, preposition: bool = True) -> str:
    """``day`` as said on ``today``: "today", "yesterday", "tomorrow", "last Friday", "this Friday",
    "next Friday", else the date ("on Thursday, October 29"; the year only when it is not this year).

    ``preposition``: put "on" before a weekday or date ("on Thursday, October 29"); "last/this/next
    Friday" and the others never take it.
    """
    if isinstance(day, dt.datetime):
        day = day.date()
    if isinstance(today, dt.datetime):
        today = today.date()
    delta = (day - today).days
    if delta == 0:
        return "today"
    if delta == -1:
        return "yesterday"
    if delta == 1:
        return "tomorrow"
    monday = today - dt.timedelta(days=today.weekday())
    week = (day - monday).days // 7
    if week == 0:
        return f"this {day:%A}"
    if week == -1:
        return f"last {day:%A}"
    if week == 1:
        return f"next {day:%A}"
    return ("on " if preposition else "") + _date(day, today)


def month_phrase(month: dt.date, today: dt.date) -> str:
    """The month holding ``month`` as said on ``today``: "this month", "last month", "in September"
    (this year), "in September 2025"."""
    if isinstance(today, dt.datetime):
        today = today.date()
    months = (today.year - month.year) * 12 + today.month - month.month
    if months == 0:
        return "this month"
    if months == 1:
        return "last month"
    return f"in {month:%B}" if month.year == today.year else f"in {month:%B} {month.year}"


def last_month(today: dt.date) -> tuple[dt.date, dt.date]:
    """(first day, last day) of the calendar month before ``today``'s."""
    if isinstance(today, dt.datetime):
        today = today.date()
    end = today.replace(day=1) - dt.timedelta(days=1)
    return end.replace(day=1), end
