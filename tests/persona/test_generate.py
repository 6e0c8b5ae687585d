"""The persona generator (``new-persona``): deterministic, spread across the world, every spec valid and buildable."""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from functools import cache

import pytest
from typer.testing import CliRunner

from builder.persona import complete
from builder.persona.generate import (
    STAGES,
    _cli,
    age_on,
    default_language,
    persona,
    population,
    resolve_city,
    write_population,
)
from builder.persona.model import Persona


@cache
def _fifty():
    return population(50, 1)


def _run(*args: str):
    return CliRunner().invoke(_cli(), list(args), catch_exceptions=False)


def test_same_arguments_write_byte_identical_files(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    write_population(population(12, 3), a)
    write_population(population(12, 3), b)
    files = sorted(p.name for p in a.iterdir())
    assert "population.csv" in files and len(files) == 13
    assert files == sorted(p.name for p in b.iterdir())
    for name in files:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    one, two = _run("--city", "Lagos", "--seed", "7"), _run("--city", "Lagos", "--seed", "7")
    assert one.exit_code == 0 and one.stdout == two.stdout
    assert _run("--city", "Lagos", "--seed", "8").stdout != one.stdout


def test_a_population_of_fifty_spreads_across_countries_stages_ages_and_homes():
    summaries = [s for _, s in _fifty()]
    assert len({s.country for s in summaries}) >= 25
    assert {s.life_stage for s in summaries} == set(STAGES)
    assert len({s.household for s in summaries}) >= 5
    assert len({s.income for s in summaries}) == 3
    assert len({s.locale for s in summaries}) >= 20 and len({s.language for s in summaries}) == 2
    assert len({s.occupation for s in summaries}) >= 25
    for spec, s in _fifty():
        lo, hi = STAGES[s.life_stage]
        born = Persona.model_validate(spec).identity.birth_date
        assert 18 <= s.age <= 80 and lo <= s.age <= hi and age_on(born, Persona.model_validate(spec).as_of) == s.age
    # Not only the US: at least four regions of the world have their big cities in it.
    from builder.persona.generate import region_of

    regions = Counter(region_of(resolve_city(s.city, s.country)) for s in summaries)
    assert len(regions) >= 5, regions


def test_every_generated_spec_validates_and_completes():
    ids = set()
    for spec, summary in _fifty():
        p = Persona.model_validate(json.loads(json.dumps(spec)))
        assert p.identity.address.city == summary.city and p.identity.address.country == summary.country
        assert p.id not in ids
        ids.add(p.id)
    for spec, _ in _fifty()[::10]:
        done = complete(Persona.model_validate(spec))
        assert done.work.role == spec["work"]["role"] and done.finances.currency == spec["finances"]["currency"]


def test_households_match_the_life_stage():
    for spec, s in _fifty():
        rel = Counter(c["relationship"] for c in spec["contacts"])
        home = spec["identity"]["address"]
        at_home = [c for c in spec["contacts"] if c.get("address") == home]
        if s.life_stage == "parent":
            assert any(c["relationship"] == "child" for c in at_home), s
        if s.household in ("couple", "married", "partner") or s.household.startswith("couple"):
            assert rel["spouse"] + rel["partner"] == 1 and at_home, s
        as_of = Persona.model_validate(spec).as_of
        for c in spec["contacts"]:
            if c["relationship"] == "parent":  # a parent still alive: at most 90
                assert age_on(dt.date.fromisoformat(c["birthday"]), as_of) <= 90, (s, c)


def test_single_persona_options_and_languages():
    lagos = resolve_city("Lagos")
    spec, s = persona(lagos, 7, stage="retired")
    assert s.life_stage == "retired" and 62 <= s.age <= 80
    assert (spec["locale"], spec["language"]) == ("en_NG", "en")
    hamburg = resolve_city("Hamburg", "DE")
    assert (persona(hamburg, 7)[0]["locale"], persona(hamburg, 7)[0]["language"]) == ("de_DE", "de")
    assert (persona(hamburg, 7, language="en")[0]["locale"], persona(hamburg, 7, language="en")[0]["language"]) == (
        "de_DE",
        "en",
    )
    tokyo, _ = persona(resolve_city("Tokyo"), 7, language="de")
    assert (tokyo["locale"], tokyo["language"]) == ("ja_JP", "de")
    # The text's phrase bank is the one the completion picks for the same locale and language.
    assert Persona.model_validate(spec).bank == "en_GB" and Persona.model_validate(tokyo).bank == "de_DE"
    assert [default_language(c) for c in ("DE", "AT", "CH", "LI", "NG", "US")] == ["de"] * 4 + ["en"] * 2


def test_the_command_writes_a_file_and_refuses_an_unknown_city_in_one_line(tmp_path):
    res = _run("--city", "Lagos", "--seed", "7", "--life-stage", "student", "--out", str(tmp_path))
    assert res.exit_code == 0, res.output
    (path,) = tmp_path.glob("*.json")
    assert Persona.model_validate(json.loads(path.read_text()))
    for args, message in [
        (["--city", "Atlantis of the North"], "no city of 15,000 people or more called 'Atlantis of the North'"),
        (["--city", "Lagos", "--country", "DE"], "in DE"),
        (["--city", "Lagos", "--language", "fr"], "unknown language 'fr'"),
        (["--city", "Lagos", "--life-stage", "toddler"], "unknown life stage 'toddler'"),
        (["--population", "3"], "--population needs --out DIR"),
    ]:
        res = _run(*args)
        assert res.exit_code == 2, (args, res.output)
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("new-persona: ") and message in lines[0], lines
        assert "Traceback" not in res.output


def test_population_command_writes_specs_and_a_summary(tmp_path):
    res = _run("--population", "6", "--seed", "2", "--out", str(tmp_path))
    assert res.exit_code == 0, res.output
    rows = (tmp_path / "population.csv").read_text().splitlines()
    assert rows[0].startswith("id,city,country,age,life_stage,occupation,language") and len(rows) == 7
    assert len(list(tmp_path.glob("*.json"))) == 6


@pytest.mark.pipeline
def test_a_generated_persona_simulates():
    from builder.world import simulate

    spec, _ = persona(resolve_city("Nairobi"), 11, stage="parent")
    world = simulate(complete(Persona.model_validate(spec)))
    assert world.events


def test_names_of_the_country_in_latin_letters_and_each_gender_s_surname():
    from builder.persona.generate import gendered_surname, names_locale
    from builder.reference.people import latinized

    assert latinized("Олена Шевченко") == "Olena Shevchenko" and latinized("Γεώργιος") == "Georgios"
    assert gendered_surname("Смирнова", "male", "ru_RU") == "Смирнов"
    assert gendered_surname("Novák", "female", "cs_CZ") == "Nováková"
    assert gendered_surname("Smith", "female", "en_US") == "Smith"
    assert names_locale("en_GB", "UA") == ("uk_UA", "latinized")
    assert names_locale("en_US", "VE")[0].startswith("es_")
    assert names_locale("en_US", "JP") == ("ja_JP", "romanized")
    spec, _ = persona(resolve_city("Moscow"), 3, stage="parent")
    assert spec["identity"]["name"].isascii()
