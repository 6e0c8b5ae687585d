"""Persona generator: plausible, specific persona specs in any city, one or a whole population (``new-persona``).

:func:`persona` writes one spec (a JSON-ready dict that validates against :class:`~builder.persona.model.Persona`)
for a city of the gazetteer; :func:`population` writes ``n`` of them spread across countries, life stages, ages
18-80, incomes, occupations, household shapes and languages. What a spec gives is what makes one person differ from
another: a name of the country's people (:mod:`builder.reference.people`), an age and a life stage, a job that fits
the stage and its pay, a street address in the city with a postcode of the country, the household (partner, children,
roommates: contacts sharing the home address), family, friends and colleagues, routines, tastes and some trips. The
rest (email addresses, phone numbers, the employer, bills, accounts' names, browsing, the bio) is left to the
completion (:mod:`builder.persona.complete`), which fills it deterministically from the spec's own seed.

Life stages (:data:`STAGES`): ``student`` 18-25 (a part-time job), ``young-professional`` 23-35, ``parent`` 28-55
(children at home, with a partner or alone), ``retired`` 62-80. The schema has no retirement: every completed
persona has an employer, so a retired persona works a few hours a week (tutoring, bookkeeping, illustration).

Locale and language: the spec's ``locale`` is the home country's likely locale (CLDR: ``ja_JP`` in Tokyo, ``en_NG``
in Lagos, ``de_AT`` in Vienna; :func:`builder.reference.locale.default_locale`), so names, currency, holidays and
formats are the country's. Its ``language`` (the text's: ``en`` or ``de``) defaults to the locale's when it has phrase
banks (German in Germany, Austria, Switzerland and Liechtenstein), else English; a population writes some German
speakers' specs in English and a few others' in German. The generator's own words (roles, streets at home) come from
the phrase bank the build will read (:func:`builder.reference.locale.bank_of`).

Every draw comes from a named stream of :func:`builder.rng.rng` (``generate/<what>`` under the generator's seed for a
population's plan, ``generate/person/<what>`` under the persona's own seed for one person), so the same arguments
give byte-identical specs; nothing reads the wall clock.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import sys
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Annotated, Any

import typer

from ..names import ascii_slug
from ..reference import addresses, fx, gazetteer, people, prices
from ..reference.locale import bank_currency, bank_of, default_locale, territory
from ..reference.locale import default_language as locale_default_language
from ..rng import faker, rng, stream_seed, token
from . import facts
from .model import Persona, name_key
from .occupations import data as occupation_data

#: Life stages and their ages (inclusive).
STAGES: dict[str, tuple[int, int]] = {
    "student": (18, 25),
    "young-professional": (23, 35),
    "parent": (28, 55),
    "retired": (62, 80),
}
#: Share of each stage in a population.
STAGE_SHARES = {"student": 0.2, "young-professional": 0.3, "parent": 0.3, "retired": 0.2}

LANGUAGES = ("en", "de")
AS_OF = dt.date(2026, 11, 16)

# Roles by stage and language. A role names a job family of builder/persona/occupations (its words); "a|b" is the
# feminine and masculine form. Young professionals and parents also take the families' own roles of the locale.
_STAGE_ROLES = {
    "student": {
        "en": [
            "Student Research Assistant",
            "Teaching Assistant",
            "Part-time Tutor",
            "Marketing Intern",
            "Software Engineering Intern",
            "Junior Data Analyst (part-time)",
            "Design Intern",
            "Pharmacy Assistant",
            "Social Media Assistant",
            "Lab Assistant",
        ],
        "de": [
            "Studentische Hilfskraft in der Forschung",
            "Werkstudentin Marketing|Werkstudent Marketing",
            "Werkstudentin Softwareentwicklung|Werkstudent Softwareentwicklung",
            "Nachhilfelehrerin|Nachhilfelehrer",
            "Werkstudentin Datenanalyse|Werkstudent Datenanalyse",
            "Aushilfe in der Klinik",
            "Werkstudentin Grafikdesign|Werkstudent Grafikdesign",
        ],
    },
    "young-professional": {
        "en": [
            "Junior Software Engineer",
            "Junior Accountant",
            "Marketing Coordinator",
            "Graduate Nurse",
            "Primary School Teacher",
            "Junior UX Designer",
            "Logistics Coordinator",
            "Sales Associate",
            "Junior Data Analyst",
            "Photographer",
        ],
        "de": [
            "Junior-Entwicklerin|Junior-Entwickler",
            "Buchhalterin|Buchhalter",
            "Pflegefachfrau|Pflegefachmann",
            "Grundschullehrerin|Grundschullehrer",
            "Mediengestalterin|Mediengestalter",
            "Vertriebsmitarbeiterin|Vertriebsmitarbeiter",
            "Fotografin|Fotograf",
        ],
    },
    "parent": {
        "en": [
            "Physician",
            "Physical Therapist",
            "Head of Finance",
            "Engineering Manager",
            "School Principal",
            "Procurement Manager",
            "Architect",
            "Pharmacist",
            "Sales Director",
            "University Lecturer",
        ],
        "de": [
            "Ärztin|Arzt",
            "Physiotherapeutin|Physiotherapeut",
            "Leiterin Controlling|Leiter Controlling",
            "Architektin|Architekt",
            "Apothekerin|Apotheker",
            "Einkaufsleiterin|Einkaufsleiter",
            "Dozentin|Dozent",
        ],
    },
    "retired": {
        "en": [
            "Part-time Tutor",
            "Freelance Illustrator",
            "Part-time Bookkeeper",
            "Retired Teacher, private tutor",
            "Freelance Photographer",
            "Museum Guide (part-time)",
            "Consultant",
            "Retired Nurse, clinic volunteer",
        ],
        "de": [
            "Nachhilfelehrerin|Nachhilfelehrer",
            "freie Illustratorin|freier Illustrator",
            "Buchhalterin in Teilzeit|Buchhalter in Teilzeit",
            "Lehrerin im Ruhestand, Nachhilfe|Lehrer im Ruhestand, Nachhilfe",
            "Fotografin|Fotograf",
            "Beraterin|Berater",
        ],
    },
}

# Gross yearly pay in US dollars of the US level by stage (low, high) and the income bands that scale it.
_PAY_USD = {
    "student": (9_000, 22_000),
    "young-professional": (38_000, 90_000),
    "parent": (45_000, 160_000),
    "retired": (8_000, 30_000),
}
INCOMES = ("low", "middle", "high")
_BAND = {"low": (0.0, 0.3), "middle": (0.3, 0.7), "high": (0.7, 1.0)}
_NET = {"low": (0.78, 0.88), "middle": (0.66, 0.76), "high": (0.55, 0.66)}

# Household shapes by stage (shape, weight).
_HOUSEHOLDS = {
    "student": [("alone", 3), ("roommates", 5), ("partner", 2)],
    "young-professional": [("alone", 4), ("roommates", 2), ("partner", 3), ("married", 2)],
    "parent": [("married", 6), ("partner", 2), ("single parent", 2)],
    "retired": [("married", 6), ("widowed", 3), ("alone", 1)],
}

_EXERCISE = {
    "student": ["running", "football", "climbing", "weights", "basketball", "dance"],
    "young-professional": ["running", "climbing", "yoga", "cycling", "weights", "swimming", "tennis"],
    "parent": ["running", "cycling", "yoga", "swimming", "weights", "hiking"],
    "retired": ["walking", "swimming", "yoga", "cycling", "gardening", "tai chi"],
}
_WEEKDAYS = ["mon", "tue", "wed", "thu", "fri"]
_ALL_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

# A country's own cuisine, when the usual-order bank (facts.orders) has it: a local favourite more often than not.
_HOME_CUISINE = {
    "JP": "Japanese",
    "KR": "Korean",
    "CN": "Chinese",
    "TW": "Chinese",
    "HK": "Chinese",
    "IN": "Indian",
    "TH": "Thai",
    "VN": "Vietnamese",
    "MX": "Mexican",
    "IT": "Italian",
    "GR": "Greek",
    "ES": "Spanish",
    "FR": "French",
    "TR": "Turkish",
    "LB": "Lebanese",
    "ET": "Ethiopian",
}

# Regions a population is spread over: a zone's area, the Americas split at 15 degrees north.
REGIONS = ("Africa", "North America", "South America", "Asia", "Europe", "Oceania")


class GenerateError(ValueError):
    """Arguments the generator cannot honour (an unknown city, an unknown language or stage): one line."""


@dataclass(frozen=True)
class Summary:
    """One generated persona's row in ``population.csv``."""

    id: str
    city: str
    country: str
    age: int
    life_stage: str
    occupation: str
    language: str
    locale: str
    household: str
    income: str

    FIELDS = ("id", "city", "country", "age", "life_stage", "occupation", "language", "locale", "household", "income")

    def row(self) -> list[str]:
        """The CSV row, in :attr:`FIELDS` order."""
        return [str(getattr(self, f)) for f in self.FIELDS]


