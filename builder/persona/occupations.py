"""Occupations: what a persona's job is made of, matched from ``Work.role``.

The data lives in ``occupations/<locale>.yaml`` (en_US, en_GB, de_DE; a file may say ``extends:
<locale>`` and is then laid over that one family by family, key by key). Each file has:

* ``mail``: the locale's frames for work mail (``greet`` by hour, ``signoff``, generic thread ``kinds``
  with ``subjects`` and ``steps``, meeting ``notes`` wording, calendar ``cadence`` and ``weekdays``,
  the ``one_on_one`` title pattern).
* ``families``: job families. A family has ``words`` (lower-case role fragments: a role matches the family
  with the longest word it contains, from any locale's file, the earlier family on a tie; ``office`` is
  the fallback), ``team`` ({slug, title}: the work chat team channel), ``roles`` (roles completion may give a
  persona without one), ``employers`` (name patterns with ``{last}``, ``{last2}``, ``{full}``),
  ``freelance`` (bool), ``ticket`` (a ticket prefix), ``artifacts`` and ``projects`` (the things and
  projects of that work; project patterns take ``{codename}`` and ``{quarter}``), sentence lists that
  work mail fills into the kinds' frames (``done``, ``done_item``, ``next_item``, ``risk``, ``ask``,
  ``answer``, ``question``, ``focus``, ``note``), ``series`` (default recurring meetings: title, days,
  time, minutes, every, with = all / one / some colleagues), ``one_offs`` ([title, minutes]),
  ``notes_chance`` (meeting title -> chance of notes mail), ``discussed`` and ``actions`` (meeting
  notes lines), ``kinds`` (family-only mail thread kinds: ``subjects``, ``steps``, ``slots`` drawn once per
  thread, ``from_client``: an outsider writes first and both sides are formal, ``weight``), and ``chat``
  (work chat slot overrides: env, symptom, cause, decision...; ``chat.phrases`` rewords bank intents).

A step is a list of parts, each a list of alternatives; work mail draws one alternative per part and
joins them (a part starting with a newline starts a new paragraph).

Sentence slots: ``{artifact}``, ``{artifact2}``, ``{project}``, ``{deadline}``, ``{n}`` (a small number),
``{clock}``, ``{doc}`` and a kind's own ``slots``.

Everything here is a pure function of its arguments (no random draws); callers draw from their own
streams.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from builder import yamlfile

DATA = Path(__file__).with_name("occupations")
LOCALES = ("en_US", "en_GB", "de_DE")
FALLBACK = "office"


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


@cache
def data(locale: str) -> dict[str, Any]:
    """The occupation data of ``locale`` (en_US for an unknown locale), ``extends`` resolved. Read-only."""
    path = DATA / f"{locale}.yaml"
    if not path.exists():
        path = DATA / "en_US.yaml"
    raw = yamlfile.safe_load(path.read_text(encoding="utf-8"))
    base = raw.pop("extends", None)
    return _merge(data(base), raw) if base else raw


@dataclass(frozen=True)
class Occupation:
    """A job family in one locale: ``key`` (e.g. ``data_engineering``) and its data (see module doc)."""

    key: str
    locale: str

    @property
    def d(self) -> dict[str, Any]:
        return data(self.locale)["families"][self.key]

    @property
    def mail(self) -> dict[str, Any]:
        """The locale's work mail frames (``data(locale)["mail"]``)."""
        return data(self.locale)["mail"]

    @property
    def freelance(self) -> bool:
        return bool(self.d.get("freelance"))

    def get(self, name: str, default: Any = None) -> Any:
        return self.d.get(name, default)


def family_keys(locale: str = "en_US") -> list[str]:
    """The family keys of ``locale`` in match order."""
    return list(data(locale)["families"])


def match(role: str | None) -> str:
    """The family key for ``role`` (case-insensitive; words of every locale count), else ``office``."""
    text = f" {(role or '').lower()} "
    text = re.sub(r"\s+", " ", text)
    best, best_len = FALLBACK, 0
    for key in family_keys("en_US"):
        for loc in LOCALES:
            fam = data(loc)["families"].get(key) or {}
            for w in fam.get("words") or []:
                if w in text and len(w) > best_len:  # the most specific word wins: "furniture designer" is art
                    best, best_len = key, len(w)
    return best


def occupation(role: str | None, locale: str) -> Occupation:
    """The :class:`Occupation` of ``role`` in ``locale``."""
    loc = locale if (DATA / f"{locale}.yaml").exists() else "en_US"
    return Occupation(match(role), loc)


def of_persona(p) -> Occupation:
    """The occupation of a (completed) persona: its ``work.role`` in its locale."""
    return occupation(p.work.role if p.work else None, p.bank)
