"""Completion of the parts of a persona that must read like one person's life.

Used by :mod:`builder.persona.complete`:

* :func:`contact_facts`: a contact's own gender, partner, children, pets, job and city, fixed once and reused by
  every module (chat, mail, calendar read them as plain attributes). Parents who are both contacts are each
  other's partner and share one address; a parent's children are the persona and its siblings; a partner's
  or spouse's partner is the persona. Every fact comes from its own stream
  (``complete/contact/<i>/partner``, ``.../children``, ``.../pets``, ``.../job``, ``.../city``), so filling
  one never shifts another. A contact's facts depend on itself and, for family only, on its family among
  the contacts (the other parent, the siblings): adding a friend, colleague or neighbour changes no one
  else's facts (unless a drawn partner's name would collide with the new contact's).
* :func:`postcode`: a postcode of the town in its country's form (:func:`builder.reference.addresses.city_postcode`).
* :func:`bio`: a profile line composed from parts (work, place, pastime, detail) per locale.
* :func:`usual_order`: a takeout order (restaurant, items, total) that fits the persona's first cuisine.

The phrase banks are ``builder/world/templates/persona/<locale>.yaml`` and ``orders.yaml`` (written for this
project; no Faker text). Faker gives only names here.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any


from builder import yamlfile

from ..reference import addresses, gazetteer, people
from ..reference.locale import territory
from ..reference.services import service
from ..rng import rng
from .model import Address, Contact, Identity, UsualOrder, name_key
from .places import Town

TEMPLATES = Path(__file__).resolve().parent.parent / "world" / "templates" / "persona"


@lru_cache(maxsize=None)
def bank(locale: str) -> dict[str, Any]:
    """The completion phrase bank of ``locale`` (en_US's when the locale has none)."""
    path = TEMPLATES / f"{locale}.yaml"
    if not path.exists():
        path = TEMPLATES / "en_US.yaml"
    return yamlfile.safe_load(path.read_text(encoding="utf-8"))


def email_domain(locale: str) -> str:
    """The domain of a personal email address in ``locale`` that no spec gives (the persona's, a contact's, a
    client's): the locale's own mail provider (``email_domain`` of its bank), else the mail service's (the app
    that provides ``mail-delivery``)."""
    return bank(locale).get("email_domain") or service("mail-delivery").domain


@lru_cache(maxsize=1)
def orders() -> dict[str, Any]:
    """The usual-order bank: cuisine -> names, and per language (``en``/``de``) mains, sides and extras."""
    return yamlfile.safe_load((TEMPLATES / "orders.yaml").read_text(encoding="utf-8"))


def gender_of(name: str, locale: str, country: str | None = None) -> str | None:
    """``"female"``/``"male"`` when the first name is in only one gender's Faker name lists, else None: en_US's and
    the locale's together, and for people of a ``country`` outside the locale's also that country's and every
    locale's (:func:`builder.reference.people.gender_of`; ``builder.world.mail.gender_of`` is the same rule)."""
    return people.gender_of(name, locale, country)


def gendered(entry: str, gender: str | None, r) -> str:
    """A bank entry ``"feminine|masculine"`` in the form for ``gender`` (drawn when unknown)."""
    forms = entry.split("|")
    if len(forms) == 1:
        return forms[0]
    if gender not in ("female", "male"):
        gender = r.choice(["female", "male"])
    return forms[0] if gender == "female" else forms[1]


def postcode(r, locale: str, place: Town) -> str:
    """A postcode of ``place`` in its country's form (``97214``, ``M21 9EG``, ``22765``): near the postcode the place
    gives as a string (its last two digits drawn: ``100-0005`` -> ``100-0017``), else near the base the gazetteer's
    city of that name is given (:func:`builder.reference.addresses.city_postcode`). ``locale`` is unused (kept for
    callers)."""
    return addresses.city_postcode(r, place.country, place.name, place.region, place.postcodes)


def one_line(text: str) -> str:
    """``text`` with line breaks and runs of spaces folded into one line (", " between former lines)."""
    return ", ".join(" ".join(part.split()) for part in str(text).splitlines() if part.strip())


def street(r, locale: str) -> str:
    """A street line from the locale's bank: ``2418 Alder Street, Apt 3``, ``Flat 2, 14 Beech Road``,
    ``Lindenstraße 12a``."""
    st = bank(locale)["streets"]
    number = str(r.randint(*st["number"]))
    if r.random() < st.get("letter_share", 0):
        number += r.choice("abc")
    line = st["format"].format(number=number, name=r.choice(st["names"]), kind=r.choice(st["kinds"]))
    if r.random() < st.get("unit_share", 0):
        unit = r.choice(st["units"]).format(n=r.randint(1, 24))
        line = st["unit_line"].format(unit=unit, line=line)
    return line


def address(seed: int, stream: str, locale: str, place: Town) -> Address:
    """A street address in ``place`` (street from our bank, or outside the locale's country as that country writes
    one: :func:`builder.reference.addresses.street_line`; postcode of the place), every field on one line."""
    r = rng(seed, stream)
    return Address(
        street=street(r, locale)
        if place.country == territory(locale)
        else addresses.street_line(r, place.country, place.name),
        city=place.name,
        region=place.region,
        postal_code=postcode(rng(seed, stream + "/postcode"), locale, place),
        country=place.country,
    )


def _age(birthday: dt.date | None, as_of: dt.date) -> int:
    if birthday is None:
        return 35
    return as_of.year - birthday.year - ((as_of.month, as_of.day) < (birthday.month, birthday.day))


def _opposite(gender: str | None, r) -> str:
    if gender not in ("female", "male"):
        return r.choice(["female", "male"])
    # Mostly opposite-sex couples, some same-sex ones.
    return gender if r.random() < 0.1 else {"female": "male", "male": "female"}[gender]


def _person_name(
    seed: int, stream: str, locale: str, gender: str, surname: str | None, taken: set[str], country: str | None = None
) -> str:
    """A full name of ``gender`` not in ``taken`` (name keys); ``surname`` kept when given. The names are those of
    the people of ``country`` (:func:`builder.reference.people.names`; the locale's own at home)."""
    for attempt in range(20):
        fake = people.names(seed, stream if attempt == 0 else f"{stream}/{attempt}", locale, country)
        first = fake.first_name_female() if gender == "female" else fake.first_name_male()
        name = f"{first} {surname or fake.last_name()}"
        if name_key(name) not in taken and len(name) <= 80:
            return name
    return f"{first} {fake.last_name()}"[:80]


def _job(seed: int, stream: str, locale: str, c: Contact, age: int, gender: str | None, employer_roles: bool) -> str:
    b, r = bank(locale), rng(seed, stream)
    if c.relationship == "child" and age < 18:
        return b["at_nursery"] if age < 6 else b["at_school"]
    if age < 23 and c.relationship in ("child", "sibling", "friend"):
        return b["student"].format(subject=r.choice(b["subjects"]), school=r.choice(b["schools"]))
    if employer_roles:
        return gendered(r.choice(b["colleague_roles"]), gender, r)
    if age >= 67 or (age >= 63 and r.random() < 0.5):
        return b["retired"].format(job=gendered(r.choice(b["older_jobs"]), gender, r))
    return gendered(r.choice(b["older_jobs"] if age >= 55 else b["jobs"]), gender, r)


def _pets(seed: int, stream: str, locale: str, relationship: str) -> list[str]:
    r = rng(seed, stream)
    chance = {"neighbor": 0.45, "parent": 0.35, "friend": 0.3, "sibling": 0.3}.get(relationship, 0.2)
    if r.random() >= chance:
        return []
    kind = r.choice(bank(locale)["pets"])
    first, second = r.sample(kind["names"], 2)
    return [kind["phrase"].format(name=first, name2=second)]


def _kids(seed: int, stream: str, locale: str, age: int, has_partner: bool) -> list[str]:
    r = rng(seed, stream)
    chance = 0.0 if age < 26 else (0.55 if has_partner else 0.15) if age < 60 else 0.8
    if r.random() >= chance:
        return []
    n = r.choices([1, 2, 3], [45, 45, 10])[0]
    return r.sample(bank(locale)["kid_names"], n)


#: Contacts who live away from the persona live in one of the country's this many most populous cities.
TOWN_POOL = 200


def _city(seed: int, stream: str, locale: str, c: Contact, age: int, home: str, country: str) -> str:
    """Where a contact lives: the persona's ``home`` city, or (parents and siblings more often than friends) another
    town of the persona's ``country``: one of its :data:`TOWN_POOL` most populous cities more than 10 km from home,
    weighted by population over distance plus 50 km (family nearby or in a big city: from Portland, Vancouver and
    Seattle before Los Angeles before Eugene; :func:`builder.reference.gazetteer.cities_in`)."""
    r = rng(seed, stream)
    away = {"parent": 0.65, "sibling": 0.5, "friend": 0.15, "other": 0.1}.get(c.relationship, 0.0)
    if c.relationship == "child":
        away = 0.5 if age >= 22 else 0.0
    if r.random() >= away:
        return home
    here = gazetteer.find_city(home, country)
    pool = gazetteer.cities_in(country)[:TOWN_POOL]
    if here is None:
        elsewhere = [(x, float(x.population)) for x in pool if x.name != home]
    else:
        far = [(x, gazetteer.distance_km(here.latitude, here.longitude, x.latitude, x.longitude)) for x in pool]
        elsewhere = [(x, x.population / (km + 50)) for x, km in far if km > 10 and x.name != home]
    if not elsewhere:
        return home
    return r.choices([x.name for x, _ in elsewhere], weights=[w for _, w in elsewhere])[0]


def contact_facts(p, identity: Identity, contacts: list[Contact], home: str, work_roles: bool = True) -> list[Contact]:
    """``contacts`` with partner, children, pets, job, city (and the address in that city) filled where the
    spec left them out. ``p`` is the spec (seed, locale, as_of); ``contacts`` the completed contacts (names,
    birthdays, the spec's facts); ``home`` the persona's city name. Addresses are one line per field.
    """
    seed, loc = p.seed, p.bank
    country = identity.address.country if identity.address else territory(loc)
    me_first = identity.name.split()[0]
    taken = {name_key(identity.name)} | {name_key(c.name) for c in contacts}
    # The first two parents among the contacts are each other's partner (unless the spec says otherwise).
    parents = [j for j, x in enumerate(contacts) if x.relationship == "parent"]
    pair: dict[int, int] = {}
    if len(parents) >= 2:
        a, b = parents[:2]
        if (contacts[a].partner in (None, contacts[b].name)) and (contacts[b].partner in (None, contacts[a].name)):
            pair = {a: b, b: a}
    out: list[Contact] = []
    for i, c in enumerate(contacts):
        s = f"complete/contact/{i}"
        # The spec's, else the name's, else drawn (a name that does not tell).
        gender = c.gender or gender_of(c.name, loc, country) or rng(seed, f"{s}/gender").choice(["female", "male"])
        age = _age(c.birthday, p.as_of)
        rel = c.relationship
        # Partner: the persona for a partner/spouse; the other parent for a parent; else drawn.
        partner = c.partner
        if partner is None:
            if rel in ("partner", "spouse"):
                partner = identity.name
            elif i in pair:
                partner = contacts[pair[i]].name
            elif rel == "parent":
                r = rng(seed, f"{s}/partner")
                if r.random() < 0.8:
                    partner = _person_name(
                        seed, f"{s}/partner/name", loc, _opposite(gender, r), c.name.split()[-1], taken, country
                    )
            else:
                r = rng(seed, f"{s}/partner")
                if r.random() < (0.0 if age < 20 else 0.35 if age < 26 else 0.6):
                    # A sibling's spouse sometimes took the family name.
                    keep = c.name.split()[-1] if rel == "sibling" and r.random() < 0.4 else None
                    partner = _person_name(seed, f"{s}/partner/name", loc, _opposite(gender, r), keep, taken, country)
            if partner is not None:
                taken.add(name_key(partner))
        # An earlier contact this one lives with (the other parent).
        linked = next(
            (o for o in out if partner and name_key(o.name) == name_key(partner) and o.relationship == "parent" == rel),
            None,
        )
        # Children: a parent's are the persona and its siblings; a partner's the persona's children.
        children = c.children
        if children is None:
            if rel == "parent":
                children = [me_first] + [x.name.split()[0] for x in contacts if x.relationship == "sibling"]
            elif rel in ("partner", "spouse"):
                children = [x.name.split()[0] for x in contacts if x.relationship == "child"]
            else:
                children = [] if rel == "roommate" else _kids(seed, f"{s}/children", loc, age, partner is not None)
        # A couple who live together share their pets.
        pets = (
            c.pets
            if c.pets is not None
            else list(linked.pets or [])
            if linked is not None
            else _pets(seed, f"{s}/pets", loc, rel)
        )
        job = c.job or _job(seed, f"{s}/job", loc, c, age, gender, work_roles and rel == "colleague")
        # City and address: given address > a linked parent's home > the persona's home (spouse, roommate)
        # > drawn in the contact's city.
        addr = c.address
        city = c.city or (addr.city if addr else None)
        if linked is not None:
            city = city or linked.city
            addr = addr or (linked.address if linked.city == city else None)
        if rel in ("spouse", "roommate"):
            city = city or (identity.address.city if identity.address else home)
            addr = addr or (identity.address if identity.address and identity.address.city == city else None)
        city = city or _city(seed, f"{s}/city", loc, c, age, home, country)
        if addr is None and (c.closeness or 0) >= 4:
            found = gazetteer.find_city(city, country)
            place = None
            if found is not None:  # postcodes near the persona's own in its city, else near the city's base
                mine = identity.address if identity.address and identity.address.city == city else None
                region = mine.region if mine else (found.admin1 or None) if country == "US" else None
                place = Town(city, region, country, mine.postal_code if mine else None)
            addr = address(seed, f"{s}/address", loc, place) if place else None
        if addr is not None:
            addr = addr.model_copy(
                update={k: one_line(v) for k, v in addr.model_dump().items() if isinstance(v, str) and k != "country"}
            )
        out.append(
            c.model_copy(
                update={
                    "gender": gender,
                    "partner": partner,
                    "children": children[:8],
                    "pets": pets[:6],
                    "job": job[:100],
                    "city": city,
                    "address": addr,
                }
            )
        )
    return out


# --- bios ---------------------------------------------------------------------------------------------------

_SLOT = re.compile(r"{(\w+)}")


def _lower_role(role: str) -> str:
    """``Senior Product Designer`` -> ``senior product designer``; acronyms (UX, QA) kept."""
    return " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in role.split())


def bio(p, city: str, work, routines, preferences, contacts: list[Contact], travel) -> str:
    """A profile line from parts (work, place, pastime, detail) in the persona's language; each part a
    template of ``bio.<part>`` whose slots the persona's facts fill (parts whose slots are unknown are
    skipped). Stream ``complete/identity/bio``."""
    b = bank(p.bank)
    r = rng(p.seed, "complete/identity/bio")
    ex_key = (routines.exercise or "").lower()
    ex = b.get("exercise", {}).get(ex_key)
    slots: dict[str, str] = {"city": city}
    if work and work.role and work.employer:
        role = work.role
        slots.update(
            role=role,
            employer=work.employer,
            role_lc=_lower_role(role),
            role_a=("an " if _lower_role(role)[:1] in "aeiou" else "a ") + _lower_role(role),
        )
    if routines.exercise:
        noun = ex["noun"] if ex else routines.exercise
        slots.update(exercise=noun, exercise_cap=noun[:1].upper() + noun[1:])
        if ex:
            slots["exercise_doing"] = ex["doing"]
    cuisine = (preferences.cuisines or [None])[0]
    if cuisine:
        words = b.get("cuisine_words") or {}
        if not words:  # a bank without words for cuisines names them as the spec does
            slots["cuisine"] = cuisine
        elif cuisine in words:
            slots["cuisine"] = words[cuisine]
    acts = [a for c in sorted(contacts, key=lambda c: -(c.closeness or 0)) for a in (c.shared_activities or [])]
    acts = [a for a in acts if a.lower() not in (slots.get("exercise", "").lower(), ex_key)]
    if acts:
        slots["activity"] = acts[r.randrange(min(3, len(acts)))]
    if travel and travel.seat:
        slots["seat"] = travel.seat
    trips = list((travel.trips if travel else None) or [])
    upcoming = [t for t in trips if t.depart > p.as_of]
    past = [t for t in trips if t.return_ <= p.as_of]
    if upcoming:
        slots["trip"] = min(upcoming, key=lambda t: t.depart).destination
    if past:
        slots["last_trip"] = max(past, key=lambda t: t.return_).destination
    parts = []
    for part in ("work", "place", "pastime", "detail"):
        options = [t for t in b["bio"][part] if all(k in slots for k in _SLOT.findall(t))]
        if options:
            # "Drubin & Co." + "." reads as one full stop.
            parts.append(re.sub(r"\.\.$", ".", options[r.randrange(len(options))].format(**slots)))
    if r.random() < 0.3 and len(parts) >= 3:
        parts[1], parts[2] = parts[2], parts[1]
    return " ".join(x for x in parts if x)


# --- favourites ---------------------------------------------------------------------------------------------


def favourites(p) -> list[str]:
    """A favourite coffee place and shop named from the locale's bank (``Café Maple``, ``Linden Books``...),
    two different street names. Stream ``complete/preferences/favourites``."""
    b = bank(p.bank)
    r = rng(p.seed, "complete/preferences/favourites")
    first, second = r.sample(b["favourites"].get("names") or b["streets"]["names"], 2)
    return [
        r.choice(b["favourites"]["coffee"]).format(name=first),
        r.choice(b["favourites"]["shop"]).format(name=second),
    ]


# --- usual order -------------------------------------------------------------------------------------------


def usual_order(p, cuisines: list[str]) -> UsualOrder:
    """A takeout order from a restaurant of the first cuisine the bank knows (Thai when none): a main, a side,
    sometimes an extra, priced in the locale's range plus its delivery fee. Stream ``complete/routines/usual_order``."""
    table = orders()
    b = bank(p.bank)
    r = rng(p.seed, "complete/routines/usual_order")
    cuisine = next((c for c in cuisines if c in table), "Thai")
    entry = table[cuisine]
    menu = entry[b["menu_language"]]
    items = [r.choice(menu["mains"]), r.choice(menu["sides"])]
    lo_hi = b["price"]
    prices = [r.uniform(*lo_hi["main"]), r.uniform(*lo_hi["side"])]
    if menu.get("extras") and r.random() < 0.6:
        items.append(r.choice(menu["extras"]))
        prices.append(r.uniform(*lo_hi["extra"]))
    # Menu prices end in .x0 or .x5 (.x9 / .x0 in Germany: the bank's price_step), the fee is the locale's.
    step = Decimal(b["price_step"])
    total = sum((Decimal(str(round(x / float(step)))) * step for x in prices), Decimal(b["delivery_fee"]))
    return UsualOrder(restaurant=r.choice(entry["names"]), items=items, total=total.quantize(Decimal("0.01")))
