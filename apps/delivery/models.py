"""SQLAlchemy schema of DashBite's database: the single source of truth for ``delivery.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and must follow these tables.
Times are naive local wall-clock ISO strings of the persona's zone (``YYYY-MM-DDTHH:MM:SS``); money is
integer cents in the persona's currency.

Provenance (what task checks rely on): ``world_ref`` holds the id of the world event a row projects (a
``food_order``) or ``seed:<what>``. Rows the app writes (an order placed in the app, its items, a new
address) have ``world_ref IS NULL``; a rating given in the app sets ``rated_in_app = 1`` (the seed's
ratings have 0).
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the DashBite schema."""


class Meta(appkit.MetaRow, Base):
    """``as_of``, ``now``, ``timezone``, ``locale``, ``currency``, ``city``, ``user_name``, ``seed``."""


class User(appkit.UserRow, Base):
    """The customer, who signs in. ``password_hash`` is ``scrypt$<salt hex>$<hash hex>``; ``tip_percent`` the
    default tip of the checkout (the persona's ``tipping_percent``)."""

    email: Mapped[str] = mapped_column(String)
    phone: Mapped[str] = mapped_column(String)
    tip_percent: Mapped[int] = mapped_column(Integer)
    member_since: Mapped[str] = mapped_column(String, doc="YYYY-MM-DD")


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``dash_session`` carries ``token``."""


class Card(appkit.CardRow, Base):
    """A card on file (``builder.world.accounts.payment_cards``): ``account`` is the bank account kind it draws on."""


class Address(Base):
    """A delivery address: ``label`` (Home, Work, ...) unique; ``line`` the one-line address the orders carry."""

    __tablename__ = "addresses"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    label: Mapped[str] = mapped_column(String, unique=True)
    line: Mapped[str] = mapped_column(String)
    instructions: Mapped[str] = mapped_column(String, default="")
    is_default: Mapped[int] = mapped_column(Integer)
    world_ref: Mapped[str | None] = mapped_column(String)


class Restaurant(Base):
    """A restaurant that delivers (``builder.reference.delivery.catalogue``): fees in cents, ``minimum_cents`` the
    subtotal below which ``small_order_fee_cents`` applies, ``rating_x10`` 4.6 stars -> 46, ``opens``/``closes``
    ``HH:MM`` local, ``usual`` 1 for the persona's usual restaurant."""

    __tablename__ = "restaurants"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String, unique=True)
    name: Mapped[str] = mapped_column(String)
    cuisine: Mapped[str] = mapped_column(String)
    neighbourhood: Mapped[str] = mapped_column(String)
    address: Mapped[str] = mapped_column(String)
    delivery_fee_cents: Mapped[int] = mapped_column(Integer)
    minimum_cents: Mapped[int] = mapped_column(Integer)
    small_order_fee_cents: Mapped[int] = mapped_column(Integer)
    prep_min: Mapped[int] = mapped_column(Integer)
    prep_max: Mapped[int] = mapped_column(Integer)
    rating_x10: Mapped[int] = mapped_column(Integer)
    rating_count: Mapped[int] = mapped_column(Integer)
    price_level: Mapped[int] = mapped_column(Integer)
    opens: Mapped[str] = mapped_column(String)
    closes: Mapped[str] = mapped_column(String)
    usual: Mapped[int] = mapped_column(Integer)


class MenuItem(Base):
    """A dish: ``section`` starters | mains | sides | desserts | drinks; ``name`` in the persona's language;
    ``options_json`` the option groups (JSON list of ``{"key", "label", "pick": "one" | "many", "max",
    "choices": [{"id", "label", "price_cents"}]}``, labels in the persona's language)."""

    __tablename__ = "menu_items"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    dish_id: Mapped[str] = mapped_column(String, unique=True)
    restaurant_id: Mapped[int] = mapped_column(ForeignKey("restaurants.id"))
    section: Mapped[str] = mapped_column(String)
    name: Mapped[str] = mapped_column(String)
    price_cents: Mapped[int] = mapped_column(Integer)
    popular: Mapped[int] = mapped_column(Integer)
    options_json: Mapped[str] = mapped_column(Text)
    position: Mapped[int] = mapped_column(Integer)


