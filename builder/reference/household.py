"""A household's bills and account names by home country (``household.yaml`` beside this module): reference data,
no simulation state.

Facts (which bills exist, payees, days, methods, amounts) follow the country the persona lives in; words (a bill's
name, an account's name, a generic payee) follow the persona's text language. A country without a row gets the
``default`` household: brand-neutral payees (the landlord, the electricity supplier, a mobile operator...). Amounts
stay as the table writes them, in the row's ``currency``: the caller prices them in the persona's currency
(:func:`builder.reference.prices.amount`).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from . import read_yaml


class Bill(NamedTuple):
    """One monthly bill as the table writes it: ``amount`` a decimal string in :func:`written`'s currency, ``payee``
    with ``{city}`` still in it where the table has one."""

    name: str
    amount: str
    payee: str
    day: int
    method: str
    category: str


@cache
def _data() -> dict:
    return read_yaml("household.yaml")


def _row(country: str) -> dict:
    return _data()["countries"].get(country.strip().upper(), _data()["default"])


def known(country: str) -> bool:
    """Whether ``country`` (ISO 3166-1 alpha-2, any case) has a household row of its own (else :func:`bills` are the
    ``default`` household's)."""
    return country.strip().upper() in _data()["countries"]


def written(country: str) -> str:
    """The currency the household amounts of ``country`` are written in (``USD`` for the default household)."""
    return _row(country)["currency"]


def _word(words: dict | str, language: str, fallback: dict | str | None) -> str:
    """``words`` in ``language``: the row's, else ``fallback``'s (the default household's for the same kind), else
    the row's first language."""
    if isinstance(words, str):
        return words
    if language in words:
        return words[language]
    if isinstance(fallback, dict) and language in fallback:
        return fallback[language]
    return words.get("en") or next(iter(words.values()))


def _bill(row: dict, language: str, generic: dict[str, dict]) -> Bill:
    base = generic.get(row["kind"], {})
    return Bill(
        _word(row["name"], language, base.get("name")),
        row["amount"],
        _word(row["payee"], language, base.get("payee")),
        row["day"],
        row["method"],
        row["category"],
    )


def _generic() -> dict[str, dict]:
    d = _data()["default"]
    return {b["kind"]: b for b in [*d["bills"], *d["commute"].values()]}


def account_names(country: str, locale: str) -> dict[str, str]:
    """Account kind (``checking``, ``savings``, ``credit_card``, ``brokerage``) -> its name at a bank of ``country``
    for a persona of ``locale`` (``"en_GB"``): the row's words in the locale's language, else the default's, else
    English. A fresh dict."""
    language = locale.split("_")[0]
    names = _row(country)["accounts"]
    default = _data()["default"]["accounts"]
    return dict(names.get(language) or default.get(language) or default["en"])


def bills(country: str, locale: str) -> list[Bill]:
    """The monthly bills of a household in ``country`` for a persona of ``locale``, in the table's order."""
    language, generic = locale.split("_")[0], _generic()
    return [_bill(b, language, generic) for b in _row(country)["bills"]]


def commute_bill(country: str, locale: str, mode: str) -> Bill | None:
    """The bill a commute by ``mode`` brings in ``country`` (a transit pass, car insurance), None for a mode that
    brings none (a bike, on foot)."""
    row = _row(country)["commute"].get(mode)
    return _bill(row, locale.split("_")[0], _generic()) if row else None
