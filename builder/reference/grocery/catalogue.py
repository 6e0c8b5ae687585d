"""Basketful's catalogue, stores and prices: what the world's ``grocery_order`` events buy and the app's seed lists.

The catalogue is ``products.json`` of this folder (expanded from ``lines.yaml`` by ``generate.py``), the stores
``stores.yaml`` (four chains per locale). Every store stocks every product at its own price (:func:`store_price`);
the world's orders (:mod:`builder.world.grocery`) and the app's seed both price through these, so every item of a
world order is a product the order's store sells, at that store's price. An order item's shape
(:func:`item`) is :mod:`builder.world.grocery`'s docstring.

Fees (:func:`fees`, the app charges the same): delivery 3.99 under 35.00, free from 35.00; service 5 % of the
subtotal (rounded half up); tip the persona's tipping percent capped at 15 % (floored cents). Pickup has no
delivery fee. Nothing here draws from a stream: the usual store is a CRC-32 of the world's seed.
"""

from __future__ import annotations

import functools
import zlib

from .. import grocery as reference_grocery
from ...money import floor_unit, to_unit
from .. import prices
from ..locale import in_locale

# A pound or euro buys a little more on a grocery shelf (so £1.59 bananas do not appear); any other currency is
# priced at the exchange rate (builder.reference.prices).
PRICE_FACTOR = {"USD": 1.0, "GBP": 0.78, "EUR": 0.85}
DELIVERY_FEE_CENTS = 399
FREE_DELIVERY_FROM_CENTS = 3500
SERVICE_PERCENT = 5
TIP_CAP_PERCENT = 15


@functools.lru_cache(maxsize=1)
def catalogue() -> tuple[dict, ...]:
    """Every grocery product (:func:`builder.reference.grocery.products`), sorted by id. Raises
    ``FileNotFoundError`` if products.json is missing (run ``python -m builder.reference.grocery.generate``)."""
    return reference_grocery.products()


@functools.lru_cache(maxsize=1)
def by_id() -> dict[str, dict]:
    """Product id -> product."""
    return {p["id"]: p for p in catalogue()}


@functools.lru_cache(maxsize=1)
def by_staple() -> dict[str, dict]:
    """GROCERIES US name -> the catalogue product that is that staple."""
    return {p["staple"]: p for p in catalogue() if p["staple"]}


@functools.lru_cache(maxsize=1)
def departments() -> tuple[dict, ...]:
    """``departments.json`` of the reference: ``[{"key", "name": {locale: str}, "aisles": [{"key", "name"}]}]``."""
    return reference_grocery.departments()


@functools.lru_cache(maxsize=4)
def stores(locale: str) -> tuple[dict, ...]:
    """The chains of ``locale`` (en_US, en_GB, de_DE; others read en_US) from stores.yaml: ``[{"key", "name",
    "tagline", "factor", "spread", "open", "close", "radius", "pickup", "colour"}]``."""
    data = reference_grocery.stores()
    return tuple(data.get(locale) or data["en_US"])


def title(product: dict, locale: str) -> str:
    """The product's name in the persona's language, without its brand (the app shows the brand above it)."""
    return in_locale(product["title"], locale)


def receipt_name(product: dict, locale: str) -> str:
    """The name a receipt line gives: the title and the size (``"Oat milk 64 fl oz"``), the title alone when
    it counts its pieces already (``"Hass avocados (4)"``) or the product is sold by the piece (``1 ea``)."""
    name, size = title(product, locale), size_label(product, locale)
    unit = product["measure"]["us"][1]
    if (unit == "ct" and name.endswith(")")) or product["size"]["us"] == "1 ea":
        return name
    return f"{name} {size}"


def size_label(product: dict, locale: str) -> str:
    """The label's size: US units for en_US, metric elsewhere (a decimal comma in German): the locale's shelf
    (:func:`builder.reference.grocery.shelf`)."""
    tag = reference_grocery.shelf(locale)
    return product["size"][tag["measure"]].replace(".", tag["decimal"])


def list_price(product: dict, currency: str) -> int:
    """The product's list price in ``currency`` (cents, ending in 9)."""
    return prices.local(product["price_usd"], currency, PRICE_FACTOR, _shelf)


def _shelf(value: float) -> int:
    """A shelf price (cents) ending in 9, at least 0.49."""
    return max(49, int(value) // 10 * 10 + 9)


def store_price(product: dict, store_key: str, currency: str, locale: str) -> int:
    """The price of ``product`` at chain ``store_key`` of ``locale`` (cents): the list price times the chain's
    ``factor``, moved by up to ``spread`` percent by a CRC-32 of ``<store>/<product id>``, ending in 9. Raises
    ``KeyError`` for an unknown chain."""
    chain = {s["key"]: s for s in stores(locale)}[store_key]
    spread = chain["spread"]
    wobble = (zlib.crc32(f"{store_key}/{product['id']}".encode()) % (2 * spread + 1)) - spread
    value = list_price(product, currency) * (chain["factor"] + wobble) / 100
    return _shelf(value) if currency in PRICE_FACTOR else to_unit(value, currency)


def unit_price(product: dict, price_cents: int, locale: str) -> tuple[float, str]:
    """(price per unit in cents, unit) as a shelf tag shows it: per oz / fl oz / ct in the US; in Germany per
    kg / l (the Grundpreis) or per item; in the UK per kg / l from 1 kg / 1 l, per 100 g / 100 ml below."""
    tag = reference_grocery.shelf(locale)
    amount, unit = product["measure"][tag["measure"]]
    for start, per, label in tag["unit_price"].get(unit, ()):
        if amount >= start:
            return price_cents / amount * per, label
    return price_cents / amount, unit


def item(product: dict, store_key: str, locale: str, currency: str, qty: int = 1) -> dict:
    """The order item of ``product`` bought at ``store_key`` (the module docstring's shape)."""
    return {
        "sku": product["id"],
        "name": receipt_name(product, locale),
        "brand": product["brand"],
        "size": size_label(product, locale),
        "qty": qty,
        "price_cents": store_price(product, store_key, currency, locale),
    }


def usual_store(seed: int, locale: str) -> str:
    """The chain the persona shops at most (a CRC-32 of the seed picks it, so it is stable per world)."""
    chains = stores(locale)
    return chains[zlib.crc32(f"{seed}/grocery/usual".encode()) % len(chains)]["key"]


def fees(subtotal_cents: int, tipping_percent: int, pickup: bool = False, currency: str = "USD") -> dict[str, int]:
    """``{"delivery_fee_cents", "service_fee_cents", "tip_cents"}`` of a basket (module docstring rules; fees and
    thresholds written in dollars are the same numbers in pounds and euros, at the exchange rate in any other
    ``currency``: :func:`builder.reference.prices.figure`)."""
    free_from = prices.figure(FREE_DELIVERY_FROM_CENTS, currency)
    delivery = 0 if pickup or subtotal_cents >= free_from else prices.figure(DELIVERY_FEE_CENTS, currency)
    return {
        "delivery_fee_cents": delivery,
        "service_fee_cents": to_unit((subtotal_cents * SERVICE_PERCENT + 50) // 100, currency),
        "tip_cents": 0
        if pickup
        else floor_unit(subtotal_cents * min(tipping_percent, TIP_CAP_PERCENT) // 100, currency),
    }
