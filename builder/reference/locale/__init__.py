"""How a locale writes dates, times and money, and what season a date falls in: reference data, no simulation state.

The conventions of each locale are ``<locale>.yaml`` beside this module (``en_US``, ``en_GB``, ``de_DE``; other
locales write like ``en_US``): day and month names, date/time patterns, money patterns, the first day of the week,
the distance unit. :class:`Fmt` writes dates, times and money for a persona (its ``locale``, ``timezone``, currency
and home country); :func:`format_date`, :func:`format_money` and :func:`money_in` do the same for a bare locale.
The world's modules write every text a person reads with them, and the projections (apps, files) write theirs with
the same functions, so a date in a mail and on a PDF agree. :func:`read_bank` reads any per-locale phrase bank folder
(the world's banks, ``builder.world.locale.phrase_bank``, read through it). Catalogue text written in several
languages is picked with :func:`in_language`, data written per locale with :func:`in_locale`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from builder import yamlfile

from ...money import money, unit_cents

T = TypeVar("T")

#: The folder of the locale conventions (``<locale>.yaml``).
HERE = Path(__file__).resolve().parent

_NORTH = [
    "winter",
    "winter",
    "spring",
    "spring",
    "spring",
    "summer",
    "summer",
    "summer",
    "autumn",
    "autumn",
    "autumn",
    "winter",
]
_FLIP = {"winter": "summer", "summer": "winter", "spring": "autumn", "autumn": "spring"}


@cache
def _latitude(country: str | None, city: str | None) -> float | None:
    """The GeoNames latitude of ``city`` in ``country`` (ISO 3166-1 alpha-2), else of the country's most populous
    city; None for a place the gazetteer does not know."""
    from .. import gazetteer

    code = (country or "").upper()
    found = (gazetteer.find_city(city, code) if city else None) or next(iter(gazetteer.cities_in(code)), None)
    return found.latitude if found is not None else None


def southern(country: str | None, city: str | None = None) -> bool:
    """Whether a home in ``city`` of ``country`` (ISO 3166-1 alpha-2), else in the country's most populous city,
    lies south of the equator (its GeoNames latitude); False for a place the gazetteer does not know."""
    latitude = _latitude(country, city)
    return latitude is not None and latitude < 0


#: Homes nearer the equator than this (degrees of latitude) have no winter of frost and snow at sea level: São
#: Paulo (23.5° S), Lagos, Mumbai, Los Angeles (34.1° N), Sydney (33.9° S); Tokyo (35.7° N) and every shipped
#: persona's home lie beyond it.
WARM_LATITUDE = 35.0


def warm(country: str | None, city: str | None = None) -> bool:
    """Whether a home in ``city`` of ``country`` (else the country's most populous city) lies within
    :data:`WARM_LATITUDE` of the equator; False for a place the gazetteer does not know."""
    latitude = _latitude(country, city)
    return latitude is not None and abs(latitude) < WARM_LATITUDE


def felt_season(day: dt.date, country: str | None = "US", city: str | None = None) -> str:
    """:func:`season`, except that a :func:`warm` home's winter is ``mild`` (cooler and wetter, never icy): the key
    the phrase banks' weather talk is chosen by."""
    s = season(day, country, city)
    return "mild" if s == "winter" and warm(country, city) else s


def season(day: dt.date, country: str | None = "US", city: str | None = None) -> str:
    """``winter``/``spring``/``summer``/``autumn`` of ``day`` by meteorological months, flipped south of the equator
    (:func:`southern` of ``country`` and ``city``)."""
    s = _NORTH[day.month - 1]
    return _FLIP[s] if southern(country, city) else s


def format_money(cents: int, currency: str, locale: str) -> str:
    """``$1,234.56`` / ``£1,234.56``; in ``de_DE`` ``1.234,56 €`` (DIN 5008 order: amount, space, symbol): the
    locale's ``money`` conventions (``builder/reference/locale/<locale>.yaml``), else :func:`builder.money.money`."""
    spec = conventions(locale).get("money")
    if spec is None:
        return money(int(cents), currency)
    return _write_money(spec, int(cents), currency, 0 if unit_cents(currency) == 100 else 2)


def _write_money(spec: dict[str, Any], cents: int, currency: str, places: int) -> str:
    """``cents`` of ``currency`` by a locale's money ``spec`` (group and decimal marks, symbols, the pattern with a
    symbol and the one with the ISO code), with ``places`` (0 or 2) minor digits."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    whole = cents // 100 if places else (cents + 50) // 100
    number = f"{whole:,}".replace(",", spec["group"]) + (f"{spec['decimal']}{cents % 100:02d}" if places else "")
    symbol = spec["symbols"].get(currency)
    pattern = spec["pattern"] if symbol else spec["code_pattern"]
    return pattern.format(sign=sign, number=number, symbol=symbol, code=currency)


def format_date(d: dt.date | dt.datetime | dt.time, pattern: str, locale: str) -> str:
    """``d`` written by the locale's ``formats.<pattern>`` (``date``, ``numeric_date``, ``long_date``, ``full_date``,
    ``day``, ``month``, ``time``; see ``builder/reference/locale/en_US.yaml``). A ``dt.time`` has no date fields."""
    w = conventions(locale)
    dated = isinstance(d, dt.date)
    hour = getattr(d, "hour", 0)
    return w["formats"][pattern].format(
        weekday=w["days"][d.weekday()] if dated else "",
        weekday_long=w["days_long"][d.weekday()] if dated else "",
        month=w["months"][d.month - 1] if dated else "",
        month_long=w["months_long"][d.month - 1] if dated else "",
        month_num=d.month if dated else 0,
        day=d.day if dated else 0,
        year=d.year if dated else 0,
        hour=hour,
        hour12=(hour - 1) % 12 + 1,
        minute=getattr(d, "minute", 0),
        ampm="AM" if hour < 12 else "PM",
    )


class Fmt:
    """Dates, times and money as the persona's locale writes them (``persona.bank``, ``persona.timezone``)."""

    def __init__(self, persona):
        self.locale = persona.bank
        self.currency = persona.finances.currency if persona.finances else "USD"
        self.us = persona.bank == "en_US"
        self.de = persona.bank == "de_DE"
        self.words = conventions(persona.bank)
        self.lang = self.words["language"]
        self.tz = ZoneInfo(persona.timezone or "UTC")
        address = persona.identity.address if persona.identity else None
        self.country = address.country if address else "US"
        self.city = address.city if address else None

    def money(self, cents: int) -> str:
        """``$1,234.56`` in the persona's currency (``1.234,56 €`` in German)."""
        return format_money(cents, self.currency, self.locale)

    def number(self, value) -> str:
        """A plain number as this locale writes it (Babel): ``4.53`` (``4,53`` in German)."""
        from babel.numbers import format_decimal

        return format_decimal(value, locale=self.locale)

    def money_in(self, cents: int, currency: str) -> str:
        """``cents`` of another ``currency`` as this locale writes it (:func:`money_in`): a bill abroad."""
        return money_in(cents, currency, self.locale)

    def _write(self, pattern: str, d: dt.date | dt.datetime | dt.time) -> str:
        return format_date(d, pattern, self.locale)

    def date(self, d: dt.date | dt.datetime) -> str:
        """``Fri, Sep 4, 2026`` (US) / ``Fri 4 Sep 2026`` (GB) / ``Fr., 4. Sept. 2026`` (DE)."""
        return self._write("date", d)

    def numeric_date(self, d: dt.date | dt.datetime) -> str:
        """``09/04/2026`` (US) / ``04/09/2026`` (GB) / ``04.09.2026`` (DE)."""
        return self._write("numeric_date", d)

    def long_date(self, d: dt.date | dt.datetime) -> str:
        """``Friday, September 4`` / ``Friday 4 September`` / ``Freitag, 4. September``."""
        return self._write("long_date", d)

    def full_date(self, d: dt.date | dt.datetime) -> str:
        """``September 4, 2026`` / ``4 September 2026`` / ``4. September 2026``."""
        return self._write("full_date", d)

    def day(self, d: dt.date | dt.datetime) -> str:
        """``Sep 4`` / ``4 Sep`` / ``4. Sept.``."""
        return self._write("day", d)

    def weekday(self, d: dt.date | dt.datetime) -> str:
        """``Friday`` / ``Freitag``."""
        return self.words["days_long"][d.weekday()]

    def month(self, d: dt.date | dt.datetime) -> str:
        """``September 2026``."""
        return self._write("month", d)

    def time(self, t: dt.datetime | dt.time) -> str:
        """``7:05 AM`` (US) / ``07:05`` (GB) / ``07:05 Uhr`` is left to the sentence: ``07:05`` (DE)."""
        return self._write("time", t)

    def season(self, d: dt.date | dt.datetime) -> str:
        """The season of ``d`` where the persona lives (see :func:`season`)."""
        return season(d if isinstance(d, dt.date) else d.date(), self.country, self.city)

    def local(self, iso: str, airport: str | None = None) -> str:
        """An aware ISO time as ``Fri, Sep 4, 2026 7:05 AM PDT`` in its own (airport's) zone."""
        when = dt.datetime.fromisoformat(iso)
        if when.tzinfo is None:
            when = when.replace(tzinfo=self.tz)
        # Imported here: builder.reference.airports reads the gazetteer, which imports this package.
        from ..airports import airport_zone

        zone_name = airport_zone(airport, "") if airport else ""
        tz = ZoneInfo(zone_name) if zone_name else None
        if tz is not None and when.utcoffset() == when.astimezone(tz).utcoffset():
            when = when.astimezone(tz)
            name = when.tzname()
        else:
            off = when.utcoffset() or dt.timedelta(0)
            sign = "-" if off < dt.timedelta(0) else "+"
            mins = abs(int(off.total_seconds())) // 60
            name = f"UTC{sign}{mins // 60:02d}:{mins % 60:02d}"
        return f"{self.date(when)} {self.time(when)} {name}"

    def clock(self, iso: str) -> str:
        """Just the wall time of an aware ISO string, e.g. ``7:05 AM``."""
        return self.time(dt.datetime.fromisoformat(iso))


