"""The spec's recurring personal events (``recurring_events``): world occurrences and Daybook's RRULE series."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from pathlib import Path

import pytest

from apps.calendar.seed import seed
from builder.persona import SpecError, complete, load
from builder.persona.model import Persona
from builder.world import simulate

REPO = Path(__file__).resolve().parents[3]


def _spec() -> dict:
    spec = json.loads((REPO / "personas" / "jordan-lee.json").read_text())
    spec["contacts"] = [{"name": "Odile Marchetti", "relationship": "friend", "closeness": 4}]
    spec["recurring_events"] = [
        {"title": "Book club", "freq": "monthly", "days": ["thu"], "nth": 1, "time": "19:00", "duration_minutes": 90,
         "location": "Type Books, back room", "with": ["Odile Marchetti"]},
        {"title": "Pottery night", "freq": "monthly", "days": ["fri"], "nth": -1, "time": "18:30"},
        {"title": "Cello lesson", "days": ["sat"], "every_weeks": 2, "time": "10:15", "duration_minutes": 45,
         "start": "2026-01-01", "until": "2026-06-30"},
    ]  # fmt: skip
    return spec


def test_recurring_events_fall_on_their_days_and_become_one_rrule_each(tmp_path):
    world = simulate(complete(Persona.model_validate(_spec())))
    by_title: dict[str, list] = {}
    for e in world.of_kind("calendar_event"):
        if e.data["source"] == "recurring":
            by_title.setdefault(e.data["title"], []).append(e)
    book = [e.at for e in by_title["Book club"]]
    assert len(book) >= 18 and all(d.weekday() == 3 and d.day <= 7 and d.time() == dt.time(19) for d in book)
    assert len({(d.year, d.month) for d in book}) == len(book)
    assert by_title["Book club"][0].data["location"] == "Type Books, back room"
    assert "Odile Marchetti" in [a["name"] for a in by_title["Book club"][0].data["attendees"]]
    pottery = [e.at for e in by_title["Pottery night"]]
    assert all(d.weekday() == 4 and (d + dt.timedelta(days=7)).month != d.month for d in pottery)
    cello = [e.at.date() for e in by_title["Cello lesson"]]
    assert cello[0] >= dt.date(2026, 1, 1) and cello[-1] <= dt.date(2026, 6, 30)
    assert {(b - a).days for a, b in zip(cello, cello[1:])} == {14}
    db = seed(world, tmp_path / "calendar.sqlite")
    rules = dict(sqlite3.connect(db).execute("SELECT title, rrule FROM events WHERE rrule IS NOT NULL"))
    assert rules["Book club"].startswith("FREQ=MONTHLY;BYDAY=1TH;UNTIL=")
    assert rules["Pottery night"].startswith("FREQ=MONTHLY;BYDAY=-1FR;UNTIL=")
    assert rules["Cello lesson"].startswith("FREQ=WEEKLY;INTERVAL=2;BYDAY=SA;WKST=MO;UNTIL=")


@pytest.mark.parametrize(
    "event, message",
    [
        ({"title": "X", "freq": "monthly", "days": ["thu"], "time": "19:00"}, "needs nth and exactly one weekday"),
        ({"title": "X", "freq": "monthly", "days": ["thu", "fri"], "nth": 2, "time": "19:00"}, "exactly one weekday"),
        ({"title": "X", "days": ["thu"], "nth": 2, "time": "19:00"}, "nth is for monthly events only"),
        (
            {"title": "X", "days": ["thu"], "time": "19:00", "start": "2026-05-01", "until": "2026-04-01"},
            "until is before",
        ),
        ({"title": "X", "days": ["thu"], "time": "19:00", "with": ["Nobody Here"]}, "is not the name of a contact"),
    ],
)
def test_a_recurring_event_the_builder_cannot_place_is_refused_in_one_line(tmp_path, event, message):
    spec = _spec()
    spec["recurring_events"] = [event]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(spec))
    with pytest.raises(SpecError) as err:
        load(path)
    assert len(err.value.lines) == 1 and message in err.value.lines[0], err.value.lines
