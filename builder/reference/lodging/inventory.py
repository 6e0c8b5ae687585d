"""The lodging inventory (hotels and rentals of every destination), drawn from ``catalog.yaml`` (lists and grammars).

:func:`city_properties` gives a city's properties from the world's seed, the persona's hotel chain and the persona's
fixed hotel names alone (no world event): the chain's hotel, seven more hotels of other brands and independents, and
four rentals with a host. The world's hotel stays (builder/world/travel.py) are drawn from these same properties and
priced with :mod:`builder.reference.lodging.rates`, so a stay in the world is a listing of the stays app with the
same name, address, point and rate. Every property lies in one neighbourhood of its city: a name that carries a
neighbourhood is in it; its address is on a street of that neighbourhood (``districts`` in the catalog), and its
point is where ``builder.reference.geo`` puts the text a ride names (``"<name>, <address>"``), the house number
chosen so that point lies within 450 m of the neighbourhood's centre (the rides to the hotel start and end there; a
district beyond geo's 7 km city disc gets the closest point the disc allows).

Prices are in the city's own currency (``currency``: EUR in Lisbon, GBP in London, JPY in Tokyo, in cents,
i.e. hundredths of the unit): the catalog's base rates are in US cents and are converted at the world's
reference rates (``builder.reference.places.PER_USD``), rounded to whole units.

Every draw comes from ``builder.rng.rng(world.seed, "stays/inventory/<city>")``.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import unicodedata
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from builder import yamlfile
from builder.rng import rng

from .. import gazetteer, geo
from ..airports import airport_country, airport_facts, known_airport
from ..services import service
from .. import fx
from ..places import CITIES, PER_USD
from .. import prices
from ..prices import PRICED_ON

CATALOG_PATH = Path(__file__).with_name("catalog.yaml")
HOTELS_PER_CITY = 7
RENTALS_PER_CITY = 4
_NUMBER_FIRST = {"United States", "Canada", "United Kingdom"}
_ADJECTIVES = ["relaxed", "stylish", "friendly", "classic", "modern", "characterful", "calm", "well-kept"]
_BEDS = {
    "Queen Room": "1 queen bed",
    "King Room": "1 king bed",
    "Two Queen Beds": "2 queen beds",
    "Junior Suite": "1 king bed + sofa bed",
}


@functools.cache
def catalog() -> dict[str, Any]:
    """The parsed ``catalog.yaml`` (cities, name grammars, amenities, room types, rates, policies, phrase banks)."""
    return yamlfile.safe_load(CATALOG_PATH.read_text(encoding="utf-8"))


def slugify(text: str) -> str:
    """ASCII lower-case slug of ``text`` (``"Harbor & Pine Lisbon"`` -> ``"harbor-pine-lisbon"``)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def canonical_city(name: str) -> str:
    """The catalog's name of a destination (``"Lissabon"`` -> ``"Lisbon"``); unknown names unchanged."""
    return catalog()["alias"].get(name, name)


def _slug(name: str, city: str) -> str:
    """A property's slug, unique across cities: its name's, with the city's appended unless the name has it."""
    s, c = slugify(name), slugify(city)
    return s if c in s else f"{s}-{c}"


NEAR_KM = 0.45  # a listing's point is the first house number whose geocoded point is this close to its district


def _address(city: str, region: str | None, country: str, street: str, k: int, number_first: bool) -> str:
    """The ``k``-th house number on ``street`` (3-640; Tokyo: chōme-banchi-gō 1-6, 1-12, 1-20) as a one-line
    address of ``city``, the number before the street where ``number_first``."""
    if city == "Tokyo":
        k %= 1440
        return f"{1 + k % 6}-{1 + k // 6 % 12}-{1 + k // 72} {street}, Tokyo, Japan"
    number = 3 + k % 638
    if number_first:
        return (
            f"{number} {street}, {city}"
            + (f", {region}" if region else "")
            + ("" if country == "United States" else f", {country}")
        )
    return f"{street} {number}, {city}, {country}"


def _currency(country: str) -> str:
    """The currency a property in ``country`` (the catalog's country name) prices in: its legal tender on
    :data:`CURRENCY_ON` where :mod:`builder.reference.fx` rates it (``"EUR"`` for Portugal), else ``"USD"``."""
    code = gazetteer.country_code(country)
    found = gazetteer.currency(code, CURRENCY_ON) if code else None
    return found if found and fx.known(found) else "USD"