# --- language -----------------------------------------------------------------------------------------------


def default_language(country: str) -> str:
    """The text language of a persona at home in ``country`` (ISO alpha-2) who names none: the language of the
    country's likely locale when it has phrase banks (CLDR: ``de`` in Germany, Austria, Switzerland and
    Liechtenstein), else ``en`` (:func:`builder.reference.locale.default_language`)."""
    return locale_default_language(default_locale(country))


# --- places -------------------------------------------------------------------------------------------------


def resolve_city(name: str, country: str | None = None) -> gazetteer.City:
    """The gazetteer's city called ``name`` (in ``country`` when given), or :class:`GenerateError`."""
    if country is not None and gazetteer.country(country.upper()) is None:
        raise GenerateError(f"unknown country code {country!r} (ISO 3166-1 alpha-2, e.g. NG, JP, DE)")
    found = gazetteer.find_city(name, country.upper() if country else None)
    if found is None:
        where = f" in {country.upper()}" if country else ""
        raise GenerateError(
            f"no city of 15,000 people or more called {name!r}{where} (GeoNames, any of its names): "
            "give the nearest larger city"
        )
    return found


def region_of(city: gazetteer.City) -> str:
    """The region of :data:`REGIONS` that ``city`` is in (from its time zone's area and latitude)."""
    area = city.timezone.split("/", 1)[0]
    if area == "America":
        return "North America" if city.latitude > 15 else "South America"
    if area in ("Australia", "Pacific"):
        return "Oceania"
    if area in ("Africa", "Asia", "Europe"):
        return area
    return {"Atlantic": "Europe", "Indian": "Asia"}.get(area, "Asia")


