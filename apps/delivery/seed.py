"""World -> rows of DashBite's database (``delivery.sqlite``).

What the seed writes, and the rules it keeps (tests and tasks depend on them):

* **Restaurants and menus**: ``builder.reference.delivery.catalogue.home_catalogue`` (the persona's home city, the usual
  restaurant and items in it), dish names and option labels in the persona's language.
* **Orders**: every world ``food_order`` up to now, verbatim (order id, restaurant, items with options and
  unit prices, subtotal, delivery and service fees, tip, total, delivery address, placed and delivered
  times as naive local ISO), ``status = 'delivered'``, ``world_ref`` = the event id; the tip percent is the
  persona's ``tipping_percent``; ``usual`` 1 for the usual order.
* **Ratings**: orders delivered more than ``RATED_AFTER_DAYS`` days before now were rated with chance 0.55
  (stream ``delivery/ratings``: 5 stars 70 %, 4 stars 22 %, 3 stars 8 %), ``rated_at`` 20-180 minutes after
  delivery, ``rated_in_app = 0``. Newer orders are unrated.
* **Promo codes** (:func:`promos`): a first-order code, an amount off above a minimum, free delivery, and one
  that expired; dates relative to the world's now, amounts in the persona's currency.
* **Addresses**: Home (the default) and Work from the spec (Zuhause, Arbeit for a de persona: ``data/words.yaml``); **cards** ``builder.world.accounts.payment_cards``
  (the first is the default); the user's default tip is ``preferences.tipping_percent``.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from pathlib import Path

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile, yamlfile
from builder.reference.locale import in_language
from builder.rng import rng
from builder.reference.delivery import catalogue as delivery
from builder.world import World
from builder.world import payment_cards
from builder.reference.addresses import format_address

from . import models as m

HERE = Path(__file__).resolve().parent
DOMAIN = "dashbite.test"
RATED_AFTER_DAYS = 7


@functools.cache
def _words() -> dict:
    """data/words.yaml: language -> ``{"addresses": {"home", "work"}, "comments": {stars: [comment, ...]}}``."""
    return yamlfile.safe_load((HERE / "data" / "words.yaml").read_text(encoding="utf-8"))


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (see builder.appkit)."""
    return appkit.credentials(world, "delivery")


def food_orders(world: World) -> list:
    """The world's food orders up to now (``status == "done"``), in timeline order: the app's history."""
    return [e for e in world.of_kind("food_order") if e.status == "done"]


def naive(iso: str) -> str:
    """``2025-05-19T20:36:00-07:00`` -> ``2025-05-19T20:36:00`` (the local wall clock)."""
    return iso[:19]


def scale(world: World, usd_cents: int) -> int:
    """A promo amount in the persona's currency (whole units: 5.00 USD is 4.00 GBP or 4.00 EUR)."""
    factor = {"GBP": 0.8, "EUR": 0.8}.get(world.currency, 1.0)
    return max(100, round(usd_cents * factor / 100) * 100)


def promos(world: World) -> list[dict]:
    """DashBite's promo codes for the persona (rows of ``promos``), dates around the world's now."""
    now = world.now.replace(microsecond=0)
    day = lambda n: (now + dt.timedelta(days=n)).replace(hour=23, minute=59, second=0).isoformat()
    return [
        {
            "code": "WELCOME20",
            "kind": "percent",
            "value": 20,
            "max_off_cents": scale(world, 1000),
            "min_subtotal_cents": scale(world, 1500),
            "starts_at": day(-800),
            "expires_at": day(365),
            "first_order_only": 1,
            "description": "20% off your first order",
        },
        {
            "code": "SAVE5",
            "kind": "amount",
            "value": scale(world, 500),
            "max_off_cents": scale(world, 500),
            "min_subtotal_cents": scale(world, 2500),
            "starts_at": day(-10),
            "expires_at": day(21),
            "first_order_only": 0,
            "description": "Off any order over the minimum",
        },
        {
            "code": "FREEDEL",
            "kind": "free_delivery",
            "value": 0,
            "max_off_cents": 0,
            "min_subtotal_cents": scale(world, 1500),
            "starts_at": day(-3),
            "expires_at": day(6),
            "first_order_only": 0,
            "description": "Free delivery this week",
        },
        {
            "code": "HARVEST10",
            "kind": "percent",
            "value": 10,
            "max_off_cents": scale(world, 800),
            "min_subtotal_cents": scale(world, 2000),
            "starts_at": day(-60),
            "expires_at": day(-12),
            "first_order_only": 0,
            "description": "10% off autumn favourites",
        },
    ]


