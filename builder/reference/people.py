"""People's names by the country they live in, and the gender a given name tells.

* :func:`names_locale`: which Faker locale names the people of a country for a persona writing in ``locale``, and
  whether in its romanized lists. At home (the country is the locale's own) the locale's names, as always; abroad
  the country's Faker locale (:func:`builder.reference.gazetteer.faker_locale`): its own names when they are written
  in the text's script (Latin text, Latin names: pt_BR, en_NG), else its romanized names where Faker has them
  (ja_JP, zh_CN, zh_TW: ``Kenji``, not ``健二``), else another Faker locale of the country in the text's script
  (India: en_IN), else (and where Faker has no names of the country: en_CA, ar_EG) the text locale's names.
* :func:`names`: a name drawer (:class:`Names`) seeded from a named stream (:func:`builder.rng.stream_seed`), so one
  person's names never shift another stream's draws.
* :func:`called`: how the persona calls someone in a message or a request: the first name, or the whole name when
  another person they know shares that first name.
* :func:`gender_of`: ``"female"``/``"male"`` when a given name is in one gender's Faker lists only. Today's rule is
  kept for every name it knows (en_US's and the locale's lists together); for a home abroad the country's locale
  lists (romanized ones too) come next, then every Faker locale's lists (a name that only one gender holds
  anywhere: ``Kenji`` is in Faker's generic English male list).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from functools import cache

from ..rng import faker
from . import gazetteer
from .addresses import latin
from .locale import territory

# Faker's person providers' list attributes by gender (its romanized lists: ja_JP, zh_TW; zh_CN's have no gender).
_FEMALE = ("first_names_female", "first_romanized_names_female")
_MALE = ("first_names_male", "first_romanized_names_male")


def _provider(locale: str):
    """Faker's person provider class of ``locale`` (or of a language: ``en``), None when Faker has none."""
    try:
        return importlib.import_module(f"faker.providers.person.{locale}").Provider
    except ImportError:
        return None


@cache
def latin_names(locale: str) -> bool:
    """Whether Faker's ``locale`` writes its people's names in Latin letters (all its last names are)."""
    prov = _provider(locale)
    return prov is None or all(latin(n) for n in getattr(prov, "last_names", ()))


@cache
def _romanizes(locale: str) -> bool:
    prov = _provider(locale)
    return (
        prov is not None and bool(getattr(prov, "first_romanized_names", ())) and hasattr(prov, "last_romanized_names")
    )


# Cyrillic and Greek letters in Latin ones (after the BGN/PCGN romanizations), for the names of countries whose
# Faker names are in those scripts and have no romanized lists (Russia, Ukraine, Bulgaria, Greece).
_LATIN = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюяєіїґαβγδεζηθικλμνξοπρστςυφχψωάέήίόύώϊϋΐΰ",
        [
            *"a b v g d e yo zh z i y k l m n o p r s t u f kh ts ch sh shch - y - e yu ya ye i yi g".split(),
            *"a v g d e z i th i k l m n x o p r s t s y f ch ps o a e i i o y o i y i y".split(),
        ],
        strict=True,
    )
)


def latinized(text: str) -> str:
    """``text`` with its Cyrillic and Greek letters written in Latin ones (``Олена Шевченко`` -> ``Olena
    Shevchenko``); other characters kept."""
    for greek, roman in (("ου", "ou"), ("ού", "ou"), ("Ου", "Ou"), ("Ού", "Ou")):
        text = text.replace(greek, roman)
    out = []
    for ch in text.replace("ʼ", ""):  # Ukrainian's apostrophe (Мурʼян) is left out, as in passports
        low = ch.lower()
        letters = _LATIN.get(low)
        if letters is None:
            out.append(ch)
        elif letters != "-":
            out.append(letters.capitalize() if ch != low else letters)
    return "".join(out)


