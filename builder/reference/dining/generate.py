"""Build ``restaurants.yaml`` (TableTime's restaurant catalogue) from ``cuisines.yaml`` and ``cities.yaml``.

Run ``python -m builder.reference.dining.generate`` after editing the lists; tests/apps/dining/test_web.py checks that
the committed file is what this script writes. Every draw comes from ``builder.rng.rng(0, "dining/catalog/<city>")``:
the catalogue is the same for every persona (a restaurant does not move with the person who eats there).

Each restaurant: ``slug``, ``name``, ``cuisine``, ``city``, ``country``, ``neighbourhood``, ``street`` (the line),
``address`` (street, city as the world writes an address), ``postcode``, ``phone``, ``currency``, ``lang``, ``band``
(1-4), ``blurb``, ``hours`` (``{service: {"days": [mon..sun], "open": "HH:MM", "close": "HH:MM"}}``), ``tables``
(``{seats: count}``), ``menu`` (``[{"course", "name", "price_cents"}]`` in the city's currency, minor units; JPY
is stored as yen x 100 like every other currency), ``rating_x10``, ``review_count``, ``late_cancel_cents`` (per
guest, 0 when the restaurant charges no fee) and ``art`` (``{"palette", "motif"}`` of the drawn photo).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import yaml

from builder import yamlfile
from builder.reference import phones, prices
from builder.reference.addresses import region_postcode
from builder.rng import rng

HERE = Path(__file__).resolve().parent
OUT = HERE / "restaurants.yaml"
MAIN = [
    "Thai",
    "Ethiopian",
    "Italian",
    "Mexican",
    "Japanese",
    "Indian",
    "Vietnamese",
    "Greek",
    "Korean",
    "Lebanese",
    "Spanish",
    "Chinese",
    "Turkish",
    "German",
    "British",
    "French",
    "American",
]
FX = {"USD": 1.0, "CAD": 1.36, "MXN": 17.5, "GBP": 1.0, "EUR": 1.0, "DKK": 6.9, "JPY": 150.0}
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
MOTIFS = ["bowl", "plate", "glass", "lantern", "window", "table"]
FEE_USD = 2500


def slugify(text: str) -> str:
    """ASCII kebab-case of ``text`` ("Zur Alten Mühle" -> "zur-alten-muhle")."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


def local_price(usd_cents: float, currency: str) -> int:
    """A menu price in ``currency`` minor units from a price already scaled to the city, rounded as menus there are
    (the catalogue's own :data:`FX` and rounding for its currencies; any other at the exchange rate, to its precision:
    :func:`builder.reference.prices.fx_price`)."""
    if currency not in FX:
        return prices.fx_price(usd_cents, currency)
    v = usd_cents * FX[currency]
    if currency in ("USD", "CAD"):
        return max(250, round(v / 100) * 100 - 5) if v >= 500 else round(v / 25) * 25
    if currency in ("GBP", "EUR"):
        return max(150, round(v / 50) * 50)
    if currency == "DKK":
        return max(2500, round(v / 500) * 500)
    if currency == "MXN":
        return max(3000, round(v / 500) * 500)
    return max(20000, round(v / 5000) * 5000)  # JPY: 50-yen steps, stored x100


def dish_name(dish: list, lang: str) -> str:
    """The name a menu line of cuisines.yaml (``[course, English name, US cents, German name]``, the German name
    where it differs) gives its dish in the language ``lang``; English for a language the line lacks."""
    names = {"en": dish[1], **({"de": dish[3]} if len(dish) > 3 else {})}
    return names.get(lang, names["en"])


def _street_line(r, country: str, street: str) -> str:
    if country in ("US", "CA"):
        return f"{r.randint(100, 3999)} {street}"
    if country == "GB":
        return f"{r.randint(1, 180)} {street}"
    if country == "JP":
        return f"{street} {r.randint(1, 28)}-{r.randint(1, 20)}"
    if country in ("PT", "ES", "MX"):
        return f"{street} {r.randint(1, 160)}" if country != "ES" else f"{street}, {r.randint(1, 160)}"
    return f"{street} {r.randint(1, 140)}"


#: Countries that write the postcode after the city (``14 Surulere Close, Lagos 101283``); the others not listed
#: in :func:`_address` write it before (``Calle Mayor 12, 28013 Madrid``).
CITY_THEN_POSTCODE = frozenset({"AU", "BR", "CN", "IE", "IN", "JP", "KE", "KR", "NG", "NZ", "SG", "TH", "TW", "ZA"})


