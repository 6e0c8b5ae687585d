"""DashBite's restaurants expanded from the grammar of this folder: what ``restaurants.json`` holds and what a city
it lacks gets.

:func:`generate_city` draws every restaurant of a city (stream ``delivery/catalog/<city>``, seed 0) from
``cuisines.yaml``, ``options.yaml`` and the city's ``cities.yaml`` entry (:func:`city_spec`: a generic one for a city
the file does not list); :func:`with_usual` puts a persona's usual order (``routines.usual_order``) into a city's
restaurants verbatim, priced as :func:`usual_split` splits its total; :func:`city_restaurants` reads a city from
``restaurants.json`` (``generate.py`` writes it) or generates it; :func:`home_catalogue` is a persona's home city
with the usual order in it, :func:`dish_name` a dish's name in the persona's language and :func:`fees` DashBite's
fees of an order. The world's food orders (:mod:`builder.world.delivery`) and the app's seed both read the
restaurants through these, so every dish an order names is one DashBite lists. The restaurant's shape is
:mod:`builder.world.delivery`'s docstring.
"""

from __future__ import annotations

import re
import unicodedata

from ...money import cents, floor_unit, to_unit, unit_cents
from ...rng import rng
from .. import prices
from ..addresses import near_postcode, neighbourhoods, region_postcode, street_line
from ..locale import in_language
from . import cities, cuisines, options, restaurants

SECTIONS = ("starters", "mains", "sides", "desserts", "drinks")
#: The usual restaurant's delivery fee (the world's ``_usual`` split of the spec's total).
USUAL_DELIVERY_CENTS = 299
#: DashBite's service fee: this percent of the subtotal, rounded half up.
SERVICE_PERCENT = 10
# Most-ordered cuisines of each city: they get a third restaurant.
POPULAR = {
    "Portland": ["Thai", "Mexican", "Vietnamese", "Japanese", "Italian", "Indian", "American", "Ethiopian", "Chinese"],
    "Denver": ["Mexican", "American", "Lebanese", "Vietnamese", "Ethiopian", "Thai", "Italian", "Japanese"],
    "Manchester": ["Indian", "Chinese", "British", "Italian", "Japanese", "Lebanese", "Turkish", "Spanish"],
    "Hamburg": ["Turkish", "Vietnamese", "Italian", "German", "Greek", "Japanese", "Indian", "Thai"],
}
_GENERIC_HOODS = {
    "Downtown": ["Main Street", "Market Street", "Park Avenue"],
    "Old Town": ["Church Street", "Mill Road", "High Street"],
    "Riverside": ["River Road", "Bridge Street", "Water Street"],
    "Northside": ["North Avenue", "Elm Street", "Maple Avenue"],
    "Eastgate": ["East Street", "Station Road", "Oak Lane"],
}


def slug(text: str) -> str:
    """``"Yia Yia's Kitchen"`` -> ``"yia-yias-kitchen"`` (ASCII, accents dropped)."""
    flat = unicodedata.normalize("NFKD", text.replace("ß", "ss")).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", flat.lower().replace("'", "").replace("&", "and")).strip("-")


def menu_price(usd_cents: int, spec: dict) -> int:
    """A US list price (cents) as a menu price of the city (cents): scaled by ``price_factor`` and ending the way
    menus there end (US and GB ``.45``/``.95``, euro ``.40``/``.90``); at least 1.50."""
    value = usd_cents * spec["price_factor"]
    if spec["currency"] not in prices.WRITTEN:  # at the exchange rate, to the currency's precision
        return to_unit(value, spec["currency"])
    end = 10 if spec["currency"] == "EUR" else 5
    return max(150, round(value / 50) * 50 - end)


def option_price(usd_cents: int, spec: dict) -> int:
    """An option's surcharge (cents) in the city's currency, to a quarter; 0 stays 0."""
    if not usd_cents:
        return 0
    if spec["currency"] not in prices.WRITTEN:
        return to_unit(usd_cents * spec["price_factor"], spec["currency"])
    return max(25, round(usd_cents * spec["price_factor"] / 25) * 25)


def _options(keys: list[str], spec: dict) -> list[dict]:
    out = []
    for key in keys:
        o = options()[key]
        out.append(
            {
                "key": key,
                "label": dict(o["label"]),
                "pick": o["pick"],
                "max": o.get("max", 1),
                "choices": [
                    {"id": c[0], "label": {"en": c[1], "de": c[2]}, "price_cents": option_price(c[3], spec)}
                    for c in o["choices"]
                ],
            }
        )
    return out