@cache
def _latinizable(locale: str) -> bool:
    """Whether Faker's ``locale`` writes its surnames in letters :func:`latinized` knows (Cyrillic, Greek)."""
    provider = _provider(locale)
    sample = "".join(list(getattr(provider, "last_names", ()) if provider else ())[:200])
    return bool(sample) and all(ch.lower() in _LATIN or ch.isascii() or ch == "ʼ" or not ch.isalpha() for ch in sample)


@cache
def names_locale(locale: str, country: str | None) -> tuple[str, str]:
    """(Faker locale, how its names are written: ``""`` as they are, ``"romanized"`` from Faker's romanized lists,
    ``"latinized"`` through :func:`latinized`) that name the people living in ``country`` for a persona writing in
    ``locale``: the locale itself at home (or when ``country`` is None); abroad the country's Faker locale when its
    names are in the text's script, else its romanized names when Faker has them, else another of Faker's locales
    of the country in the text's script; failing those (Faker has no names of the country: Myanmar, Libya, Canada's
    own), the first of the Faker locales of the country's languages (CLDR; a language's own country's first:
    ``es_ES`` in Venezuela, ``fr_FR`` in Kinshasa, ``ru_RU`` in Kazakhstan) whose names are in the text's script,
    or latinized when the text is in Latin letters and they are Cyrillic or Greek; else the text locale's."""
    code = country.strip().upper() if country else ""
    if not code or code == territory(locale):
        return locale, ""
    theirs = gazetteer.faker_locale(code)
    # Names of the country's own: the gazetteer lends en_US where Faker has no locale of the country (Venezuela),
    # and Faker lends en_US's names to some of its locales (en_CA, ar_EG).
    own = theirs.endswith(f"_{code}") and _provider(theirs) is not None
    if own:
        if theirs == locale or latin_names(theirs) == latin_names(locale):
            return theirs, ""
        if latin_names(locale) and _romanizes(theirs):
            return theirs, "romanized"
    from faker.config import AVAILABLE_LOCALES

    if own:
        # Another of Faker's locales of the country that writes the text's script (India: en_IN besides hi_IN).
        same = [
            x
            for x in sorted(AVAILABLE_LOCALES)
            if x.endswith(f"_{code}") and _provider(x) is not None and latin_names(x) == latin_names(locale)
        ]
        if same:
            return same[0], ""
    info = gazetteer.country(code)
    if info and locale.split("_")[0] in info.languages and _provider(locale) is not None:
        return locale, ""  # the text's language is the country's too (English in Canada): its own names
    candidates = [theirs] if own else []
    for language in info.languages if info else ():
        own = f"{language}_{language.upper()}"
        candidates += sorted(
            (x for x in AVAILABLE_LOCALES if x.startswith(f"{language}_")), key=lambda x: (x != own, x)
        )
    for loc in candidates:
        if loc == locale or _provider(loc) is None:
            continue
        if latin_names(loc) == latin_names(locale):
            return loc, ""
        if latin_names(locale) and _latinizable(loc):
            return loc, "latinized"
    return locale, ""


def _cased(name: str) -> str:
    """A romanized name Faker writes in capitals (zh_TW: ``MEI-YING``) as people write it (``Mei-Ying``)."""
    return name.title() if name.isupper() else name


class Names:
    """Given names and surnames of one Faker locale, in its romanized lists when ``romanized``. The methods draw as
    the Faker methods of the same name do (``first_name``, ``first_name_female``, ``first_name_male``,
    ``last_name``); a romanized list without genders (zh_CN) serves both genders."""

    def __init__(self, fake, romanized: bool | str = False) -> None:
        # ``romanized``: True or "romanized" (Faker's romanized lists), "latinized" (:func:`latinized`), else as is.
        self.fake = fake
        self.romanized = romanized in (True, "romanized")
        self.latinized = romanized == "latinized"

    def _out(self, name: str) -> str:
        return latinized(name) if self.latinized else name

    def first_name(self) -> str:
        """A given name (either gender)."""
        return _cased(self.fake.first_romanized_name()) if self.romanized else self._out(self.fake.first_name())

    def first_name_female(self) -> str:
        """A woman's given name."""
        if not self.romanized:
            return self._out(self.fake.first_name_female())
        return _cased(getattr(self.fake, "first_romanized_name_female", self.fake.first_romanized_name)())

    def first_name_male(self) -> str:
        """A man's given name."""
        if not self.romanized:
            return self._out(self.fake.first_name_male())
        return _cased(getattr(self.fake, "first_romanized_name_male", self.fake.first_romanized_name)())

    def last_name(self) -> str:
        """A surname."""
        return _cased(self.fake.last_romanized_name()) if self.romanized else self._out(self.fake.last_name())


