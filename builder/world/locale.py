"""How the persona's locale writes dates, times and money, and what season it is where they live.

``Fmt`` is shared by every module that writes text a person reads (mail, chat, work chat,
documents); it supports ``en_US``, ``en_GB`` and ``de_DE`` (other locales write like ``en_GB``).
``phrase_bank(area, locale)`` reads a module's per-locale phrase bank from ``templates/<area>/``.
"""

from __future__ import annotations

import datetime as dt
from functools import cache
from pathlib import Path
from typing import Any

from builder import yamlfile

from ..money import money

_MONTHS = {
    "en": ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    "de": ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."],
}
_MONTHS_LONG = {
    "en": [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ],
    "de": [
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ],
}
_DAYS = {
    "en": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
    "de": ["Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa.", "So."],
}
_DAYS_LONG = {
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "de": ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"],
}
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
SOUTHERN_COUNTRIES = frozenset({"AU", "NZ", "ZA", "AR", "CL", "UY", "BR"})


def season(day: dt.date, country: str | None = "US") -> str:
    """``winter``/``spring``/``summer``/``autumn`` of ``day`` by meteorological months, flipped south of the equator
    (``country`` an ISO 3166-1 alpha-2 code; countries in ``SOUTHERN_COUNTRIES`` count as southern)."""
    s = _NORTH[day.month - 1]
    return _FLIP[s] if (country or "").upper() in SOUTHERN_COUNTRIES else s


def format_money(cents: int, currency: str, locale: str) -> str:
    """``$1,234.56`` / ``£1,234.56``; in ``de_DE`` ``1.234,56 €`` (DIN 5008 order: amount, space, symbol)."""
    if locale == "de_DE":
        sign = "-" if cents < 0 else ""
        cents = abs(int(cents))
        whole = f"{cents // 100:,}".replace(",", ".")
        symbol = {"EUR": "€", "USD": "$", "GBP": "£"}.get(currency, currency)
        return f"{sign}{whole},{cents % 100:02d} {symbol}"
    return money(int(cents), currency)


class Fmt:
    """Dates, times and money as the persona's locale writes them (``persona.locale``, ``persona.timezone``)."""

    def __init__(self, persona):
        self.locale = persona.locale
        self.currency = persona.finances.currency if persona.finances else "USD"
        self.us = persona.locale == "en_US"
        self.de = persona.locale == "de_DE"
        self.lang = "de" if self.de else "en"
        from zoneinfo import ZoneInfo

        self.tz = ZoneInfo(persona.timezone or "UTC")
        address = persona.identity.address if persona.identity else None
        self.country = address.country if address else "US"

    def money(self, cents: int) -> str:
        """``$1,234.56`` in the persona's currency (``1.234,56 €`` in German)."""
        return format_money(cents, self.currency, self.locale)

    def money_in(self, cents: int, currency: str) -> str:
        """``cents`` of another ``currency`` as this locale writes it (:func:`money_in`): a bill abroad."""
        return money_in(cents, currency, self.locale)

    def date(self, d: dt.date | dt.datetime) -> str:
        """``Fri, Sep 4, 2026`` (US) / ``Fri 4 Sep 2026`` (GB) / ``Fr., 4. Sept. 2026`` (DE)."""
        days, months = _DAYS[self.lang], _MONTHS[self.lang]
        if self.us:
            return f"{days[d.weekday()]}, {months[d.month - 1]} {d.day}, {d.year}"
        if self.de:
            return f"{days[d.weekday()]}, {d.day}. {months[d.month - 1]} {d.year}"
        return f"{days[d.weekday()]} {d.day} {months[d.month - 1]} {d.year}"

    def numeric_date(self, d: dt.date | dt.datetime) -> str:
        """``09/04/2026`` (US) / ``04/09/2026`` (GB) / ``04.09.2026`` (DE)."""
        if self.us:
            return f"{d.month:02d}/{d.day:02d}/{d.year}"
        if self.de:
            return f"{d.day:02d}.{d.month:02d}.{d.year}"
        return f"{d.day:02d}/{d.month:02d}/{d.year}"

    def long_date(self, d: dt.date | dt.datetime) -> str:
        """``Friday, September 4`` / ``Friday 4 September`` / ``Freitag, 4. September``."""
        days, months = _DAYS_LONG[self.lang], _MONTHS_LONG[self.lang]
        if self.us:
            return f"{days[d.weekday()]}, {months[d.month - 1]} {d.day}"
        if self.de:
            return f"{days[d.weekday()]}, {d.day}. {months[d.month - 1]}"
        return f"{days[d.weekday()]} {d.day} {months[d.month - 1]}"

    def day(self, d: dt.date | dt.datetime) -> str:
        """``Sep 4`` / ``4 Sep`` / ``4. Sept.``."""
        months = _MONTHS[self.lang]
        if self.us:
            return f"{months[d.month - 1]} {d.day}"
        return f"{d.day}. {months[d.month - 1]}" if self.de else f"{d.day} {months[d.month - 1]}"

    def weekday(self, d: dt.date | dt.datetime) -> str:
        """``Friday`` / ``Freitag``."""
        return _DAYS_LONG[self.lang][d.weekday()]

    def month(self, d: dt.date | dt.datetime) -> str:
        """``September 2026``."""
        return f"{_MONTHS_LONG[self.lang][d.month - 1]} {d.year}"

    def time(self, t: dt.datetime | dt.time) -> str:
        """``7:05 AM`` (US) / ``07:05`` (GB) / ``07:05 Uhr`` is left to the sentence: ``07:05`` (DE)."""
        if self.us:
            return f"{(t.hour - 1) % 12 + 1}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"
        return f"{t.hour:02d}:{t.minute:02d}"

    def season(self, d: dt.date | dt.datetime) -> str:
        """The season of ``d`` where the persona lives (see :func:`season`)."""
        return season(d if isinstance(d, dt.date) else d.date(), self.country)

    def local(self, iso: str, airport: str | None = None) -> str:
        """An aware ISO time as ``Fri, Sep 4, 2026 7:05 AM PDT`` in its own (airport's) zone."""
        from .calendar import airport_zone

        when = dt.datetime.fromisoformat(iso)
        if when.tzinfo is None:
            when = when.replace(tzinfo=self.tz)
        tz = airport_zone(airport, None) if airport else None
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