def _address(r, spec: dict, city: str, hood: str) -> str:
    if spec.get("grammar"):  # a city of a country without DashBite's street lists: as the country writes streets
        code = near_postcode(r, spec["postcodes"][r.randrange(len(spec["postcodes"]))]) if spec["postcodes"] else ""
        return f"{street_line(r, spec['country'], city)}, {city}" + (f" {code}" if code else "")
    street = spec["neighbourhoods"][hood][r.randrange(len(spec["neighbourhoods"][hood]))]
    postcode = spec["postcodes"][r.randrange(len(spec["postcodes"]))]
    if spec["country"] == "DE":
        return f"{street} {r.randint(1, 160)}, {postcode} {city}"
    if spec["country"] == "GB":
        return f"{r.randint(1, 240)} {street}, {city} {postcode}"
    return f"{r.randint(100, 4999)} {street}, {city}, {region_postcode(spec.get('region'), postcode)}"


# A pound or a euro buys a little more on a menu than a dollar (builder.reference.prices: any other currency at the
# exchange rate).
_PRICE_FACTOR = {"USD": 1.0, "GBP": 0.72, "EUR": 0.85}


def city_spec(
    city: str, country: str = "US", region: str = "", currency: str = "USD", postcode: str | None = None
) -> dict:
    """The ``cities.yaml`` entry of ``city``, or a generic one (the currency's price level) for a city DashBite's
    file does not list: in the US, the UK and Germany with made-up neighbourhoods; elsewhere the neighbourhoods
    around the city (:func:`~builder.reference.addresses.neighbourhoods`), streets as the country writes them and
    postcodes near the home's ``postcode``."""
    if city in cities():
        return cities()[city]
    # Outside the US, the UK and Germany: the city's own neighbourhoods, streets from the country's grammar.
    grammar = country not in ("US", "GB", "DE")
    return {
        "country": country,
        "region": region,
        "currency": currency,
        "price_factor": prices.factor(currency, _PRICE_FACTOR),
        "delivery_fees": [prices.figure(c, currency) for c in (0, 99, 199, 299)],
        "minimums": [prices.figure(c, currency) for c in (1000, 1200)],
        "small_order_fee": prices.figure(200, currency),
        **(
            {
                "postcodes": [postcode] if postcode else [],
                "neighbourhoods": {h: [] for h in neighbourhoods(country, city)[:5]},
                "grammar": True,
            }
            if grammar
            else {"postcodes": ["00001"], "neighbourhoods": _GENERIC_HOODS}
        ),
    }


def _restaurant(r, spec: dict, city: str, cuisine: str, name: str, hood: str) -> dict:
    c = cuisines()[cuisine]
    rid = slug(name)
    dishes = list(c["dishes"])
    keep = [d for d in dishes if d[3] == "mains"]
    keep = r.sample(keep, max(3, len(keep) - r.randint(0, 2)))
    others = [d for d in dishes if d[3] != "mains"]
    keep += r.sample(others, max(3, len(others) - r.randint(0, 3)))
    keep.sort(key=lambda d: (SECTIONS.index(d[3]), dishes.index(d)))
    jitter = r.uniform(0.92, 1.12)
    menu = []
    for k, d in enumerate(keep):
        menu.append(
            {
                "id": f"{rid}-{k + 1}",
                "section": d[3],
                "name": {"en": d[0], "de": d[1]},
                "price_cents": menu_price(round(d[2] * jitter), spec),
                "popular": False,
                "options": _options(d[4], spec),
            }
        )
    mains = [x for x in menu if x["section"] == "mains"]
    for x in r.sample(mains, min(2, len(mains))):
        x["popular"] = True
    avg = sum(x["price_cents"] for x in mains) / max(1, len(mains)) / spec["price_factor"]
    lo = r.choice([10, 12, 15, 15, 20])
    opens, closes = r.choice(
        [("11:00", "22:00"), ("11:00", "22:00"), ("11:30", "21:30"), ("16:00", "23:00"), ("12:00", "23:30")]
    )
    return {
        "id": rid,
        "name": name,
        "cuisine": cuisine,
        "city": city,
        "neighbourhood": hood,
        "address": _address(r, spec, city, hood),
        "delivery_fee_cents": r.choice(spec["delivery_fees"]),
        "minimum_cents": r.choice(spec["minimums"]),
        "small_order_fee_cents": spec["small_order_fee"],
        "prep_minutes": [lo, lo + r.choice([5, 10])],
        "rating_x10": r.choice([42, 43, 44, 45, 45, 46, 46, 47, 47, 48, 49]),
        "rating_count": r.randint(60, 4200),
        "price_level": 1 if avg < 1300 else 3 if avg > 1900 else 2,
        "opens": opens,
        "closes": closes,
        "usual": False,
        "menu": menu,
    }


