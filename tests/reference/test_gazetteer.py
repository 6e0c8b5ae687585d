"""The gazetteer reads real data: cities, airports, countries, currencies, languages and holidays for any country."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo, available_timezones

import pytest

from builder.reference import gazetteer as g

ON = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    "name, country, want_city, want_country, zone, airport, money, locale",
    [
        ("Portland", "US", "Portland", "US", "America/Los_Angeles", "PDX", "USD", "en_US"),
        ("Tokyo", None, "Tokyo", "JP", "Asia/Tokyo", "HND", "JPY", "ja_JP"),
        ("Lagos", None, "Lagos", "NG", "Africa/Lagos", "LOS", "NGN", "en_NG"),
        ("Cologne", None, "Köln", "DE", "Europe/Berlin", "CGN", "EUR", "de_DE"),
        ("koln", "de", "Köln", "DE", "Europe/Berlin", "CGN", "EUR", "de_DE"),
        ("Sao Paulo", None, "São Paulo", "BR", "America/Sao_Paulo", "GRU", "BRL", "pt_BR"),
        ("Toronto", None, "Toronto", "CA", "America/Toronto", "YYZ", "CAD", "en_CA"),
        ("Sydney", None, "Sydney", "AU", "Australia/Sydney", "SYD", "AUD", "en_AU"),
        ("Manchester", "GB", "Manchester", "GB", "Europe/London", "MAN", "GBP", "en_GB"),
        ("Bristol", "GB", "Bristol", "GB", "Europe/London", "BRS", "GBP", "en_GB"),
        ("Bend", "US", "Bend", "US", "America/Los_Angeles", "RDM", "USD", "en_US"),
    ],
)
def test_a_city_anywhere_has_its_zone_airport_currency_and_locale(
    name, country, want_city, want_country, zone, airport, money, locale
):
    city = g.find_city(name, country)
    assert city is not None
    assert (city.name, city.country, city.timezone) == (want_city, want_country, zone)
    home = g.home_airport(city)
    assert home.iata == airport and home.scheduled
    assert g.distance_km(city.latitude, city.longitude, home.latitude, home.longitude) < 60
    assert g.currency(city.country, ON) == money
    assert g.country(city.country).locale == locale


def test_the_most_populous_namesake_wins_unless_a_country_is_given():
    assert g.find_city("Lagos").country == "NG"
    assert g.find_city("Lagos", "PT").country == "PT"
    assert g.find_city("Portland").country == "US" and g.find_city("Portland").admin1 == "OR"
    assert g.find_city("Nowhere-upon-Nothing") is None
    assert g.find_city("Tokyo", "US") is None


def test_every_city_and_airport_has_a_real_zone_and_the_order_is_fixed():
    zones = available_timezones()
    cs = g.cities()
    assert len(cs) > 30_000 and len({c.country for c in cs}) > 200
    assert all(c.timezone in zones for c in cs)
    assert [c.population for c in cs] == sorted((c.population for c in cs), reverse=True)
    ports = g.airports()
    assert [a.iata for a in ports] == sorted(a.iata for a in ports)
    assert all(a.timezone in zones for a in ports)
    scheduled = [a for a in ports if a.scheduled]
    assert 2_000 < len(scheduled) < len(ports)
    assert {a.kind for a in scheduled} == set(g.SCHEDULED_TYPES)
    assert len({a.country for a in scheduled}) > 180


# Territories whose biggest place is more than 400 km from any airport with scheduled service (islands reached by
# ship or by charter): Saint Helena, Pitcairn, the French Southern Lands, South Georgia.
REMOTE = {"SH", "PN", "TF", "GS"}


def test_every_country_with_a_city_has_a_name_a_locale_and_an_airport_within_reach():
    biggest: dict[str, g.City] = {}
    for c in g.cities():
        biggest.setdefault(c.country, c)
    far = set()
    for code, city in sorted(biggest.items()):
        info = g.country(code)
        if info is None:  # GeoNames' XK (Kosovo) is not an ISO 3166-1 code
            assert code == "XK"
            continue
        assert info.name and info.languages and info.locale.count("_") == 1, info
        home = g.home_airport(city)
        if g.distance_km(city.latitude, city.longitude, home.latitude, home.longitude) > 400:
            far.add(code)
    assert far == REMOTE


def test_holidays_in_the_language_asked_and_none_for_an_unknown_country():
    jp = dict(g.public_holidays("JP", range(2026, 2027), language="en_US"))
    assert jp[dt.date(2026, 1, 1)] == "New Year's Day" and len(jp) >= 15
    de = dict(g.public_holidays("DE", (2026,), language="de"))
    assert de[dt.date(2026, 10, 3)] == "Tag der Deutschen Einheit"
    by = dict(g.public_holidays("DE", (2026,), subdivision="BY", language="de"))
    assert dt.date(2026, 1, 6) in by and dt.date(2026, 1, 6) not in de
    assert g.public_holidays("XX", (2026,)) == ()
    assert g.public_holidays("DE", (2026,), subdivision="ZZ", language="de") == tuple(sorted(de.items()))


def test_currency_follows_the_date():
    assert g.currency("HR", dt.date(2022, 6, 1)) == "HRK"
    assert g.currency("HR", dt.date(2023, 6, 1)) == "EUR"
    assert g.currency("US", ON) == "USD"


def test_zones_load():
    for c in (g.find_city("Tokyo"), g.find_city("Lagos")):
        assert ZoneInfo(c.timezone).utcoffset(dt.datetime(2026, 1, 1)) is not None