def _address(city: str, c: dict, line: str, postcode: str) -> str:
    country = c["country"]
    if not postcode:  # a country without postcodes (or none known): the city alone
        return f"{line}, {city}" + (f", {c['region']}" if country == "US" and c.get("region") else "")
    if country == "US":
        return f"{line}, {city}, {region_postcode(c.get('region'), postcode)}"
    if country in ("GB", "CA"):
        return (
            f"{line}, {city} {postcode}"
            if country == "GB"
            else f"{line}, {city}, {region_postcode(c.get('region'), postcode)}"
        )
    if country in CITY_THEN_POSTCODE:
        return f"{line}, {city} {postcode}"
    return f"{line}, {postcode} {city}"


def _postcode(r, country: str, base: str) -> str:
    if country == "GB":
        letters = "ABDEFGHJLNPQRSTUWXYZ"
        return f"{base.split()[0]} {base.split()[-1][-1]}{r.choice(letters)}{r.choice(letters)}"
    if country == "CA":
        return f"{base}{r.randint(1, 9)}"
    return base


def _hours(r, home: bool) -> dict:
    open_ = r.choice(["17:00", "17:00", "17:30"])
    close = r.choice(["21:30", "22:00", "22:00", "22:30", "23:00"])
    dinner_days = DAYS if home or r.random() < 0.6 else DAYS[1:]
    hours = {"dinner": {"days": list(dinner_days), "open": open_, "close": close}}
    if home:
        weekdays = r.random() < 0.45
        hours["lunch"] = {
            "days": DAYS if weekdays else ["sat", "sun"],
            "open": "10:30",
            "close": r.choice(["14:30", "15:00"]),
        }
    elif r.random() < 0.6:
        hours["lunch"] = {
            "days": list(dinner_days),
            "open": r.choice(["11:30", "12:00"]),
            "close": r.choice(["14:30", "15:00"]),
        }
    return hours


def pick_name(r, city: str, cuisine: str, spec: dict, used: set[str]) -> str:
    """A name of ``cuisine`` (its ``cuisines.yaml`` entry ``spec``) that ``used`` (the city's names so far) lacks,
    drawn from ``r`` and added to ``used``. Raises ``ValueError`` when every name is taken."""
    name = next((x for x in r.sample(spec["names"], len(spec["names"])) if x not in used), None)
    if name is None:
        raise ValueError(f"{city}: not enough {cuisine} names")
    used.add(name)
    return name


def restaurant(
    r,
    city: str,
    c: dict,
    cuisine: str,
    spec: dict,
    name: str,
    hood: str,
    line: str,
    postcode: str,
    home: bool,
    taken: set[str],
) -> dict:
    """One restaurant row of ``city`` (its ``cities.yaml``-shaped entry ``c``: ``country``, ``region``, ``zone``,
    ``currency``, ``lang``, ``factor``, ``phone``: the landlines' prefix, None for a number of the country's plan)
    serving ``cuisine`` (``spec``) as ``name`` at ``line`` in ``hood``: its band, menu (prices through
    :func:`local_price`), phone (unique in ``taken``, which it joins), tables,
    rating, hours (``home``: a home city's) and photo, drawn from ``r`` in a fixed order."""
    band = max(1, min(4, spec["band"] + r.choice([-1, 0, 0, 0, 1])))
    scale = c["factor"] * (1 + 0.12 * (band - spec["band"]))
    menu = []
    dishes = spec["menu"]
    dropped = set(r.sample(range(len(dishes)), r.randint(0, 2)))
    for i, dish in enumerate(dishes):
        if i in dropped and dish[0] not in ("Mains",):
            continue
        course, base = dish[0], dish[2]
        menu.append(
            {
                "course": course,
                "name": dish_name(dish, c["lang"]),
                "price_cents": local_price(base * scale * r.uniform(0.94, 1.08), c["currency"]),
            }
        )
    while True:
        if c["phone"] is None:  # a generated city (catalogue.py): a landline of its country, in its area
            phone = phones.phone(r, c["country"], "fixed", city)
        else:
            phone = f"{c['phone']} {r.randint(200, 989)} {r.randint(1000, 9999)}"
        if phone not in taken:
            taken.add(phone)
            break
    tables = {2: r.randint(4, 8), 4: r.randint(3, 6), 6: 1}
    if r.random() < 0.4:
        tables[8] = 1
    rating = r.choice([41, 42, 43, 44, 44, 45, 45, 46, 46, 47, 47, 48, 49])
    return {
        "slug": f"{slugify(name)}-{slugify(city)}",
        "name": name,
        "cuisine": cuisine,
        "city": city,
        "country": c["country"],
        "region": c["region"],
        "zone": c["zone"],
        "neighbourhood": hood,
        "street": line,
        "postcode": postcode,
        "address": _address(city, c, line, postcode),
        "phone": phone,
        "currency": c["currency"],
        "lang": c["lang"],
        "band": band,
        "blurb": f"{r.choice(spec['blurb'])} in {hood}.",
        "hours": _hours(r, home),
        "tables": tables,
        "menu": menu,
        "rating_x10": rating,
        "review_count": r.randint(40, 1900),
        "late_cancel_cents": local_price(FEE_USD * c["factor"], c["currency"]) if band >= 3 else 0,
        "art": {"palette": r.randrange(8), "motif": r.choice(MOTIFS)},
        "home": home,
    }


