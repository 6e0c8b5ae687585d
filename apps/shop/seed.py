"""World -> rows of the Shopwell database (``shop.sqlite``).

The catalogue is ``builder/reference/retail/products.json`` (:mod:`builder.reference.retail`), stored in the persona's
language and currency; the shoppers' reviews and the product descriptions are drawn from the grammar of
``catalog/text.yaml`` (streams ``shop/reviews`` and ``shop/text``). The persona's orders are the world's
``retail_order`` events (items, quantities, prices, ship-to, carrier, tracking number, shipped and delivered
times), paid with the card on file of the event's account. Saved addresses: home, plus every present's
recipient. The persona reviewed some catalogue products of orders delivered more than 45 days before now. The
wish list is the spec's ``wishlist`` when it has one (exactly its items, in order; streams
``shop/wishlist/spec/<i>`` for the times), else four drawn products (stream ``shop/wishlist``). Items of the spec the
catalogue lacks (an order line of ``purchases``, a wish with a price) are Shopwell's own listings
(:func:`own_products`): one way, no brand, description or reviews, at the price last named.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from pathlib import Path

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile, yamlfile
from builder.money import cents
from builder.rng import rng
from builder.reference import locale as locales
from builder.reference import retail as reference_retail
from builder.reference.retail import catalogue as retail
from builder.world import World
from builder.world import payment_cards
from builder.reference.addresses import format_address

from . import models as m

APP = "shop"
SITE = "http://shopwell.test/"
RETURN_DAYS = 30
REVIEWED_AFTER_DAYS = 45
HERE = Path(__file__).resolve().parent
DEPARTMENT_ORDER = (
    "electronics",
    "home",
    "outdoor",
    "apparel",
    "beauty",
    "office",
    "toys",
    "books",
    "garden",
    "pets",
    "food",
    "household",
)


@functools.lru_cache(maxsize=1)
def text_grammar() -> dict:
    """catalog/text.yaml: description and review templates per language."""
    return yamlfile.safe_load((HERE / "catalog" / "text.yaml").read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=1)
def departments() -> dict[str, tuple[str, str]]:
    """Department key -> (English name, German name), from the catalogue grammar (:func:`builder.reference.retail.grammar`)."""
    g = reference_retail.grammar()
    return {d["key"]: tuple(d[language] for language in reference_retail.LANGUAGES) for d in g["departments"]}


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (builder.appkit)."""
    return appkit.credentials(world, APP)


def signed_in_text(world: World) -> str:
    """What the signed-in home page shows for sure: the persona's first name."""
    return world.persona.identity.name.split()[0]


def lang(world: World) -> str:
    """The persona's language if the catalogue is written in it ("de" for a German-speaking persona), else "en"."""
    language = locales.language(world.persona.bank)
    return language if language in reference_retail.LANGUAGES else locales.FALLBACK


def orders(world: World) -> list[dict]:
    """The persona's Shopwell orders from the world, in placement order: the ``retail_order`` event's data plus
    ``event`` (its id), ``placed_at``, ``shipped_at``, ``delivered_at`` (naive local ISO, seconds) and ``ship_name``
    (the persona, or the present's recipient)."""
    name = world.persona.identity.name
    out = []
    for e in world.of_kind("retail_order"):
        if e.status != "done":
            continue
        d = e.data
        out.append(
            {
                **d,
                "event": e.id,
                "placed_at": e.at.isoformat(),
                "shipped_at": d["shipped_local"][:19],
                "delivered_at": d["delivered_local"][:19],
                "ship_name": d.get("gift_for") or name,
            }
        )
    return out


