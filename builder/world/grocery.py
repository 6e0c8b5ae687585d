"""Basketful's catalogue and stores as the world sees them: what the persona's ``grocery_order`` events buy.

The catalogue, the stores and their prices are reference data (:mod:`builder.reference.grocery.catalogue`:
``products.json`` expanded from ``lines.yaml``, ``stores.yaml`` with four chains per locale). Every store stocks
every product at its own price (:func:`~builder.reference.grocery.catalogue.store_price`); the app's seed stores
the same prices, so every item of a world order is a product the order's store sells, at that store's price.

An order item (the ``items`` of a ``grocery_order``)::

    {"sku": "BK12345678", "name": <receipt name: title and size in the persona's language, "Oat milk 64 fl oz">,
     "brand": <brand, "" for loose produce>, "size": <label, "64 fl oz" / "1 l">, "qty": 1,
     "price_cents": <the store's price>}

The pantry (:class:`builder.world.orders.Pantry`) decides what runs out; each of its staples is the catalogue
product whose ``staple`` is that GROCERIES name. A basket sometimes carries one treat from the catalogue
(stream ``orders/grocery/extras``); the store of each order comes from stream ``orders/grocery/store`` (the
persona's usual store three times in four).

Fees (:func:`builder.reference.grocery.catalogue.fees`, the app charges the same): delivery 3.99 under 35.00,
free from 35.00; service 5 % of the subtotal (rounded half up); tip the persona's tipping percent capped at 15 %
(floored cents). Pickup has no delivery fee.
"""

from __future__ import annotations

from ..reference.grocery.catalogue import catalogue, stores, usual_store

TREAT_DEPARTMENTS = ("snacks", "bakery", "beverages", "produce", "frozen")
USUAL_STORE_SHARE = 0.75


def pick_store(r, seed: int, locale: str) -> str:
    """The chain of one order: the usual store with ``USUAL_STORE_SHARE``, else another (from ``r``)."""
    usual = usual_store(seed, locale)
    others = [s["key"] for s in stores(locale) if s["key"] != usual]
    return usual if r.random() < USUAL_STORE_SHARE else others[r.randrange(len(others))]


def treat(r) -> dict | None:
    """One impulse buy for a basket (three baskets in ten), from the TREAT_DEPARTMENTS, else None."""
    if r.random() >= 0.3:
        return None
    pool = [p for p in catalogue() if p["department"] in TREAT_DEPARTMENTS and not p["staple"]]
    return pool[r.randrange(len(pool))]