def generate() -> list[dict]:
    """Every restaurant of every city, sorted by (city, slug)."""
    cuisines = yamlfile.safe_load((HERE / "cuisines.yaml").read_text(encoding="utf-8"))
    cities = yamlfile.safe_load((HERE / "cities.yaml").read_text(encoding="utf-8"))
    out = []
    for city in sorted(cities):
        c = cities[city]
        r = rng(0, f"dining/catalog/{city}")
        home = "per" in c
        slots = [k for k in MAIN for _ in range(c["per"])] + list(c.get("extra", [])) if home else list(c["cuisines"])
        used: set[str] = set()
        hoods = sorted(c["neighbourhoods"])
        phones: set[str] = set()
        for n, cuisine in enumerate(slots):
            spec = cuisines[cuisine]
            name = pick_name(r, city, cuisine, spec, used)
            hood = hoods[(n * 7 + r.randrange(len(hoods))) % len(hoods)]
            h = c["neighbourhoods"][hood]
            line = _street_line(r, c["country"], r.choice(h["streets"]))
            postcode = _postcode(r, c["country"], str(h["postcode"]))
            out.append(restaurant(r, city, c, cuisine, spec, name, hood, line, postcode, home, phones))
    out.sort(key=lambda x: (x["city"], x["slug"]))
    return out


def world_restaurant(
    name: str,
    cuisine: str | None,
    address: str,
    *,
    city: str,
    country: str,
    region: str,
    zone: str,
    currency: str,
    lang: str,
) -> dict:
    """A restaurant the catalogue lacks but the world booked (a home city or a cuisine TableTime does not list):
    the same fields as :func:`generate`'s rows, at the world's ``address`` in ``city``, with the menu of
    ``cuisine`` (``cuisines.yaml``; a cuisine it lacks takes the one whose names hold ``name``, else American)
    priced for ``currency`` (USD, GBP or EUR), and a landline of ``country`` (in ``city`` where its numbering plan
    names the city: :func:`builder.reference.phones.phone`). Draws come from
    ``rng(0, "dining/catalog/world/<name>/<address>")`` (the phone from its ``/phone`` stream), so the same booking
    always makes the same restaurant."""
    cuisines = yamlfile.safe_load((HERE / "cuisines.yaml").read_text(encoding="utf-8"))
    key = (cuisine or "").strip().title()
    if key not in cuisines:
        key = next((k for k in sorted(cuisines) if name in cuisines[k]["names"]), "American")
    spec = cuisines[key]
    r = rng(0, f"dining/catalog/world/{name}/{address}")
    band = spec["band"]
    menu = []
    for dish in spec["menu"]:
        menu.append(
            {
                "course": dish[0],
                "name": dish_name(dish, lang),
                "price_cents": local_price(dish[2] * r.uniform(0.94, 1.08), currency),
            }
        )
    street = address.split(",")[0].strip()
    tables = {2: r.randint(4, 8), 4: r.randint(3, 6), 6: 1, 8: 1}
    return {
        "slug": f"{slugify(name)}-{slugify(street)}-{slugify(city)}",
        "name": name,
        "cuisine": key,
        "city": city,
        "country": country,
        "region": region,
        "zone": zone,
        "neighbourhood": city,
        "street": street,
        "postcode": "",
        "address": address,
        # A landline of the city's country (reference.phones; the US/UK/German fictional ranges), its own stream.
        "phone": phones.phone(rng(0, f"dining/catalog/world/{name}/{address}/phone"), country or "US", "fixed", city),
        "currency": currency,
        "lang": lang,
        "band": band,
        "blurb": f"{r.choice(spec['blurb'])} in {city}.",
        "hours": _hours(r, True),
        "tables": tables,
        "menu": menu,
        "rating_x10": r.choice([41, 42, 43, 44, 45, 46, 47, 48]),
        "review_count": r.randint(40, 900),
        "late_cancel_cents": 0,
        "art": {"palette": r.randrange(8), "motif": r.choice(MOTIFS)},
        "home": True,
    }


def main() -> None:
    """Write ``restaurants.yaml``."""
    text = "# Generated by builder/reference/dining/generate.py from cuisines.yaml and cities.yaml; do not edit.\n"
    text += yaml.safe_dump(generate(), allow_unicode=True, sort_keys=False, width=120)
    OUT.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
