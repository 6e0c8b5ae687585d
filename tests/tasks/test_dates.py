"""builder.tasks.dates: days and clock times as pages, mails and people write them (en and de), read back."""

from __future__ import annotations

import datetime as dt

import pytest

from builder.tasks.dates import (
    clock_as_written,
    clock_in,
    clock_text,
    clocks,
    day_in,
    day_time_in,
    days_in,
    first_day,
    last_month,
    month_number,
)
from builder.tasks.reader import Unreadable


def test_clocks_read_every_form_and_leave_prices_alone():
    found = [t for _, t in clocks("Nov 18 at 7:45 PM, 20 Uhr, 18.30 Uhr, 11:00 AM, 8pm, $43.05, 12:30")]
    assert found == [dt.time(19, 45), dt.time(20), dt.time(18, 30), dt.time(11), dt.time(20), dt.time(12, 30)]
    assert clocks("your share: 60,15 € and 43.05") == []
    # German "am" (at the) after a 24-hour time is no AM
    assert clocks("treffen uns um 15:00 am Treffpunkt") == [("15:00", dt.time(15))]
    assert clock_text(dt.time(9, 5)) == "09:05"


def test_one_clock_time_as_a_time_and_as_written():
    assert clock_in("Pickup 10:06 p.m.") == dt.time(22, 6)
    assert clock_in("12 AM") == dt.time(0)
    assert clock_as_written("departs 3:55\u202fPM PST") == "3:55 PM"
    assert clock_as_written("ab 15:55 Uhr") == "15:55"
    with pytest.raises(Unreadable):
        clock_in("Gate B12, seat 14C")


@pytest.mark.parametrize(
    "text",
    [
        "2026-11-02",
        "Nov 2, 2026, 8:37 AM",
        "Mon, Nov 2, 2026",
        "November 2nd, 2026",
        "2 Nov 2026, 08:37",
        "Mon 2 Nov 2026",
        "02.11.2026, 08:37",
        "Mo., 2. Nov. 2026",
        "2. November 2026",
        "11/2/2026",
    ],
)
def test_a_day_with_its_year_in_every_locale(text):
    assert day_in(text) == dt.date(2026, 11, 2)


def test_the_british_september_and_the_austrian_january():
    assert day_in("7 Sept 2026") == dt.date(2026, 9, 7)
    assert day_in("7. Jänner 2027") == dt.date(2027, 1, 7)
    assert month_number("Mär.") == 3 and month_number("Dezember") == 12 and month_number("Monday") is None


def test_days_with_their_year_in_text_order():
    text = "Mon 7 Dec 2026 10:40 GMT, then 16.11.2026, Nov 9, 2026, So., 8. Nov. 2026 and 2026-01-02"
    assert days_in(text) == [
        dt.date(2026, 12, 7),
        dt.date(2026, 11, 16),
        dt.date(2026, 11, 9),
        dt.date(2026, 11, 8),
        dt.date(2026, 1, 2),
    ]
    with pytest.raises(Unreadable):
        day_in("Deposit from bank")


def test_a_day_without_its_year_is_read_only_when_something_places_it():
    # a price, a version and a day without a year: no day when nothing says which year
    assert days_in("$12.50. Version 1.2, Thu 19 Nov, 13/09/2026") == []
    with pytest.raises(Unreadable, match="with its year"):
        day_in("Thu 19 Nov")


def test_a_day_without_its_year_takes_the_nearest_year_and_skips_clock_digits():
    near = dt.date(2026, 12, 5)
    assert days_in("Pickup: Saturday, December 5 at 4:30 PM. Until Thursday, December 3.", near) == [
        dt.date(2026, 12, 5),
        dt.date(2026, 12, 3),
    ]
    assert first_day("on Tuesday 8 December 10:40 and", near) == dt.date(2026, 12, 8)
    assert first_day("bis Donnerstag, 26. November zurück", near) == dt.date(2026, 11, 26)
    assert first_day("am 3.1. um 9 Uhr", near) == dt.date(2027, 1, 3)
    assert first_day("Jan 3", near) == dt.date(2027, 1, 3)
    assert first_day("nothing", near) is None


def test_a_day_without_its_year_after_a_given_day():
    # a delivery written "Arrived Jan 4" on an order placed Dec 20 is in the next year
    assert day_in("Arrived Mon, Jan 4", after=dt.date(2026, 12, 20)) == dt.date(2027, 1, 4)
    assert day_in("Arrived Dec 22", after=dt.date(2026, 12, 20)) == dt.date(2026, 12, 22)
    # a year that is written wins
    assert day_in("Arrived Dec 22, 2025", after=dt.date(2026, 12, 20)) == dt.date(2025, 12, 22)


def test_a_day_and_the_clock_time_after_it():
    assert day_time_in("Tue, Nov 3, 2026, 10:06 PM") == dt.datetime(2026, 11, 3, 22, 6)
    assert day_time_in("Di., 3. Nov. 2026, 22:06") == dt.datetime(2026, 11, 3, 22, 6)
    with pytest.raises(Unreadable):
        day_time_in("Tue, Nov 3, 2026")


def test_last_month():
    assert last_month(dt.date(2026, 1, 15)) == "2025-12"
    assert last_month(dt.date(2026, 3, 31)) == "2026-02"
