"""SQLAlchemy schema of ZipRide's database: the single source of truth for ``rides.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and must follow these tables.
Times are local wall-clock ISO 8601 strings with the offset of the place (``2026-09-04T03:55:00-07:00``)
for rides, naive local times of the persona's zone (``YYYY-MM-DDTHH:MM:SS``) for everything else.
Money is integer cents in the persona's currency.

Provenance (what task checks rely on): ``world_ref`` holds the id of the world event a row projects
(a ``ride``) or ``seed:<what>`` for rows the seed derived (saved places, known places). Rows the app
writes (a requested or scheduled ride, a rating, a tip, a new saved place) have ``world_ref IS NULL``
or, for changes to seeded rides, a non-NULL ``rated_at`` / ``tipped_at``.
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the ZipRide schema."""


class Meta(appkit.MetaRow, Base):
    """``as_of``, ``now``, ``timezone``, ``locale``, ``currency``, ``city``, ``seed``, ``user_name``."""


class User(appkit.UserRow, Base):
    """The rider, who signs in. ``password_hash`` is ``scrypt$<salt hex>$<hash hex>``; ``rating`` the rider rating (x100)."""

    email: Mapped[str] = mapped_column(String)
    phone: Mapped[str] = mapped_column(String)
    rating_x100: Mapped[int] = mapped_column(Integer)
    member_since: Mapped[str] = mapped_column(String, doc="YYYY-MM-DD")


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``zr_session`` carries ``token``."""


class Place(Base):
    """A place ZipRide knows: ``kind`` ``airport``/``home``/``work``/``contact``/``hotel``/``venue``.

    ``lat``/``lon`` come from ``builder.reference.geo.point`` (degrees). A typed address is accepted only
    when it matches a place's ``address`` (case and spacing ignored) or ``name``.
    """

    __tablename__ = "places"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String, doc="what the list shows: 'PDX Portland International Airport', a venue")
    address: Mapped[str] = mapped_column(String, unique=True, doc="the text a ride names (the world's pickup/dropoff)")
    city: Mapped[str] = mapped_column(String)
    kind: Mapped[str] = mapped_column(String)
    lat: Mapped[float] = mapped_column(Float)
    lon: Mapped[float] = mapped_column(Float)
    world_ref: Mapped[str | None] = mapped_column(String)


class SavedPlace(Base):
    """A saved place of the rider (Home, Work, a favourite); ``label`` unique; ``position`` orders the list."""

    __tablename__ = "saved_places"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    label: Mapped[str] = mapped_column(String, unique=True)
    place_id: Mapped[int] = mapped_column(ForeignKey("places.id"))
    icon: Mapped[str] = mapped_column(String, doc="home | work | star")
    position: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(
        String, doc="seed:home, seed:work, seed:frequent/<n>; NULL when added in the app"
    )


class Card(appkit.CardRow, Base):
    """A card on file (``builder.world.accounts.payment_cards``): ``account`` is the bank account kind it draws on."""


class RideType(Base):
    """A ride type (``data/ride_types.yaml``): fare x ``price_percent`` / 100 plus the booking fee."""

    __tablename__ = "ride_types"
    code: Mapped[str] = mapped_column(String, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    description: Mapped[str] = mapped_column(String)
    capacity: Mapped[int] = mapped_column(Integer)
    price_percent: Mapped[int] = mapped_column(Integer)
    eta_extra_minutes: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)


class Driver(Base):
    """A driver of the pool for new requests (stream ``rides/drivers``), or of a past ride (``world_ref`` set)."""

    __tablename__ = "drivers"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    rating_x100: Mapped[int] = mapped_column(Integer, doc="4.62 stars -> 462")
    trips: Mapped[int] = mapped_column(Integer)
    vehicle: Mapped[str] = mapped_column(String, doc="'Silver Toyota Prius'")
    plate: Mapped[str] = mapped_column(String)
    ride_type: Mapped[str] = mapped_column(String)
    city: Mapped[str] = mapped_column(String)
    pool: Mapped[int] = mapped_column(Integer, doc="1: assignable to new requests")


class Ride(Base):
    """A ride: ``status`` ``completed`` (history), ``scheduled`` (ahead), ``cancelled``.

    Fare parts (cents): ``base_cents`` + ``distance_cents`` + ``time_cents`` (each scaled by the ride type)
    + ``booking_fee_cents`` = ``fare_cents``; ``total_cents`` = fare + ``tip_cents``. For world rides the
    parts are the world's tariff (builder/reference/geo.py) and ``fare_cents`` the world's. ``charge_auth`` /
    ``tip_auth`` / ``refund_auth`` are the bank's authorisation codes of charges the app made;
    ``cancel_fee_cents`` what a late cancel kept, ``refund_cents`` what it gave back.
    """

    __tablename__ = "rides"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ride_id: Mapped[str] = mapped_column(String, unique=True)
    status: Mapped[str] = mapped_column(String)
    ride_type: Mapped[str] = mapped_column(ForeignKey("ride_types.code"))
    pickup_place_id: Mapped[int] = mapped_column(ForeignKey("places.id"))
    dropoff_place_id: Mapped[int] = mapped_column(ForeignKey("places.id"))
    pickup: Mapped[str] = mapped_column(String)
    dropoff: Mapped[str] = mapped_column(String)
    city: Mapped[str] = mapped_column(String)
    requested_at: Mapped[str] = mapped_column(String)
    pickup_at: Mapped[str] = mapped_column(String)
    dropoff_at: Mapped[str] = mapped_column(String)
    duration_minutes: Mapped[int] = mapped_column(Integer)
    distance_miles: Mapped[float] = mapped_column(Float)
    base_cents: Mapped[int] = mapped_column(Integer)
    distance_cents: Mapped[int] = mapped_column(Integer)
    time_cents: Mapped[int] = mapped_column(Integer)
    booking_fee_cents: Mapped[int] = mapped_column(Integer)
    fare_cents: Mapped[int] = mapped_column(Integer)
    tip_cents: Mapped[int] = mapped_column(Integer)
    total_cents: Mapped[int] = mapped_column(Integer)
    driver_id: Mapped[int | None] = mapped_column(ForeignKey("drivers.id"))
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"))
    trip: Mapped[int | None] = mapped_column(Integer, doc="the world's trip index")
    purpose: Mapped[str | None] = mapped_column(String, doc="work | dinner | visit | trip | NULL")
    expensable: Mapped[int] = mapped_column(Integer)
    rating: Mapped[int | None] = mapped_column(Integer, doc="1-5 stars the rider gave")
    compliments: Mapped[str | None] = mapped_column(Text, doc="JSON list")
    rated_at: Mapped[str | None] = mapped_column(String)
    tipped_at: Mapped[str | None] = mapped_column(String, doc="when a tip was added after the ride (in the app)")
    charge_auth: Mapped[str | None] = mapped_column(String)
    tip_auth: Mapped[str | None] = mapped_column(String)
    refund_auth: Mapped[str | None] = mapped_column(String)
    cancelled_at: Mapped[str | None] = mapped_column(String)
    cancel_fee_cents: Mapped[int] = mapped_column(Integer, default=0)
    refund_cents: Mapped[int] = mapped_column(Integer, default=0)
    world_ref: Mapped[str | None] = mapped_column(String)
