"""A persona locale's language, and catalogue text picked by it.

A locale is a POSIX name, ``<language>_<TERRITORY>`` (``en_US``, ``en_GB``, ``de_DE``). Catalogue text written in
several languages is a mapping keyed by language (``{"en": ..., "de": ...}``); :func:`in_language` picks the
persona's, English when the mapping lacks that language. Data written per locale (``{"en_US": ..., "de_DE": ...}``)
is read with :func:`in_locale`, en_US's entry standing in for a locale it lacks. How the world writes dates, times and money is
``builder/world/templates/locale/`` (:mod:`builder.world.locale`), not this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

T = TypeVar("T")

#: The language every multilingual catalogue entry has.
FALLBACK = "en"
#: The locale every per-locale table has.
FALLBACK_LOCALE = "en_US"


def language(locale: str) -> str:
    """The language of ``locale``: ``"de"`` for ``de_DE``, ``"en"`` for ``en_GB``."""
    return locale.partition("_")[0]


def in_language(texts: Mapping[str, T], locale: str) -> T:
    """The entry of ``texts`` (keyed by language) in ``locale``'s language, else its English entry. Raises
    ``KeyError`` when it has neither."""
    lang = language(locale)
    return texts[lang] if lang in texts else texts[FALLBACK]


def in_locale(table: Mapping[str, T], locale: str) -> T:
    """The entry of ``table`` (keyed by locale) for ``locale``, else its en_US entry. Raises ``KeyError`` when it
    has neither."""
    return table[locale] if locale in table else table[FALLBACK_LOCALE]
