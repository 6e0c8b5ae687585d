"""Shopwell's catalogue as the world sees it: what the persona's ``retail_order`` events buy.

The catalogue is reference data (:mod:`builder.reference.retail.catalogue`: ``products.json`` expanded from the
grammar in ``lines.yaml`` and ``books.yaml`` by ``builder/reference/retail/generate.py``); the shop's seed stores
the same products, so every item of a world order is a product variant Shopwell sells, with the same name,
variant and price.

An order item (the ``items`` of a ``retail_order``)::

    {"sku": "SW3K...-2", "product_id": "SW3K...", "name": <title in the persona's locale>,
     "variant": <variant label in the persona's language, "" when the product has one>,
     "brand": <brand or publisher>, "category": <department key>, "qty": 1, "price_cents": <local price>}

An item the persona's spec names (``purchases``, ``wishlist``) is the catalogue product of that title when there is
one, else Shopwell's own listing of it (:func:`builder.reference.retail.catalogue.spec_item`); the shop's seed adds
those listings to its products.

Prices: the catalogue holds US list prices; :func:`~builder.reference.retail.catalogue.local_price` turns them
into the persona's currency (a pound or a euro buys a little more, and the price still ends in .99). Draws come
from the caller's stream.
"""

from __future__ import annotations

from ..reference import prices
from ..reference.retail.catalogue import catalogue, item, local_price

# How often the persona buys from each department (relative weights) in everyday orders.
DEPARTMENT_WEIGHTS = {
    "electronics": 3,
    "home": 3,
    "outdoor": 2,
    "apparel": 2,
    "beauty": 2,
    "office": 2,
    "toys": 1,
    "books": 2,
    "garden": 1,
    "pets": 0.3,
    "food": 1,
    "household": 2,
}
# Departments where the persona's favourite brands sell.
BRAND_DEPARTMENTS = ("outdoor", "apparel")


def _pick(r, products: list[dict], locale: str, currency: str) -> dict:
    p = products[r.randrange(len(products))]
    return item(p, r.randrange(len(p["variants"])), locale, currency)


def draw_item(r, brands: list[str], locale: str, currency: str) -> dict:
    """One item of an everyday order, from stream ``r``: three times in ten a product of one of the persona's
    ``brands`` (when Shopwell sells that brand in an outdoor or clothing line), else a product of a department
    drawn by :data:`DEPARTMENT_WEIGHTS`."""
    cat = catalogue()
    branded = [p for p in cat if p["brand"] in brands and p["department"] in BRAND_DEPARTMENTS]
    if branded and r.random() < 0.3:
        return _pick(r, branded, locale, currency)
    depts = sorted(DEPARTMENT_WEIGHTS)
    dept = r.choices(depts, [DEPARTMENT_WEIGHTS[d] for d in depts])[0]
    return _pick(r, [p for p in cat if p["department"] == dept], locale, currency)


def draw_gift(r, locale: str, currency: str) -> dict:
    """A birthday present (a product of a ``gift`` line between 20 and 90 in the persona's currency), from ``r``."""
    lo, hi = prices.figure(2000, currency), prices.figure(9000, currency)
    gifts = [p for p in catalogue() if p["gift"] and lo <= local_price(p["variants"][0]["price_usd"], currency) <= hi]
    return _pick(r, gifts, locale, currency)
