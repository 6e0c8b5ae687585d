"""builder.reference.people: whose names the people of a country get, and the gender a given name tells."""

from __future__ import annotations

import re

import builder.persona  # noqa: F401  (the reference package's import order: persona first)
from builder.reference import people
from builder.rng import faker
from faker.providers.person.en_NG import Provider as NG
from faker.providers.person.ja_JP import Provider as JP
from faker.providers.person.pt_BR import Provider as BR

TUNED = ("en_US", "en_GB", "de_DE")  # the locales with phrase banks of their own


def test_names_at_home_are_the_locales_own_draws():
    for loc in TUNED:
        for country in (None, loc[-2:]):
            assert people.names_locale(loc, country) == (loc, "")
            n, f = people.names(7, "x/name", loc, country), faker(7, "x/name", loc)
            assert [n.first_name(), n.last_name(), n.first_name_female(), n.first_name_male()] == [
                f.first_name(),
                f.last_name(),
                f.first_name_female(),
                f.first_name_male(),
            ]


def test_names_abroad_by_script():
    assert people.names_locale("en_US", "JP") == ("ja_JP", "romanized")  # romanized: Latin text
    assert people.names_locale("de_DE", "CN") == ("zh_CN", "romanized")
    assert people.names_locale("en_US", "BR") == ("pt_BR", "")  # Latin names as they are
    assert people.names_locale("en_GB", "NG") == ("en_NG", "")
    assert people.names_locale("en_US", "IN") == ("en_IN", "")  # hi_IN is Devanagari: India's Latin locale
    assert people.names_locale("en_US", "RU") == ("ru_RU", "latinized")  # Cyrillic only: written in Latin letters
    assert people.names_locale("de_DE", "KZ") == ("ru_RU", "latinized")  # no kk names in Faker: Russian ones
    assert people.names_locale("de_DE", "VE") == ("es_ES", "")  # no es_VE: the language's own country's
    assert people.names_locale("en_GB", "CA") == ("en_GB", "")  # English is Canada's too; no en_CA names of its own
    ru = people.names(0, "x", "en_US", "RU")
    assert all(ru.last_name().isascii() and ru.first_name_female().isascii() for _ in range(30))
    n = people.names(0, "x", "en_US", "JP")
    for _ in range(30):
        assert n.first_name_male() in JP.first_romanized_names_male
        assert n.first_name_female() in JP.first_romanized_names_female
        assert n.last_name() in JP.last_romanized_names
    tw = people.names(0, "x", "en_US", "TW")
    assert all(not tw.last_name().isupper() for _ in range(20))  # Faker's capitals as people write them


def test_gender_of_knows_each_locales_lists():
    assert people.gender_of("Kenji Watanabe", "en_US", "JP") == "male"  # Faker's generic English list
    assert people.gender_of("Kenji Watanabe", "en_US") is None  # at home: today's lists only
    for name in JP.first_romanized_names_male[:10]:
        assert people.gender_of(f"{name} Sato", "en_US", "JP") == "male"
        assert people.gender_of(f"{name} Sato", "ja_JP") == "male"
    for name in JP.first_romanized_names_female[:10]:
        assert people.gender_of(f"{name} Sato", "de_DE", "JP") == "female"
    for name in list(NG.first_names_female)[:10]:
        assert people.gender_of(f"{name} Okafor", "en_GB", "NG") in ("female", None)
    assert people.gender_of("Adaeze Okafor", "en_US", "NG") == "female"
    told = {people.gender_of(f"{n} Silva", "en_US", "BR") for n in list(BR.first_names_male)[:40]}
    assert told <= {"male", None} and "male" in told
    assert people.gender_of("Hsiu-Feng Lin", "en_US", "TW") in ("female", "male")


def test_gender_of_at_home_is_todays_rule():
    """The rule before this module (en_US's and the locale's lists, a name of both genders tells nothing) for every
    name those lists hold and some they lack, with or without the home country."""
    import importlib

    for loc in TUNED:
        female, male = set(), set()
        for x in dict.fromkeys(["en_US", loc]):
            prov = importlib.import_module(f"faker.providers.person.{x}").Provider
            female.update(prov.first_names_female)
            male.update(prov.first_names_male)
        for name in sorted(female | male) + ["Kenji", "Aoife", "Jordan", "Xyzzy"]:
            today = "female" if name in female - male else "male" if name in male - female else None
            assert people.gender_of(name, loc) == today, name
            assert people.gender_of(name, loc, loc[-2:]) == today, name


def test_mc_surnames_are_cased_as_people_write_them():
    from builder.rng import surname_cased

    assert surname_cased("Mcdonald") == "McDonald" and surname_cased("Lisa Mcknight") == "Lisa McKnight"
    assert surname_cased("Macdonald") == "Macdonald" and surname_cased("Mc") == "Mc"
    fake = faker(3, "x/mc", "en_US")
    drawn = [fake.name() for _ in range(3000)]
    assert any("Mc" in n for n in drawn) and not any(re.search(r"\bMc[a-z]", n) for n in drawn)


def test_called_is_the_first_name_unless_someone_else_has_it():
    known = ["Yong He", "Yong Yang", "Wei Liang"]
    assert people.called("Yong Yang", known) == "Yong Yang"
    assert people.called("Wei Liang", known) == "Wei"
    assert people.called("Wei Liang", ["Wei Liang"]) == "Wei"
