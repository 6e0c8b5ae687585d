"""Whose tax rules a persona files under: its home country's, none outside the US, GB and DE (issue 26)."""

from __future__ import annotations

import datetime as dt
import json

from builder.persona import load
from builder.persona.model import Persona
from builder.reference.tax import home_country, regime, tax_year
from tests.conftest import REPO


def _spec(locale: str, city: str | None = None, country: str | None = None, postal: str = "1") -> Persona:
    spec: dict = {"locale": locale, "as_of": "2026-03-15", "identity": {"name": "Alex Morgan"}}
    if city:
        spec["identity"]["address"] = {
            "street": "1 Main Street",
            "city": city,
            "postal_code": postal,
            "country": country,
        }
    return Persona.model_validate(spec)


def test_the_regime_follows_the_home_country_not_the_locale():
    assert regime(_spec("en_US")) == "US"  # no address: the locale's country (Jordan Lee's spec)
    assert regime(_spec("en_GB")) == "GB" and regime(_spec("de_DE")) == "DE"
    assert regime(_spec("en_US", "London", "GB", "SW1A 1AA")) == "GB"
    assert regime(_spec("en_GB", "Berlin", "DE", "10115")) == "DE"
    assert regime(_spec("de_DE", "Chicago", "US", "60601")) == "US"
    for city, country in [("Tokyo", "JP"), ("São Paulo", "BR"), ("Paris", "FR"), ("Lagos", "NG")]:
        p = _spec("en_US", city, country)
        assert home_country(p) == country and regime(p) is None, city
    tokyo = load(REPO / "tests" / "data" / "tokyo-persona.json")
    assert regime(tokyo) is None


def test_shipped_personas_keep_their_regimes():
    want = {"callum-brierley": "GB", "dana-whitfield": "US", "jana-petersen": "DE", "jordan-lee": "US"}
    for stem, country in want.items():
        assert regime(load(REPO / "personas" / f"{stem}.json")) == country, stem
    assert json.loads((REPO / "personas" / "jordan-lee.json").read_text())["identity"].get("address") is None


def test_a_home_without_a_regime_still_has_a_calendar_tax_year():
    year = tax_year(_spec("en_US", "Tokyo", "JP"))
    assert (year.label, year.start, year.end) == ("2025", dt.date(2025, 1, 1), dt.date(2025, 12, 31))
    gb = tax_year(_spec("en_US", "London", "GB", "SW1A 1AA"))
    assert (gb.label, gb.start) == ("2024-25", dt.date(2024, 4, 6))