def generate_city(city: str, spec: dict | None = None) -> list[dict]:
    """Every DashBite restaurant of ``city`` (stream ``delivery/catalog/<city>``, seed 0): two per cuisine, a
    third for the city's popular cuisines; names from the cuisine's grammar, unique in the city; sorted by id."""
    spec = spec or city_spec(city)
    r = rng(0, f"delivery/catalog/{city}")
    hoods = sorted(spec["neighbourhoods"])
    out, names = [], set()
    for cuisine in sorted(cuisines()):
        c = cuisines()[cuisine]
        count = 3 if cuisine in POPULAR.get(city, []) else 2
        words = r.sample(c["words"], len(c["words"]))
        for n in range(count):
            for _ in range(20):
                word, hood = words.pop(0) if words else r.choice(c["words"]), r.choice(hoods)
                form, kind = r.choice(c["forms"]), r.choice(c["kinds"])
                if kind.lower() in word.lower():
                    form = "{word}"
                name = form.format(word=word, kind=kind, hood=hood)
                if name not in names and slug(name) not in {slug(x) for x in names}:
                    break
            names.add(name)
            out.append(_restaurant(r, spec, city, cuisine, name, hood))
    return sorted(out, key=lambda x: x["id"])


def _guess_cuisine(name: str, items: list[str], preferred: list[str]) -> str:
    scores = {}
    low = [i.lower() for i in items]
    for cuisine, c in cuisines().items():
        names = {d[0].lower() for d in c["dishes"]} | {d[1].lower() for d in c["dishes"]}
        words = {w.lower() for w in c["words"]}
        score = sum(any(i == n or i in n or n in i for n in names) for i in low) * 2
        score += sum(w in name.lower() for w in words) * 3 + (cuisine.lower() in name.lower()) * 3
        score += cuisine in preferred
        scores[cuisine] = score
    return max(sorted(scores), key=lambda k: scores[k])


def _section(item: str) -> str:
    low = item.lower()
    if any(
        w in low
        for w in (
            "tea",
            "coffee",
            "soda",
            "juice",
            "lemonade",
            "limonade",
            "water",
            "drink",
            "lassi",
            "beer",
            "kaffee",
            "tee",
        )
    ):
        return "drinks"
    if any(w in low for w in ("roll", "soup", "suppe", "salad", "salat", "gyoza", "fattoush", "samosa", "dumpling")):
        return "starters"
    if any(w in low for w in ("fries", "bread", "naan", "rice", "side", "reis")):
        return "sides"
    return "mains"