class Promo(Base):
    """A promo code: ``kind`` ``percent`` (``value`` percent off the subtotal, at most ``max_off_cents``),
    ``amount`` (``value`` cents off) or ``free_delivery``; valid while ``min_subtotal_cents`` <= subtotal and
    now < ``expires_at``; ``first_order_only`` 1 when only a customer with no orders may use it."""

    __tablename__ = "promos"
    code: Mapped[str] = mapped_column(String, primary_key=True)
    kind: Mapped[str] = mapped_column(String)
    value: Mapped[int] = mapped_column(Integer)
    max_off_cents: Mapped[int] = mapped_column(Integer)
    min_subtotal_cents: Mapped[int] = mapped_column(Integer)
    starts_at: Mapped[str] = mapped_column(String)
    expires_at: Mapped[str] = mapped_column(String)
    first_order_only: Mapped[int] = mapped_column(Integer)
    description: Mapped[str] = mapped_column(String)


class Order(Base):
    """An order. ``total_cents`` = subtotal - discount + delivery + service + small-order fee + tip.
    ``status`` ``delivered`` for history; an order placed in the app is ``placed`` and its tracking state is
    read from the clock (placed -> preparing -> on the way -> delivered at ``eta_at``); ``scheduled_for`` is set
    for a scheduled delivery. ``charge_auth`` the bank's authorisation code of a charge the app made."""

    __tablename__ = "orders"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    order_id: Mapped[str] = mapped_column(String, unique=True)
    restaurant_id: Mapped[int] = mapped_column(ForeignKey("restaurants.id"))
    restaurant_name: Mapped[str] = mapped_column(String)
    status: Mapped[str] = mapped_column(String)
    placed_at: Mapped[str] = mapped_column(String)
    scheduled_for: Mapped[str | None] = mapped_column(String)
    eta_at: Mapped[str] = mapped_column(String)
    delivered_at: Mapped[str | None] = mapped_column(String)
    address: Mapped[str] = mapped_column(String)
    dropoff_instructions: Mapped[str] = mapped_column(String, default="")
    subtotal_cents: Mapped[int] = mapped_column(Integer)
    discount_cents: Mapped[int] = mapped_column(Integer)
    promo_code: Mapped[str | None] = mapped_column(String)
    delivery_fee_cents: Mapped[int] = mapped_column(Integer)
    service_fee_cents: Mapped[int] = mapped_column(Integer)
    small_order_fee_cents: Mapped[int] = mapped_column(Integer)
    tip_cents: Mapped[int] = mapped_column(Integer)
    tip_percent: Mapped[int | None] = mapped_column(Integer, doc="NULL for a custom tip amount")
    total_cents: Mapped[int] = mapped_column(Integer)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"))
    charge_auth: Mapped[str | None] = mapped_column(String)
    usual: Mapped[int] = mapped_column(Integer)
    reorder_of: Mapped[str | None] = mapped_column(String, doc="order_id this one repeats")
    rating: Mapped[int | None] = mapped_column(Integer, doc="1-5 stars")
    rating_comment: Mapped[str | None] = mapped_column(Text)
    rated_at: Mapped[str | None] = mapped_column(String)
    rated_in_app: Mapped[int] = mapped_column(Integer, default=0)
    world_ref: Mapped[str | None] = mapped_column(String)


class OrderItem(Base):
    """A line of an order: ``unit_price_cents`` = the dish's price + its options'; ``options_json`` the chosen
    option labels (JSON list), ``option_ids`` ``key:choice`` ids; ``menu_item_id`` NULL if the dish left the menu."""

    __tablename__ = "order_items"
    __table_args__ = (UniqueConstraint("order_id", "position"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id"))
    position: Mapped[int] = mapped_column(Integer)
    menu_item_id: Mapped[int | None] = mapped_column(ForeignKey("menu_items.id"))
    name: Mapped[str] = mapped_column(String)
    qty: Mapped[int] = mapped_column(Integer)
    unit_price_cents: Mapped[int] = mapped_column(Integer)
    options_json: Mapped[str] = mapped_column(Text)
    option_ids: Mapped[str] = mapped_column(Text)
    special_instructions: Mapped[str] = mapped_column(String, default="")


class CartItem(Base):
    """A line in the customer's cart (one restaurant at a time): as an order item, before checkout."""

    __tablename__ = "cart_items"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    menu_item_id: Mapped[int] = mapped_column(ForeignKey("menu_items.id"))
    qty: Mapped[int] = mapped_column(Integer)
    option_ids: Mapped[str] = mapped_column(Text, doc="JSON list of key:choice ids")
    special_instructions: Mapped[str] = mapped_column(String, default="")
    added_at: Mapped[str] = mapped_column(String)
