"""SQLAlchemy schema of Basketful's database: the single source of truth for ``grocery.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and must follow these tables.
Times are naive local wall-clock ISO strings of the persona's zone (``YYYY-MM-DDTHH:MM:SS``); money is
integer cents in the persona's currency.

Provenance (what task checks rely on): ``world_ref`` holds the id of the world event a row projects (a
``grocery_order``) or ``seed:<what>`` for rows the seed derived (the staples list, other shoppers' window
bookings). Rows the app writes (an order placed, a list, a booking of a window) have ``world_ref IS NULL``.
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the Basketful schema."""


class Meta(appkit.MetaRow, Base):
    """``as_of``, ``now``, ``timezone``, ``locale``, ``currency``, ``city``, ``address``, ``user_name``,
    ``tipping_percent``, ``usual_store``."""


class User(appkit.UserRow, Base):
    """The shopper, who signs in. ``password_hash`` is ``scrypt$<salt hex>$<hash hex>``."""

    email: Mapped[str] = mapped_column(String)
    phone: Mapped[str] = mapped_column(String)
    address: Mapped[str] = mapped_column(String, doc="the delivery address (the persona's home line)")
    member_since: Mapped[str] = mapped_column(String, doc="YYYY-MM-DD")


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``bf_session`` carries ``token``."""


class Card(appkit.CardRow, Base):
    """A card on file (``builder.world.accounts.payment_cards``); the first is the default."""


class Department(Base):
    """A department (``produce``...) with its name in the persona's language; ``position`` orders them."""

    __tablename__ = "departments"
    key: Mapped[str] = mapped_column(String, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    position: Mapped[int] = mapped_column(Integer)


class Aisle(Base):
    """An aisle of a department."""

    __tablename__ = "aisles"
    key: Mapped[str] = mapped_column(String, primary_key=True)
    department: Mapped[str] = mapped_column(ForeignKey("departments.key"))
    name: Mapped[str] = mapped_column(String)
    position: Mapped[int] = mapped_column(Integer)


class Product(Base):
    """A catalogue product (``builder/reference/grocery/products.json``) in the persona's language and units.

    ``unit_count`` is how many ``unit_label`` units the package holds, so the unit price is
    ``price_cents / unit_count`` (per oz, per kg, per 100 g, per l, per ct; see builder.reference.grocery.catalogue.unit_price).
    """

    __tablename__ = "products"
    id: Mapped[str] = mapped_column(String, primary_key=True, doc="BK + 8 digits")
    department: Mapped[str] = mapped_column(ForeignKey("departments.key"))
    aisle: Mapped[str] = mapped_column(ForeignKey("aisles.key"))
    brand: Mapped[str] = mapped_column(String, doc="'' for loose produce")
    title: Mapped[str] = mapped_column(String)
    size: Mapped[str] = mapped_column(String)
    unit_label: Mapped[str] = mapped_column(String)
    unit_count: Mapped[float] = mapped_column(Float)
    list_price_cents: Mapped[int] = mapped_column(Integer)
    staple: Mapped[str | None] = mapped_column(String)


class Store(Base):
    """A partner store (a chain's branch in the persona's city); ``radius`` in ``radius_unit`` (mi | km)."""

    __tablename__ = "stores"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String, unique=True)
    name: Mapped[str] = mapped_column(String)
    tagline: Mapped[str] = mapped_column(String)
    address: Mapped[str] = mapped_column(String)
    city: Mapped[str] = mapped_column(String)
    opens: Mapped[str] = mapped_column(String, doc="HH:MM")
    closes: Mapped[str] = mapped_column(String, doc="HH:MM (24:00 = midnight)")
    radius: Mapped[int] = mapped_column(Integer)
    radius_unit: Mapped[str] = mapped_column(String)
    pickup: Mapped[int] = mapped_column(Integer, doc="1 when the store offers pickup")
    colour: Mapped[str] = mapped_column(String)
    position: Mapped[int] = mapped_column(Integer)


