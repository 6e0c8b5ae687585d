"""Shopwell's catalogue as the world sees it: what the persona's ``retail_order`` events buy.

The catalogue is ``builder/reference/retail/products.json`` (expanded from the grammar in ``lines.yaml`` and
``books.yaml`` by ``builder/reference/retail/generate.py``); the shop's seed stores the same products, so every
item of a world order is a product variant Shopwell sells, with the same name, variant and price.

An order item (the ``items`` of a ``retail_order``)::

    {"sku": "SW3K...-2", "product_id": "SW3K...", "name": <title in the persona's locale>,
     "variant": <variant label in the persona's language, "" when the product has one>,
     "brand": <brand or publisher>, "category": <department key>, "qty": 1, "price_cents": <local price>}

Prices: the catalogue holds US list prices; :func:`local_price` turns them into the persona's currency
(a pound or a euro buys a little more, and the price still ends in .99). Draws come from the caller's stream.
"""

from __future__ import annotations

import functools

from ..reference import retail as reference_retail
from ..reference.locale import in_language

# A pound or a euro buys a little more than a dollar on a shelf (a $49.99 item is £42.99 or 47,99 €).
PRICE_FACTOR = {"USD": 1.0, "GBP": 0.86, "EUR": 0.96}
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
SHIPPING_CENTS = 599
FREE_SHIPPING_FROM_CENTS = 3500


@functools.lru_cache(maxsize=1)
def catalogue() -> tuple[dict, ...]:
    """Every product of the shop (:func:`builder.reference.retail.products`), sorted by id. Raises
    ``FileNotFoundError`` if products.json is missing (run ``python -m builder.reference.retail.generate``)."""
    return reference_retail.products()


@functools.lru_cache(maxsize=1)
def by_sku() -> dict[str, tuple[dict, int]]:
    """Variant sku -> (product, variant index)."""
    return {v["sku"]: (p, i) for p in catalogue() for i, v in enumerate(p["variants"])}


def local_price(usd_cents: int, currency: str) -> int:
    """A US list price (cents) in ``currency`` (cents), ending in .99 like a shop price; unknown currencies
    keep the US number."""
    value = usd_cents * PRICE_FACTOR.get(currency, 1.0)
    whole = max(1, round(value / 100))
    return whole * 100 - 1


def shipping(subtotal_cents: int) -> int:
    """Standard shipping of an order of ``subtotal_cents``: free from 35.00 in the persona's currency, else 5.99."""
    return 0 if subtotal_cents >= FREE_SHIPPING_FROM_CENTS else SHIPPING_CENTS


def title(product: dict, locale: str) -> str:
    """A product's name as the persona's shop lists it (en_US, en_GB or de_DE; other locales read en_US)."""
    return product["title"].get(locale) or product["title"]["en_US"]


def variant_label(product: dict, index: int, locale: str) -> str:
    """The variant's label in the persona's language ("" when the product comes one way)."""
    return in_language(product["variants"][index]["label"], locale)


def item(product: dict, index: int, locale: str, currency: str, qty: int = 1) -> dict:
    """The order item of variant ``index`` of ``product`` (the module docstring's shape)."""
    v = product["variants"][index]
    return {
        "sku": v["sku"],
        "product_id": product["id"],
        "name": title(product, locale),
        "variant": variant_label(product, index, locale),
        "brand": product["brand"],
        "category": product["department"],
        "qty": qty,
        "price_cents": local_price(v["price_usd"], currency),
    }


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
    gifts = [
        p for p in catalogue() if p["gift"] and 2000 <= local_price(p["variants"][0]["price_usd"], currency) <= 9000
    ]
    return _pick(r, gifts, locale, currency)