def money_in(cents: int, currency: str, locale: str) -> str:
    """``cents`` (hundredths of a unit) of ``currency`` as the persona's locale writes money: ``€1,205.90``,
    ``¥91,576`` (no minor units), ``DKK 9,545.00``; in German ``1.205,90 €``, ``9.545,00 DKK`` (the locale's
    ``money_in`` conventions)."""
    return _write_money(conventions(locale)["money_in"], int(cents), currency, 0 if unit_cents(currency) == 100 else 2)


def language(locale: str) -> str:
    """The locale's language (``en``, ``de``): the key of bilingual catalogue entries."""
    return conventions(locale)["language"]


#: The language every multilingual catalogue entry has.
FALLBACK = "en"
#: The locale every per-locale table has.
FALLBACK_LOCALE = "en_US"


def in_language(texts: Mapping[str, T], locale: str) -> T:
    """The entry of ``texts`` (catalogue text keyed by language, ``{"en": ..., "de": ...}``) in ``locale``'s
    language, else its English entry. Raises ``KeyError`` when it has neither."""
    lang = language(locale)
    return texts[lang] if lang in texts else texts[FALLBACK]


def in_locale(table: Mapping[str, T], locale: str) -> T:
    """The entry of ``table`` (data keyed by locale, ``{"en_US": ..., "de_DE": ...}``) for ``locale``, else its
    en_US entry. Raises ``KeyError`` when it has neither."""
    return table[locale] if locale in table else table[FALLBACK_LOCALE]