class Price(Base):
    """What a store charges for a product (``builder.reference.grocery.catalogue.store_price``)."""

    __tablename__ = "prices"
    store_id: Mapped[int] = mapped_column(ForeignKey("stores.id"), primary_key=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"), primary_key=True)
    price_cents: Mapped[int] = mapped_column(Integer)


class Window(Base):
    """A delivery or pickup window of a store: ``kind`` delivery | pickup, ``capacity`` orders it takes."""

    __tablename__ = "windows"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    store_id: Mapped[int] = mapped_column(ForeignKey("stores.id"))
    kind: Mapped[str] = mapped_column(String)
    starts_at: Mapped[str] = mapped_column(String)
    ends_at: Mapped[str] = mapped_column(String)
    capacity: Mapped[int] = mapped_column(Integer)
    __table_args__ = (UniqueConstraint("store_id", "kind", "starts_at"),)


class WindowSeat(Base):
    """One order's place in a window: ``seat`` 1..capacity, unique per window, so a full window cannot be
    booked again (two checkouts racing for the last seat: the second insert fails). ``order_id`` is NULL for
    another shopper's booking (``world_ref`` ``seed:others``)."""

    __tablename__ = "window_seats"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    window_id: Mapped[int] = mapped_column(ForeignKey("windows.id"))
    seat: Mapped[int] = mapped_column(Integer)
    order_id: Mapped[int | None] = mapped_column(ForeignKey("orders.id"))
    world_ref: Mapped[str | None] = mapped_column(String)
    __table_args__ = (UniqueConstraint("window_id", "seat"),)


class Order(Base):
    """An order: the world's (``status`` delivered) or one placed in the app (``placed``).

    ``fulfilment`` delivery | pickup; ``window_id`` set for app orders; ``charge_auth`` the bank's code.
    """

    __tablename__ = "orders"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    order_id: Mapped[str] = mapped_column(String, unique=True, doc="BF + 9 digits")
    store_id: Mapped[int] = mapped_column(ForeignKey("stores.id"))
    status: Mapped[str] = mapped_column(String)
    fulfilment: Mapped[str] = mapped_column(String)
    placed_at: Mapped[str] = mapped_column(String)
    window_start: Mapped[str] = mapped_column(String)
    window_end: Mapped[str] = mapped_column(String)
    window_id: Mapped[int | None] = mapped_column(ForeignKey("windows.id"))
    address: Mapped[str] = mapped_column(String)
    subtotal_cents: Mapped[int] = mapped_column(Integer)
    delivery_fee_cents: Mapped[int] = mapped_column(Integer)
    service_fee_cents: Mapped[int] = mapped_column(Integer)
    tip_cents: Mapped[int] = mapped_column(Integer)
    total_cents: Mapped[int] = mapped_column(Integer)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"))
    instructions: Mapped[str] = mapped_column(Text, default="")
    charge_auth: Mapped[str | None] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class OrderItem(Base):
    """A line of an order: the product as bought (name, size, price at that store), the substitution
    preference (``best_match`` | ``specific`` | ``none``; ``substitute_id`` for ``specific``)."""

    __tablename__ = "order_items"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id"))
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"))
    name: Mapped[str] = mapped_column(String)
    size: Mapped[str] = mapped_column(String)
    qty: Mapped[int] = mapped_column(Integer)
    price_cents: Mapped[int] = mapped_column(Integer)
    substitution: Mapped[str] = mapped_column(String)
    substitute_id: Mapped[str | None] = mapped_column(ForeignKey("products.id"))
    position: Mapped[int] = mapped_column(Integer)


class CartItem(Base):
    """A product in the cart of one store (a cart per store); preferences as :class:`OrderItem`."""

    __tablename__ = "cart_items"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    store_id: Mapped[int] = mapped_column(ForeignKey("stores.id"))
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"))
    qty: Mapped[int] = mapped_column(Integer)
    substitution: Mapped[str] = mapped_column(String, default="best_match")
    substitute_id: Mapped[str | None] = mapped_column(ForeignKey("products.id"))
    added_at: Mapped[str] = mapped_column(String)
    __table_args__ = (UniqueConstraint("store_id", "product_id"),)


class ShoppingList(Base):
    """A shopping list (names unique); ``world_ref`` ``seed:staples`` for the seeded one."""

    __tablename__ = "lists"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String, unique=True)
    created_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class ListItem(Base):
    """A product on a list with the quantity wanted."""

    __tablename__ = "list_items"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    list_id: Mapped[int] = mapped_column(ForeignKey("lists.id"))
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"))
    qty: Mapped[int] = mapped_column(Integer)
    added_at: Mapped[str] = mapped_column(String)
    __table_args__ = (UniqueConstraint("list_id", "product_id"),)
