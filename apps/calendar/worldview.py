"""What the world says the calendar shows, computed from ``calendar_event`` events alone (never from
the database): occurrences in the persona's zone, weeks, day coverage and conflicts. Tasks and tests
use these so their expected values come from the world.

Definitions (the app follows the same):

* An occurrence covers a local date when it is all-day and the date lies in ``[start, end)``, or it is
  timed and ``[start, end)`` meets that day (an end at exactly midnight stops the day before).
* A *banner* is all-day or lasts 24 hours or more; banners never conflict.
* Two timed non-banner occurrences conflict when their intervals overlap.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from builder.world import World
from builder.reference.locale import format_date
from builder.reference.locale import week_start as locale_week_start


@dataclass(frozen=True)
class Occ:
    """A world occurrence in the persona's zone: naive local ``start``/``end`` (all-day: midnights)."""

    id: str
    title: str
    start: dt.datetime
    end: dt.datetime
    all_day: bool
    source: str
    series: str | None
    data: dict

    @property
    def banner(self) -> bool:
        return self.all_day or self.end - self.start >= dt.timedelta(hours=24)

    def covers(self) -> list[dt.date]:
        """Local dates this occurrence covers (see module rules)."""
        first = self.start.date()
        last = self.end.date()
        if self.all_day or (self.end.time() == dt.time(0) and self.end > self.start):
            last -= dt.timedelta(days=1)
        out, d = [], first
        while d <= last:
            out.append(d)
            d += dt.timedelta(days=1)
        return out or [first]


def occurrences(world: World) -> list[Occ]:
    """Every ``calendar_event`` as an :class:`Occ`, in timeline order."""
    tz = ZoneInfo(world.persona.timezone or "UTC")
    out = []
    for e in world.of_kind("calendar_event"):
        d = e.data
        s = dt.datetime.fromisoformat(d["start"]).astimezone(tz).replace(tzinfo=None)
        en = dt.datetime.fromisoformat(d["end"]).astimezone(tz).replace(tzinfo=None)
        out.append(Occ(e.id, d["title"], s, en, bool(d["all_day"]), d["source"], d.get("series"), d))
    return out


def week_start(world: World, day: dt.date) -> dt.date:
    """First day of ``day``'s week: Sunday for en_US, Monday otherwise."""
    return locale_week_start(day, world.persona.bank)


def overlapping(world: World, first: dt.date, last: dt.date) -> list[Occ]:
    """Occurrences covering any date of ``first..last`` inclusive."""
    return [o for o in occurrences(world) if any(first <= d <= last for d in o.covers())]


def conflicts(occs: list[Occ]) -> list[tuple[Occ, Occ]]:
    """Pairs of timed non-banner occurrences that overlap, ordered by start."""
    timed = sorted((o for o in occs if not o.banner), key=lambda o: (o.start, o.id))
    out = []
    for i, a in enumerate(timed):
        for b in timed[i + 1 :]:
            if b.start >= a.end:
                break
            out.append((a, b))
    return out


def time_label(world: World, t: dt.datetime) -> str:
    """The app's time label: ``9:30 AM`` (en_US) or ``09:30``."""
    return format_date(t, "time", world.persona.bank)
