"""Issue 8's bounds on every shipped persona, measured by builder.world.report (its docstring defines each)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from builder.world.report import greeting_off_hour, is_faker_title, measure, sentences

from tests.conftest import PERSONAS, _world

REPO = Path(__file__).resolve().parents[2]


@lru_cache(maxsize=None)
def _measures(stem: str) -> dict:
    return measure(_world(stem)[1])


@pytest.fixture(scope="module", params=PERSONAS)
def m(request):
    return request.param, _world(request.param)[0], _measures(request.param)


def test_the_shipped_personas_cover_three_locales():
    locales = {_world(s)[0].locale for s in PERSONAS}
    assert {"en_US", "en_GB", "de_DE"} <= locales


def test_text_does_not_repeat(m):
    stem, _, r = m
    assert r["chat_counted"] > 200, stem
    assert r["chat_repeat_share"] <= 0.15, (stem, r["chat_repeat_share"])
    assert r["work_chat_repeat_share"] <= 0.15, (stem, r["work_chat_repeat_share"])
    assert r["mail_threads"] > 200, stem
    assert r["subject_repeat_share"] <= 0.15, (stem, r["subject_repeat_share"])
    assert r["thread_self_repeats"] == 0, stem


def test_no_faker_words_in_titles(m):
    stem, _, r = m
    assert r["web_titles"] > 1000 and r["faker_titles"] == 0, stem


def test_names_in_the_right_mouths(m):
    stem, _, r = m
    assert r["self_named"] == 0, stem


def test_time_of_day(m):
    stem, persona, r = m
    assert r["greetings_off_hour"] == 0, stem
    if not persona.routines.night_owl:
        assert r["night_personal_mail"] == 0, stem
        assert r["night_bookings"] == 0, stem


def test_trips_change_daily_life(m):
    stem, _, r = m
    assert r["home_purchases_away"] == 0, stem
    assert r["flight_legs"] > 0 and r["flights_without_checkin_mail"] == 0, stem


def test_money_adds_up(m):
    stem, _, r = m
    assert r["card_over_limit_days"] == 0, stem
    assert r["carried_months_without_interest"] == 0, stem


def test_loose_ends_are_planted(m):
    stem, _, r = m
    planted = r["planted"]
    assert planted.get("contradiction", 0) >= 5, (stem, planted)
    assert planted.get("pending", 0) >= 3, (stem, planted)
    assert planted.get("chain", 0) >= 2, (stem, planted)
    assert planted.get("unread", 0) >= 1, (stem, planted)
    assert planted.get("own_event", 0) >= 1, (stem, planted)


# --- the measures themselves --------------------------------------------------------------------------


def test_measures_detect_what_they_name():
    assert is_faker_title("None good north town get thus model - YouTube")
    assert is_faker_title("Quisquam dolorem voluptatem aliquam - Forum")
    assert not is_faker_title("What was your first job and how much did it pay? : r/AskReddit")
    assert not is_faker_title("Portland weather forecast - Weather.com")
    assert greeting_off_hour("Good morning Sam!", 15)
    assert not greeting_off_hour("Good morning Sam!", 9)
    assert greeting_off_hour("Guten Abend zusammen", 10)
    assert not greeting_off_hour("see you tomorrow morning", 20)
    body = "Hi Sam,\n\nThe export runs every night now.\n\nOn Fri, Sep 4 Sam wrote:\n> The export runs every night now."
    assert sentences(body) == ["the export runs every night now."]


_FAKER_PROSE = re.compile(
    r"\b(fake|faker|f)\.(sentence|sentences|paragraph|paragraphs|text|texts|word|words|bs|"
    r"catch_phrase)\("
)


def test_no_faker_prose_in_the_source():
    """Visible text never comes from Faker's lorem (names, addresses and numbers may)."""
    hits = [
        f"{p.relative_to(REPO)}:{n}"
        for p in sorted([*REPO.glob("builder/**/*.py"), *REPO.glob("apps/*/*.py")])
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if _FAKER_PROSE.search(line)
    ]
    assert hits == []