def local_base(base_usd_cents: int, currency: str) -> int:
    """A nightly base rate given in US cents (``places.CITIES``) in cents of ``currency``, rounded to whole currency
    units (the inventory's own way of writing a rate, for every currency): at the world's reference rate for the
    fixed table's currencies (``places.PER_USD``: the catalog's own cities, ``local_base(16900, "EUR") == 15500``),
    else at the currency's living rate (:func:`builder.reference.prices.living_rate`: the exchange rate times the
    country's price level), so a Chennai room costs what rooms cost in India, not a US room at the exchange rate."""
    rate = fx.per_usd(currency, PRICED_ON) if currency in PER_USD else prices.living_rate(currency)
    units = Decimal(base_usd_cents) / 100 * rate
    return int(units.quantize(Decimal(1), rounding=ROUND_HALF_UP)) * 100


#: The day whose legal tender a city prices in (CLDR's territory currencies; see gazetteer).
CURRENCY_ON = dt.date(2026, 1, 1)


@functools.cache
def _city_info(name: str) -> dict[str, Any]:
    cat = catalog()
    spec = dict(cat["cities"].get(name) or cat["default_city"])
    region, country, base, streets = CITIES.get(name, (None, "", 18900, ()))
    known = gazetteer.find_city(name, gazetteer.country_code(country) if country else None)
    zone = spec.get("zone") or (known.timezone if known else "UTC")
    currency = _currency(country or "")
    found = None if name in cat["cities"] or name in CITIES else gazetteer.find_city(name)
    if found is not None:  # a city the catalog lacks: its facts from the gazetteer
        zone, country = found.timezone, gazetteer.country(found.country).name
        spec.update(lat=round(found.latitude, 3), lon=round(found.longitude, 3))
        if found.latitude < 0:
            spec["season"] = [12, 1, 2]  # the southern summer
        local = gazetteer.currency(found.country, CURRENCY_ON)
        currency = local if local and fx.known(local) else "USD"  # priced in dollars where the world keeps no rate
    # "12 Marina Road, Lagos, Nigeria", as English-speaking countries write; "Rua Augusta 12, Lisbon, Portugal".
    number_first = country in _NUMBER_FIRST or (
        found is not None and gazetteer.country(found.country).languages[:1] == ("en",)
    )
    districts = cat.get("districts", {}).get(name) or {
        n: {"at": [spec.get("lat", 0.0), spec.get("lon", 0.0)], "streets": list(streets) or [f"{n} Street"]}
        for n in spec["neighbourhoods"]
    }
    return {
        "name": name,
        "region": region,
        "country": country or "",
        "number_first": number_first,
        "currency": currency,
        "zone": zone,
        "base": local_base(base, currency),
        "tax_bp": round(spec["tax"] * 100),
        "city_fee_cents": spec["city_fee"],
        "season": ",".join(str(m) for m in spec["season"]),
        "neighbourhoods": list(spec["neighbourhoods"]),
        "districts": districts,
        "word": spec["word"],
        "lat": spec.get("lat", 0.0),
        "lon": spec.get("lon", 0.0),
    }


def city_info(name: str) -> dict[str, Any]:
    """The facts of a destination (any spelling, see :func:`canonical_city`; a city the catalog lacks takes its
    country, zone, point and hemisphere's season from the gazetteer): ``name``, ``region``, ``country``,
    ``number_first`` (addresses put the house number first), ``currency`` (ISO code the city prices in), ``zone``,
    ``base`` (nightly base rate, cents of ``currency``), ``tax_bp`` (basis points of the room subtotal),
    ``city_fee_cents`` (per night, cents of ``currency``), ``season`` (comma-separated months),
    ``neighbourhoods``, ``districts`` (``{hood: {"at": [lat, lon], "streets": [...]}}``), ``word``, ``lat``,
    ``lon``. A fresh dict each call."""
    return dict(_city_info(canonical_city(name)))


def chain_names(chain: str | None) -> tuple[str, str]:
    """``(chain, short)`` of the persona's hotel chain (default ``"Harbor & Pine Hotels"``, short ``"Harbor & Pine"``)."""
    chain = chain or "Harbor & Pine Hotels"
    return chain, chain.removesuffix(" Hotels").removesuffix(" Hotel").removesuffix(" Resorts")


