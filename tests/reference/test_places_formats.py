"""Reference helpers the world and the projections share (issue 25 moved them out of the world): airports, postal
addresses, plates, reference rates and the locale phrase-bank reader."""

from __future__ import annotations

import random
from decimal import Decimal
from types import SimpleNamespace
from zoneinfo import ZoneInfo

from builder.reference.addresses import format_address, street_address, street_names
from builder.reference.airports import AIRLINES, airport_country, airport_label, airport_tz, airport_zone
from builder.reference.locale import HERE, conventions, read_bank
from builder.reference.places import reference_rate
from builder.reference.plates import plate


def _address(country: str, **kw) -> SimpleNamespace:
    base = {"street": "1 Main St", "city": "Portland", "region": "OR", "postal_code": "97201", "country": country}
    return SimpleNamespace(**{**base, **kw})


def test_airports():
    assert airport_label("PDX") == "PDX Portland International Airport" and airport_label("ZZZ") == "ZZZ Airport"
    assert airport_zone("PDX", "") == "America/Los_Angeles" and airport_zone("ZZZ", "UTC") == "UTC"
    assert airport_tz("PDX") == ZoneInfo("America/Los_Angeles") and airport_tz(None) is None
    assert airport_country("PDX") == "US" and airport_country("LHR") == "GB"
    assert [code for code, _, _ in AIRLINES.values()] == ["MR"]


def test_addresses():
    assert format_address(_address("US")) == "1 Main St, Portland, OR 97201"
    assert format_address(_address("DE", city="Hamburg", postal_code="20095")) == "1 Main St, 20095 Hamburg"
    assert format_address(None) == ""
    assert street_names("FR") == street_names("US") != street_names("DE")
    fake = SimpleNamespace(random=random.Random(7))
    line = street_address(fake, _address("GB", city="Leeds", region=None))
    assert line.endswith(", Leeds") and line.split()[0].isdigit()
    assert street_address(SimpleNamespace(random=random.Random(7)), None).split()[0].isdigit()


def test_addresses_without_region_have_no_none():
    """A missing region is left out of an address line (never ``"None"``): the persona's, DashBite's generated
    restaurants' and TableTime's catalogue rows (a city without a region)."""
    from builder.reference.delivery.catalogue import city_spec, generate_city
    from builder.reference.dining.generate import _address as dining_address

    assert format_address(_address("US", city="Austin", region=None, postal_code="78702")) == "1 Main St, Austin, 78702"
    assert format_address(_address("CA", city="Toronto", region="", postal_code="M5S 1G5")) == (
        "1 Main St, Toronto, M5S 1G5"
    )
    for region in (None, ""):
        rows = generate_city("Austin", city_spec("Austin", "US", region, "USD"))
        assert rows and not [r["address"] for r in rows if "None" in r["address"] or ",  " in r["address"]]
        assert rows[0]["address"].endswith(", Austin, 00001")
        for country in ("US", "CA"):
            line = dining_address("Austin", {"country": country, "region": region}, "1 Main St", "78702")
            assert line == "1 Main St, Austin, 78702"


def test_plates_and_rates():
    assert plate(random.Random(1), "DE", "Hamburg").startswith("HH-")
    assert reference_rate("EUR", "USD") == Decimal("1.086957") and reference_rate("XYZ", "USD") == Decimal(1)


def test_read_bank_extends_and_falls_back():
    gb, us = read_bank(HERE, "en_GB"), read_bank(HERE, "en_US")
    assert gb["months"] == us["months"] and gb["formats"]["time"] != us["formats"]["time"]
    assert read_bank(HERE, "fr_FR") == us and conventions("en_GB") is gb


def test_a_destination_the_lodging_catalog_lacks_takes_the_gazetteers_facts():
    """Bramblestay's facts of a city its catalog does not list come from the gazetteer: the country's name, the
    zone, the point (listings and rides near the city, not at 0°, 0°), the southern summer south of the equator,
    house numbers first where English is the country's language; dollars where the world keeps no rate."""
    from builder.reference.lodging.inventory import city_info

    abuja, auckland = city_info("Abuja"), city_info("Auckland")
    assert (abuja["country"], abuja["zone"], abuja["number_first"]) == ("Nigeria", "Africa/Lagos", True)
    assert abs(abuja["lat"] - 9.06) < 0.1 and abs(abuja["lon"] - 7.49) < 0.1
    assert (auckland["zone"], auckland["season"]) == ("Pacific/Auckland", "12,1,2")
    # Abuja's naira and Nairobi's shilling have rates (the NBP tables, builder/reference/fx.py); a currency no
    # source rates would be priced in dollars.
    assert city_info("Nagoya")["currency"] == "JPY" and abuja["currency"] == "NGN"
    assert city_info("Nairobi")["currency"] == "KES"
    assert city_info("Lisbon")["number_first"] is False


