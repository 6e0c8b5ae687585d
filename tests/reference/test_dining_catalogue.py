"""TableTime's catalogue for any city (builder/reference/dining/catalogue.py, issue 26 step 16): generated per city,
never per persona, from the grammar of generate.py, on the city's own streets; the file's rows kept as they are."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from builder.reference import gazetteer, phones
from builder.reference.dining import restaurants
from builder.reference.dining.catalogue import city_catalogue, generated
from builder.reference.dining.generate import MAIN

# City, country, the address a generated row ends with, the country's own cuisine.
CITIES = {
    "Tokyo": ("JP", r"\d+-chome \d+-\d+, Tokyo \d{3}-\d{4}|.+ \d+-\d+, Tokyo \d{3}-\d{4}", "Japanese"),
    "Lagos": ("NG", r"\d+ .+ (Street|Road|Avenue|Close|Crescent|Lane|Way), Lagos", "Nigerian"),
    "São Paulo": ("BR", r"(Rua|Avenida|Travessa|Alameda) .+, \d+, São Paulo( \d{5}-\d{3})?", "Brazilian"),
    "Leeds": (
        "GB",
        r"\d+ .+ (Street|Road|Avenue|Close|Crescent|Lane|Way), Leeds [A-Z]{1,2}\d{1,2} \d[A-Z]{2}",
        "British",
    ),
    "Seattle": ("US", r"\d+ .+ (Street|Road|Avenue|Close|Crescent|Lane|Way), Seattle, WA 9[89]\d{3}", "American"),
}


def _city(name: str) -> gazetteer.City:
    return gazetteer.find_city(name, CITIES[name][0])


@pytest.mark.parametrize("name", sorted(CITIES))
def test_generated_restaurants_are_believable_for_the_city(name):
    country, address, own = CITIES[name]
    city = _city(name)
    rows = city_catalogue(city)
    made = generated(city)
    assert len(made) >= 20 and len(rows) >= 34
    assert {x["cuisine"] for x in rows} >= set(MAIN) | {own}
    assert sum(x["cuisine"] == own for x in rows) == 4  # the country's own cuisine, weighted up
    assert len({x["name"] for x in rows}) == len(rows), "a name twice in one city"
    file_slugs = {x["slug"] for x in restaurants()}
    assert len({x["slug"] for x in made}) == len(made) and not file_slugs & {x["slug"] for x in made}
    code = phones.calling_code(country)
    for x in made:
        assert set(x) == set(restaurants()[0]), x["name"]
        text = repr(x)
        assert "None" not in text and "00001" not in text and "lorem" not in text.lower(), x
        assert re.fullmatch(address, x["address"]), x["address"]
        assert x["address"].startswith(x["street"]) and x["city"] == name and x["country"] == country
        assert x["zone"] == city.timezone
        assert x["phone"].startswith(f"+{code} ") and re.fullmatch(r"\+[\d -]{9,}\d", x["phone"]), x["phone"]
        assert x["currency"] in (gazetteer.currency(country, dt.date(2024, 1, 1)), "USD")
        assert x["menu"] and all(d["price_cents"] > 0 for d in x["menu"])
        assert x["blurb"].endswith(f" in {x['neighbourhood']}.")


def test_generated_catalogues_are_deterministic_and_differ_between_cities():
    first = {name: generated(_city(name)) for name in CITIES}
    generated.cache_clear()
    assert {name: generated(_city(name)) for name in CITIES} == first
    names = [tuple(x["name"] for x in rows) for rows in first.values()]
    assert len(set(names)) == len(names)
    streets = [x["street"] for rows in first.values() for x in rows]
    assert len(set(streets)) > 0.9 * len(streets)


def test_the_file_keeps_its_cities():
    """A home city of the file gets nothing more; a trip city of it (Tokyo) keeps its rows and gains the rest."""
    portland = gazetteer.find_city("Portland", "US", "OR")
    assert generated(portland) == ()
    assert list(city_catalogue(portland)) == [x for x in restaurants() if x["city"] == "Portland"]
    tokyo = [x for x in restaurants() if x["city"] == "Tokyo"]
    assert set(map(repr, tokyo)) <= set(map(repr, city_catalogue(_city("Tokyo"))))


def test_a_city_is_written_as_the_persona_spells_it_but_drawn_once():
    cologne = gazetteer.find_city("Köln", "DE")
    a, b = generated(cologne, "Köln"), generated(cologne)
    assert [x["name"] for x in a] == [x["name"] for x in b]
    assert all(x["address"].endswith(" Köln") for x in a) and all(x["city"] == cologne.name for x in b)
