"""Shopwell's catalogue and prices: what the world's ``retail_order`` events buy and the shop's seed lists.

The products are ``products.json`` of this folder (:func:`builder.reference.retail.products`); the world's orders
(:mod:`builder.world.retail`) and the shop's seed both read them through these, so every item of a world order
is a product variant Shopwell sells, with the same name, variant and price. An order item's shape (:func:`item`)
is :mod:`builder.world.retail`'s docstring. The catalogue holds US list prices; :func:`local_price` turns them into
the persona's currency (a pound or a euro buys a little more, and the price still ends in .99); :func:`shipping`
is the shop's shipping rule.
"""

from __future__ import annotations

import functools

from .. import retail as reference_retail
from .. import prices
from ..locale import in_language

# A pound or a euro buys a little more than a dollar on a shelf (a $49.99 item is £42.99 or 47,99 €).
PRICE_FACTOR = {"USD": 1.0, "GBP": 0.86, "EUR": 0.96}
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
    """A US list price (cents) in ``currency`` (cents), ending in .99 like a shop price; a currency without a
    factor here at the exchange rate, to its precision (:func:`builder.reference.prices.local`)."""
    return prices.local(usd_cents, currency, PRICE_FACTOR, _shop)


def _shop(value: float) -> int:
    """A shop price (cents) ending in .99."""
    return max(1, round(value / 100)) * 100 - 1


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
