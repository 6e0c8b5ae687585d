"""Postal addresses: one line in the order the address's country writes them (:func:`format_address`), and believable
street addresses for the places the world invents (:func:`street_address`, street names in ``addresses.yaml``).
Reference formatting, read by the world (ride pick-ups, bookings, restaurants and shops) and by the apps that show an
address (shop, grocery, delivery, rides)."""

from __future__ import annotations

import unicodedata

import re
from functools import cache

from faker import Faker
from faker.providers.address.en_GB import Provider as GBAddress

from ..rng import rng
from . import gazetteer, read_yaml


def region_postcode(region: str | None, postcode: str) -> str:
    """The last part of a North American address line: ``"OR 97214"``, or the postcode alone when there is no
    region (never ``"None 97214"``)."""
    return f"{region} {postcode}" if region else postcode


def format_address(a) -> str:
    """A one-line postal address (``street, city, region postal_code``; a missing region is left out)."""
    if a is None:
        return ""
    if a.country in ("US", "CA"):
        return f"{a.street}, {a.city}, {region_postcode(a.region, a.postal_code)}"
    if a.country == "GB":
        return f"{a.street}, {a.city} {a.postal_code}"
    return f"{a.street}, {a.postal_code} {a.city}"


def street_names(country: str) -> list[str]:
    """The street names of ``country`` (ISO code; US's for a country ``addresses.yaml`` lacks: see
    :func:`street_line` for those), read-only."""
    streets = read_yaml("addresses.yaml")["streets"]
    return streets.get(country, streets["US"])


#: Names no street takes: a district numbered by the city (``Paris 15 Vaugirard``) or longer than a street's.
_NOT_A_STREET_NAME = re.compile(r"\d|.{25,}")

#: Neighbourhoods and towns this close to a city (km) lend their names to its streets.
NEAR_KM = 25.0


def latin(text: str) -> bool:
    """Whether every letter of ``text`` is a Latin letter, of any Unicode block (``Ōta``, ``Şener``, ``Nguyễn``; not
    ``斎藤``); digits, spaces and punctuation pass."""
    return all(not ch.isalpha() or unicodedata.name(ch, "").startswith("LATIN") for ch in text)


@cache
def neighbourhoods(country: str, city: str) -> tuple[str, ...]:
    """The neighbourhoods and towns around ``city`` in ``country`` whose names its streets take: GeoNames places
    within :data:`NEAR_KM` and in the city's own first-level division when five or more are (Tokyo's wards, not
    Saitama's cities across the border), else any within :data:`NEAR_KM`, else the country's most populous towns
    (Latin-script names, at most 40, most populous first); read-only."""
    here = gazetteer.find_city(city, country)
    towns = [c for c in gazetteer.cities_in(country) if c != here]
    if here is not None:
        near = [
            c for c in towns if gazetteer.distance_km(here.latitude, here.longitude, c.latitude, c.longitude) <= NEAR_KM
        ]
        same = [c for c in near if c.admin1 == here.admin1]
        towns = same if len(same) >= 5 else near if len(near) >= 5 else towns
    names = tuple(dict.fromkeys(c.name for c in towns if latin(c.name) and not _NOT_A_STREET_NAME.search(c.name)))
    return names[:40] or ((here.name,) if here else (city,))


def street_line(r, country: str, city: str, hood: str | None = None) -> str:
    """A street line (no city) in ``city`` of ``country`` (ISO code) as the country's language writes one
    (``grammars`` in ``addresses.yaml``: ``Rua Pinheiros, 1204``, ``2-14-3 Setagaya``, ``14 Surulere Close``), its
    name that of a neighbourhood nearby (``hood`` when given) or a surname of the country; draws from ``r`` (a
    ``random.Random``)."""
    grammars = read_yaml("addresses.yaml")["grammars"]
    found = gazetteer.country(country)
    g = grammars.get(found.languages[0] if found else "", grammars["default"])
    lo, hi = g["number"]
    names = [hood] if hood else list(neighbourhoods(country, city))
    fake = Faker(gazetteer.faker_locale(country))
    fake.seed_instance(r.getrandbits(64))
    surname = fake.last_name()
    if latin(surname) and r.random() < 0.4:
        names = [surname]
    return g["format"].format(
        name=names[r.randrange(len(names))],
        kind=g["kinds"][r.randrange(len(g["kinds"]))],
        number=r.randint(lo, hi),
        block=r.randint(1, 6),
        lot=r.randint(1, 24),
        house=r.randint(1, 20),
    )


