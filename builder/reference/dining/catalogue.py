"""TableTime's restaurants in any city: ``restaurants.yaml``'s rows, and generated ones where the file has too few.

:func:`city_catalogue` is every restaurant TableTime lists in a gazetteer city (:class:`~builder.reference.gazetteer.City`):
the file's rows of that city (``cities.yaml``'s home cities hold every main cuisine and get nothing more), then the
rows :func:`generated` adds, sorted by slug. :func:`generated` fills each cuisine up to its count: every main cuisine
of ``generate.MAIN`` once (twice in a city of :data:`BIG` people or more) and the country's own cuisines
(``countries`` in ``cuisines.yaml``: Japanese in Japan, Nigerian in Nigeria) twice that, less the rows the file
already has.

The rows have :func:`generate.restaurant`'s shape and come from its grammar: a cuisine's names (:func:`generate.pick_name`,
none twice in a city), its menu, blurbs, band and hours. Where they stand: in a city the file lists, its
``cities.yaml`` neighbourhoods, streets and postcodes; elsewhere the neighbourhoods around the city
(:func:`_hoods`: its centre, under the city's name, and the places nearest it), a street named after the
neighbourhood (in the centre: after a place nearby) as the country names streets
(:func:`~builder.reference.addresses.street_line`), a postcode of the city (near its base,
:func:`~builder.reference.addresses.postcode_base`; none when that does not match GeoNames' pattern for the country) and the address as :func:`generate._address` writes the country's. The zone is the city's, the
currency the country's (on :data:`CURRENCY_ON`) where :func:`generate.local_price` can price it (else USD), the
price factor the mean of the file's cities of the country (1.0 without one), each phone a landline of the country's
numbering plan in the city's area (:func:`builder.reference.phones.phone`).

Deterministic per city, never per persona: every draw comes from ``rng(0, "dining/catalog/geonames/<geonameid>")``
(the postcode base from ``addresses/postcode/<geonameid>``), so two personas in one city see one catalogue; the
name a persona spells the city with is only written into the rows.
"""

from __future__ import annotations

import datetime as dt
import functools


from ... import yamlfile
from ...rng import rng
from .. import fx, gazetteer
from ..addresses import near_postcode, neighbourhoods, postcode_base, street_line
from . import restaurants
from .generate import HERE, MAIN, _postcode, _street_line, pick_name, restaurant, slugify

#: A city of this many people or more has two restaurants of each main cuisine, a smaller one one.
BIG = 500_000
#: The most neighbourhoods (the centre among them) a generated catalogue spreads over.
HOODS = 12
#: The day a generated catalogue's currency is the country's legal tender on.
CURRENCY_ON = dt.date(2024, 1, 1)


@functools.cache
def _data() -> tuple[dict, dict]:
    cuisines = yamlfile.safe_load((HERE / "cuisines.yaml").read_text(encoding="utf-8"))
    cities = yamlfile.safe_load((HERE / "cities.yaml").read_text(encoding="utf-8"))
    return cuisines, cities


@functools.cache
def file_city(city: gazetteer.City) -> str | None:
    """The ``cities.yaml`` name of ``city`` (the file city the gazetteer resolves to the same GeoNames id), or None."""
    cities = _data()[1]
    return next(
        (
            key
            for key, c in sorted(cities.items())
            if c["country"] == city.country
            and getattr(gazetteer.find_city(key, c["country"], c.get("region")), "geonameid", None) == city.geonameid
        ),
        None,
    )


def _currency(country: str) -> str:
    found = gazetteer.currency(country, CURRENCY_ON)
    return found if found and fx.known(found) else "USD"  # local_price prices any currency fx can rate


def _factor(country: str) -> float:
    levels = [c["factor"] for c in _data()[1].values() if c["country"] == country]
    return round(sum(levels) / len(levels), 2) if levels else 1.0


def _place(city: gazetteer.City, name: str) -> dict:
    """A ``cities.yaml``-shaped entry for a city the file does not list."""
    country = gazetteer.country(city.country)
    return {
        "country": city.country,
        "region": city.admin1 if city.country == "US" else "",
        "zone": city.timezone,
        "currency": _currency(city.country),
        "lang": country.languages[0] if country else "en",
        "factor": _factor(city.country),
        "phone": None,  # each restaurant a landline of the country's plan (generate.restaurant)
    }


