"""builder/tasks/seen.py: the days and form lines the independent readers read off pages and PDFs."""

from __future__ import annotations

import datetime as dt

import pytest

from builder.tasks.reader import Unreadable
from builder.tasks.seen import line_after, parse_day


@pytest.mark.parametrize(
    "text",
    [
        "2026-11-02",
        "Nov 2, 2026, 8:37 AM",
        "November 2, 2026",
        "2 Nov 2026, 08:37",
        "02.11.2026, 08:37",
        "2. November 2026",
    ],
)
def test_parse_day_reads_every_locale(text):
    assert parse_day(text) == dt.date(2026, 11, 2)


def test_parse_day_reads_the_british_september():
    assert parse_day("7 Sept 2026") == dt.date(2026, 9, 7)


def test_parse_day_without_a_day_is_unreadable():
    with pytest.raises(Unreadable):
        parse_day("Deposit from bank")


def test_line_after_reads_the_value_under_a_box_label():
    text = "Form W-2 Wage and Tax Statement 2025\n1 Wages, tips, other compensation\n$136,000.02\n2 Federal"
    assert line_after(text, "1 Wages, tips") == "$136,000.02"
    with pytest.raises(Unreadable):
        line_after(text, "17 State income tax")
