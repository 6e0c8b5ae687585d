"""The world's phrase banks: the words each area of the simulation writes, per locale.

``phrase_bank(area, locale)`` reads ``templates/<area>/<locale>.yaml`` (``en_US`` when the locale has none). How a
locale writes dates, times and money is reference data: :mod:`builder.reference.locale` (``Fmt``, ``format_date``,
``format_money``, ``money_in``, ``season``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ..reference.locale import Fmt, bank_of, read_bank

TEMPLATES = Path(__file__).with_name("templates")


@cache
def phrase_bank(area: str, locale: str) -> dict[str, Any]:
    """The phrase bank ``templates/<area>/<locale>.yaml`` (``en_US`` when the locale has none), read-only.

    A bank may say ``extends: <locale>``: its top-level maps are laid over that bank's key by key; other values
    replace. Raises ``FileNotFoundError`` if the area has no ``en_US.yaml`` either.
    """
    return read_bank(TEMPLATES / area, locale)


def tongue_of(persona, contact) -> str:
    """The phrase bank ``persona`` and ``contact`` write to each other in: ``contact.language``'s (with the persona's
    locale, :func:`builder.reference.locale.bank_of`), else the persona's own (``persona.bank``)."""
    return bank_of(persona.locale, contact.language) if contact.language else persona.bank


def fmt_of(persona, contact) -> Fmt:
    """Dates, times and money as ``contact``'s language writes them in ``persona``'s locale (:class:`Fmt`)."""
    return Fmt(persona.model_copy(update={"language": contact.language}) if contact.language else persona)