def test_the_hemisphere_comes_from_the_homes_latitude():
    """Seasons flip south of the equator, by the home city's GeoNames latitude (else the country's most populous
    city's): Sydney's December is summer, Quito's too (0.2° S), Bogotá's (4.6° N) and Toronto's are not."""
    import datetime as dt

    from builder.reference.locale import season

    december = dt.date(2026, 12, 15)
    assert season(december, "AU", "Sydney") == season(december, "AU") == "summer"
    assert season(december, "EC", "Quito") == "summer" and season(december, "CO", "Bogotá") == "winter"
    assert season(december, "CA", "Toronto") == season(december, "US") == "winter"
    assert season(december, "XX") == "winter"  # a country the gazetteer does not know: the north's


def test_streets_abroad_are_written_as_their_country_writes_them():
    """A country without a street list of its own gets street lines in its language's grammar, named after its
    neighbourhoods near the city (GeoNames) or its surnames: Tokyo's chōme-banchi-gō, São Paulo's "Rua X, 12",
    Lagos's "12 X Road"; the same draws give the same line."""
    import random
    import re

    from builder.reference import gazetteer
    from builder.reference.addresses import street_line

    tokyo = [street_line(random.Random(i), "JP", "Tokyo") for i in range(20)]
    assert all(re.fullmatch(r"[1-6]-\d{1,2}-\d{1,2} \S.*", s) for s in tokyo), tokyo
    # Japan's names are places, never a kanji surname; Tokyo's are its own wards and towns, not Saitama's cities.
    near = {c.name for c in gazetteer.cities_in("JP") if c.admin1 == gazetteer.find_city("Tokyo", "JP").admin1}
    assert all(s.split(" ", 1)[1] in near for s in tokyo), tokyo
    sao_paulo = [street_line(random.Random(i), "BR", "São Paulo") for i in range(20)]
    assert all(re.fullmatch(r"(Rua|Avenida|Travessa|Alameda) .+, \d+", s) for s in sao_paulo), sao_paulo
    lagos = [street_line(random.Random(i), "NG", "Lagos") for i in range(20)]
    assert all(re.fullmatch(r"\d+ .+ (Street|Road|Avenue|Close|Crescent|Lane|Way)", s) for s in lagos), lagos
    assert street_line(random.Random(7), "JP", "Tokyo") == street_line(random.Random(7), "JP", "Tokyo")


def test_dashbite_lists_restaurants_of_any_city_on_its_own_streets():
    """DashBite's restaurants in a city its file does not list, outside the US, UK and Germany: named after and
    placed in the city's real neighbourhoods (GeoNames), on streets as the country writes them, with postcodes near
    the persona's; never the made-up "Downtown" at postcode 00001."""
    import re

    from builder.persona import Persona, complete
    from builder.reference.addresses import neighbourhoods
    from builder.reference.delivery.catalogue import home_catalogue

    address = {"street": "2-11-3 Kamimeguro", "city": "Tokyo", "postal_code": "153-0051", "country": "JP"}
    p = complete(Persona.model_validate({"identity": {"name": "Kenji Watanabe", "address": address}}))
    listed = home_catalogue(p)
    assert len(listed) >= 20
    assert {r["neighbourhood"] for r in listed} <= set(neighbourhoods("JP", "Tokyo"))
    for r in listed:
        assert re.fullmatch(r"\d-\d{1,2}-\d{1,2} .+, Tokyo 153-00\d\d", r["address"]), r["address"]


def test_a_warm_homes_winter_is_mild_in_its_weather_talk():
    """Within 35° of the equator winter is ``mild`` for the phrase banks (no frost, snow or icy roads in São Paulo or
    Lagos); Tokyo and the shipped personas' cities keep their winter; seasons still flip south of the equator."""
    import datetime as dt

    from builder.reference.locale import felt_season, warm
    from builder.world.chat import Voice

    july, january = dt.date(2026, 7, 15), dt.date(2026, 1, 15)
    assert felt_season(july, "BR", "São Paulo") == "mild" and felt_season(january, "BR", "São Paulo") == "summer"
    assert felt_season(january, "NG", "Lagos") == "mild" and felt_season(january, "JP", "Tokyo") == "winter"
    for country, city in [("US", "Portland"), ("US", "Denver"), ("GB", "Manchester"), ("DE", "Hamburg")]:
        assert not warm(country, city), city
    for locale in ("en_US", "en_GB", "de_DE"):
        lines = Voice(locale, "BR", "São Paulo").pool("weather_now", july)
        assert lines and not any(w in " ".join(lines) for w in ("snow", "icy", "freezing", "geschneit", "glatt"))
        assert Voice(locale, "BR", "São Paulo").pool("dinner_food", july) == Voice(locale, "US").pool(
            "dinner_food", dt.date(2026, 10, 15)
        )  # a slot without a mild variant takes autumn's
    # Lines that fit only the locale's own country stay at home: no Fahrenheit in Rio's summer.
    rio_summer = Voice("en_US", "BR", "Rio de Janeiro").pool("weather_now", january)
    assert "it's 95 out" not in rio_summer and "it's 95 out" in Voice("en_US", "US").pool("weather_now", july)
