"""How banks word statement lines and how people pay each other, by country: reference data, no simulation state.

``banking.yaml`` beside this module holds three tables: ``statements`` (a US, UK or German bank's words for each kind
of ledger line, for a persona whose locale is that country's), ``generic`` (a bank anywhere else, by text language,
naming the country's payment scheme) and ``rails`` (the scheme people in a country use to pay a friend from their
account: Zelle, Faster Payments, Pix, UPI...). :func:`statement_labels` picks the words a persona's bank uses;
:func:`rail` names the scheme for statements and for sentences; :func:`deposit_insurance` is the deposit
insurance a bank there states (``deposit_insurance``: FDIC, FSCS, the German statutory guarantee; none elsewhere). The world's ledger, the bank app (its ``meta`` row
``ledger_labels``) and task wording read them, so a line the app writes reads like the seeded ones.
"""

from __future__ import annotations

from functools import cache
from typing import TypedDict

from .. import read_yaml
from ..locale import territory


class Rail(TypedDict):
    """A country's person-to-person bank payment: ``name`` (the scheme as a bank's pages name it: "Zelle", "Pix",
    "bank transfer"), ``payment`` (what an English sentence calls one: "Zelle
    payment", "bank transfer"), ``via`` (how it says one was sent: "with Zelle"), ``statement`` (the word on a
    statement line: "ZELLE", "PIX")."""

    name: str
    payment: str
    via: str
    statement: str


@cache
def _data() -> dict:
    return read_yaml("banking/banking.yaml")


def rail(country: str) -> Rail:
    """The person-to-person payment scheme of ``country`` (ISO 3166-1 alpha-2, any case); a bank transfer where the
    table names none."""
    rails = _data()["rails"]
    return dict(rails.get(country.strip().upper(), rails["default"]))  # type: ignore[return-value]


@cache
def _labels(locale: str, country: str) -> tuple[tuple[str, object], ...]:
    data = _data()
    code = country.strip().upper()
    if code == territory(locale) and code in data["statements"]:
        return tuple(data["statements"][code].items())
    language = locale.split("_")[0]
    words = data["generic"].get(language, data["generic"]["en"])
    scheme = rail(code)["statement"]
    return tuple((k, v.replace("{rail}", scheme) if isinstance(v, str) else dict(v)) for k, v in words.items())


def statement_labels(locale: str, country: str) -> dict[str, object]:
    """The words a bank in ``country`` (ISO code) writes on the statement of a persona of ``locale`` (``en_US``):
    key -> template with ``{}`` for the upper-case name (``"ZELLE TO {}"``), and ``kinds`` -> {account kind: word}.
    A locale of that country gets the country's own bank words (``statements``: US, GB, DE); anyone else the
    ``generic`` words of the locale's language (English where the table has none) with the country's
    :func:`rail`. A fresh dict: the caller may keep it."""
    return {k: (dict(v) if isinstance(v, dict) else v) for k, v in _labels(locale, country)}


def statement_words(key: str) -> tuple[str, ...]:
    """Every wording of the statement line ``key`` (``"debit"``, ``"card_interest"``...) that any bank of the table
    writes, country and generic alike, in the table's order without repeats: ``("DEBIT CARD {}", "CARD PAYMENT {}",
    ...)``. What a reader of any persona's statements recognises a line by. Raises ``KeyError`` for an unknown
    key."""
    data = _data()
    rows = [*data["statements"].values(), *data["generic"].values()]
    return tuple(dict.fromkeys(str(row[key]) for row in rows))


class Deposit(TypedDict):
    """How a bank of a country states its deposit insurance: ``suffix`` after its name (", N.A."), ``scheme``
    ("Member FDIC", "FSCS protected"; empty: none claimed) and ``notice`` ("Equal Housing Lender"; often empty)."""

    suffix: str
    scheme: str
    notice: str


def deposit_insurance(country: str) -> Deposit:
    """The deposit-insurance words of a bank in ``country`` (ISO 3166-1 alpha-2, any case): the US, British and
    German schemes; elsewhere all empty (the bank's name alone). A fresh dict."""
    table = _data()["deposit_insurance"]
    return dict(table.get(country.strip().upper(), table["default"]))  # type: ignore[return-value]
