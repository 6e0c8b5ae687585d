"""DashBite's restaurants as the world sees them: what the persona's ``food_order`` events order.

The catalogue lives in ``builder/reference/delivery/``: ``cuisines.yaml`` (naming grammar and dishes per cuisine),
``options.yaml`` (item options), ``cities.yaml`` (neighbourhoods, streets, price level, fees); it is expanded
by :func:`builder.reference.delivery.catalogue.generate_city` into ``restaurants.json``
(``python -m builder.reference.delivery.generate``), which holds
every shipped persona's home city with the persona's usual restaurant and items. The world's orders and the app's
seed read the same restaurants (:func:`builder.reference.delivery.catalogue.home_catalogue`; the fees are its
:func:`~builder.reference.delivery.catalogue.fees`), so every item of a world order is a dish DashBite lists, at
its price, with options it offers.

A restaurant (dict)::

    {"id": "siam-kitchen", "name": "Siam Kitchen", "cuisine": "Thai", "city": "Portland",
     "neighbourhood": "Hawthorne", "address": "3412 SE Hawthorne Blvd, Portland, OR 97214",
     "delivery_fee_cents": 199, "minimum_cents": 1200, "small_order_fee_cents": 250,
     "prep_minutes": [15, 25], "rating_x10": 46, "rating_count": 1830, "price_level": 2,
     "opens": "11:00", "closes": "22:00", "usual": False,
     "menu": [{"id": "siam-kitchen-3", "section": "mains", "name": {"en": ..., "de": ...},
               "price_cents": 1595, "popular": True,
               "options": [{"key": "spice", "label": {"en", "de"}, "pick": "one" | "many", "max": 1,
                            "choices": [{"id": "mild", "label": {"en", "de"}, "price_cents": 0}, ...]}]}]}

An order item (the ``items`` of a ``food_order``)::

    {"dish_id": "siam-kitchen-3", "name": <dish name in the persona's language>, "qty": 1,
     "options": [<choice labels in the persona's language>], "option_ids": ["spice:hot"],
     "price_cents": <unit price: dish + options>}

Money is integer cents of the city's currency. Every draw comes from the caller's stream or from the named
streams ``delivery/catalog/<city>`` (the catalogue, seed 0) and ``delivery/favourites`` (the persona's places).
"""

from __future__ import annotations

from ..reference.delivery.catalogue import dish_name
from ..reference.locale import in_language


def favourites(sim, restaurants: list[dict]) -> list[dict]:
    """The persona's places for non-usual orders (stream ``delivery/favourites``): two restaurants of each
    persona cuisine (``preferences.cuisines``, else American) that the city lists, never the usual one; all
    non-usual restaurants when none match."""
    p = sim.persona
    r = sim.rng("delivery/favourites")
    out = []
    for cuisine in p.preferences.cuisines or ["American"]:
        listed = [x for x in restaurants if x["cuisine"] == cuisine.strip().title() and not x["usual"]]
        out += r.sample(listed, min(2, len(listed)))
    return out or [x for x in restaurants if not x["usual"]]


def _item(r, dish: dict, locale: str) -> dict:
    labels, ids, price = [], [], dish["price_cents"]
    for o in dish["options"]:
        if o["pick"] == "one":
            c = o["choices"][0] if r.random() < 0.6 else o["choices"][r.randrange(len(o["choices"]))]
            picked = [c]
        else:
            picked = [o["choices"][r.randrange(len(o["choices"]))]] if r.random() < 0.25 else []
        for c in picked:
            labels.append(in_language(c["label"], locale))
            ids.append(f"{o['key']}:{c['id']}")
            price += c["price_cents"]
    return {
        "dish_id": dish["id"],
        "name": dish_name(dish, locale),
        "qty": 2 if r.random() < 0.12 else 1,
        "options": labels,
        "option_ids": ids,
        "price_cents": price,
    }


def draw_items(r, restaurant: dict, locale: str) -> list[dict]:
    """A basket at ``restaurant`` (draws from ``r``): one or two mains and up to two starters, sides, desserts or
    drinks, distinct dishes, topped up with a side or starter until the subtotal reaches the minimum."""
    menu = restaurant["menu"]
    mains = [d for d in menu if d["section"] == "mains"] or menu
    rest = [d for d in menu if d not in mains]
    picks = r.sample(mains, min(len(mains), r.choices([1, 2], [6, 4])[0]))
    picks += r.sample(rest, min(len(rest), r.choices([0, 1, 2], [2, 5, 3])[0]))
    items = [_item(r, d, locale) for d in sorted(picks, key=menu.index)]
    left = [d for d in menu if d not in picks]
    while sum(x["qty"] * x["price_cents"] for x in items) < restaurant["minimum_cents"] and left:
        d = left.pop(r.randrange(len(left)))
        items.append(_item(r, d, locale))
    return items