TEMPLATES = Path(__file__).with_name("templates")


_LOCAL_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "CAD": "CA$", "MXN": "MX$"}


def money_in(cents: int, currency: str, locale: str) -> str:
    """``cents`` (hundredths of a unit) of ``currency`` as the persona's locale writes money: ``€1,205.90``,
    ``¥91,576`` (no minor units), ``DKK 9,545.00``; in German ``1.205,90 €``, ``9.545,00 DKK``."""
    sign = "-" if cents < 0 else ""
    cents = abs(int(cents))
    whole = cents // 100 if currency != "JPY" else (cents + 50) // 100
    frac = "" if currency == "JPY" else f"{cents % 100:02d}"
    symbol = _LOCAL_SYMBOLS.get(currency)
    if locale == "de_DE":
        number = f"{whole:,}".replace(",", ".") + (f",{frac}" if frac else "")
        return f"{sign}{number} {symbol if currency in ('USD', 'EUR', 'GBP', 'JPY') else currency}"
    number = f"{whole:,}" + (f".{frac}" if frac else "")
    return f"{sign}{symbol}{number}" if symbol else f"{sign}{currency} {number}"


@cache
def phrase_bank(area: str, locale: str) -> dict[str, Any]:
    """The phrase bank ``templates/<area>/<locale>.yaml`` (``en_US`` when the locale has none), read-only.

    A bank may say ``extends: <locale>``: its top-level maps are laid over that bank's key by key; other values
    replace. Raises ``FileNotFoundError`` if the area has no ``en_US.yaml`` either.
    """
    path = TEMPLATES / area / f"{locale}.yaml"
    if not path.exists():
        path = TEMPLATES / area / "en_US.yaml"
    data = yamlfile.safe_load(path.read_text(encoding="utf-8"))
    base = data.pop("extends", None)
    if not base:
        return data
    merged = dict(phrase_bank(area, base))
    for key, value in data.items():
        merged[key] = (
            {**merged[key], **value} if isinstance(value, dict) and isinstance(merged.get(key), dict) else value
        )
    return merged