#: The phrase banks: the locales every template folder, app's text and text-keyed table is written for. A persona's
#: text comes from one of them (:func:`bank_of`); its ``locale`` may be any CLDR locale.
BANKS = ("en_US", "en_GB", "de_DE")
#: The bank of each language with phrase banks when the locale is not itself a bank (``de_AT`` writes from
#: ``de_DE``); English is :func:`english_bank`'s.
_LANGUAGE_BANK = {"de": "de_DE"}


@cache
def known_locale(tag: str) -> bool:
    """Whether ``tag`` (``ll_CC``) is a locale CLDR has data for (``babel.Locale.parse`` accepts it)."""
    from babel import Locale, UnknownLocaleError

    try:
        Locale.parse(tag)
    except (UnknownLocaleError, ValueError):
        return False
    return True


def default_locale(country: str | None) -> str:
    """The locale of a spec that names none: the likely locale (CLDR likely subtags) of the address's ``country``
    (``ja_JP`` for JP, ``en_NG`` for NG, ``de_AT`` for AT; :func:`builder.reference.gazetteer.country`), else
    ``en_US`` (no address, or a country CLDR cannot place)."""
    from .. import gazetteer

    found = gazetteer.country(country) if country else None
    return found.locale if found is not None and known_locale(found.locale) else FALLBACK_LOCALE


def default_language(locale: str) -> str:
    """The text language of a spec that names none: ``locale``'s language when it has phrase banks, else English."""
    lang = locale.split("_")[0]
    return lang if lang == FALLBACK or lang in _LANGUAGE_BANK else FALLBACK


def english_bank(country: str) -> str:
    """``en_GB`` where English is written the British way in ``country`` (CLDR's ``en_<country>`` inherits from
    ``en_001``, world English, or ``en_150``, European English: Nigeria, India, Australia, Singapore, Ireland,
    Germany...), else ``en_US`` (the US, Japan, Brazil, the Philippines, Canada: no such parent)."""
    from babel.core import get_global

    return "en_GB" if get_global("parent_exceptions").get(f"en_{country}") in ("en_001", "en_150") else "en_US"