def usual_split(p) -> tuple[list[dict], int, int, int, int, int] | None:
    """The usual order split into items (prices in quarters), subtotal, delivery fee, service fee, tip, total."""
    uo = p.routines.usual_order
    if uo is None:
        return None
    cur = p.finances.currency
    total = cents(uo.total)
    tp = p.preferences.tipping_percent
    delivery = prices.figure(USUAL_DELIVERY_CENTS, cur)
    q = max(25, unit_cents(cur))  # items priced in quarters (whole units of a currency without cents)
    subtotal = int((total - delivery) / (1.10 + tp / 100) / q) * q
    tip = floor_unit(subtotal * tp // 100, cur)
    service = total - subtotal - delivery - tip
    if service < 0:
        delivery, service = max(0, delivery + service), 0
        tip = total - subtotal - delivery
    weights = []
    for name in uo.items:
        low = name.lower()
        if any(w in low for w in ("tea", "coffee", "soda", "juice", "lemonade", "water", "drink", "lassi", "beer")):
            weights.append(0.3)
        elif any(w in low for w in ("roll", "soup", "salad", "fries", "bread", "side", "dumpling", "naan", "rice")):
            weights.append(0.55)
        else:
            weights.append(1.0)
    quarters = subtotal // q
    shares = [max(1, int(quarters * w / sum(weights))) for w in weights]
    shares[0] += quarters - sum(shares)
    if shares[0] < 1:
        shares = [quarters // len(weights)] * len(weights)
        shares[0] += quarters - sum(shares)
    items = [{"name": n, "qty": 1, "price_cents": s * q} for n, s in zip(uo.items, shares)]
    return items, subtotal, delivery, service, tip, total


def with_usual(restaurants: list[dict], persona, spec: dict) -> list[dict]:
    """``restaurants`` with the persona's usual order (``routines.usual_order``) in it, verbatim: its restaurant
    (added when missing, stream ``delivery/usual/<name>``, seed 0) marked ``usual``, its delivery fee
    :data:`USUAL_DELIVERY_CENTS`, and each usual item a dish at the world's price of it (:func:`usual_split`)."""
    uo = persona.routines.usual_order
    split = usual_split(persona)
    if uo is None or split is None:
        return restaurants
    out = [dict(x, menu=[dict(d) for d in x["menu"]]) for x in restaurants]
    place = next((x for x in out if x["name"] == uo.restaurant), None)
    if place is None:
        city = persona.identity.address.city if persona.identity.address else "Home"
        r = rng(0, f"delivery/usual/{uo.restaurant}")
        cuisine = _guess_cuisine(uo.restaurant, list(uo.items), list(persona.preferences.cuisines or []))
        hoods = sorted(spec["neighbourhoods"])
        place = _restaurant(r, spec, city, cuisine, uo.restaurant, hoods[r.randrange(len(hoods))])
        place["rating_x10"], place["rating_count"] = 48, r.randint(900, 3000)
        out.append(place)
        out.sort(key=lambda x: x["id"])
    place["usual"], place["delivery_fee_cents"] = True, prices.figure(USUAL_DELIVERY_CENTS, spec["currency"])
    place["minimum_cents"] = min(place["minimum_cents"], split[1])
    items = split[0]
    for it in items:
        dish = next((d for d in place["menu"] if it["name"] in (d["name"]["en"], d["name"]["de"])), None)
        if dish is None:
            dish = {
                "id": "",
                "section": _section(it["name"]),
                "name": {"en": it["name"], "de": it["name"]},
                "price_cents": it["price_cents"],
                "popular": True,
                "options": [],
            }
            place["menu"].append(dish)
        dish["name"] = {"en": it["name"], "de": it["name"]}
        dish["price_cents"], dish["options"], dish["popular"] = it["price_cents"], [], True
    place["menu"].sort(key=lambda d: SECTIONS.index(d["section"]))
    for k, d in enumerate(place["menu"]):
        d["id"] = f"{place['id']}-{k + 1}"
    return out


def city_restaurants(city: str, spec: dict | None = None) -> list[dict]:
    """The restaurants of ``city`` as ``restaurants.json`` holds them (generated when the file lacks the city)."""
    listed = restaurants().get(city)
    return listed if listed is not None else generate_city(city, spec)


def home_catalogue(persona) -> list[dict]:
    """DashBite's restaurants in the persona's home city, with the usual order in it (sorted by id)."""
    a = persona.identity.address
    city = a.city if a else "Home"
    spec = city_spec(
        city, a.country if a else "US", a.region if a else "", persona.finances.currency, a.postal_code if a else None
    )
    return with_usual(city_restaurants(city, spec), persona, spec)


def dish_name(dish: dict, locale: str) -> str:
    """A dish's name in the persona's language (German for ``de*``, else English)."""
    return in_language(dish["name"], locale)


def fees(restaurant: dict, subtotal_cents: int, currency: str = "USD") -> dict:
    """DashBite's fees of an order of ``subtotal_cents`` at ``restaurant``: ``{"delivery_fee_cents",
    "service_fee_cents" (10 % half up, to the ``currency``'s smallest unit), "small_order_fee_cents" (below the
    restaurant's minimum)}``."""
    return {
        "delivery_fee_cents": restaurant["delivery_fee_cents"],
        "service_fee_cents": to_unit((subtotal_cents * SERVICE_PERCENT + 50) // 100, currency),
        "small_order_fee_cents": restaurant["small_order_fee_cents"]
        if subtotal_cents < restaurant["minimum_cents"]
        else 0,
    }
