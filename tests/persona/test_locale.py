"""The spec's ``locale`` apart from its ``language`` (issue 26): any CLDR locale, defaulted from the address's
country; the text language one with phrase banks, defaulted from the locale with a fallback the completed spec
records; ``Persona.bank`` the phrase bank the text is written from."""

from __future__ import annotations

import json

import pytest

from builder.persona import Persona, SpecError, complete, load
from builder.reference.locale import bank_of, default_locale, english_bank
from tests.conftest import REPO


def _address(street: str, city: str, postal_code: str, country: str) -> dict:
    return {"street": street, "city": city, "postal_code": postal_code, "country": country}


TOKYO = _address("2-11-3 Kamimeguro, Meguro-ku", "Tokyo", "153-0051", "JP")
LAGOS = _address("12 Admiralty Way", "Lagos", "106104", "NG")
LEIPZIG = _address("Karl-Liebknecht-Straße 12", "Leipzig", "04107", "DE")
VIENNA = _address("Mariahilfer Straße 40", "Vienna", "1070", "AT")
SAO_PAULO = _address("Rua Augusta 1200", "São Paulo", "01304-001", "BR")


def _spec(address: dict | None = None, **top) -> dict:
    identity = {"name": "Alex Morgan", **({"address": address} if address else {})}
    return {"identity": identity, **top}


@pytest.mark.parametrize("locale", ["ja_JP", "pt_BR", "en_NG", "fr_FR"])
def test_any_cldr_locale_is_accepted(locale):
    assert Persona.model_validate(_spec(locale=locale)).locale == locale


@pytest.mark.parametrize(
    "locale, says",
    [("xx_YY", "'xx_YY' is not a locale CLDR (Babel) knows"), ("ja", "'ja' is not a locale language_COUNTRY")],
)
def test_an_unknown_or_bare_locale_is_refused_in_one_line(tmp_path, locale, says):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(_spec(locale=locale)), encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load(path)
    assert len(err.value.lines) == 1
    assert err.value.lines[0].startswith(f"{path}: locale: ") and says in err.value.lines[0], err.value.lines


def test_a_language_without_phrase_banks_is_refused(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(_spec(locale="ja_JP", language="ja")), encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load(path)
    assert len(err.value.lines) == 1 and err.value.lines[0].startswith(f"{path}: language: "), err.value.lines


@pytest.mark.parametrize(
    "spec, locale, language, bank",
    [
        (_spec(TOKYO), "ja_JP", "en", "en_US"),
        (_spec(LAGOS), "en_NG", "en", "en_GB"),
        (_spec(LEIPZIG), "de_DE", "de", "de_DE"),
        (_spec(VIENNA, language="de"), "de_AT", "de", "de_DE"),
        (_spec(VIENNA), "de_AT", "de", "de_DE"),
        (_spec(SAO_PAULO), "pt_BR", "en", "en_US"),
        (_spec(), "en_US", "en", "en_US"),  # no address (Jordan Lee): en_US
        (_spec(LEIPZIG, language="en"), "de_DE", "en", "en_GB"),
        (_spec(TOKYO, locale="en_US"), "en_US", "en", "en_US"),  # a spec's own locale is kept
    ],
)
def test_completion_defaults_and_records_locale_and_language(spec, locale, language, bank):
    p = complete(Persona.model_validate(spec))
    assert (p.locale, p.language, p.bank) == (locale, language, bank)
    recorded = json.loads(p.model_dump_json(by_alias=True, exclude_none=True))
    assert (recorded["locale"], recorded["language"]) == (locale, language)
    again = Persona.model_validate(recorded)  # the completed spec reads back the same
    assert (again.locale, again.language, again.bank) == (locale, language, bank)


@pytest.mark.parametrize("path", sorted(p for p in (REPO / "personas").glob("*.json") if "schema" not in p.name))
def test_every_shipped_persona_writes_from_its_own_locale(path):
    p = complete(load(path))
    assert p.bank == p.locale and p.language == p.locale[:2], (p.locale, p.language)


def test_a_tokyo_resident_without_an_address_lives_in_japan():
    p = complete(Persona.model_validate(_spec(locale="ja_JP")))
    a = p.identity.address
    assert a.country == "JP" and p.timezone == "Asia/Tokyo" and p.finances.currency == "JPY", (a, p.timezone)
    assert p.travel.home_airport in ("HND", "NRT", "KIX", "ITM", "NGO", "UKB", "FUK", "CTS", "OKA"), p.travel


def test_bank_table():
    assert default_locale("JP") == "ja_JP" and default_locale(None) == "en_US" and default_locale("NG") == "en_NG"
    assert [english_bank(c) for c in ("US", "JP", "BR", "GB", "NG", "IN", "AU", "IE", "SG")] == ["en_US"] * 3 + [
        "en_GB"
    ] * 6
    assert bank_of("en_GB", "en") == "en_GB" and bank_of("de_DE", "de") == "de_DE" and bank_of("de_CH", "de") == "de_DE"
    assert bank_of("fr_FR", "en") == "en_GB" and bank_of("en_US", "de") == "de_DE"