def own_products(world: World) -> list[dict]:
    """Shopwell's own listings of the items the persona's spec names that its catalogue lacks
    (:func:`builder.reference.retail.catalogue.own_listing`): every product of a world order not in the catalogue, and every
    ``wishlist`` item with a price. Each ``{"product_id", "sku", "slug", "title", "department", "price_cents"}``,
    sorted by id: the title and department as first named (orders in placement order, then the wish list), the price
    the wish list's when it gives one, else the latest order's. Empty for a spec without such items."""
    known = {x["id"] for x in reference_retail.products()}
    out: dict[str, dict] = {}

    def add(it: dict) -> None:
        row = out.setdefault(
            it["product_id"],
            {
                **retail.own_listing(it["name"]),
                "title": it["name"],
                "department": it["category"],
            },
        )
        row["price_cents"] = it["price_cents"]

    for o in orders(world):
        for it in o["items"]:
            if it["product_id"] not in known:
                add(it)
    for it in wished_items(world):
        if it["product_id"] not in known:
            add(it)
    return [out[k] for k in sorted(out)]


def wished_items(world: World) -> list[dict]:
    """The spec's ``wishlist`` as order items (:func:`builder.reference.retail.catalogue.spec_item`, quantity 1): an item with a
    price is Shopwell's own listing at that price, one without the catalogue product of that title (the spec's
    validation ensures there is one), at the catalogue's price. Empty when the spec has no wish list."""
    p = world.persona
    out = []
    for wish in p.wishlist or []:
        if wish.price is not None:
            price = cents(wish.price, world.currency)
            out.append(retail.spec_item(wish.item, price, 1, wish.category, p.bank, world.currency, listed=True))
        else:
            product = retail.product_named(wish.item, p.bank)
            out.append(retail.item(product, 0, p.bank, world.currency))
    return out


def wished_at(world: World, added: dt.date | None, r) -> dt.datetime:
    """When a wish of the spec was added (naive local, whole minutes): a minute between 08:00 and 21:59 of ``added``,
    or of a day 5 to 120 days before now (not before the history's first) when the spec gives none; before now on
    now's day. Draws from ``r``."""
    now = world.now
    if added is None:
        added = max(now.date() - dt.timedelta(days=r.randint(5, 120)), world.start.date())
    at = dt.datetime.combine(added, dt.time(r.randint(8, 21), r.randint(0, 59)))
    return at if at < now else (now - dt.timedelta(minutes=r.randint(10, 90))).replace(second=0, microsecond=0)


def tracking_state(order: dict, now: dt.datetime) -> str:
    """'ordered', 'shipped' or 'delivered' of an order (``shipped_at``/``delivered_at`` naive local ISO) at ``now``."""
    if dt.datetime.fromisoformat(order["delivered_at"]) <= now:
        return "delivered"
    return "shipped" if dt.datetime.fromisoformat(order["shipped_at"]) <= now else "ordered"


def returnable_until(order: dict) -> dt.date:
    """The last day an order's items can be returned: ``RETURN_DAYS`` after delivery."""
    return dt.date.fromisoformat(order["delivered_at"][:10]) + dt.timedelta(days=RETURN_DAYS)


def bookmarks(world: World) -> list[dict[str, str]]:
    """A menu bookmark of the persona's Shopwell orders (when the world orders there)."""
    return (
        [{"title": "Your orders | Shopwell", "url": f"{SITE}orders", "folder": "menu/Shopping"}]
        if orders(world)
        else []
    )


def visits(world: World) -> list[dict]:
    """History visits on Shopwell's real pages: for each order the first item's product page a few minutes before
    it was placed and the order page a minute or two after, and the order page again on a day it was on its way
    (tracking). ``{"url", "title", "at": naive local, "transition"}``, at or before ``world.now``, sorted; draws from
    stream ``shop/visits``."""
    r = rng(world.seed, "shop/visits")
    slugs = {p["id"]: p["slug"] for p in reference_retail.products()}
    out = []
    for o in orders(world):
        placed = dt.datetime.fromisoformat(o["placed_at"])
        first = o["items"][0]
        slug = slugs.get(first["product_id"]) or retail.own_listing(first["name"])["slug"]
        out.append(
            {
                "url": f"{SITE}p/{slug}",
                "title": f"{first['name']} | Shopwell",
                "at": placed - dt.timedelta(minutes=r.randint(3, 25)),
                "transition": "link",
            }
        )
        title = f"Order {o['order_id']} | Shopwell"
        out.append(
            {
                "url": f"{SITE}orders/{o['order_id']}",
                "title": title,
                "at": placed + dt.timedelta(minutes=r.randint(1, 3)),
                "transition": "link",
            }
        )
        shipped = dt.datetime.fromisoformat(o["shipped_at"])
        out.append(
            {
                "url": f"{SITE}orders/{o['order_id']}",
                "title": title,
                "at": shipped + dt.timedelta(hours=r.randint(2, 20)),
                "transition": "typed",
            }
        )
    return sorted((v for v in out if v["at"] <= world.now), key=lambda v: (v["at"], v["url"]))


