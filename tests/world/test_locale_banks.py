"""Locale words and formats live in per-locale banks (builder/world/templates/<area>/<locale>.yaml,
builder/files/travel_docs.yaml), read by code that never branches on a locale: every supported locale has every key
the code reads, and the banks write what the code wrote before."""

from __future__ import annotations

import datetime as dt

import pytest

from builder.files import sheets, travel_docs
from builder.persona import facts
from builder.world.calendar import public_holidays
from builder.reference.locale import BANKS, conventions, format_date, format_money, language, money_in, week_start
from builder.world.locale import phrase_bank

LOCALES = BANKS  # the phrase banks; a spec's locale may be any CLDR locale (Persona.bank picks the bank)
FRIDAY = dt.datetime(2026, 9, 4, 7, 5)


def test_the_supported_locales():
    assert set(LOCALES) == {"en_US", "en_GB", "de_DE"}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_locale_has_every_key(locale):
    base = conventions("en_US")
    mine = conventions(locale)
    assert set(mine) >= {"language", "months", "months_long", "days", "days_long", "formats", "money_in"}
    assert set(mine["formats"]) == set(base["formats"])
    assert len(mine["months"]) == len(mine["months_long"]) == 12 and len(mine["days"]) == len(mine["days_long"]) == 7
    assert set(phrase_bank("agenda", locale)["words"]) == set(phrase_bank("agenda", "en_US")["words"])
    assert set(phrase_bank("cards", locale)) == {"busy_reasons", "plan"}
    assert set(travel_docs._all_words()[locale]) - {"rooms"} == set(travel_docs._all_words()["en_US"])
    bank = facts.bank(locale)
    assert {"phone", "menu_language", "price_step"} <= set(bank)
    assert "bill_lowercase" in phrase_bank("browsing/search", locale)


@pytest.mark.parametrize(
    ("locale", "written"),
    [
        (
            "en_US",
            ["Fri, Sep 4, 2026", "09/04/2026", "Friday, September 4", "September 4, 2026", "Sep 4", "7:05 AM"],
        ),
        ("en_GB", ["Fri 4 Sep 2026", "04/09/2026", "Friday 4 September", "4 September 2026", "4 Sep", "07:05"]),
        (
            "de_DE",
            ["Fr., 4. Sept. 2026", "04.09.2026", "Freitag, 4. September", "4. September 2026", "4. Sept.", "07:05"],
        ),
    ],
)
def test_dates_and_times_as_each_locale_writes_them(locale, written):
    patterns = ["date", "numeric_date", "long_date", "full_date", "day", "time"]
    assert [format_date(FRIDAY, p, locale) for p in patterns] == written
    assert format_date(FRIDAY.time(), "time", locale) == written[-1]


def test_money_as_each_locale_writes_it():
    assert format_money(-123456, "USD", "en_US") == "-$1,234.56"
    assert format_money(123456, "EUR", "de_DE") == "1.234,56 €"
    assert format_money(123456, "DKK", "de_DE") == "1.234,56 DKK"
    assert money_in(120590, "EUR", "en_GB") == "€1,205.90"
    assert money_in(9157550, "JPY", "en_US") == "¥91,576"
    assert money_in(954500, "DKK", "en_US") == "DKK 9,545.00"
    assert money_in(954500, "DKK", "de_DE") == "9.545,00 DKK"
    assert money_in(120590, "EUR", "de_DE") == "1.205,90 €"
    assert sheets.money_code("EUR", "de_DE") == '#,##0.00 "€";-#,##0.00 "€"'
    assert sheets.money_code("GBP", "en_GB") == '"£"#,##0.00;-"£"#,##0.00'


def test_public_holidays_from_the_banks():
    us = public_holidays("en_US", 2027)
    assert us[dt.date(2027, 7, 5)] == "Independence Day"  # a Sunday, observed Monday
    assert us[dt.date(2027, 12, 24)] == "Christmas Day"  # a Saturday, observed Friday
    assert us[dt.date(2027, 11, 26)] == "Day after Thanksgiving"
    gb = public_holidays("en_GB", 2026)
    assert gb[dt.date(2026, 12, 25)] == "Christmas Day" and gb[dt.date(2026, 12, 28)] == "Boxing Day"
    assert public_holidays("en_GB", 2027)[dt.date(2027, 1, 1)] == "New Year's Day"
    assert public_holidays("en_GB", 2022)[dt.date(2022, 1, 3)] == "New Year's Day"  # Saturday -> Monday
    assert set(public_holidays("en_GB", 2022)) >= {dt.date(2022, 12, 27), dt.date(2022, 12, 28)}
    de = public_holidays("de_DE", 2026)
    assert de[dt.date(2026, 5, 25)] == "Pfingstmontag" and de[dt.date(2026, 10, 3)] == "Tag der Deutschen Einheit"
    assert len(de) == 9


def test_week_start_language_and_units():
    friday = FRIDAY.date()
    assert week_start(friday, "en_US") == dt.date(2026, 8, 30)  # Sunday
    assert week_start(friday, "en_GB") == week_start(friday, "de_DE") == dt.date(2026, 8, 31)  # Monday
    assert week_start(dt.date(2026, 8, 30), "en_US") == dt.date(2026, 8, 30)
    assert [language(loc) for loc in ("en_US", "en_GB", "de_DE")] == ["en", "en", "de"]
    assert [conventions(loc)["distance_unit"] for loc in ("en_US", "en_GB", "de_DE")] == ["mi", "km", "km"]


def test_a_home_abroad_keeps_its_countrys_public_holidays():
    """A persona living outside its locale's country keeps that country's public holidays (the ``holidays``
    package), named in its language where the package has it, else in English: Tokyo's, not Thanksgiving."""
    from builder.persona import complete
    from builder.persona.model import Persona
    from builder.world import simulate
    from builder.world.calendar import holidays_of

    jp = public_holidays("en_US", 2026, "JP")
    assert jp[dt.date(2026, 1, 12)] == "Coming of Age Day" and "Thanksgiving Day" not in jp.values()
    assert public_holidays("de_DE", 2026, "JP")[dt.date(2026, 1, 1)] == "New Year's Day"  # no German names: English
    assert public_holidays("en_US", 2026, "US") == public_holidays("en_US", 2026)  # at home: the locale's own rules
    address = {"street": "2-11-3 Kamimeguro", "city": "Tokyo", "postal_code": "153-0051", "country": "JP"}
    spec = {"identity": {"name": "Rosa Lindqvist", "address": address}, "history_months": 2, "as_of": "2026-11-20"}
    p = complete(Persona.model_validate(spec))
    assert holidays_of(p, 2026) == jp
    shown = {e.data["title"] for e in simulate(p).of_kind("calendar_event") if e.data.get("source") == "holiday"}
    assert {"Culture Day", "Labor Thanksgiving Day"} <= shown and "Thanksgiving Day" not in shown, shown


def test_distances_abroad_are_in_the_home_countrys_unit():
    """A home outside the locale's country measures in that country's unit (miles only in the US, Liberia and
    Myanmar); at home, in the locale's own."""
    from builder.reference.locale import distance_unit

    assert [distance_unit(loc) for loc in ("en_US", "en_GB", "de_DE")] == ["mi", "km", "km"]
    assert (distance_unit("en_US", "JP"), distance_unit("de_DE", "US"), distance_unit("en_US", "US")) == (
        "km",
        "mi",
        "mi",
    )
