"""builder.tasks.textread: clock times and days as pages and messages write them (en and de)."""

import datetime as dt

import pytest

from builder.tasks import answers as A
from builder.tasks.reader import Unreadable
from builder.tasks.textread import clock_text, clocks, day_of, day_without_year, days_in, days_without_year


def test_clocks_read_every_form_and_leave_prices_alone():
    found = [t for _, t in clocks("Nov 18 at 7:45 PM, 20 Uhr, 18.30 Uhr, 11:00 AM, 8pm, $43.05, 12:30")]
    assert found == [dt.time(19, 45), dt.time(20), dt.time(18, 30), dt.time(11), dt.time(20), dt.time(12, 30)]
    assert clocks("your share: 60,15 € and 43.05") == []
    # German "am" (at the) after a 24-hour time is no AM
    assert clocks("treffen uns um 15:00 am Treffpunkt") == [("15:00", dt.time(15))]
    assert clock_text(dt.time(9, 5)) == "09:05"


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
        day_of("no date here")


def test_days_without_year_take_the_nearest_year_and_skip_clock_digits():
    near = dt.date(2026, 12, 5)
    assert days_without_year("Pickup: Saturday, December 5 at 4:30 PM. Until Thursday, December 3.", near) == [
        dt.date(2026, 12, 5),
        dt.date(2026, 12, 3),
    ]
    assert day_without_year("on Tuesday 8 December 10:40 and", near) == dt.date(2026, 12, 8)
    assert day_without_year("bis Donnerstag, 26. November zurück", near) == dt.date(2026, 11, 26)
    assert day_without_year("Jan 3", near) == dt.date(2027, 1, 3)
    assert day_without_year("nothing", near) is None


def test_person_among_drops_a_first_name_inside_another_name():
    everyone = ["Lena Fischer", "Elena Vasquez", "Priya Raman"]
    assert A.person_among("Lena Fischer", everyone) == ["Lena Fischer"]
    assert A.person_among("Priya Raman", everyone) == ["Priya Raman", "Priya"]