@cache
def _cities_by_region() -> dict[str, dict[str, list[gazetteer.City]]]:
    """Region -> country -> its cities of a million people or more with an airport (gazetteer order)."""
    out: dict[str, dict[str, list[gazetteer.City]]] = {r: {} for r in REGIONS}
    for city, _airport in gazetteer.big_cities():
        if gazetteer.find_city(city.name, city.country, city.admin1) != city:
            continue  # a name another, larger city of the country answers to
        out[region_of(city)].setdefault(city.country, []).append(city)
    return out


def _home_region(city: gazetteer.City) -> str | None:
    """The first-level division a US address writes (the state's code), else None."""
    return (city.admin1 or None) if city.country == "US" else None


def _postcode(r, city: gazetteer.City, locale: str) -> str:
    """A postcode of the city: near its base (:func:`builder.reference.addresses.postcode_base`), else Faker's for
    the country (a US one in the city's state), checked against the country's pattern (GeoNames) when it has one."""
    base = addresses.postcode_base(city)
    if base:
        return addresses.near_postcode(r, base)
    from faker import Faker

    fake = Faker(gazetteer.faker_locale(city.country))
    fake.seed_instance(r.getrandbits(64))
    pattern = (gazetteer.postcode_pattern(city.country) or "").strip()
    for _ in range(4):
        if city.country == "US" and city.admin1:
            code = fake.postcode_in_state(city.admin1)
        else:
            code = fake.postcode()
        code = " ".join(str(code).split())[:16]
        if not pattern or re.fullmatch(pattern, code):
            return code
    return sample_pattern(r, pattern)[:16] or code


def sample_pattern(r, pattern: str) -> str:
    """A string that the postcode ``pattern`` (GeoNames' regular expressions: literals, classes, ``\\d``, counted
    repeats, groups, alternatives) matches, drawn from ``r``: optional parts left out, the first alternative taken."""
    from re import _parser as sre  # the standard library's own parser of regular expressions

    def text(items) -> str:
        out = []
        for op, av in items:
            name = str(op)
            if name == "LITERAL":
                out.append(chr(av))
            elif name == "IN":
                chars: list[str] = []
                for kind, val in av:
                    kind = str(kind)
                    if kind == "LITERAL":
                        chars.append(chr(val))
                    elif kind == "RANGE":
                        chars += [chr(c) for c in range(val[0], val[1] + 1)]
                    elif kind == "CATEGORY":
                        chars += list("0123456789") if "DIGIT" in str(val) else [" "]
                out.append(chars[r.randrange(len(chars))] if chars else "")
            elif name in ("MAX_REPEAT", "MIN_REPEAT"):
                low, _high, sub = av
                out += [text(sub) for _ in range(low)]
            elif name == "SUBPATTERN":
                out.append(text(av[-1]))
            elif name == "BRANCH":
                out.append(text(av[1][0]))
            elif name == "CATEGORY":
                out.append(str(r.randint(0, 9)) if "DIGIT" in str(av) else " ")
        return "".join(out)

    try:
        return text(sre.parse(pattern))
    except (re.error, ValueError, TypeError):
        return ""


def _address(seed: int, city: gazetteer.City, locale: str) -> dict:
    """A home address in ``city``: a street as the country writes one, a postcode of the country."""
    r = rng(seed, "generate/person/address")
    at_home = city.country == territory(locale)
    street = facts.street(r, locale) if at_home else addresses.street_line(r, city.country, city.name)
    out = {"street": facts.one_line(street)[:120], "city": city.name}
    region = _home_region(city)
    if region:
        out["region"] = region
    out["postal_code"] = _postcode(rng(seed, "generate/person/postcode"), city, locale)
    out["country"] = city.country
    return out


# --- people -------------------------------------------------------------------------------------------------


