"""SQLAlchemy schema of TableTime's database: the single source of truth for ``dining.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and follows these tables. Times are naive
local ISO strings; ``day`` (``YYYY-MM-DD``) and ``time`` (``HH:MM``) of a reservation are the restaurant's own
wall clock. Money is integer minor units of the restaurant's ``currency`` (JPY as yen x 100).

Provenance (what task checks rely on): ``world_ref`` holds the world event id a row projects (a
``restaurant_booking``) or ``seed:<what>`` for rows the seed drew; rows the app writes have ``world_ref IS NULL``.

Availability: a restaurant has ``dining_tables`` (seats each). A reservation holds one table for every 15-minute
slot of its sitting (90 minutes, 120 for parties over four): one ``table_holds`` row per slot, UNIQUE on
(table, day, slot), so two bookings can never hold the same table at the same time. Other diners' holds (seeded,
``reservation_id`` NULL) fill the next weeks. A cancellation deletes the reservation's holds.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the TableTime schema."""


class User(appkit.UserRow, Base):
    """The persona, who signs in. ``password_hash`` is ``scrypt$<salt hex>$<hash hex>``."""

    email: Mapped[str] = mapped_column(String)
    phone: Mapped[str] = mapped_column(String)
    home_city: Mapped[str] = mapped_column(String)
    points: Mapped[int] = mapped_column(Integer, doc="dining points: 100 per honoured reservation")


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``tt_session`` carries ``token``."""


class Meta(appkit.MetaRow, Base):
    """``as_of``, ``now``, ``timezone``, ``locale``, ``currency``, ``user_name``."""


class Card(appkit.UserCardRow, Base):
    """A payment card on file (``builder.world.accounts.payment_cards``) that holds reservations with a late-cancel fee."""


class Restaurant(Base):
    """A restaurant of the catalogue (``builder/reference/dining/restaurants.yaml``)."""

    __tablename__ = "restaurants"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String, unique=True)
    name: Mapped[str] = mapped_column(String)
    cuisine: Mapped[str] = mapped_column(String)
    city: Mapped[str] = mapped_column(String, index=True)
    country: Mapped[str] = mapped_column(String)
    zone: Mapped[str] = mapped_column(String)
    neighbourhood: Mapped[str] = mapped_column(String)
    street: Mapped[str] = mapped_column(String)
    address: Mapped[str] = mapped_column(String)
    postcode: Mapped[str] = mapped_column(String)
    phone: Mapped[str] = mapped_column(String)
    currency: Mapped[str] = mapped_column(String)
    lang: Mapped[str] = mapped_column(String)
    band: Mapped[int] = mapped_column(Integer, doc="price band 1-4 ($ to $$$$)")
    blurb: Mapped[str] = mapped_column(Text)
    rating_x10: Mapped[int] = mapped_column(Integer)
    review_count: Mapped[int] = mapped_column(Integer)
    late_cancel_cents: Mapped[int] = mapped_column(
        Integer, doc="fee per guest for a cancellation within 24 hours; 0 = none"
    )
    palette: Mapped[int] = mapped_column(Integer)
    motif: Mapped[str] = mapped_column(String)


class Hours(Base):
    """A service (``lunch`` / ``dinner``) of a restaurant: the weekdays (``mon,tue,...``), opening and closing time.
    The last seating is an hour before closing."""

    __tablename__ = "hours"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    restaurant_id: Mapped[int] = mapped_column(ForeignKey("restaurants.id"), index=True)
    service: Mapped[str] = mapped_column(String)
    days: Mapped[str] = mapped_column(String)
    open: Mapped[str] = mapped_column(String)
    close: Mapped[str] = mapped_column(String)


class MenuItem(Base):
    """A dish on the menu (``course``, ``name``, ``price_cents`` in the restaurant's currency)."""

    __tablename__ = "menu_items"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    restaurant_id: Mapped[int] = mapped_column(ForeignKey("restaurants.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    course: Mapped[str] = mapped_column(String)
    name: Mapped[str] = mapped_column(String)
    price_cents: Mapped[int] = mapped_column(Integer)


class DiningTable(Base):
    """A table of a restaurant (``seats``); parties of ``seats - 2`` to ``seats`` sit at it."""

    __tablename__ = "dining_tables"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    restaurant_id: Mapped[int] = mapped_column(ForeignKey("restaurants.id"), index=True)
    label: Mapped[str] = mapped_column(String)
    seats: Mapped[int] = mapped_column(Integer)


class Reservation(Base):
    """A reservation of the persona. ``status``: ``booked`` (upcoming), ``completed`` (honoured), ``cancelled``,
    ``requested`` (a large party's request sent from the app: no table held, ``table_id`` NULL, until the restaurant
    answers).
    ``companions`` is a JSON list of names (the world's). ``occasion`` (chosen when booking in the app; NULL for none
    and for every seeded booking): birthday | anniversary | date_night | business | celebration."""

    __tablename__ = "reservations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    confirmation: Mapped[str] = mapped_column(String, unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    restaurant_id: Mapped[int] = mapped_column(ForeignKey("restaurants.id"), index=True)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("dining_tables.id"))
    day: Mapped[str] = mapped_column(String)
    time: Mapped[str] = mapped_column(String)
    party_size: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String)
    special_request: Mapped[str | None] = mapped_column(Text)
    occasion: Mapped[str | None] = mapped_column(String)
    companions: Mapped[str] = mapped_column(Text, default="[]")
    card_id: Mapped[int | None] = mapped_column(ForeignKey("cards.id"))
    booked_at: Mapped[str] = mapped_column(String)
    modified_at: Mapped[str | None] = mapped_column(String)
    cancelled_at: Mapped[str | None] = mapped_column(String)
    cancel_fee_cents: Mapped[int] = mapped_column(Integer, default=0)
    fee_authorization: Mapped[str | None] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class TableHold(Base):
    """One 15-minute slot (``HH:MM``) of a table on a day, held by a reservation (or by another diner: NULL)."""

    __tablename__ = "table_holds"
    __table_args__ = (UniqueConstraint("table_id", "day", "slot"), Index("ix_holds_reservation", "reservation_id"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("dining_tables.id"))
    day: Mapped[str] = mapped_column(String)
    slot: Mapped[str] = mapped_column(String)
    reservation_id: Mapped[int | None] = mapped_column(ForeignKey("reservations.id"))


class Favourite(Base):
    """A saved restaurant."""

    __tablename__ = "favourites"
    __table_args__ = (UniqueConstraint("user_id", "restaurant_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    restaurant_id: Mapped[int] = mapped_column(ForeignKey("restaurants.id"))
    created_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class Review(Base):
    """A diner's review. ``reservation_id`` is set for the persona's own (one per reservation)."""

    __tablename__ = "reviews"
    __table_args__ = (UniqueConstraint("reservation_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    restaurant_id: Mapped[int] = mapped_column(ForeignKey("restaurants.id"), index=True)
    reservation_id: Mapped[int | None] = mapped_column(ForeignKey("reservations.id"))
    author: Mapped[str] = mapped_column(String)
    author_city: Mapped[str] = mapped_column(String)
    rating: Mapped[int] = mapped_column(Integer)
    body: Mapped[str] = mapped_column(Text)
    visited: Mapped[str] = mapped_column(String, doc="YYYY-MM")
    created_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)