def names(seed: int, stream: str, locale: str, country: str | None = None) -> Names:
    """A :class:`Names` for the people who live in ``country`` (:func:`names_locale`), seeded from the named
    ``stream``; at home exactly the draws of ``builder.rng.faker(seed, stream, locale)``."""
    loc, mode = names_locale(locale, country)
    return Names(faker(seed, stream, loc), mode)


@cache
def given_names(*locales: str) -> tuple[frozenset[str], frozenset[str]]:
    """(female-only, male-only) given names of ``locales``' Faker lists together (romanized lists too, as
    :class:`Names` writes them): a name both genders' lists hold is in neither."""
    female, male = set(), set()
    for loc in dict.fromkeys(locales):
        prov = _provider(loc)
        for attrs, out in ((_FEMALE, female), (_MALE, male)):
            out.update(getattr(prov, attrs[0], ()))
            out.update(_cased(n) for n in getattr(prov, attrs[1], ()))
    return frozenset(female - male), frozenset(male - female)


@cache
def _everywhere() -> tuple[frozenset[str], frozenset[str]]:
    """:func:`given_names` of every Faker person provider (locales and languages: ``en``, ``ja_JP``...)."""
    import faker.providers.person as person

    return given_names(*sorted(m.name for m in pkgutil.iter_modules(person.__path__)))


@cache
def _listed(*locales: str) -> frozenset[str]:
    """Every given name of ``locales``' gendered Faker lists (either gender, romanized lists too)."""
    out: set[str] = set()
    for loc in locales:
        prov = _provider(loc)
        for attr in _FEMALE[:1] + _MALE[:1]:
            out.update(getattr(prov, attr, ()))
        for attr in _FEMALE[1:] + _MALE[1:]:
            out.update(_cased(n) for n in getattr(prov, attr, ()))
    return frozenset(out)


def gender_of(name: str, locale: str, country: str | None = None) -> str | None:
    """``"female"``/``"male"`` when the given name (the first word of ``name``) is in only one gender's Faker lists:
    en_US's and ``locale``'s together (today's rule, which decides every name those lists hold: a name both genders'
    lists hold tells nothing); for people of a ``country`` outside the locale's, a name those lists lack is looked up
    in the country's Faker locale's lists (:func:`~builder.reference.gazetteer.faker_locale`), then in every Faker
    locale's (``Kenji``: Faker's generic English male list). Else None."""
    first = name.split()[0] if name.split() else ""
    female, male = given_names("en_US", locale)
    if first in female or first in male:
        return "female" if first in female else "male"
    if first in _listed("en_US", locale) or not country or country.strip().upper() == territory(locale):
        return None
    for f, m in (given_names(gazetteer.faker_locale(country)), _everywhere()):
        if first in f or first in m:
            return "female" if first in f else "male"
    return None


def called(name: str, others: Iterable[str]) -> str:
    """How one calls ``name`` among the people ``others`` (names; ``name`` itself may be among them): the first word
    of the name, or the whole name when another of ``others`` has the same first word (two friends called Yong:
    ``called("Yong Yang", ["Yong He", "Yong Yang", "Wei Liang"]) == "Yong Yang"``)."""
    first = name.split()[0]
    return name if any(o != name and o.split()[:1] == [first] for o in others) else first
