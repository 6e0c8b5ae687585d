"""Shopwell's catalogue and prices: what the world's ``retail_order`` events buy and the shop's seed lists.

The products are ``products.json`` of this folder (:func:`builder.reference.retail.products`); the world's orders
(:mod:`builder.world.retail`) and the shop's seed both read them through these, so every item of a world order
is a product variant Shopwell sells, with the same name, variant and price. An order item's shape (:func:`item`)
is :mod:`builder.world.retail`'s docstring. The catalogue holds US list prices; :func:`local_price` turns them into
the persona's currency (a pound or a euro buys a little more, and the price still ends in .99); :func:`shipping`
is the shop's shipping rule. An item a persona's spec names (``purchases``, ``wishlist``) is the product of that title
(:func:`product_named`) or else Shopwell's own listing of it (:func:`own_listing`, :func:`spec_item`).
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata

from ...names import ascii_slug
from .. import prices
from .. import retail as reference_retail
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


def _name_key(text: str) -> str:
    """How two product names compare for sameness (as :func:`builder.persona.model.name_key`): NFC, case-folded,
    inner spaces collapsed."""
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


@functools.lru_cache(maxsize=8)
def _titled(locale: str) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for product in catalogue():
        out.setdefault(_name_key(title(product, locale)), product)
    return out


def product_named(name: str, locale: str) -> dict | None:
    """The catalogue product whose title in ``locale`` (:func:`title`) is ``name``, compared case-insensitively with
    spaces collapsed (the lowest id when two share a title); None when the shop sells nothing of that name."""
    return _titled(locale).get(_name_key(name))


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


# The department a spec item goes to when its category names none (the shop's everyday-goods aisle).
OWN_DEPARTMENT = "household"
_BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def own_listing(name: str) -> dict[str, str]:
    """Shopwell's listing of an item its catalogue lacks, named ``name`` by the spec: ``{"product_id": "SP" + 8
    base-36 characters, "sku": product_id + "-1", "slug": the name's ASCII words (at most 60 characters) + "-" + the
    id's last 6 characters, lower case}``, all derived from ``name`` compared as names are
    (:func:`_name_key`), so "Trail Runner" and "trail  runner" are one listing."""
    digest = int.from_bytes(hashlib.sha256(f"retail/listing/{_name_key(name)}".encode()).digest()[:8], "big")
    code = ""
    for _ in range(8):
        digest, k = divmod(digest, 36)
        code += _BASE36[k]
    pid = "SP" + code
    words = ascii_slug(_name_key(name))[:60].strip("-")
    return {"product_id": pid, "sku": f"{pid}-1", "slug": f"{words}-{pid[-6:].lower()}" if words else pid.lower()}


def department_of(category: str | None) -> str | None:
    """The key of the shop department ``category`` names (its key, English or German name, any case), else None."""
    if not category:
        return None
    wanted = _name_key(category)
    for d in reference_retail.grammar()["departments"]:
        if wanted in {_name_key(d["key"]), *(_name_key(d[language]) for language in reference_retail.LANGUAGES)}:
            return d["key"]
    return None


def spec_item(
    name: str, price_cents: int, qty: int, category: str | None, locale: str, currency: str, *, listed: bool = False
) -> dict:
    """The order item (:func:`item`'s shape) of ``qty`` x ``name`` bought at ``price_cents`` each: the catalogue
    product of that title (its first variant, in ``locale`` and ``currency``; unless ``listed``), else
    :func:`own_listing` in the department ``category`` names (:data:`OWN_DEPARTMENT` when it names none). ``name``
    is kept as written, whichever product it is."""
    product = None if listed else product_named(name, locale)
    if product is not None:
        found = item(product, 0, locale, currency, qty)
        return {**found, "name": name, "price_cents": price_cents}
    own = own_listing(name)
    return {
        "sku": own["sku"],
        "product_id": own["product_id"],
        "name": name,
        "variant": "",
        "brand": "",
        "category": department_of(category) or OWN_DEPARTMENT,
        "qty": qty,
        "price_cents": price_cents,
    }


def english_title(order_item: dict) -> str:
    """The en_US title of an order item's product (what an English answer may name), the item's own name for a
    listing of the spec's (:func:`own_listing`)."""
    found = _by_id().get(order_item["product_id"])
    return found["title"]["en_US"] if found else order_item["name"]


@functools.lru_cache(maxsize=1)
def _by_id() -> dict[str, dict]:
    return {p["id"]: p for p in catalogue()}
