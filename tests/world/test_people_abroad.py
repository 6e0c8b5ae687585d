"""A persona living outside its locale's country (issue 26): the people around it are named as that country names
its people, the name tells the persona's own gender, and the world's people (colleagues, recruiters, drivers, the
hair salon) are the country's too. The spec is the new user's trial: locale ja_JP, English (en_US) text, a home in
Tokyo."""

from __future__ import annotations

import re

import pytest
from faker.providers.person.ja_JP import Provider as JP

from builder.persona import Persona, complete
from builder.world.mail import parent_name
from tests.conftest import tokyo_world

TOKYO = {
    "locale": "ja_JP",
    "identity": {
        "name": "Kenji Watanabe",
        "address": {
            "street": "2-11-3 Kamimeguro, Meguro-ku",
            "city": "Tokyo",
            "postal_code": "153-0051",
            "country": "JP",
        },
    },
}
FIRST = set(JP.first_romanized_names_female) | set(JP.first_romanized_names_male)
LAST = set(JP.last_romanized_names)


@pytest.fixture(scope="module")
def tokyo():
    persona, world = tokyo_world()
    assert persona.identity.name == TOKYO["identity"]["name"]  # tests/data/tokyo-persona.json is this spec
    return persona, world


def japanese(name: str) -> bool:
    first, *_, last = name.split()
    return first in FIRST and last in LAST


def test_the_persona_is_who_the_name_says(tokyo):
    p, _ = tokyo
    assert (p.identity.gender, p.identity.pronouns) == ("male", "he/him")


def test_family_friends_colleagues_and_neighbours_have_japanese_names(tokyo):
    p, _ = tokyo
    assert len(p.contacts) >= 10
    for c in p.contacts:
        assert japanese(c.name), c.name
        assert c.partner is None or japanese(c.partner), c.partner
        female = c.name.split()[0] in JP.first_romanized_names_female
        assert c.gender == ("female" if female else "male"), (c.name, c.gender)
    for c in p.contacts:
        if c.relationship == "parent":
            assert parent_name(c, p.bank, "JP") in ("Mom", "Dad")


def test_the_worlds_people_live_in_japan(tokyo):
    p, w = tokyo
    mine = {p.identity.name} | {c.name for c in p.contacts}
    colleagues = {e.data["sender"] for e in w.of_kind("work_chat_message")} - mine
    network = {e.data["name"] for e in w.of_kind("network_invitation")} | {
        e.data["name"] for e in w.of_kind("recruiter_message")
    }
    drivers = {e.data["driver"] for e in w.of_kind("ride") if e.data.get("trip") is None}
    for group in (colleagues, network, drivers):
        assert group, "nobody"
        assert all(japanese(n) for n in group), sorted(group)
    salon = {e.data["location"] for e in w.of_kind("calendar_event") if e.data["title"] == "Haircut"}
    assert salon and all(x.split("'")[0] in FIRST for x in salon), salon


def test_everyone_has_a_japanese_number(tokyo):
    p, w = tokyo
    assert p.identity.phone.startswith("+81 ")
    assert all(c.phone.startswith("+81 ") for c in p.contacts), [c.phone for c in p.contacts]
    assert len({c.phone for c in p.contacts} | {p.identity.phone}) == len(p.contacts) + 1
    assert all(e.data["contact_phone"].startswith("+81 ") for e in w.of_kind("chat_message"))


def test_shops_and_employers_take_the_countrys_surnames(tokyo):
    import re

    from builder.world.finance import make_merchants

    p, _ = tokyo
    owned = [m.group(1) for x in make_merchants(p) if (m := re.match(r"(\w+)'s ", x.name))]
    assert owned and all(x in LAST for x in owned), owned
    employer = complete(Persona.model_validate({**TOKYO, "seed": 2})).work.employer  # "{last} Illustration"
    assert employer.split()[0] in LAST, employer


def test_a_japanese_locale_writes_english_and_keeps_japanese_holidays(tokyo):
    """Locale ja_JP, language en: the text is the en_US bank's, the holidays and the money Japan's (issue 26)."""
    p, world = tokyo
    assert (p.locale, p.language, p.bank) == ("ja_JP", "en", "en_US")
    assert (p.timezone, p.finances.currency) == ("Asia/Tokyo", "JPY")
    holidays = {e.data["title"] for e in world.of_kind("calendar_event") if e.data.get("source") == "holiday"}
    assert {"Marine Day", "Respect for the Aged Day", "Constitution Day", "Coming of Age Day"} <= holidays, holidays
    assert not holidays & {"Thanksgiving", "Independence Day", "Memorial Day", "Labor Day"}, holidays
    texts = [e.data["text"] for e in world.of_kind("chat_message")]
    english = {"the", "you", "it", "to", "and", "i", "a", "is", "for", "on"}
    words = [w.strip(".,!?'").lower() for t in texts for w in t.split()]
    assert sum(w in english for w in words) > len(words) / 10, texts[:20]
    kana_or_kanji = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    assert not [t for t in texts if kana_or_kanji.search(t)]
    mine = [e for e in world.of_kind("email") if e.data.get("series") == "order_confirmation"]
    assert mine and all(e.data["body"].startswith("Hi ") for e in mine), mine[:1]