def near_postcode(r, code: str) -> str:
    """A postcode near ``code``: its last two digits drawn from ``r`` (``100-0005`` -> ``100-0017``), the rest kept; a
    British one keeps its outward code and draws its inward code (``M21 9EG`` -> ``M21 4TB``: a neighbour's unit, not
    the same two letters on every street)."""
    if re.fullmatch(r"[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}", code):
        letters = GB_INWARD_LETTERS
        return f"{code.split(' ')[0]} {r.randint(1, 9)}{r.choice(letters)}{r.choice(letters)}"
    chars = list(code)
    for i in [i for i, ch in enumerate(chars) if ch.isdigit()][-2:]:
        chars[i] = str(r.randint(0, 9))
    return "".join(chars)


#: The letters a UK inward code's last two characters may use (never C I K M O V: Royal Mail's postcode rules).
GB_INWARD_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"


@cache
def postcode_base(city: gazetteer.City) -> str:
    """The postcode a city's addresses are written near (:func:`city_postcode`): one Faker's locale for the city's
    country writes (a US city's: one of its state, Faker's ``postcode_in_state``), drawn once per city (stream
    ``addresses/postcode/<geonameid>``); "" when it does not match the country's pattern (GeoNames'). No library
    reachable here maps a city to its real postcodes (pgeocode downloads GeoNames' postal file at run time), so a
    city's codes are plausible for its country, and its state in the US, not its own. A British one is an outward
    code of one of Royal Mail's areas (Faker's ``POSTAL_ZONES``) and district 1-20, with a unit's letters Royal Mail
    allows."""
    fake = Faker(gazetteer.faker_locale(city.country))
    fake.seed_instance(rng(0, f"addresses/postcode/{city.geonameid}").getrandbits(64))
    code = fake.postcode()
    if city.country == "US" and city.admin1:
        try:
            code = fake.postcode_in_state(city.admin1)
        except (AttributeError, KeyError, ValueError):
            pass
    if city.country == "GB":  # an area of Royal Mail's (Faker's list), a district, a sector and a unit
        r = rng(0, f"addresses/postcode/{city.geonameid}/gb")
        area = r.choice(sorted(GBAddress.POSTAL_ZONES))
        code = f"{area}{r.randint(1, 20)} {r.randint(1, 9)}{r.choice(GB_INWARD_LETTERS)}{r.choice(GB_INWARD_LETTERS)}"
    pattern = gazetteer.postcode_pattern(city.country)
    return code if pattern and re.fullmatch(pattern, code) else ""


def city_postcode(r, country: str, city: str, region: str | None = None, near: str | None = None) -> str:
    """A postcode of an address in ``city`` (``country`` ISO alpha-2, ``region`` a US state code): near ``near`` when
    given (a spec's own postcode there), else near the city's :func:`postcode_base`, else (a city the gazetteer does
    not know, or no base) one Faker's locale for the country writes; the draws come from ``r``."""
    if near:
        return near_postcode(r, near)
    found = gazetteer.find_city(city, country, region) if city.strip() else None
    base = postcode_base(found) if found else ""
    if base:
        return near_postcode(r, base)
    fake = Faker(gazetteer.faker_locale(country))
    fake.seed_instance(r.getrandbits(64))
    return fake.postcode()


def street_address(fake, home) -> str:
    """A believable street address in ``home``'s city (a persona address: ``country``, ``city``, ``region``; None:
    the street line alone, US style), numbered as the country writes it (a country ``streets`` lacks: a
    :func:`street_line`); the draws come from ``fake``'s seeded random (a street, then its number)."""
    country = home.country if home else "US"
    if home is not None and country not in read_yaml("addresses.yaml")["streets"]:
        return f"{street_line(fake.random, country, home.city)}, {home.city}"
    names = street_names(country)
    street = names[fake.random.randrange(len(names))]
    if country == "DE":
        line = f"{street} {fake.random.randint(1, 180)}"
    elif country == "GB":
        line = f"{fake.random.randint(1, 240)} {street}"
    else:
        line = f"{fake.random.randint(100, 3999)} {street}"
    if home is None:
        return line
    return f"{line}, {home.city}" + (f", {home.region}" if home.region and home.country == "US" else "")