def _localised(group: dict, locale: str) -> dict:
    return {
        "key": group["key"],
        "label": in_language(group["label"], locale),
        "pick": group["pick"],
        "max": group["max"],
        "choices": [
            {"id": c["id"], "label": in_language(c["label"], locale), "price_cents": c["price_cents"]}
            for c in group["choices"]
        ],
    }


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as DashBite's database for ``world`` and return it.

    Written through :mod:`builder.dbfile`, so the bytes depend only on the world. Raises ``FileExistsError``
    if ``path`` exists and ``ValueError`` if a world order names a restaurant or dish the catalogue lacks.
    """
    p = world.persona
    ident = p.identity
    words = in_language(_words(), p.bank)
    creds = credentials(world)
    catalogue = delivery.home_catalogue(p)
    cards = payment_cards(world)
    card_id = {c["account"]: i for i, c in enumerate(cards, start=1)}
    orders = food_orders(world)
    r_rate = rng(world.seed, "delivery/ratings")
    engine = dbfile.create(path, m.Base.metadata)
    with OrmSession(engine) as db:
        first = orders[0].at.date() if orders else world.start.date()
        db.add(
            m.User(
                id=1,
                username=creds["username"],
                full_name=ident.name,
                email=ident.email or "",
                phone=ident.phone or "",
                tip_percent=p.preferences.tipping_percent,
                member_since=(
                    first - dt.timedelta(days=rng(world.seed, "delivery/member").randint(20, 300))
                ).isoformat(),
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, "delivery")),
            )
        )
        db.add(
            m.Session(
                token=creds["session_token"],
                user_id=1,
                created_at=world.now.isoformat(),
                expires_at=appkit.session_expiry(world),
            )
        )
        for i, c in enumerate(cards, start=1):
            db.add(
                m.Card(
                    id=i,
                    account=c["account"],
                    brand=c["brand"],
                    last4=c["last4"],
                    holder=c["holder"],
                    expiry=c["expiry"],
                    label=c["label"],
                    is_default=int(i == 1),
                )
            )
        home = format_address(ident.address)
        db.add(
            m.Address(
                id=1, label=words["addresses"]["home"], line=home, instructions="", is_default=1, world_ref="seed:home"
            )
        )
        if p.work and p.work.office_address:
            db.add(
                m.Address(
                    id=2,
                    label=words["addresses"]["work"],
                    line=format_address(p.work.office_address),
                    instructions="",
                    is_default=0,
                    world_ref="seed:work",
                )
            )
        rest_id, dish_rows = {}, {}
        item_id = 0
        for i, x in enumerate(catalogue, start=1):
            rest_id[x["name"]] = i
            db.add(
                m.Restaurant(
                    id=i,
                    slug=x["id"],
                    name=x["name"],
                    cuisine=x["cuisine"],
                    neighbourhood=x["neighbourhood"],
                    address=x["address"],
                    delivery_fee_cents=x["delivery_fee_cents"],
                    minimum_cents=x["minimum_cents"],
                    small_order_fee_cents=x["small_order_fee_cents"],
                    prep_min=x["prep_minutes"][0],
                    prep_max=x["prep_minutes"][1],
                    rating_x10=x["rating_x10"],
                    rating_count=x["rating_count"],
                    price_level=x["price_level"],
                    opens=x["opens"],
                    closes=x["closes"],
                    usual=int(x["usual"]),
                )
            )
            for k, d in enumerate(x["menu"]):
                item_id += 1
                name = delivery.dish_name(d, p.bank)
                dish_rows[(x["name"], d["id"])] = dish_rows[(x["name"], name)] = item_id
                db.add(
                    m.MenuItem(
                        id=item_id,
                        dish_id=d["id"],
                        restaurant_id=i,
                        section=d["section"],
                        name=name,
                        price_cents=d["price_cents"],
                        popular=int(d["popular"]),
                        options_json=json.dumps([_localised(g, p.bank) for g in d["options"]], ensure_ascii=False),
                        position=k + 1,
                    )
                )
        db.flush()
        rated_before = world.now - dt.timedelta(days=RATED_AFTER_DAYS)
        line_id = 0
        for i, e in enumerate(orders, start=1):
            d = e.data
            if d["restaurant"] not in rest_id:
                raise ValueError(f"food order {d['order_id']}: DashBite lists no {d['restaurant']!r}")
            delivered = naive(d["delivered_local"])
            rating = rated_at = comment = None
            u, v, minutes = r_rate.random(), r_rate.random(), r_rate.randint(20, 180)
            if e.at < rated_before and u < 0.55:
                rating = 5 if v < 0.70 else 4 if v < 0.92 else 3
                texts = words["comments"][rating]
                comment = texts[r_rate.randrange(len(texts))] if r_rate.random() < 0.5 else ""
                rated_at = (dt.datetime.fromisoformat(delivered) + dt.timedelta(minutes=minutes)).isoformat()
            db.add(
                m.Order(
                    id=i,
                    order_id=d["order_id"],
                    restaurant_id=rest_id[d["restaurant"]],
                    restaurant_name=d["restaurant"],
                    status="delivered",
                    placed_at=naive(d["placed_local"]),
                    scheduled_for=None,
                    eta_at=delivered,
                    delivered_at=delivered,
                    address=d["delivery_address"],
                    dropoff_instructions="",
                    subtotal_cents=d["subtotal_cents"],
                    discount_cents=0,
                    promo_code=None,
                    delivery_fee_cents=d["delivery_fee_cents"],
                    service_fee_cents=d["service_fee_cents"],
                    small_order_fee_cents=0,
                    tip_cents=d["tip_cents"],
                    tip_percent=p.preferences.tipping_percent,
                    total_cents=d["total_cents"],
                    card_id=card_id.get(d["account"], 1),
                    charge_auth=None,
                    usual=int(bool(d.get("usual"))),
                    reorder_of=None,
                    rating=rating,
                    rating_comment=comment,
                    rated_at=rated_at,
                    rated_in_app=0,
                    world_ref=e.id,
                )
            )
            for k, it in enumerate(d["items"], start=1):
                line_id += 1
                key = (d["restaurant"], it.get("dish_id") or it["name"])
                if key not in dish_rows:
                    raise ValueError(f"food order {d['order_id']}: {d['restaurant']} lists no {it['name']!r}")
                db.add(
                    m.OrderItem(
                        id=line_id,
                        order_id=i,
                        position=k,
                        menu_item_id=dish_rows[key],
                        name=it["name"],
                        qty=it["qty"],
                        unit_price_cents=it["price_cents"],
                        options_json=json.dumps(it.get("options", []), ensure_ascii=False),
                        option_ids=json.dumps(it.get("option_ids", [])),
                        special_instructions="",
                    )
                )
        for x in promos(world):
            db.add(m.Promo(**x))
        city = ident.address.city if ident.address else ""
        for key, value in appkit.meta_rows(
            world,
            city=city,
            seed=str(world.seed),
            user_name=ident.name,
            country=ident.address.country if ident.address else "US",
        ).items():
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path


# --- layer hooks ------------------------------------------------------------------------------------


def bookmarks(world: World) -> list[dict]:
    """DashBite in the Firefox bookmarks menu: ``[{"title", "url", "folder"}]``."""
    return [{"title": "DashBite", "url": f"http://{DOMAIN}/", "folder": "menu/Food"}]


def visits(world: World) -> list[dict]:
    """History visits on DashBite's real pages for the orders of the last 90 days: the home page a few minutes
    before the order, the restaurant's page, and the order's tracking page just after.
    ``{"url", "title", "at": naive local, "transition"}``, at or before ``world.now``, sorted; stream
    ``delivery/visits``. Order pages are ``/orders/<n>``: the n-th world order (the seed's row id)."""
    r = rng(world.seed, "delivery/visits")
    catalogue = {x["name"]: x for x in delivery.home_catalogue(world.persona)}
    out = []
    for n, e in enumerate(food_orders(world), start=1):
        if e.at < world.now - dt.timedelta(days=90):
            continue
        place = catalogue[e.data["restaurant"]]
        out.append(
            {
                "url": f"http://{DOMAIN}/",
                "title": "Restaurants near you · DashBite",
                "at": e.at - dt.timedelta(minutes=r.randint(4, 12)),
                "transition": "typed",
            }
        )
        out.append(
            {
                "url": f"http://{DOMAIN}/store/{place['id']}",
                "title": f"{place['name']} · DashBite",
                "at": e.at - dt.timedelta(minutes=r.randint(1, 3)),
                "transition": "link",
            }
        )
        out.append(
            {
                "url": f"http://{DOMAIN}/orders/{n}",
                "title": f"Order {e.data['order_id']} · DashBite",
                "at": e.at + dt.timedelta(minutes=r.randint(1, 20)),
                "transition": "link",
            }
        )
    return sorted((v for v in out if v["at"] <= world.now), key=lambda v: (v["at"], v["url"]))
