"""TableTime's restaurants outside its catalogue (issue 26): homes whose city or cuisines the catalogue lacks.

For seed-0 specs of Austin (the catalogue lacks the persona's cuisines there), Seattle and Leeds (its file lists
neither city: their restaurants are generated, builder/reference/dining/catalogue.py), the world books restaurants
the file does not have and the seed lists them too (:func:`apps.dining.seed.listed`). Every task of such a world builds (world and tasks, no layer), and every
restaurant a task involving TableTime names is one the seeded database holds.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from apps.dining.seed import listed
from builder.apps import discover
from builder.persona import complete
from builder.persona.model import Persona
from builder.reference.dining import restaurants
from builder.tasks import collect
from builder.world import simulate
from tests.conftest import tokyo_world

# The survey's specs (a name and an address; seed 0, the default as_of).
HOMES = {
    "austin": ("en_US", "Maya Delgado", ("1204 E 6th St", "Austin", "78702", "US")),
    "seattle": ("en_US", "Priya Raman", ("512 NE 65th St", "Seattle", "98115", "US")),
    "leeds": ("en_GB", "Hannah Whitaker", ("27 Cardigan Road", "Leeds", "LS6 3AG", "GB")),
}


@lru_cache(maxsize=None)
def _world(home: str):
    locale, name, (street, city, postal_code, country) = HOMES[home]
    spec = Persona.model_validate(
        {
            "locale": locale,
            "identity": {
                "name": name,
                "address": {"street": street, "city": city, "postal_code": postal_code, "country": country},
            },
        }
    )
    return simulate(complete(spec))


@pytest.mark.parametrize("home", sorted(HOMES))
def test_dining_tasks_name_only_restaurants_the_app_lists(home):
    world = _world(home)
    held = listed(world)
    catalogue = {(x["name"], x["address"]) for x in restaurants()}
    world_only = [x for x in held if (x["name"], x["address"]) not in catalogue]
    assert world_only, "the world booked no restaurant outside the catalogue: the test lost its point"
    assert len(held) == len(restaurants()) + len(world_only)
    assert len({x["slug"] for x in held}) == len(held)
    booked = {(e.data["restaurant"], e.data["address"]) for e in world.of_kind("restaurant_booking")}
    assert booked <= {(x["name"], x["address"]) for x in held}

    tasks = collect.tasks(world, list(discover()))
    dining = [t for t in tasks if "dining" in t.apps_involved]
    assert any(t.id.split("/")[1] == "dining" for t in dining)
    slugs, names = {x["slug"] for x in held}, {x["name"] for x in held}
    named = 0
    for t in dining:
        if "slug" in t.expected:
            assert t.expected["slug"] in slugs, (t.id, t.expected["slug"])
        if "restaurant" in t.expected:
            assert t.expected["restaurant"] in names, (t.id, t.expected["restaurant"])
            named += 1
    assert named, "no TableTime task names a restaurant"
    assert {x["slug"] for x in world_only} & {t.expected.get("slug") for t in dining}, (
        "no task books a restaurant outside the catalogue"
    )


# Homes whose city TableTime's file lacks (Lagos) or lists only as a trip city (Tokyo): survey26's specs.
ANY_CITY = {
    "tokyo": ("en_US", "Kenji Watanabe", ("2-11-3 Kamimeguro, Meguro-ku", "Tokyo", "153-0051", "JP")),
    "lagos": ("en_US", "Adaeze Okafor", ("14 Admiralty Way, Lekki Phase 1", "Lagos", "106104", "NG")),
}


@pytest.mark.parametrize("home", sorted(ANY_CITY))
def test_the_world_books_in_any_city_only_restaurants_the_catalogue_lists(home):
    """The world books the home city's catalogue restaurants (generated for the city, at their addresses), which the
    app lists as catalogue rows, never as world-only ones."""
    from apps.dining.seed import _home_generated
    from builder.world import dining

    locale, name, (street, city, postal_code, country) = ANY_CITY[home]
    spec = {"street": street, "city": city, "postal_code": postal_code, "country": country}
    spec = {"locale": locale, "identity": {"name": name, "address": spec}}
    # Tokyo's spec is tests/data/tokyo-persona.json: its world is shared with the other tests of a home abroad.
    world = tokyo_world()[1] if home == "tokyo" else simulate(complete(Persona.model_validate(spec)))
    assert world.persona.identity.name == name
    booked = {(e.data["restaurant"], e.data["address"]) for e in world.of_kind("restaurant_booking")}
    assert len(booked) >= 5
    catalogue = {(x["name"], x["address"]) for x in (*restaurants(), *_home_generated(world))}
    assert booked <= catalogue
    assert booked <= {(x["name"], x["address"]) for x in dining.at_home(world.persona)}
    assert {(x["name"], x["address"]) for x in listed(world)} == catalogue  # nothing world-only
    # The home's generated rows, then each trip destination's (the catalogue TableTime shows a traveller).
    rows = _home_generated(world)
    home_rows = [x for x in rows if x["city"] == city]
    assert home_rows and all(x["country"] == country for x in home_rows)
    assert {x["city"] for x in rows} - {city} <= {t.destination for t in world.persona.travel.trips}


@pytest.mark.parametrize("home", ["austin", "leeds"])
def test_world_only_restaurants_have_their_own_landlines(home):
    """Not the persona's own number with seven digits after it (the survey's +1 314-555-0158 477 9254): a number of
    the home's country in its fictional range (US, UK), each restaurant its own."""
    from apps.dining.seed import _home_generated

    # Cuisines TableTime has nowhere: the world names its own restaurants for them (world-only rows).
    locale, name, (street, city, postal_code, country) = HOMES[home]
    address = {"street": street, "city": city, "postal_code": postal_code, "country": country}
    spec = {"locale": locale, "identity": {"name": name, "address": address}}
    world = simulate(complete(Persona.model_validate({**spec, "preferences": {"cuisines": ["Peruvian", "Burmese"]}})))
    catalogue = {(x["name"], x["address"]) for x in (*restaurants(), *_home_generated(world))}
    world_only = [x for x in listed(world) if (x["name"], x["address"]) not in catalogue]
    assert world_only
    mine = world.persona.identity.phone
    pattern = {
        "austin": r"\+1 [2-9]\d\d-555-01\d\d",
        "seattle": r"\+1 [2-9]\d\d-555-01\d\d",
        "leeds": r"\+44 7700 900\d{3}",
    }
    for x in world_only:
        assert not x["phone"].startswith(mine), x
        assert re.fullmatch(pattern[home], x["phone"]), x["phone"]
