"""SQLAlchemy schema of Shopwell's database: the single source of truth for ``shop.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and must follow these tables. Times are
naive local ISO 8601 strings in the persona's zone (``YYYY-MM-DDTHH:MM:SS``); money is integer cents in the
persona's currency (``meta.currency``); text (titles, variants, specs) is in the persona's language.

Provenance (what task checks rely on): ``world_ref`` holds the world event id a row projects (a
``retail_order``) or ``seed:<what>`` for rows the seed drew (catalogue reviews, the wishlist), ``spec:wishlist/<i>``
for the spec's wish list; rows the app writes (an order, a return, a review, a subscription, a wishlist entry) have
``world_ref IS NULL``. A product whose id starts ``SP`` is Shopwell's own listing of an item the spec names that
the catalogue lacks (no brand, description or reviews; one variant).
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the Shopwell schema."""


class User(appkit.UserRow, Base):
    """The persona, who signs in. ``password_hash`` is ``scrypt$<salt hex>$<hash hex>``."""

    email: Mapped[str] = mapped_column(String)
    phone: Mapped[str] = mapped_column(String)


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``sw_session`` carries ``token``."""


class Card(appkit.UserCardRow, Base):
    """A payment card on file (``builder.world.accounts.payment_cards``); ``account`` is the bank account kind."""


class Address(Base):
    """A saved ship-to address: ``name`` the recipient, ``line`` the one-line address the world writes."""

    __tablename__ = "addresses"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    label: Mapped[str] = mapped_column(String)
    name: Mapped[str] = mapped_column(String)
    line: Mapped[str] = mapped_column(String)
    is_default: Mapped[int] = mapped_column(Integer, default=0)


class Department(Base):
    """A catalogue department (``key`` as in builder/reference/retail/lines.yaml, ``name`` in the persona's language)."""

    __tablename__ = "departments"
    key: Mapped[str] = mapped_column(String, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    position: Mapped[int] = mapped_column(Integer)


class Product(Base):
    """A catalogue product (builder/reference/retail/products.json). ``specs``: JSON list of [key, value];
    ``rating_x10`` average stars times ten (46 = 4.6); ``review_count`` all ratings (the shown reviews are a
    sample); ``subscribe`` 1 when Subscribe & Save is offered (5 % off)."""

    __tablename__ = "products"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    slug: Mapped[str] = mapped_column(String, unique=True)
    department: Mapped[str] = mapped_column(ForeignKey("departments.key"), index=True)
    line: Mapped[str] = mapped_column(String)
    brand: Mapped[str] = mapped_column(String, index=True)
    title: Mapped[str] = mapped_column(String)
    author: Mapped[str | None] = mapped_column(String)
    description: Mapped[str] = mapped_column(Text)
    specs: Mapped[str] = mapped_column(Text)
    rating_x10: Mapped[int] = mapped_column(Integer)
    review_count: Mapped[int] = mapped_column(Integer)
    gift: Mapped[int] = mapped_column(Integer)
    subscribe: Mapped[int] = mapped_column(Integer)
    min_price_cents: Mapped[int] = mapped_column(Integer)


class Variant(Base):
    """A variant of a product (a colour, a size, a pack); ``label`` "" when the product comes one way."""

    __tablename__ = "variants"
    sku: Mapped[str] = mapped_column(String, primary_key=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    label: Mapped[str] = mapped_column(String)
    price_cents: Mapped[int] = mapped_column(Integer)


class Review(Base):
    """A product review (1-5 ``rating``). The persona's have ``user_id`` set (one per product)."""

    __tablename__ = "reviews"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    author: Mapped[str] = mapped_column(String)
    rating: Mapped[int] = mapped_column(Integer)
    headline: Mapped[str] = mapped_column(String)
    body: Mapped[str] = mapped_column(Text)
    verified: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)
    __table_args__ = (UniqueConstraint("product_id", "user_id"),)


class Order(Base):
    """An order. ``order_number`` SW-###-#######; ``total_cents`` = ``subtotal_cents`` + ``shipping_cents``
    (shipping free from 35.00). ``shipped_at``/``delivered_at``: when it left the warehouse and reached the door
    (the world's, or the promise of a new order); the tracking state is judged against the app's now.
    ``gift_for``: the recipient of a present; ``authorization``: the bank's code of the charge."""

    __tablename__ = "orders"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    order_number: Mapped[str] = mapped_column(String, unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    placed_at: Mapped[str] = mapped_column(String, index=True)
    subtotal_cents: Mapped[int] = mapped_column(Integer)
    shipping_cents: Mapped[int] = mapped_column(Integer)
    total_cents: Mapped[int] = mapped_column(Integer)
    ship_name: Mapped[str] = mapped_column(String)
    ship_address: Mapped[str] = mapped_column(String)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"))
    authorization: Mapped[str | None] = mapped_column(String)
    carrier: Mapped[str] = mapped_column(String)
    tracking_number: Mapped[str] = mapped_column(String)
    shipped_at: Mapped[str] = mapped_column(String)
    delivered_at: Mapped[str] = mapped_column(String)
    gift_for: Mapped[str | None] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String, index=True)


class OrderItem(Base):
    """One line of an order: the variant bought, its name and label then, quantity and unit price."""

    __tablename__ = "order_items"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id"), index=True)
    sku: Mapped[str] = mapped_column(ForeignKey("variants.sku"))
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"))
    name: Mapped[str] = mapped_column(String)
    variant: Mapped[str] = mapped_column(String)
    qty: Mapped[int] = mapped_column(Integer)
    price_cents: Mapped[int] = mapped_column(Integer)


class Return(Base):
    """A return of an order line (the whole line; one per line), refunded at once to the order's card
    (``refund_cents`` = qty x price; ``authorization`` the bank's code of the refund). ``rma`` RMA-<digits>."""

    __tablename__ = "returns"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    rma: Mapped[str] = mapped_column(String, unique=True)
    order_item_id: Mapped[int] = mapped_column(ForeignKey("order_items.id"), unique=True)
    reason: Mapped[str] = mapped_column(String)
    comment: Mapped[str | None] = mapped_column(Text)
    refund_cents: Mapped[int] = mapped_column(Integer)
    authorization: Mapped[str] = mapped_column(String)
    created_at: Mapped[str] = mapped_column(String)


class CartItem(Base):
    """A variant in the persona's cart."""

    __tablename__ = "cart_items"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    sku: Mapped[str] = mapped_column(ForeignKey("variants.sku"), primary_key=True)
    qty: Mapped[int] = mapped_column(Integer)
    added_at: Mapped[str] = mapped_column(String)


class WishlistItem(Base):
    """A product on the persona's wish list."""

    __tablename__ = "wishlist"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"), primary_key=True)
    added_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class Subscription(Base):
    """Subscribe & Save: a variant delivered every ``every_weeks`` weeks at 5 % off, charged when each delivery
    ships (``next_date`` YYYY-MM-DD); ``status`` 'active' or 'cancelled'."""

    __tablename__ = "subscriptions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    sku: Mapped[str] = mapped_column(ForeignKey("variants.sku"))
    qty: Mapped[int] = mapped_column(Integer)
    every_weeks: Mapped[int] = mapped_column(Integer)
    price_cents: Mapped[int] = mapped_column(Integer, doc="unit price after the 5 % discount")
    next_date: Mapped[str] = mapped_column(String)
    address_id: Mapped[int] = mapped_column(ForeignKey("addresses.id"))
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"))
    status: Mapped[str] = mapped_column(String)
    created_at: Mapped[str] = mapped_column(String)
    cancelled_at: Mapped[str | None] = mapped_column(String)


class Meta(appkit.MetaRow, Base):
    """Key/value facts: ``as_of``, ``now``, ``timezone``, ``locale``, ``currency``, ``user_name``."""
