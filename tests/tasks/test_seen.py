"""builder/tasks/seen.py and answers.py: the form lines the readers read off PDFs, the people an answer may name."""

from __future__ import annotations

import pytest

from builder.tasks import answers as A
from builder.tasks.reader import Unreadable
from builder.tasks.seen import line_after


def test_line_after_reads_the_value_under_a_box_label():
    text = "Form W-2 Wage and Tax Statement 2025\n1 Wages, tips, other compensation\n$136,000.02\n2 Federal"
    assert line_after(text, "1 Wages, tips") == "$136,000.02"
    with pytest.raises(Unreadable):
        line_after(text, "17 State income tax")


def test_person_among_drops_a_first_name_inside_another_name():
    everyone = ["Lena Fischer", "Elena Vasquez", "Priya Raman"]
    assert A.person_among("Lena Fischer", everyone) == ["Lena Fischer"]
    assert A.person_among("Priya Raman", everyone) == ["Priya Raman", "Priya"]
