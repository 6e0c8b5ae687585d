"""World -> rows of Basketful's database (``grocery.sqlite``).

What the seed writes, and the rules it keeps (tests and tasks depend on them):

* **Catalogue**: every product of ``builder/reference/grocery/products.json`` (:mod:`builder.reference.grocery`) in the
  persona's language and units, its departments and aisles; **stores**: the four chains of the persona's locale
  (``builder/reference/grocery/stores.yaml``), each a branch in the home city at an address from stream ``grocery/stores``; every
  store prices every product by :func:`builder.reference.grocery.catalogue.store_price`.
* **Orders**: every world ``grocery_order`` verbatim (order id, store, items with sku, size, qty and price, the
  name as the shelf says it (the world's receipt name is that title and the size), subtotal, fees, tip, total,
  window, address, card), ``status`` ``delivered``, ``world_ref`` the event
  id; items keep ``best_match`` substitution.
* **Windows**: two-hour delivery windows (and pickup windows where the store offers pickup) from the store's
  opening to its close for today and the next 6 days (local), capacity 2-5 (stream ``grocery/windows``);
  other shoppers already hold some seats (``world_ref`` ``seed:others``), and one delivery window of the usual
  store on the day after today is full.
* **Lists**: "Weekly staples": the five products the world's orders bought most often (ties by name), qty 1.
* **Cards on file**: ``builder.world.accounts.payment_cards``; the first is the default.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile, yamlfile
from builder.rng import faker, rng
from builder.reference import grocery as reference_grocery
from builder.reference import prices
from builder.reference.locale import in_language, in_locale
from builder.reference.grocery import catalogue as grocery
from builder.world import World
from builder.world import payment_cards
from builder.reference.locale import distance_unit
from builder.reference.addresses import format_address, street_address

from . import models as m

HERE = Path(__file__).resolve().parent
DOMAIN = "basketful.test"
WINDOW_DAYS = 7
STAPLES_LIST = "Weekly staples"


def signed_in_text(world: World) -> str:
    """What the signed-in store picker greets with (the image's sign-in probe): ``Hi Dana,`` / ``Hallo Jana,``."""
    first = world.persona.identity.name.split(" ")[0]
    words = in_language(
        yamlfile.safe_load((HERE / "data" / "words.yaml").read_text(encoding="utf-8")), world.persona.bank
    )
    return words["greeting"].format(first=first)


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (see builder.appkit)."""
    return appkit.credentials(world, "grocery")


def world_orders(world: World) -> list:
    """The world's grocery orders up to now (``status == "done"``), in timeline order: the app's history."""
    return [e for e in world.of_kind("grocery_order") if e.status == "done"]


def _naive(iso: str) -> str:
    return iso[:19]


def _unit(product: dict, locale: str) -> tuple[str, float]:
    """(unit label, units in the package): unit price = price / units (builder.reference.grocery.catalogue.unit_price)."""
    per, label = grocery.unit_price(product, 1_000_000, locale)
    return label, 1_000_000 / per


def stores(world: World) -> list[dict]:
    """The branches in the home city: ``[{"key", "name", "tagline", "address", "city", "opens", "closes",
    "radius", "radius_unit", "pickup", "colour", "position"}]`` (stream ``grocery/stores`` for addresses)."""
    home = world.persona.identity.address
    fake = faker(world.seed, "grocery/stores", world.persona.bank)
    out = []
    for i, c in enumerate(grocery.stores(world.persona.bank), start=1):
        out.append(
            {
                "key": c["key"],
                "name": c["name"],
                "tagline": c["tagline"],
                "address": street_address(fake, home),
                "city": home.city if home else "",
                "opens": c["open"],
                "closes": c["close"],
                "radius": c["radius"],
                "radius_unit": distance_unit(world.persona.bank, home.country if home else None),
                "pickup": int(c["pickup"]),
                "colour": c["colour"],
                "position": i,
            }
        )
    return out


def staples(world: World, n: int = 5) -> list[str]:
    """The ``n`` product ids the world's orders bought most often (then by name)."""
    count: Counter = Counter()
    names = {}
    for e in world_orders(world):
        for x in e.data["items"]:
            count[x["sku"]] += 1
            names[x["sku"]] = x["name"]
    return [k for k, _ in sorted(count.items(), key=lambda kv: (-kv[1], names[kv[0]]))[:n]]


def windows(world: World, store_rows: list[dict]) -> list[dict]:
    """The windows from today to today + 6: ``[{"store", "kind", "starts_at", "ends_at", "capacity", "taken"}]``
    (``taken`` seats other shoppers hold; stream ``grocery/windows``)."""
    r = rng(world.seed, "grocery/windows")
    today = world.now.date()
    usual = grocery.usual_store(world.seed, world.persona.bank)
    out = []
    for s in store_rows:
        lo = int(s["opens"][:2]) + 1
        hi = min(int(s["closes"][:2]), 22)
        for k in range(WINDOW_DAYS):
            day = today + dt.timedelta(days=k)
            for kind in ("delivery", "pickup") if s["pickup"] else ("delivery",):
                for h in range(lo, hi - 1, 2):
                    start = dt.datetime.combine(day, dt.time(h, 0))
                    cap = r.randint(2, 5) if kind == "delivery" else r.randint(4, 8)
                    taken = min(cap, r.choices([0, 1, 2, cap], [5, 3, 2, 1])[0])
                    if s["key"] == usual and kind == "delivery" and k == 1 and h == lo + 8:
                        taken = cap
                    out.append(
                        {
                            "store": s["key"],
                            "kind": kind,
                            "starts_at": start.isoformat(),
                            "ends_at": (start + dt.timedelta(hours=2)).isoformat(),
                            "capacity": cap,
                            "taken": taken,
                        }
                    )
    return out


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as Basketful's database for ``world`` and return it.

    Written through :mod:`builder.dbfile`, so the bytes depend only on the world. Raises ``FileExistsError``
    if ``path`` exists, ``KeyError`` if a world order names a product or store the catalogue lacks.
    """
    p = world.persona
    ident = p.identity
    locale, currency = p.bank, world.currency
    creds = credentials(world)
    cards = payment_cards(world)
    card_id = {c["account"]: i for i, c in enumerate(cards, start=1)}
    orders = world_orders(world)
    store_rows = stores(world)
    store_id = {s["key"]: s["position"] for s in store_rows}
    home = format_address(ident.address) if ident.address else ""
    r_user = rng(world.seed, "grocery/shopper")
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
                address=home,
                member_since=(first - dt.timedelta(days=r_user.randint(20, 300))).isoformat(),
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, "grocery")),
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
        for i, d in enumerate(reference_grocery.departments(), start=1):
            db.add(m.Department(key=d["key"], name=in_locale(d["name"], locale), position=i))
            for j, a in enumerate(d["aisles"], start=1):
                db.add(
                    m.Aisle(key=a["key"], department=d["key"], name=in_locale(a["name"], locale), position=i * 100 + j)
                )
        for s in store_rows:
            db.add(m.Store(id=s["position"], **s))
        db.flush()
        for prod in reference_grocery.products():
            label, count = _unit(prod, locale)
            db.add(
                m.Product(
                    id=prod["id"],
                    department=prod["department"],
                    aisle=prod["aisle"],
                    brand=prod["brand"],
                    title=grocery.title(prod, locale),
                    size=grocery.size_label(prod, locale),
                    unit_label=label,
                    unit_count=round(count, 4),
                    list_price_cents=grocery.list_price(prod, currency),
                    staple=prod["staple"],
                )
            )
        db.flush()
        for s in store_rows:
            for prod in reference_grocery.products():
                db.add(
                    m.Price(
                        store_id=s["position"],
                        product_id=prod["id"],
                        price_cents=grocery.store_price(prod, s["key"], currency, locale),
                    )
                )
        db.flush()
        seat_id = 0
        for i, w in enumerate(windows(world, store_rows), start=1):
            db.add(
                m.Window(
                    id=i,
                    store_id=store_id[w["store"]],
                    kind=w["kind"],
                    starts_at=w["starts_at"],
                    ends_at=w["ends_at"],
                    capacity=w["capacity"],
                )
            )
            for k in range(w["taken"]):
                seat_id += 1
                db.add(m.WindowSeat(id=seat_id, window_id=i, seat=k + 1, order_id=None, world_ref="seed:others"))
        db.flush()
        item_id = 0
        for i, e in enumerate(orders, start=1):
            d = e.data
            db.add(
                m.Order(
                    id=i,
                    order_id=d["order_id"],
                    store_id=store_id[d["store_key"]],
                    status="delivered",
                    fulfilment="delivery",
                    placed_at=_naive(d["placed_local"]),
                    window_start=_naive(d["delivery_window_start"]),
                    window_end=_naive(d["delivery_window_end"]),
                    window_id=None,
                    address=d["delivery_address"],
                    subtotal_cents=d["subtotal_cents"],
                    delivery_fee_cents=d["delivery_fee_cents"],
                    service_fee_cents=d["service_fee_cents"],
                    tip_cents=d["tip_cents"],
                    total_cents=d["total_cents"],
                    card_id=card_id.get(d["account"], 1),
                    instructions="",
                    charge_auth=None,
                    world_ref=e.id,
                )
            )
            for pos, x in enumerate(d["items"], start=1):
                item_id += 1
                prod = grocery.by_id()[x["sku"]]  # KeyError: the world names a product Basketful does not sell
                db.add(
                    m.OrderItem(
                        id=item_id,
                        order_id=i,
                        product_id=x["sku"],
                        name=grocery.title(prod, locale),
                        size=x["size"],
                        qty=x["qty"],
                        price_cents=x["price_cents"],
                        substitution="best_match",
                        substitute_id=None,
                        position=pos,
                    )
                )
        db.add(
            m.ShoppingList(
                id=1, name=STAPLES_LIST, created_at=f"{first.isoformat()}T08:00:00", world_ref="seed:staples"
            )
        )
        for sku in staples(world):
            db.add(m.ListItem(list_id=1, product_id=sku, qty=1, added_at=f"{first.isoformat()}T08:00:00"))
        for key, value in appkit.meta_rows(
            world,
            city=ident.address.city if ident.address else "",
            address=home,
            user_name=ident.name,
            tipping_percent=str(p.preferences.tipping_percent),
            usual_store=grocery.usual_store(world.seed, locale),
            delivery_fee_cents=str(prices.figure(grocery.DELIVERY_FEE_CENTS, currency)),
            free_delivery_from_cents=str(prices.figure(grocery.FREE_DELIVERY_FROM_CENTS, currency)),
        ).items():
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path


# --- layer hooks ------------------------------------------------------------------------------------


def bookmarks(world: World) -> list[dict]:
    """Basketful in the Firefox bookmarks menu (shopping): ``[{"title", "url", "folder"}]``."""
    return [{"title": "Basketful", "url": f"http://{DOMAIN}/", "folder": "menu/Shopping"}]


def visits(world: World) -> list[dict]:
    """History: each world order's checkout and order page a minute after it was placed
    (``[{"url", "title", "at", "transition"}]``)."""
    out = []
    for e in world_orders(world):
        at = dt.datetime.fromisoformat(e.data["placed_local"]).replace(tzinfo=None)
        out.append(
            {
                "url": f"http://{DOMAIN}/orders/{e.data['order_id']}",
                "title": "Order details · Basketful",
                "at": at + dt.timedelta(minutes=1),
                "transition": "link",
            }
        )
    return out