@cache
def bank_of(locale: str, language: str) -> str:
    """The phrase bank (one of :data:`BANKS`) a persona of ``locale`` writing ``language`` reads its text from: the
    locale itself when it is a bank in that language (every shipped persona), else the language's bank (``de_DE``),
    for English :func:`english_bank` of the locale's country (``en_NG`` -> ``en_GB``, ``ja_JP`` -> ``en_US``)."""
    if locale in BANKS and language == locale.split("_")[0]:
        return locale
    if language in _LANGUAGE_BANK:
        return _LANGUAGE_BANK[language]
    return english_bank(territory(locale))


#: The day the currency of a bank's country is read for (CLDR's dated currency history; a fixed day keeps builds
#: from depending on the clock).
_CURRENCY_ON = dt.date(2026, 1, 1)


@cache
def bank_currency(bank: str) -> str:
    """The currency the tables and phrase banks of ``bank`` (one of :data:`BANKS`) write amounts in: the legal tender
    of its country (CLDR territory currencies through Babel: ``en_US`` -> ``USD``, ``en_GB`` -> ``GBP``, ``de_DE`` ->
    ``EUR``)."""
    from babel.numbers import get_territory_currencies

    return get_territory_currencies(territory(bank), start_date=_CURRENCY_ON, end_date=_CURRENCY_ON)[0]


@cache
def city_name(name: str, zone: str | None, bank: str) -> str:
    """``name``, a city as the gazetteer writes it in English, as ``bank``'s language writes it: CLDR's exemplar city
    of the time zone ``zone`` (Babel) when ``name`` is that zone's English exemplar city (``Lisbon`` in
    ``Europe/Lisbon`` -> ``Lissabon`` in German, ``Mexico City`` -> ``Mexiko-Stadt``), else ``name`` unchanged."""
    if not zone or bank.split("_")[0] == "en":
        return name
    from babel.dates import get_timezone_location

    try:
        if get_timezone_location(zone, locale="en", return_city=True) != name:
            return name
        return get_timezone_location(zone, locale=bank, return_city=True)
    except LookupError:
        return name


def week_start(day: dt.date, locale: str) -> dt.date:
    """The first day of ``day``'s week where ``locale`` starts weeks (``week_start``: Sunday in en_US, else Monday)."""
    first = _WEEKDAYS.index(conventions(locale)["week_start"])
    return day - dt.timedelta(days=(day.weekday() - first) % 7)


_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def territory(locale: str) -> str:
    """The country a locale's banks and tables were written for: ``"GB"`` for ``en_GB`` (ISO 3166-1 alpha-2)."""
    return locale.split("_")[-1]


#: Territories whose everyday distances are in miles (CLDR supplemental ``measurementData``: the US system;
#: Babel does not ship that table).
MILES = frozenset({"US", "LR", "MM"})


def distance_unit(locale: str, country: str | None = None) -> str:
    """``mi`` or ``km``: the locale's ``distance_unit`` for a home in the locale's own country (or none given),
    else the home ``country``'s (:data:`MILES`)."""
    if country is None or country == territory(locale):
        return conventions(locale)["distance_unit"]
    return "mi" if country in MILES else "km"


@cache
def conventions(locale: str) -> dict[str, Any]:
    """How ``locale`` writes dates, times and money: ``<locale>.yaml`` beside this module (``en_US`` when the locale
    has none; see :func:`read_bank` for ``extends``), read-only."""
    return read_bank(HERE, locale)


@cache
def read_bank(folder: Path, locale: str) -> dict[str, Any]:
    """The phrase bank ``<folder>/<locale>.yaml`` (``en_US.yaml`` when the locale has none), read-only.

    A bank may say ``extends: <locale>``: its top-level maps are laid over that bank's key by key; other values
    replace. Raises ``FileNotFoundError`` if the folder has no ``en_US.yaml`` either.
    """
    path = folder / f"{locale}.yaml"
    if not path.exists():
        path = folder / "en_US.yaml"
    data = yamlfile.safe_load(path.read_text(encoding="utf-8"))
    base = data.pop("extends", None)
    if not base:
        return data
    merged = dict(read_bank(folder, base))
    for key, value in data.items():
        merged[key] = (
            {**merged[key], **value} if isinstance(value, dict) and isinstance(merged.get(key), dict) else value
        )
    return merged