def form_history(world: World) -> list[dict]:
    """What the persona typed into Shopwell's search box (the ``q`` field): for each order, what its first item is
    called without its brand and model ("smart plug"; a book by its title), lower-cased as people type it, 20-40
    minutes before the order was placed. ``[{"field", "value", "at": naive local}]``, at or before ``world.now``;
    draws from stream ``shop/form-history``."""
    r = rng(world.seed, "shop/form-history")
    catalogue = {p["id"]: p for p in reference_retail.products()}
    out = []
    for o in orders(world):
        first = o["items"][0]
        term = first["name"]
        product = catalogue.get(first["product_id"])
        for prefix in ([f"{product['brand']} {product['model']} "] if product and product.get("model") else []) + [
            f"{first.get('brand') or ''} "
        ]:
            if prefix.strip() and term.startswith(prefix):
                term = term[len(prefix) :]
                break
        at = dt.datetime.fromisoformat(o["placed_at"]) - dt.timedelta(minutes=r.randint(20, 40))
        if at <= world.now:
            out.append({"field": "q", "value": term.lower(), "at": at})
    return out


def _uses(product: dict, language: str) -> list[str]:
    """Two things the product is used for (lines.yaml ``use``), the second "everyday use" when it lists one."""
    column = reference_retail.LANGUAGES.index(language)
    uses = [u[column] for u in product["use"]]
    everyday = text_grammar()["words"][language]["everyday"]
    return (uses + [everyday, everyday])[:2] if uses else [everyday, everyday]


def description(product: dict, language: str, r) -> str:
    """A product description from the templates of text.yaml in ``language`` ("en" | "de"), drawn from ``r``."""
    uses = _uses(product, language)
    template = r.choice(text_grammar()["description"][language])
    return template.format(use=uses[0], use2=uses[1], brand=product["brand"])


def review_text(product: dict, language: str, stars: int, r) -> tuple[str, str]:
    """(headline, body) of a ``stars`` review of ``product`` in ``language``, drawn from ``r``."""
    g = text_grammar()["reviews"][language]
    band = g["high"] if stars >= 4 else g["mid"] if stars == 3 else g["low"]
    uses = _uses(product, language)
    fill = {"use": uses[0], "use2": uses[1], "when": r.choice(g["when"])}
    body = " ".join(r.choice(band[k]).format(**fill) for k in ("opener", "detail", "closer"))
    return r.choice(band["headline"]), body


