"""SQLAlchemy schema of Bramblestay's database: the single source of truth for ``stays.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and must follow these tables.
Times are naive local ISO 8601 strings in the persona's zone (``YYYY-MM-DDTHH:MM:SS``); dates
(``check_in``, ``night``) are ``YYYY-MM-DD`` in the property's own city. Money is integer cents in
the persona's currency (``meta.currency``).

Provenance (what task checks rely on): ``world_ref`` holds the world event id a row projects
(a ``hotel_booking``) or ``seed:<what>`` for rows the seed drew (the inventory's reviews); rows the
app writes (a booking, a review, a message) have ``world_ref IS NULL``.

Availability: a room type has ``units`` rooms per night; each active (not cancelled) booking holds
one ``booking_nights`` row per night, so free rooms = units - held rows. A cancellation deletes the
booking's nights (they are free again).
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the Bramblestay schema."""


class User(appkit.UserRow, Base):
    """The persona, who signs in. ``password_hash`` is ``scrypt$<salt hex>$<hash hex>``."""

    email: Mapped[str] = mapped_column(String)
    phone: Mapped[str] = mapped_column(String)
    loyalty_number: Mapped[str | None] = mapped_column(String, doc="the chain's rewards number the world uses")


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``bs_session`` carries ``token``."""


class Card(appkit.UserCardRow, Base):
    """A payment card on file (``builder.world.accounts.payment_cards``); ``account`` is the bank account kind."""


class City(Base):
    """A destination. ``tax_bp``: taxes in basis points of the room price; ``city_fee_cents`` per night;
    ``season``: comma-separated high-season months; ``zone``: IANA zone of the city."""

    __tablename__ = "cities"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String, unique=True)
    region: Mapped[str | None] = mapped_column(String)
    country: Mapped[str] = mapped_column(String)
    zone: Mapped[str] = mapped_column(String)
    tax_bp: Mapped[int] = mapped_column(Integer)
    city_fee_cents: Mapped[int] = mapped_column(Integer)
    season: Mapped[str] = mapped_column(String)
    lat: Mapped[float] = mapped_column()
    lon: Mapped[float] = mapped_column()


class Property(Base):
    """A hotel (``kind`` 'hotel', ``stars``) or a rental (``kind`` 'rental', ``host_name``).

    ``rating_x10``: guest rating out of 10 times ten (87 = 8.7); ``amenities``: JSON list;
    ``policy``: 'flexible' (free cancellation until 48 h before check-in) or 'moderate' (120 h);
    hotels also sell a non-refundable rate (12 % off). ``art``: seed of the drawn photos.
    """

    __tablename__ = "properties"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String, unique=True)
    city_id: Mapped[int] = mapped_column(ForeignKey("cities.id"), index=True)
    kind: Mapped[str] = mapped_column(String)
    name: Mapped[str] = mapped_column(String)
    chain: Mapped[str | None] = mapped_column(String)
    neighbourhood: Mapped[str] = mapped_column(String)
    address: Mapped[str] = mapped_column(String)
    stars: Mapped[int | None] = mapped_column(Integer)
    rating_x10: Mapped[int] = mapped_column(Integer)
    review_count: Mapped[int] = mapped_column(Integer)
    description: Mapped[str] = mapped_column(Text)
    amenities: Mapped[str] = mapped_column(Text)
    host_name: Mapped[str | None] = mapped_column(String)
    host_since: Mapped[str | None] = mapped_column(String, doc="YYYY")
    base_rate_cents: Mapped[int] = mapped_column(Integer)
    cleaning_fee_cents: Mapped[int] = mapped_column(Integer, default=0)
    policy: Mapped[str] = mapped_column(String)
    lat: Mapped[float] = mapped_column()
    lon: Mapped[float] = mapped_column()
    art: Mapped[int] = mapped_column(Integer)
    world_ref: Mapped[str | None] = mapped_column(String)


class Room(Base):
    """A room type of a property (a rental has one, 'Entire apartment', ``units`` 1).

    Nightly price of a night = base_rate_cents x factor_pct / 100 x 1.15 on Friday and Saturday nights x 1.2 in
    the city's high-season months, rounded to whole currency units (``web/lib/rates.ts``).
    """

    __tablename__ = "rooms"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    property_id: Mapped[int] = mapped_column(ForeignKey("properties.id"), index=True)
    name: Mapped[str] = mapped_column(String)
    sleeps: Mapped[int] = mapped_column(Integer)
    beds: Mapped[str] = mapped_column(String)
    factor_pct: Mapped[int] = mapped_column(Integer)
    units: Mapped[int] = mapped_column(Integer)


class Booking(Base):
    """A reservation. ``status`` 'confirmed' or 'cancelled'; ``rate_plan`` 'flexible' | 'moderate' |
    'nonrefundable'; ``payment`` 'pay_now' (charged at booking through the card network,
    ``authorization`` the bank's code) or 'pay_at_property' (the world's hotel bookings: the hotel
    charges at check-out). ``cancel_until``: free cancellation up to this local time (NULL: never);
    ``refund_cents`` what a cancellation refunded, ``cancel_fee_cents`` what it cost.
    ``total_cents`` = ``subtotal_cents`` + ``taxes_cents`` + ``fees_cents``.
    """

    __tablename__ = "bookings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    confirmation: Mapped[str] = mapped_column(String, unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    property_id: Mapped[int] = mapped_column(ForeignKey("properties.id"))
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    check_in: Mapped[str] = mapped_column(String)
    check_out: Mapped[str] = mapped_column(String)
    nights: Mapped[int] = mapped_column(Integer)
    guests: Mapped[int] = mapped_column(Integer)
    rate_plan: Mapped[str] = mapped_column(String)
    nightly_cents: Mapped[int] = mapped_column(Integer, doc="average nightly room price")
    subtotal_cents: Mapped[int] = mapped_column(Integer)
    taxes_cents: Mapped[int] = mapped_column(Integer)
    fees_cents: Mapped[int] = mapped_column(Integer)
    total_cents: Mapped[int] = mapped_column(Integer)
    payment: Mapped[str] = mapped_column(String)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"))
    authorization: Mapped[str | None] = mapped_column(String)
    paid_at: Mapped[str | None] = mapped_column(String)
    status: Mapped[str] = mapped_column(String)
    cancel_until: Mapped[str | None] = mapped_column(String)
    booked_at: Mapped[str] = mapped_column(String)
    cancelled_at: Mapped[str | None] = mapped_column(String)
    refund_cents: Mapped[int] = mapped_column(Integer, default=0)
    cancel_fee_cents: Mapped[int] = mapped_column(Integer, default=0)
    special_request: Mapped[str | None] = mapped_column(Text)
    folio: Mapped[str | None] = mapped_column(String)
    calendar_uid: Mapped[str | None] = mapped_column(
        String,
        doc="the iCalendar UID of the stay's calendar entry (the world's, for a world booking); NULL: "
        "<confirmation>@bramblestay.test",
    )
    world_ref: Mapped[str | None] = mapped_column(String, index=True)


class BookingNight(Base):
    """One room held for one night (``night`` YYYY-MM-DD) by an active booking."""

    __tablename__ = "booking_nights"
    booking_id: Mapped[int] = mapped_column(ForeignKey("bookings.id"), primary_key=True)
    night: Mapped[str] = mapped_column(String, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    __table_args__ = (Index("ix_booking_nights_room_night", "room_id", "night"),)


class BookingChange(Base):
    """A change of dates made on the site (never seeded, so a grader tells a changed booking from a seeded
    one): the stay before and after, the totals before and after (re-priced with the site's price function)
    and ``difference_cents`` = new - old, charged (> 0) or refunded (< 0) through the card network under
    ``reference`` (``<confirmation>-C<n>``, ``authorization`` the bank's code; NULL when nothing moved)."""

    __tablename__ = "booking_changes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    booking_id: Mapped[int] = mapped_column(ForeignKey("bookings.id"), index=True)
    old_check_in: Mapped[str] = mapped_column(String)
    old_check_out: Mapped[str] = mapped_column(String)
    new_check_in: Mapped[str] = mapped_column(String)
    new_check_out: Mapped[str] = mapped_column(String)
    old_total_cents: Mapped[int] = mapped_column(Integer)
    new_total_cents: Mapped[int] = mapped_column(Integer)
    difference_cents: Mapped[int] = mapped_column(Integer)
    reference: Mapped[str] = mapped_column(String)
    authorization: Mapped[str | None] = mapped_column(String)
    changed_at: Mapped[str] = mapped_column(String)


class Review(Base):
    """A guest review (1-5 ``rating``). Reviews of the persona have ``booking_id`` set (one per stay)."""

    __tablename__ = "reviews"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    property_id: Mapped[int] = mapped_column(ForeignKey("properties.id"), index=True)
    booking_id: Mapped[int | None] = mapped_column(ForeignKey("bookings.id"), unique=True)
    author: Mapped[str] = mapped_column(String)
    author_city: Mapped[str | None] = mapped_column(String)
    language: Mapped[str] = mapped_column(String)
    rating: Mapped[int] = mapped_column(Integer)
    body: Mapped[str] = mapped_column(Text)
    stayed: Mapped[str] = mapped_column(String, doc="YYYY-MM the guest stayed")
    created_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class Thread(Base):
    """A conversation with a property's host (rentals) or guest services (hotels), about a booking if any."""

    __tablename__ = "threads"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    property_id: Mapped[int] = mapped_column(ForeignKey("properties.id"))
    booking_id: Mapped[int | None] = mapped_column(ForeignKey("bookings.id"))
    created_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)
    __table_args__ = (UniqueConstraint("property_id", "booking_id"),)


class Message(Base):
    """One message of a thread; ``sender`` 'guest' (the persona) or 'host'. Visible once ``sent_at <= now``."""

    __tablename__ = "messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    thread_id: Mapped[int] = mapped_column(ForeignKey("threads.id"), index=True)
    sender: Mapped[str] = mapped_column(String)
    body: Mapped[str] = mapped_column(Text)
    sent_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class Meta(appkit.MetaRow, Base):
    """Key/value facts: ``as_of``, ``now``, ``timezone``, ``locale``, ``currency``, ``user_name``."""