def _new_postcode(r, city: gazetteer.City) -> str:
    """A postcode near the city's base (:func:`~builder.reference.addresses.postcode_base`), "" without one."""
    base = postcode_base(city)
    return near_postcode(r, base) if base else ""


def _hoods(city: gazetteer.City, shown: str) -> list[str]:
    """The city's centre (``shown``, its name) and the places of :func:`~builder.reference.addresses.neighbourhoods`
    within a radius growing with the city (5 km, up to 15 km for 1.4 million people or more), nearest first, at
    most :data:`HOODS` in all."""
    allowed = set(neighbourhoods(city.country, city.name))
    radius = min(15.0, max(5.0, 4 * (city.population / 100_000) ** 0.5))
    near = sorted(
        (gazetteer.distance_km(city.latitude, city.longitude, x.latitude, x.longitude), x.geonameid, x.name)
        for x in gazetteer.cities_in(city.country)
        if x != city and x.name in allowed
    )
    return list(dict.fromkeys([shown, *(name for km, _, name in near if km <= radius)]))[:HOODS]


def _counts(city: gazetteer.City) -> dict[str, int]:
    cuisines = _data()[0]
    per = 2 if city.population >= BIG else 1
    out = {k: per for k in MAIN}
    for k in sorted(cuisines):
        if city.country in cuisines[k].get("countries", ()):
            out[k] = 2 * per
    return out


@functools.cache
def generated(city: gazetteer.City, name: str | None = None) -> tuple[dict, ...]:
    """The restaurants TableTime adds in ``city`` to the file's (none for a home city of ``cities.yaml``), sorted by
    slug; in a city the file does not list, written as in the city called ``name`` (its GeoNames name when None).
    See the module docstring."""
    cuisines, cities = _data()
    known = file_city(city)
    shown = known or name or city.name
    rows = [x for x in restaurants() if x["city"] == known] if known else []
    c = cities[known] if known else _place(city, shown)
    if known and "per" in c:
        return ()
    r = rng(0, f"dining/catalog/geonames/{city.geonameid}")
    have = {k: sum(x["cuisine"] == k for x in rows) for k in cuisines}
    used = {x["name"] for x in rows}
    phones = {x["phone"] for x in rows}
    hoods = sorted(c["neighbourhoods"]) if known else _hoods(city, shown)
    clash = any(slugify(k) == slugify(shown) for k in cities if k != known)
    out = []
    n = 0
    for cuisine, count in _counts(city).items():
        for _ in range(count - have[cuisine]):
            spec = cuisines[cuisine]
            title = pick_name(r, shown, cuisine, spec, used)
            hood = hoods[(n * 7 + r.randrange(len(hoods))) % len(hoods)]
            n += 1
            if known:
                h = c["neighbourhoods"][hood]
                line = _street_line(r, c["country"], r.choice(h["streets"]))
                code = _postcode(r, c["country"], str(h["postcode"]))
            else:
                line = street_line(r, city.country, city.name, hood if hood != shown else None)
                code = _new_postcode(r, city)
            row = restaurant(r, shown, c, cuisine, spec, title, hood, line, code, not known, phones)
            if clash:  # another city of the file has this name (Portland, Maine): its slugs say which one
                row["slug"] = f"{slugify(title)}-{slugify(shown)}-{slugify(city.admin1 or city.country)}"
            out.append(row)
    return tuple(sorted(out, key=lambda x: x["slug"]))


def city_catalogue(city: gazetteer.City, name: str | None = None) -> tuple[dict, ...]:
    """Every restaurant TableTime lists in ``city``: the file's rows of the city and :func:`generated`'s (written as
    in the city called ``name``, the GeoNames name when None, for a city the file does not list), sorted by slug."""
    known = file_city(city)
    rows = [x for x in restaurants() if x["city"] == known] if known else []
    return tuple(sorted([*rows, *generated(city, name)], key=lambda x: x["slug"]))


def listed_in(name: str, country: str, region: str | None = None) -> tuple[dict, ...]:
    """TableTime's restaurants in the city called ``name`` in ``country`` (``region`` picks among cities of that name,
    as :func:`~builder.reference.gazetteer.find_city` does): :func:`city_catalogue`'s, written as ``name``; the
    file's rows of that name alone when the gazetteer does not know the city."""
    city = gazetteer.find_city(name, country, region)
    if city is None:
        return tuple(x for x in restaurants() if x["city"] == name)
    return city_catalogue(city, name)