def _stars(r, rating_x10: int) -> int:
    """A reviewer's stars around the product's average."""
    x = r.random()
    if rating_x10 >= 45:
        return 5 if x < 0.7 else 4 if x < 0.93 else 3
    if rating_x10 >= 42:
        return 5 if x < 0.45 else 4 if x < 0.82 else 3 if x < 0.95 else 2
    return 5 if x < 0.3 else 4 if x < 0.6 else 3 if x < 0.82 else 2 if x < 0.94 else 1


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as the Shopwell database for ``world`` and return it.

    Byte-identical for the same world (builder.dbfile). Raises ``FileExistsError`` if ``path`` exists and
    ``KeyError`` if a world order names a sku the catalogue does not sell.
    """
    p = world.persona
    ident = p.identity
    cur = world.currency
    language = lang(world)
    column, words = reference_retail.LANGUAGES.index(language), text_grammar()["words"][language]
    engine = dbfile.create(path, m.Base.metadata)
    creds = credentials(world)
    now = world.now
    world_orders = orders(world)
    skus = retail.by_sku()
    with OrmSession(engine) as db:
        db.add(
            m.User(
                id=1,
                username=creds["username"],
                full_name=ident.name,
                email=ident.email,
                phone=ident.phone,
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, APP)),
            )
        )
        db.add(
            m.Session(
                token=creds["session_token"],
                user_id=1,
                created_at=now.isoformat(),
                expires_at=appkit.session_expiry(world),
            )
        )
        card_ids = {}
        for i, c in enumerate(payment_cards(world), start=1):
            card_ids[c["account"]] = i
            db.add(
                m.Card(
                    id=i,
                    user_id=1,
                    account=c["account"],
                    brand=c["brand"],
                    last4=c["last4"],
                    holder=c["holder"],
                    expiry=c["expiry"],
                    label=c["label"],
                    is_default=int(i == 1),
                )
            )
        home = format_address(ident.address) if ident.address else ""
        addresses = {(ident.name, home): 1}
        db.add(
            m.Address(
                id=1,
                user_id=1,
                label=words["home"],
                name=ident.name,
                line=home,
                is_default=1,
            )
        )
        for o in world_orders:
            key = (o["ship_name"], o["shipping_address"])
            if key not in addresses:
                addresses[key] = len(addresses) + 1
                db.add(
                    m.Address(
                        id=addresses[key],
                        user_id=1,
                        label=o["ship_name"],
                        name=o["ship_name"],
                        line=o["shipping_address"],
                        is_default=0,
                    )
                )
        names = departments()
        for pos, key in enumerate(DEPARTMENT_ORDER):
            db.add(m.Department(key=key, name=names[key][column], position=pos))
        text_r = rng(world.seed, "shop/text")
        rev_r = rng(world.seed, "shop/reviews")
        g = text_grammar()["reviews"][language]
        rid = 0
        catalogue = reference_retail.products()
        by_id = {x["id"]: x for x in catalogue}
        for prod in catalogue:
            prices = [retail.local_price(v["price_usd"], cur) for v in prod["variants"]]
            specs = [[s[column], s[2 + column]] for s in prod["specs"]]
            if prod.get("author"):
                specs.insert(0, [words["author"], prod["author"]])
            db.add(
                m.Product(
                    id=prod["id"],
                    slug=prod["slug"],
                    department=prod["department"],
                    line=prod["line"],
                    brand=prod["brand"],
                    title=retail.title(prod, p.bank),
                    author=prod.get("author"),
                    description=description(prod, language, text_r),
                    specs=json.dumps(specs, ensure_ascii=False),
                    rating_x10=prod["rating_x10"],
                    review_count=prod["review_count"],
                    gift=int(prod["gift"]),
                    subscribe=int(prod["subscribe"]),
                    min_price_cents=min(prices),
                )
            )
            for k, v in enumerate(prod["variants"]):
                db.add(
                    m.Variant(
                        sku=v["sku"],
                        product_id=prod["id"],
                        position=k,
                        label=retail.variant_label(prod, k, p.bank),
                        price_cents=prices[k],
                    )
                )
            for _ in range(min(prod["review_count"], 2 + rev_r.randint(0, 3))):
                stars = _stars(rev_r, prod["rating_x10"])
                headline, body = review_text(prod, language, stars, rev_r)
                rid += 1
                at = now - dt.timedelta(days=rev_r.randint(3, 700), minutes=rev_r.randint(0, 900))
                db.add(
                    m.Review(
                        id=rid,
                        product_id=prod["id"],
                        user_id=None,
                        author=f"{rev_r.choice(g['names'])} {rev_r.choice('ABCDEFGHKLMNPRSTW')}.",
                        rating=stars,
                        headline=headline,
                        body=body,
                        verified=int(rev_r.random() < 0.85),
                        created_at=at.replace(microsecond=0).isoformat(),
                        world_ref="seed:catalog",
                    )
                )
        # The spec's items the catalogue lacks: Shopwell's own listings, one way, no reviews yet.
        own = own_products(world)
        for x in own:
            db.add(
                m.Product(
                    id=x["product_id"],
                    slug=x["slug"],
                    department=x["department"],
                    line="",
                    brand="",
                    title=x["title"],
                    author=None,
                    description="",
                    specs="[]",
                    rating_x10=0,
                    review_count=0,
                    gift=0,
                    subscribe=0,
                    min_price_cents=x["price_cents"],
                )
            )
            db.add(
                m.Variant(sku=x["sku"], product_id=x["product_id"], position=0, label="", price_cents=x["price_cents"])
            )
        sold = set(skus) | {x["sku"] for x in own}
        # The persona's orders, and reviews of some delivered a while ago (catalogue products only).
        mine_r = rng(world.seed, "shop/my-reviews")
        first = ident.name.split()[0]
        last_initial = ident.name.split()[-1][0]
        reviewed: set[str] = set()
        item_id = 0
        for oid, o in enumerate(world_orders, start=1):
            db.add(
                m.Order(
                    id=oid,
                    order_number=o["order_id"],
                    user_id=1,
                    placed_at=o["placed_at"],
                    subtotal_cents=o["subtotal_cents"],
                    shipping_cents=o["shipping_cents"],
                    total_cents=o["total_cents"],
                    ship_name=o["ship_name"],
                    ship_address=o["shipping_address"],
                    card_id=card_ids.get(o["account"], 1),
                    authorization=None,
                    carrier=o["carrier"],
                    tracking_number=o["tracking_number"],
                    shipped_at=o["shipped_at"],
                    delivered_at=o["delivered_at"],
                    gift_for=o.get("gift_for"),
                    world_ref=o["event"],
                )
            )
            delivered = dt.datetime.fromisoformat(o["delivered_at"])
            for it in o["items"]:
                if it["sku"] not in sold:
                    raise KeyError(f"order {o['order_id']} names {it['sku']}, which Shopwell does not sell")
                item_id += 1
                db.add(
                    m.OrderItem(
                        id=item_id,
                        order_id=oid,
                        sku=it["sku"],
                        product_id=it["product_id"],
                        name=it["name"],
                        variant=it.get("variant", ""),
                        qty=it["qty"],
                        price_cents=it["price_cents"],
                    )
                )
                pid = it["product_id"]
                if (
                    (now - delivered).days > REVIEWED_AFTER_DAYS
                    and pid not in reviewed
                    and pid in by_id
                    and mine_r.random() < 0.25
                ):
                    reviewed.add(pid)
                    stars = mine_r.choice([4, 5, 5, 3])
                    headline, body = review_text(by_id[pid], language, stars, mine_r)
                    rid += 1
                    at = delivered + dt.timedelta(days=mine_r.randint(3, 20), hours=mine_r.randint(0, 5))
                    db.add(
                        m.Review(
                            id=rid,
                            product_id=pid,
                            user_id=1,
                            author=f"{first} {last_initial}.",
                            rating=stars,
                            headline=headline,
                            body=body,
                            verified=1,
                            created_at=at.isoformat(),
                            world_ref=f"seed:review/{o['event']}",
                        )
                    )
        if p.wishlist is not None:
            # The spec's wish list, exactly.
            for k, (wish, it) in enumerate(zip(p.wishlist, wished_items(world))):
                at = wished_at(world, wish.added, rng(world.seed, f"shop/wishlist/spec/{k}"))
                db.add(
                    m.WishlistItem(
                        user_id=1, product_id=it["product_id"], added_at=at.isoformat(), world_ref=f"spec:wishlist/{k}"
                    )
                )
        else:
            # A short wish list of things not bought yet.
            wish_r = rng(world.seed, "shop/wishlist")
            bought = {it["product_id"] for o in world_orders for it in o["items"]}
            candidates = [
                x["id"]
                for x in catalogue
                if x["id"] not in bought and x["department"] in ("outdoor", "home", "electronics", "books")
            ]
            for k, pid in enumerate(sorted(wish_r.sample(candidates, 4))):
                at = now - dt.timedelta(days=wish_r.randint(5, 120), minutes=wish_r.randint(0, 600))
                db.add(
                    m.WishlistItem(user_id=1, product_id=pid, added_at=at.isoformat(), world_ref=f"seed:wishlist/{k}")
                )
        for key, value in appkit.meta_rows(world, user_name=ident.name).items():
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path
