"""Telling one trip from the others to the same place (scenarios/which_trip.py): nothing to add when it is the only
one, its month when no other began that month, else its day; a reader keeps the trip the words name."""

from __future__ import annotations

import datetime as dt

import pytest

from scenarios.which_trip import began, when_among, when_words

D = dt.date


def test_the_only_trip_there_needs_no_words():
    assert when_among(D(2026, 9, 29), []) is None
    assert when_words(None) == ""
    assert began(D(2025, 6, 26), None)


def test_a_month_tells_trips_of_other_months_apart():
    when = when_among(D(2026, 9, 29), [D(2025, 6, 26)])
    assert when == "2026-09" and when_words(when) == " in September 2026"
    assert began(D(2026, 9, 29), when) and not began(D(2025, 6, 26), when)


def test_a_day_tells_trips_of_one_month_apart_and_one_day_cannot():
    when = when_among(D(2026, 3, 17), [D(2026, 3, 2)])
    assert when == "2026-03-17" and when_words(when) == " that began on March 17, 2026"
    assert began(D(2026, 3, 17), when) and not began(D(2026, 3, 2), when)
    with pytest.raises(ValueError):
        when_among(D(2026, 3, 17), [D(2026, 3, 17)])
