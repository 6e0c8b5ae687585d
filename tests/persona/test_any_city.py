"""Any city of the gazetteer is a home: a sample of cities on every continent, each completed from a bare spec (a
name and an address), simulated and given its tasks, without a traceback and with the facts of where it lives.

Full lane (``pipeline``): about ten seconds a city. The cities are a fixed draw (seed 2026) of the gazetteer's cities
of 300,000 people or more, two from each region of the time-zone database, with a locale, seed and street drawn
alongside; the fast lane covers Tokyo and Lagos (tests/persona/test_completion.py).
"""

from __future__ import annotations

import random
import re

import pytest

from builder.apps import discover
from builder.persona import Persona, complete
from builder.persona.places import flown
from builder.reference import gazetteer
from builder.reference.addresses import street_line
from builder.tasks.collect import app_tasks
from builder.world import simulate

REGIONS = ("Africa", "America", "Asia", "Australia", "Europe", "Pacific")


def _sample() -> list[tuple[gazetteer.City, str, int]]:
    r = random.Random(2026)
    out = []
    for region in REGIONS:
        pool = [c for c in gazetteer.cities() if c.population >= 300_000 and c.timezone.startswith(region + "/")]
        if region == "Pacific":  # a single city of that size or none: take the biggest the region has
            pool = [c for c in gazetteer.cities() if c.timezone.startswith("Pacific/")][:2]
        for city in r.sample(pool, min(2, len(pool))):
            out.append((city, r.choice(["en_US", "en_GB", "de_DE"]), r.randrange(10_000)))
    return out


SAMPLE = _sample()


@pytest.mark.pipeline
@pytest.mark.parametrize("city,locale,seed", SAMPLE, ids=[f"{c.name}-{c.country}" for c, _, _ in SAMPLE])
def test_a_bare_spec_anywhere_builds_where_it_lives(city, locale, seed):
    street = street_line(random.Random(seed), city.country, city.name)
    address = {"street": street, "city": city.name, "postal_code": "10001", "country": city.country}
    spec = {"seed": seed, "locale": locale, "identity": {"name": "Alex Morgan", "address": address}}
    p = complete(Persona.model_validate(spec))
    assert p.timezone == city.timezone
    assert p.travel.home_airport == gazetteer.home_airport(city).iata
    world = simulate(p)
    for e in world.of_kind("ride"):
        assert e.data["distance_miles"] < 125, (e.data["pickup"], e.data["dropoff"], e.data["distance_miles"])
    for t in p.travel.trips:
        there = gazetteer.airport(t.airport)
        assert there is not None and there.scheduled, t
        if city.country != p.bank.split("_")[-1]:
            assert flown(city, gazetteer.find_city(t.destination) or city) or t.purpose == "family", t
    text = " ".join(str(e.data) for e in world.events)
    assert not re.search(r"\bNone \d|, None\b|\b00001\b", text), re.search(r".{80}(None|00001).{40}", text)
    tasks = [t for a in discover() for t in app_tasks(world, a.name)]
    assert len(tasks) > 150