@functools.cache
def _properties(
    seed: int,
    name: str,
    chain: str,
    fixed: tuple[str, ...],
    near: tuple[float, float] | None = None,
    country: str | None = None,
) -> tuple[dict[str, Any], ...]:
    """The properties of city ``name`` (see :func:`city_properties`), cached."""
    info = _city_info(name)
    cat = catalog()
    chain, short = chain_names(chain)
    r = rng(seed, f"stays/inventory/{name}")
    props: list[dict[str, Any]] = []
    seen: set[str] = {slugify(f"{short} {name}")}
    code = gazetteer.country_code(info["country"]) or "default"
    hoods = info["neighbourhoods"]
    districts = info["districts"]

    def place(hood: str, pname: str) -> tuple[str, float, float]:
        """An address on a street of ``hood`` and its point: the geocoded point of the text a ride names
        (``builder.reference.geo.point("<name>, <address>")``), taking the house numbers from a drawn start until
        that point lies within :data:`NEAR_KM` of the neighbourhood's centre (else the closest of them)."""
        d = districts[hood]
        street = d["streets"][r.randrange(len(d["streets"]))]
        start = r.randrange(1440)
        target = (float(d["at"][0]), float(d["at"][1]))
        # A city the catalog has no districts for: geo centres it (gazetteer, else the airport).
        if name not in cat.get("districts", {}):
            address = _address(name, info["region"], info["country"], street, start, info["number_first"])
            if near is None and geo.centre(name, country) is None:
                return address, target[0], target[1]
            return (address, *geo.point(f"{pname}, {address}", name, near, country))
        best: tuple[float, str, tuple[float, float]] | None = None
        for k in range(start, start + (1440 if name == "Tokyo" else 638)):
            address = _address(name, info["region"], info["country"], street, k, info["number_first"])
            pt = geo.point(f"{pname}, {address}", name)
            km = geo.haversine_km(pt, target)
            if best is None or km < best[0]:
                best = (km, address, pt)
            if km <= NEAR_KM:
                break
        assert best is not None
        return best[1], best[2][0], best[2][1]

    def reviews(rating_x10: int, count: int, stay_kind: str) -> list[dict[str, Any]]:
        rows = []
        for _ in range(min(count, r.randint(4, 7))):
            lang = "de" if r.random() < (0.5 if code in ("DE", "AT") else 0.15) else "en"
            target = rating_x10 / 20  # out of 5
            score = max(1, min(5, round(r.gauss(target, 0.8))))
            band = "high" if score >= 4 else "mid" if score == 3 else "low"
            bank = cat["reviews"][lang][band]
            body = " ".join(r.choice(bank[part]) for part in ("opener", "detail", "closer"))
            if stay_kind == "hotel":
                body = body.replace("The host left", "Reception gave us")
            author, home = r.choice(cat["reviewers"][lang])
            month = f"{r.choice([2024, 2025, 2026])}-{r.randint(1, 12):02d}"
            rows.append(
                {
                    "author": f"{author} {chr(65 + r.randrange(26))}.",
                    "author_city": home,
                    "language": lang,
                    "rating": score,
                    "body": body,
                    "stayed": month,
                }
            )
        return sorted(rows, key=lambda x: x["stayed"], reverse=True)

    def hotel(
        pname: str, stars: int, base: int, hood: str, chain_name: str | None, rooms: list[dict[str, Any]]
    ) -> dict[str, Any]:
        some = cat["amenities"]["hotel_some"]
        amen = cat["amenities"]["hotel_all"] + sorted(r.sample(some, k=min(len(some), 3 + stars)))
        rating = r.randint(70 + 3 * stars, 82 + 3 * stars) if stars < 5 else r.randint(88, 97)
        count = r.randint(60, 2600)
        address, lat, lon = place(hood, pname)
        desc = (
            f"A {r.choice(_ADJECTIVES)} {stars}-star hotel in {hood}, {name}, with "
            f"{amen[len(cat['amenities']['hotel_all'])].lower()} and {amen[-1].lower()}. "
            f"Rooms sleep up to {max(x['sleeps'] for x in rooms)}; check-in from 3:00 PM, check-out by 11:00 AM."
        )
        return {
            "slug": _slug(pname, name),
            "kind": "hotel",
            "name": pname,
            "chain": chain_name,
            "neighbourhood": hood,
            "address": address,
            "stars": stars,
            "rating_x10": min(rating, 98),
            "review_count": count,
            "description": desc,
            "amenities": amen,
            "host_name": None,
            "host_since": None,
            "base_rate_cents": base,
            "cleaning_fee_cents": 0,
            "policy": "flexible" if r.random() < 0.75 else "moderate",
            "lat": lat,
            "lon": lon,
            "art": r.randint(1, 10**6),
            "world_ref": None,
            "rooms": rooms,
            "reviews": reviews(min(rating, 98), count, "hotel"),
        }

    def hotel_rooms(base_units: int) -> list[dict[str, Any]]:
        types = cat["room_types"]
        picked = [t for t in types if t["name"] in ("King Room", "Two Queen Beds")] + [
            t for t in types if t["name"] not in ("King Room", "Two Queen Beds") and r.random() < 0.6
        ]
        return [
            {
                "name": t["name"],
                "sleeps": t["sleeps"],
                "beds": _BEDS[t["name"]],
                "factor_pct": round(t["factor"] * 100),
                "units": max(1, t["units"] * base_units // 10),
            }
            for t in sorted(picked, key=lambda t: (t["factor"], t["name"]))
        ]

    # The persona's chain (in the first neighbourhood), then any hotel the persona's trips name.
    chain_rooms = [
        {"name": "King Room", "sleeps": 2, "beds": _BEDS["King Room"], "factor_pct": 100, "units": 16},
        {"name": "Two Queen Beds", "sleeps": 4, "beds": _BEDS["Two Queen Beds"], "factor_pct": 100, "units": 12},
        {"name": "Junior Suite", "sleeps": 3, "beds": _BEDS["Junior Suite"], "factor_pct": 155, "units": 3},
    ]
    props.append(
        hotel(f"{short} {name}", 4, int(info["base"] * r.uniform(0.9, 1.15)) // 100 * 100, hoods[0], chain, chain_rooms)
    )
    for fname in fixed:
        if slugify(fname) in seen:
            continue
        seen.add(slugify(fname))
        hood = next((h for h in hoods if h.lower() in fname.lower()), hoods[r.randrange(len(hoods))])
        props.append(
            hotel(
                fname,
                4,
                int(info["base"] * r.uniform(0.95, 1.2)) // 100 * 100,
                hood,
                None,
                hotel_rooms(r.randint(6, 14)),
            )
        )
    patterns = list(cat["hotel_names"])
    r.shuffle(patterns)
    used: set[str] = set()  # each of the city's word, its name and a neighbourhood names at most one hotel
    target = len(props) + HOTELS_PER_CITY
    for pat in patterns:
        if len(props) >= target:
            break
        hood = r.choice([h for h in hoods if h not in used] or hoods)
        keys = {k for k, v in (("{w}", info["word"]), ("{c}", name), ("{n}", hood)) if k in pat["pattern"]}
        pname = pat["pattern"].format(n=hood, w=info["word"], c=name)
        taken = {"{w}": info["word"], "{c}": name, "{n}": hood}
        if slugify(pname) in seen or any(taken[k] in used for k in keys):
            continue
        seen.add(slugify(pname))
        used.update(taken[k] for k in keys)
        stars = r.randint(*pat["stars"])
        base = int(info["base"] * (0.55 + 0.18 * stars) * r.uniform(0.9, 1.1)) // 100 * 100
        props.append(hotel(pname, stars, base, hood, None, hotel_rooms(r.randint(6, 14))))
    hosts = cat["hosts"].get(code, cat["hosts"]["default"])
    kinds = cat["rental_kinds"]
    titles = r.sample(cat["rental_titles"], k=min(RENTALS_PER_CITY, len(cat["rental_titles"])))
    for j in range(RENTALS_PER_CITY):
        k = kinds[(j + r.randrange(len(kinds))) % len(kinds)]
        hood = hoods[(1 + j * 2 + j // 3) % len(hoods)]
        title = titles[j % len(titles)].format(k=k["kind"].lower(), n=hood)
        title = title[0].upper() + title[1:]
        if slugify(title) in seen:
            title = f"{title} ({j + 1})"
        seen.add(slugify(title))
        sleeps, bedrooms = r.randint(*k["sleeps"]), r.randint(*k["bedrooms"])
        some = cat["amenities"]["rental_some"]
        amen = cat["amenities"]["rental_all"] + sorted(r.sample(some, k=4))
        host = hosts[(j + r.randrange(len(hosts))) % len(hosts)]
        since = r.randint(2014, 2023)
        rating = r.randint(84, 99)
        count = r.randint(9, 240)
        address, lat, lon = place(hood, title)
        base = int(info["base"] * (0.45 + 0.12 * sleeps) * r.uniform(0.85, 1.1)) // 100 * 100
        lo, hi = cat["rates"]["cleaning_fee"]
        desc = (
            f"{k['rooms']} for up to {sleeps} guests in {hood}: {bedrooms} bedroom{'s' if bedrooms > 1 else ''}, "
            f"{amen[3].lower()} and {amen[4].lower()}. {host} has hosted on {service('lodging').title} since {since}."
        )
        beds = f"{bedrooms} bedroom{'s' if bedrooms > 1 else ''} · {sleeps} guests"
        # The cleaning fee is drawn in steps of 5.00 of the catalog's range (US cents), in the city's currency.
        fee = local_base(r.randint(lo // 500, hi // 500) * 500, info["currency"])
        props.append(
            {
                "slug": _slug(title, name),
                "kind": "rental",
                "name": title,
                "chain": None,
                "neighbourhood": hood,
                "address": address,
                "stars": None,
                "rating_x10": rating,
                "review_count": count,
                "description": desc,
                "amenities": amen,
                "host_name": host,
                "host_since": str(since),
                "base_rate_cents": base,
                "cleaning_fee_cents": fee,
                "policy": "moderate" if r.random() < 0.5 else "flexible",
                "lat": lat,
                "lon": lon,
                "art": r.randint(1, 10**6),
                "world_ref": None,
                "rooms": [{"name": k["rooms"], "sleeps": sleeps, "beds": beds, "factor_pct": 100, "units": 1}],
                "reviews": reviews(rating, count, "rental"),
            }
        )
    return tuple(props)


def _fixed_hotels(world_or_persona, city: str) -> tuple[str, ...]:
    persona = getattr(world_or_persona, "persona", world_or_persona)
    trips = (persona.travel.trips or []) if persona.travel else []
    return tuple(sorted({t.hotel for t in trips if t.hotel and canonical_city(t.destination) == city}))


def city_properties(seed: int, persona, city: str) -> list[dict[str, Any]]:
    """The properties of ``city`` (any spelling) for a persona: fresh copies of dicts with ``slug``, ``kind``
    ('hotel' | 'rental'), ``name``, ``chain``, ``neighbourhood``, ``address``, ``stars``, ``rating_x10``,
    ``review_count``, ``description``, ``amenities`` (list), ``host_name``, ``host_since``, ``base_rate_cents``
    and ``cleaning_fee_cents`` (cents of the city's currency), ``policy``, ``lat``, ``lon``, ``art``,
    ``world_ref`` (None here), ``rooms`` (list of ``{name, sleeps, beds, factor_pct, units}``) and ``reviews``
    (list of ``{author, author_city, language, rating, body, stayed}``).

    Depends only on ``seed``, the persona's hotel chain and the hotels its trips name (``Trip.hotel``), so the
    world can draw its stays from it before any app exists."""
    name = canonical_city(city)
    chain = persona.travel.hotel_chain if persona.travel else None
    near = country = None
    if name not in catalog().get("districts", {}):  # the trip's airport and its country: what rides locate it by
        trips = (persona.travel.trips or []) if persona.travel else []
        codes = [t.airport for t in trips if canonical_city(t.destination) == name]
        code = next((c for c in codes if known_airport(c)), None)
        near = tuple(airport_facts(code)[1:3]) if code else None
        country = airport_country(codes[0]) if codes else None
    return [
        {**p, "rooms": [dict(x) for x in p["rooms"]]}
        for p in _properties(seed, name, chain_names(chain)[0], _fixed_hotels(persona, name), near, country)
    ]