def _birth(r, as_of: dt.date, age: int) -> dt.date:
    """A birth date that makes someone ``age`` on ``as_of``."""
    days = r.randint(1, 364)
    return as_of - dt.timedelta(days=365 * age + age // 4 + days)


def age_on(birth: dt.date, as_of: dt.date) -> int:
    """Whole years from ``birth`` to ``as_of``."""
    return as_of.year - birth.year - ((as_of.month, as_of.day) < (birth.month, birth.day))


def names_locale(locale: str, country: str) -> tuple[str, str]:
    """:func:`builder.reference.people.names_locale` (kept here for the generator's callers)."""
    return people.names_locale(locale, country)


# A family name in the other gender's form, where a language's surnames have two (Smirnova/Smirnov,
# Nováková/Novák, Παπαδοπούλου/Παπαδόπουλος): (feminine ending, masculine ending) pairs, tried in order.
_SURNAME_FORMS = [
    ("ская", "ский"),
    ("цкая", "цкий"),
    ("ова", "ов"),
    ("ева", "ев"),
    ("ёва", "ёв"),
    ("ина", "ин"),
    ("ына", "ын"),
    ("ска", "ски"),
    ("ska", "ski"),
    ("cka", "cki"),
    ("ová", ""),
    ("ová", "a"),
    ("á", "ý"),
    ("ίδου", "ίδης"),
    ("ου", "ος"),
    ("ου", "ός"),
    ("ούλου", "ουλος"),
    ("η", "ης"),
    ("ή", "ής"),
    ("α", "ας"),
    ("ά", "άς"),
]


def gendered_surname(surname: str, gender: str, locale: str) -> str:
    """``surname`` in the form for ``gender`` when Faker's ``locale`` lists surnames by gender and ``surname`` is
    not among ``gender``'s: the form with the other gender's ending replaced that the lists hold, else the first
    that fits (:data:`_SURNAME_FORMS`); else as it is."""
    provider = people._provider(locale)
    female, male = (getattr(provider, f"last_names_{g}", None) for g in ("female", "male"))
    if gender not in ("female", "male") or not female or not male:
        return surname
    mine = set(female) if gender == "female" else set(male)
    if surname in mine:
        return surname
    forms = [
        surname[: len(surname) - len(theirs)] + ours
        for f, m in _SURNAME_FORMS
        for ours, theirs in [(f, m) if gender == "female" else (m, f)]
        if surname.endswith(theirs) and theirs and (ours != "ová" or locale.split("_")[0] in ("cs", "sk"))
    ]
    if gender == "female" and locale.split("_")[0] in ("cs", "sk"):
        forms.append(surname + "ová")
    return next((x for x in forms if x in mine), forms[0] if forms else surname)


class _Namer:
    """Names of the people of one country for one persona (:func:`names_locale`), never the same name twice."""

    def __init__(self, seed: int, locale: str, country: str) -> None:
        self.seed, self.country = seed, country
        self.locale, self.mode = names_locale(locale, country)
        self.taken: set[str] = set()
        self.surname = ""  # the last name drawn, as Faker writes it: a family shares it (in each gender's form)

    def __call__(self, stream: str, gender: str, surname: str | None = None) -> str:
        name = ""
        for attempt in range(20):
            fake = people.Names(
                faker(self.seed, f"generate/person/{stream}/{attempt}", self.locale), self.mode == "romanized"
            )
            first = {"female": fake.first_name_female, "male": fake.first_name_male}.get(gender, fake.first_name)()
            first = first.strip(" .")  # Faker's tr_TR lists a few given names with a full stop
            last = gendered_surname(surname or fake.last_name(), gender, self.locale)
            name = " ".join(f"{first} {last}".split())
            self.surname = surname or last
            if self.mode == "latinized":
                name = people.latinized(name)
            if 2 <= len(name) <= 80 and name_key(name) not in self.taken and len(name.split()) >= 2:
                break
        self.taken.add(name_key(name))
        return name


def _gender(r) -> str:
    return r.choices(["female", "male", "nonbinary"], [48, 48, 4])[0]


def _other_gender(r, gender: str) -> str:
    if gender == "nonbinary":
        return r.choice(["female", "male"])
    return gender if r.random() < 0.08 else {"female": "male", "male": "female"}[gender]


def _role(seed: int, stage: str, locale: str, gender: str) -> str:
    """A job title that fits ``stage``: the stage's own list, for young professionals and parents also the job
    families' roles of the locale (builder/persona/occupations)."""
    r = rng(seed, "generate/person/role")
    language = locale.split("_")[0]
    roles = list(_STAGE_ROLES[stage][language])
    if stage in ("young-professional", "parent"):
        for family in occupation_data(locale)["families"].values():
            roles += [
                role
                for role in family["roles"]
                if (stage == "parent") or not role.lower().startswith(("senior", "head", "lead", "leiter"))
            ]
    if gender != "female":  # a title only women hold (en_GB's Ward Sister)
        roles = [role for role in roles if "sister" not in role.lower()]
    return facts.gendered(roles[r.randrange(len(roles))], gender, r)[:100]


def _currency(country: str, locale: str, as_of: dt.date) -> str:
    """The country's currency when it can be rated, else the locale's (as the completion decides)."""
    found = gazetteer.currency(country, as_of)
    return found if found and fx.known(found) else bank_currency(locale)


def _money(value: Decimal) -> int:
    """A whole amount as a JSON number."""
    return int(value.quantize(Decimal(1)))


# --- one persona --------------------------------------------------------------------------------------------


def persona(
    city: gazetteer.City,
    seed: int,
    *,
    language: str | None = None,
    stage: str | None = None,
    income: str | None = None,
    household: str | None = None,
    as_of: dt.date = AS_OF,
    persona_id: str | None = None,
) -> tuple[dict, Summary]:
    """One persona spec living in ``city`` (a JSON-ready dict, valid for :class:`Persona`) and its summary row.

    ``seed`` is the spec's own seed: every draw here comes from a ``generate/person/...`` stream under it. Left
    out, ``language`` is the country's (:func:`default_language`), ``stage`` (one of :data:`STAGES`), ``income``
    (one of :data:`INCOMES`) and ``household`` (a shape the stage allows) are drawn."""
    country = city.country
    language = language or default_language(country)
    if language not in LANGUAGES:
        raise GenerateError(f"unknown language {language!r}: one of {', '.join(LANGUAGES)}")
    # Facts (names, currency, holidays, formats) follow the country's locale; the text, its phrase bank.
    locale = default_locale(country)
    bank = bank_of(locale, language)
    r = rng(seed, "generate/person/plan")
    stage = stage or r.choices(list(STAGE_SHARES), list(STAGE_SHARES.values()))[0]
    if stage not in STAGES:
        raise GenerateError(f"unknown life stage {stage!r}: one of {', '.join(STAGES)}")
    income = income or r.choices(INCOMES, [30, 50, 20])[0]
    shapes = _HOUSEHOLDS[stage]
    household = household or r.choices([s for s, _ in shapes], [w for _, w in shapes])[0]
    lo, hi = STAGES[stage]
    age = rng(seed, "generate/person/age").randint(lo, hi)
    gender = _gender(rng(seed, "generate/person/gender"))
    born = _birth(rng(seed, "generate/person/birth"), as_of, age)
    namer = _Namer(seed, bank, country)
    name = namer("me", gender)
    surname = namer.surname
    home = _address(seed, city, bank)
    spec: dict[str, Any] = {
        "$schema": "persona.schema.json",
        "_comment": f"Generated by new-persona: a {stage} in {city.name}, {country} ({household}, {income} income).",
        "id": persona_id or _slug(name, seed),
        "seed": seed,
        "as_of": as_of.isoformat(),
        "locale": locale,
        "language": language,
        "identity": {"name": name, "birth_date": born.isoformat(), "gender": gender, "address": home},
    }
    contacts, shape = _contacts(seed, stage, household, age, gender, surname, born, as_of, home, namer)
    role = _role(seed, stage, bank, gender)
    spec["work"] = _work(seed, stage, income, role, country, bank, as_of)
    spec["finances"] = _finances(seed, income, stage, country, bank, as_of)
    spec["contacts"] = contacts
    routines, exercise = _routines(seed, stage, household)
    spec["routines"] = routines
    draft = Persona.model_validate({k: v for k, v in spec.items() if k != "contacts"})
    spec["preferences"] = _preferences(seed, country, draft)
    trips = _trips(seed, stage, city, contacts, as_of)
    if trips is not None:
        spec["travel"] = {"trips": trips}
    spec["life_events"] = _life_events(seed, stage, contacts, as_of, exercise)
    summary = Summary(spec["id"], city.name, country, age, stage, role, language, locale, shape, income)
    return spec, summary


def _slug(name: str, seed: int) -> str:
    slug = ascii_slug(name, "-")[:48].strip("-")
    return slug if len(slug) >= 2 and slug[0].isalnum() else f"persona-{token(seed, 'generate/id', length=8)}"


def _contact(name: str, relationship: str, **fields: Any) -> dict:
    return {"name": name, "relationship": relationship, **{k: v for k, v in fields.items() if v is not None}}


def _contacts(
    seed: int,
    stage: str,
    household: str,
    age: int,
    gender: str,
    surname: str,
    born: dt.date,
    as_of: dt.date,
    home: dict,
    namer: _Namer,
) -> tuple[list[dict], str]:
    """The persona's people: the household (sharing the home address), family, friends, colleagues, a neighbour;
    and the household's shape as the summary writes it."""
    r = rng(seed, "generate/person/household")
    out: list[dict] = []
    shape = household
    partner_name = None
    if household in ("partner", "married"):
        pg = _other_gender(r, gender)
        married = household == "married"
        partner_name = namer("partner", pg, surname if married and r.random() < 0.6 else None)
        partner_age = max(18, min(95, age + r.randint(-5, 5)))
        out.append(
            _contact(
                partner_name,
                "spouse" if married else "partner",
                closeness=5,
                gender=pg,
                birthday=_birth(r, as_of, partner_age).isoformat(),
                address=dict(home),
            )
        )
    if household == "roommates":
        for i in range(r.randint(1, 2)):
            rg = _gender(r)
            out.append(
                _contact(
                    namer(f"roommate/{i}", rg),
                    "roommate",
                    closeness=r.randint(2, 4),
                    gender=rg,
                    birthday=_birth(r, as_of, max(18, age + r.randint(-3, 3))).isoformat(),
                    address=dict(home),
                )
            )
    kids_at_home = 0
    if stage == "parent":
        n = r.choices([1, 2, 3, 4], [35, 40, 20, 5])[0]
        oldest = min(17, age - 20)
        for i in range(n):
            kg = r.choice(["female", "male"])
            kid_age = r.randint(0, max(0, oldest))
            out.append(
                _contact(
                    namer(f"child/{i}", kg, surname),
                    "child",
                    closeness=5,
                    gender=kg,
                    birthday=_birth(r, as_of, kid_age).isoformat(),
                    address=dict(home),
                )
            )
        kids_at_home = n
        if age >= 45 and r.random() < 0.4:  # a grown child who has left home
            kg = r.choice(["female", "male"])
            out.append(
                _contact(
                    namer("child/grown", kg, surname),
                    "child",
                    closeness=4,
                    gender=kg,
                    birthday=_birth(r, as_of, r.randint(19, min(30, age - 19))).isoformat(),
                )
            )
    if stage == "retired":
        for i in range(r.choices([0, 1, 2, 3], [10, 30, 40, 20])[0]):
            kg = r.choice(["female", "male"])
            out.append(
                _contact(
                    namer(f"child/{i}", kg, surname),
                    "child",
                    closeness=r.randint(3, 5),
                    gender=kg,
                    birthday=_birth(r, as_of, r.randint(28, min(52, age - 22))).isoformat(),
                )
            )
    if kids_at_home:
        shape = f"{'single parent' if household == 'single parent' else 'couple'} + {kids_at_home} "
        shape += "child" if kids_at_home == 1 else "children"
    # Parents while they are likely alive, siblings.
    f = rng(seed, "generate/person/family")
    mother_age = age + f.randint(22, 36)
    father_age = mother_age + f.randint(-2, 6)
    if mother_age <= 90:
        out.append(
            _contact(namer("mother", "female", surname), "parent", birthday=_birth(f, as_of, mother_age).isoformat())
        )
    if father_age <= 86 and f.random() < 0.85:
        out.append(
            _contact(namer("father", "male", surname), "parent", birthday=_birth(f, as_of, father_age).isoformat())
        )
    for i in range(f.choices([0, 1, 2, 3], [20, 45, 25, 10])[0]):
        out.append(
            _contact(
                namer(f"sibling/{i}", f.choice(["female", "male"]), surname),
                "sibling",
                birthday=_birth(f, as_of, max(16, age + f.randint(-8, 8))).isoformat(),
            )
        )
    s = rng(seed, "generate/person/circle")
    for i in range(s.randint(3, 5)):
        out.append(
            _contact(
                namer(f"friend/{i}", _gender(s)),
                "friend",
                closeness=s.randint(2, 5),
                birthday=_birth(s, as_of, max(18, age + s.randint(-6, 6))).isoformat(),
            )
        )
    for i in range(s.randint(1, 2) if stage in ("student", "retired") else s.randint(2, 4)):
        out.append(
            _contact(
                namer(f"colleague/{i}", _gender(s)),
                "colleague",
                birthday=_birth(s, as_of, s.randint(22, 64)).isoformat(),
            )
        )
    if s.random() < 0.6:
        out.append(_contact(namer("neighbor", _gender(s)), "neighbor", closeness=1))
    return out[:25], shape


def _work(seed: int, stage: str, income: str, role: str, country: str, locale: str, as_of: dt.date) -> dict:
    r = rng(seed, "generate/person/work")
    lo, hi = _PAY_USD[stage]
    a, b = _BAND[income]
    usd = Decimal(round((lo + (hi - lo) * r.uniform(a, b)) / 500) * 500)
    currency = _currency(country, locale, as_of)
    salary = prices.annual_pay(usd, "USD", currency, country)
    days = {"student": (2, 3), "young-professional": (3, 5), "parent": (3, 5), "retired": (1, 2)}[stage]
    office = sorted(r.sample(_WEEKDAYS, r.randint(*days)), key=_WEEKDAYS.index)
    return {
        "role": role,
        "salary": _money(max(salary, Decimal(1))),
        "pay_schedule": "biweekly" if country == "US" else "monthly",
        "net_ratio": round(r.uniform(*_NET[income]), 3),
        "office_days": office,
    }


def _finances(seed: int, income: str, stage: str, country: str, locale: str, as_of: dt.date) -> dict:
    r = rng(seed, "generate/person/finances")
    currency = _currency(country, locale, as_of)
    scale = {"low": 0.4, "middle": 1.0, "high": 3.0}[income] * {"student": 0.3, "retired": 4.0}.get(stage, 1.0)

    def amount(usd: float) -> int:
        return _money(prices.amount(Decimal(round(usd)), "USD", currency))

    accounts = [
        {"kind": "checking", "opening_balance": amount(r.uniform(600, 4500) * min(scale, 2.0))},
        {"kind": "savings", "opening_balance": amount(r.uniform(800, 20000) * scale), "apr": 3.25},
    ]
    if stage != "student" or r.random() < 0.4:
        limit = max(amount(r.choice([1000, 2500, 5000, 8000, 12000]) * min(scale, 2.0)), 1)
        accounts.append(
            {
                "kind": "credit_card",
                "opening_balance": amount(r.uniform(50, 900)),
                "credit_limit": limit,
                "apr": round(r.uniform(15.9, 27.9), 2),
            }
        )
    if income == "high" or (stage == "retired" and income == "middle"):
        accounts.append({"kind": "brokerage", "opening_balance": amount(r.uniform(2000, 60000) * scale)})
    return {"currency": currency, "accounts": accounts}


def _routines(seed: int, stage: str, household: str) -> tuple[dict, str]:
    r = rng(seed, "generate/person/routines")
    wake = {"student": (7, 9), "young-professional": (6, 8), "parent": (5, 7), "retired": (6, 8)}[stage]
    bed = {"student": (23, 24), "young-professional": (22, 24), "parent": (21, 23), "retired": (21, 23)}[stage]
    exercise = r.choice(_EXERCISE[stage])
    kids = stage == "parent"
    out = {
        "exercise": exercise,
        "exercise_days": sorted(r.sample(_ALL_DAYS, r.randint(1, 4)), key=_ALL_DAYS.index),
        "coffee_per_week": r.randint(0, 10),
        "groceries_day": r.choice(_ALL_DAYS),
        "grocery_delivery": r.random() < (0.5 if kids else 0.25),
        "grocery_orders_per_month": r.randint(2, 8) if kids else r.randint(0, 4),
        "dining_out_per_month": r.randint(0, 3) if kids else r.randint(1, 10),
        "food_delivery_per_month": r.randint(0, 12),
        "rides_per_month": r.randint(0, 8),
        "online_orders_per_month": r.randint(1, 12),
        "wake": f"{r.randint(*wake):02d}:{r.choice([0, 15, 30, 45]):02d}",
        "bedtime": f"{r.randint(*bed) % 24:02d}:{r.choice([0, 30]):02d}",
        "night_owl": stage == "student" and r.random() < 0.5,
        "screen_hours_per_day": round(r.uniform(1.5, 7.5), 1),
    }
    return out, exercise


def _preferences(seed: int, country: str, draft: Persona) -> dict:
    """Cuisines (the country's own often first), the country's tipping custom, a favourite cafe and shop."""
    from .complete import everyday

    r = rng(seed, "generate/person/preferences")
    cuisines = sorted(facts.orders())
    pick = r.sample(cuisines, r.randint(2, 4))
    local = _HOME_CUISINE.get(country)
    if local and local not in pick and r.random() < 0.7:
        pick = [local, *pick[:-1]]
    return {
        "cuisines": pick,
        "seat": r.choice(["window", "aisle"]),
        "tipping_percent": everyday(draft)["tipping_percent"],
        "favourite_merchants": facts.favourites(draft),
    }


def _trips(seed: int, stage: str, city: gazetteer.City, contacts: list[dict], as_of: dt.date) -> list[dict] | None:
    """None (the completion draws the trips) for about half, else one to three trips to big cities elsewhere: one
    upcoming, the others in the past year; a partner comes along on leisure trips."""
    r = rng(seed, "generate/person/trips")
    if r.random() < 0.5:
        return None
    here = gazetteer.home_airport(city).iata
    far = [(c, a) for c, a in gazetteer.big_cities() if a.iata != here and c.country != city.country]
    near = [(c, a) for c, a in gazetteer.big_cities() if a.iata != here and c.country == city.country]
    partner = next((c["name"] for c in contacts if c["relationship"] in ("partner", "spouse")), None)
    friend = next((c["name"] for c in contacts if c["relationship"] == "friend"), None)
    trips = []
    count = r.randint(1, 3)
    for i in range(count):
        upcoming = i == 0
        pool = near if near and r.random() < 0.4 else far
        dest, airport = pool[r.randrange(min(len(pool), 120))]
        depart = (
            as_of + dt.timedelta(days=r.randint(12, 45)) if upcoming else as_of - dt.timedelta(days=r.randint(40, 330))
        )
        purpose = "business" if stage in ("young-professional", "parent") and r.random() < 0.3 else "leisure"
        companions = (
            [partner] if partner and purpose == "leisure" else [friend] if friend and stage == "student" else []
        )
        trips.append(
            {
                "destination": dest.name[:60],
                "airport": airport.iata,
                "depart": depart.isoformat(),
                "return": (depart + dt.timedelta(days=r.randint(3, 12))).isoformat(),
                "purpose": purpose,
                "companions": companions,
            }
        )
    trips.sort(key=lambda t: t["depart"])
    # Past trips never overlap one another.
    kept: list[dict] = []
    for t in trips:
        if not kept or t["depart"] > kept[-1]["return"]:
            kept.append(t)
    return kept


def _life_events(seed: int, stage: str, contacts: list[dict], as_of: dt.date, exercise: str) -> list[dict]:
    """One or two dated one-offs ahead that fit the stage: an exam, a concert, a child's birthday, a check-up."""
    r = rng(seed, "generate/person/events")
    kids = [c for c in contacts if c["relationship"] == "child" and c.get("address")]
    friends = [c["name"] for c in contacts if c["relationship"] == "friend"]
    events = []
    day = as_of + dt.timedelta(days=r.randint(6, 40))
    if stage == "student":
        events.append({"date": day.isoformat(), "kind": "exam", "title": "Final exam", "time": "09:00"})
    elif stage == "parent" and kids:
        kid = kids[r.randrange(len(kids))]
        first = kid["name"].split()[0]
        events.append(
            {
                "date": day.isoformat(),
                "kind": "party",
                "title": f"{first}'s birthday party",
                "time": "15:00",
                "with": [kid["name"]],
            }
        )
    elif stage == "retired":
        events.append({"date": day.isoformat(), "kind": "doctor", "title": "Annual check-up", "time": "10:30"})
    else:
        events.append(
            {
                "date": day.isoformat(),
                "kind": "concert",
                "title": "Concert",
                "time": "20:00",
                "with": friends[:1],
            }
        )
    if r.random() < 0.5:
        events.append(
            {
                "date": (as_of + dt.timedelta(days=r.randint(41, 55))).isoformat(),
                "kind": "dentist",
                "title": "Dentist",
                "time": f"{r.randint(8, 16):02d}:00",
            }
        )
    return events


# --- a population -------------------------------------------------------------------------------------------


def _stage_plan(n: int, r) -> list[str]:
    """``n`` stages in :data:`STAGE_SHARES` proportions (each at least once when ``n`` >= 4), shuffled."""
    counts = {s: int(n * w) for s, w in STAGE_SHARES.items()}
    for s in sorted(STAGE_SHARES, key=lambda s: -(n * STAGE_SHARES[s] - counts[s])):
        if sum(counts.values()) >= n:
            break
        counts[s] += 1
    plan = [s for s, k in counts.items() for _ in range(k)]
    r.shuffle(plan)
    return plan


def _city_plan(n: int, r) -> list[gazetteer.City]:
    """``n`` cities: regions in turn, in each a country not yet drawn (by its big cities' population) until the
    region has none left; in the country one of its big cities by population, or a smaller city (one in four)."""
    by_region = _cities_by_region()
    order = list(REGIONS)
    r.shuffle(order)
    left = {reg: sorted(by_region[reg]) for reg in order}
    out: list[gazetteer.City] = []
    for i in range(n):
        reg = order[i % len(order)]
        countries = left[reg] or sorted(by_region[reg])
        weights = [sum(c.population for c in by_region[reg][cc]) ** 0.5 for cc in countries]
        cc = r.choices(countries, weights)[0]
        if cc in left[reg]:
            left[reg].remove(cc)
        bigs = by_region[reg][cc]
        if r.random() < 0.25:
            smaller = [
                c
                for c in gazetteer.cities_in(cc)[:80]
                if c not in bigs and gazetteer.find_city(c.name, cc, c.admin1) == c
            ]
            if smaller:
                out.append(r.choices(smaller, [c.population for c in smaller])[0])
                continue
        out.append(r.choices(bigs, [c.population for c in bigs])[0])
    return out


def population(n: int, seed: int, as_of: dt.date = AS_OF) -> list[tuple[dict, Summary]]:
    """``n`` persona specs and their summaries: cities from :func:`_city_plan`, stages from :func:`_stage_plan`,
    languages the country's (a German speaker in a quarter of the German-speaking countries' English; English
    mostly elsewhere, German for one in twelve), each persona's own seed derived from ``seed`` and its number."""
    r = rng(seed, "generate/population/plan")
    cities = _city_plan(n, rng(seed, "generate/population/cities"))
    stages = _stage_plan(n, rng(seed, "generate/population/stages"))
    width = max(2, len(str(n)))
    out = []
    for i, (city, stage) in enumerate(zip(cities, stages)):
        language = default_language(city.country)
        flip = r.random()
        if language == "de" and flip < 0.25 or language == "en" and flip < 1 / 12:
            language = "en" if language == "de" else "de"
        own = stream_seed(seed, f"generate/population/{i}/seed") % 2**31
        spec, summary = persona(city, own, language=language, stage=stage, as_of=as_of)
        pid = f"{i + 1:0{width}d}-{spec['id']}"[:63].rstrip("-")
        spec["id"] = pid
        out.append((spec, Summary(pid, *[getattr(summary, f) for f in Summary.FIELDS[1:]])))
    return out


# --- files --------------------------------------------------------------------------------------------------


def dumps(spec: dict) -> str:
    """The spec as the file is written: two-space JSON, non-ASCII kept, a final newline."""
    return json.dumps(spec, ensure_ascii=False, indent=2) + "\n"


def write_population(specs: list[tuple[dict, Summary]], out: Path) -> list[Path]:
    """Write ``out/<id>.json`` for each spec and ``out/population.csv``; return the spec paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for spec, _ in specs:
        path = out / f"{spec['id']}.json"
        path.write_text(dumps(spec), encoding="utf-8")
        paths.append(path)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(Summary.FIELDS)
    for _, summary in specs:
        writer.writerow(summary.row())
    (out / "population.csv").write_text(buf.getvalue(), encoding="utf-8")
    return paths


# --- the command --------------------------------------------------------------------------------------------


def _cli():
    app = typer.Typer(add_completion=False, rich_markup_mode="rich")

    @app.command(
        help="""Write plausible persona specs: one in a city, or a population spread across the world.

Examples:

  new-persona --city Lagos --seed 7                      (the spec on stdout)
  new-persona --city Hamburg --life-stage parent --out personas/
  new-persona --population 50 --seed 1 --out /tmp/pop   (50 specs and population.csv)

Every spec validates against personas/persona.schema.json and builds (scripts/property-run)."""
    )
    def new_persona(
        city: Annotated[str, typer.Option("--city", help="Home city (any GeoNames name of a city of 15,000+)")] = None,
        country: Annotated[str, typer.Option("--country", help="ISO 3166-1 alpha-2 code of the city's country")] = None,
        seed: Annotated[int, typer.Option("--seed", help="Seed of every draw", min=0)] = 0,
        language: Annotated[
            str, typer.Option("--language", help="en or de (default: the country's, German in DE/AT/CH/LI)")
        ] = None,
        life_stage: Annotated[
            str, typer.Option("--life-stage", help="student, young-professional, parent or retired (default: drawn)")
        ] = None,
        population_size: Annotated[
            int, typer.Option("--population", help="Write this many specs across the world (needs --out)", min=1)
        ] = None,
        out: Annotated[
            Path, typer.Option("--out", "-o", help="Folder to write <id>.json (and population.csv) into")
        ] = None,
    ) -> None:
        try:
            if population_size is not None:
                if city or language or life_stage or country:
                    raise GenerateError("--population draws cities, languages and stages: give only --seed and --out")
                if out is None:
                    raise GenerateError("--population needs --out DIR")
                specs = population(population_size, seed)
                for spec, _ in specs:
                    Persona.model_validate(spec)
                write_population(specs, out)
                countries = len({s.country for _, s in specs})
                print(f"new-persona: wrote {len(specs)} specs ({countries} countries) and population.csv to {out}")
                return
            if not city:
                raise GenerateError("give --city NAME (or --population N --out DIR)")
            if language is not None and language not in LANGUAGES:
                raise GenerateError(f"unknown language {language!r}: one of {', '.join(LANGUAGES)}")
            if life_stage is not None and life_stage not in STAGES:
                raise GenerateError(f"unknown life stage {life_stage!r}: one of {', '.join(STAGES)}")
            spec, summary = persona(resolve_city(city, country), seed, language=language, stage=life_stage)
            Persona.model_validate(spec)
        except GenerateError as err:
            print(f"new-persona: {err}", file=sys.stderr)
            raise typer.Exit(2) from None
        if out is None:
            sys.stdout.write(dumps(spec))
            return
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{spec['id']}.json"
        path.write_text(dumps(spec), encoding="utf-8")
        print(
            f"new-persona: wrote {path} ({summary.life_stage}, {summary.age}, {summary.occupation}, "
            f"{summary.city} {summary.country}, {summary.locale})"
        )

    return app


def main() -> None:
    """Console-script entry point of ``new-persona``."""
    _cli()(prog_name="new-persona")


if __name__ == "__main__":
    main()
