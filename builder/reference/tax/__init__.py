"""Tax rules and charities: ``rules.json`` (brackets, allowances and tariffs per country and year, each with its
source; the web side computes with the same file, ``@reference/tax/rules.json``) and ``charities.yaml``; whose rules a
persona files under (:func:`regime`, by the home country: none outside the US, GB and DE) and which tax year is the last one it can file (:func:`tax_year`)."""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass
from typing import Any

from .. import read_json, read_yaml
from ..locale import territory


@functools.cache
def rules() -> dict[str, Any]:
    """The rule sets of ``rules.json``: ``{country: {"years": {year: {...}}, ...}}`` (amounts in integer cents
    of the country's currency, rates as fractions)."""
    return read_json("tax/rules.json")


@functools.cache
def charities() -> dict[str, list[dict[str, str]]]:
    """Invented charities per locale: ``{locale: [{"name", "kind"}]}``."""
    return read_yaml("tax/charities.yaml")


#: The countries whose tax rules ``rules.json`` holds and the app files returns under.
REGIMES = ("US", "GB", "DE")


def home_country(persona) -> str:
    """The country ``persona`` lives in (ISO 3166-1 alpha-2): its address's, else its locale's (a spec without an
    address, ``en_US``: ``"US"``)."""
    address = persona.identity.address if persona.identity else None
    if address is not None and address.country:
        return address.country.upper()
    return territory(persona.locale)


def regime(persona) -> str | None:
    """``"US"``, ``"GB"`` or ``"DE"``: whose tax rules the persona files under, by the country it lives in
    (:func:`home_country`); ``None`` for a home elsewhere: no rules, no year-end forms and no return to file."""
    country = home_country(persona)
    return country if country in REGIMES else None


@dataclass(frozen=True)
class TaxYear:
    """One tax year: ``key`` (``"2025"``: the rules' year, the year it starts in), ``label`` (``"2025"`` or
    ``"2025-26"``), first and last day inclusive."""

    key: str
    label: str
    start: dt.date
    end: dt.date

    def holds(self, day: dt.date | dt.datetime) -> bool:
        """Whether ``day`` (a date or the date of a datetime) falls in the year."""
        d = day.date() if isinstance(day, dt.datetime) else day
        return self.start <= d <= self.end


def tax_year(persona, back: int = 0) -> TaxYear:
    """The last tax year that ended before ``persona.as_of`` (``back`` = 1: the one before that): 6 April to 5 April
    under the GB regime, else the calendar year (also for a home without a :func:`regime`)."""
    as_of = persona.as_of
    if regime(persona) == "GB":
        end_year = as_of.year if as_of > dt.date(as_of.year, 4, 5) else as_of.year - 1
        end_year -= back
        start = dt.date(end_year - 1, 4, 6)
        return TaxYear(str(start.year), f"{start.year}-{end_year % 100:02d}", start, dt.date(end_year, 4, 5))
    year = as_of.year - 1 - back
    return TaxYear(str(year), str(year), dt.date(year, 1, 1), dt.date(year, 12, 31))
