"""SQLAlchemy schema of the Meridian Air database (``airline.sqlite``): the only source of its tables.

Money is integer cents in the persona's currency. ``*_local`` times are aware ISO 8601 strings in the
zone of the airport (``2026-12-10T15:15:00-08:00``); ``*_utc`` are ``YYYY-MM-DDTHH:MM:SSZ``; app
times (``booked_at``, ``checked_in_at``) are the persona's local wall clock (``YYYY-MM-DDTHH:MM:SS``).

Rows the app writes are told apart from seeded ones: seeded bookings, passengers, segments and
seats carry ``world_ref`` (the world event's id or ``seed:<...>``); the app writes NULL there, and
every change of a seeded row sets ``changed_at``.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the airline schema."""


class User(appkit.UserRow, Base):
    """The MileagePass member who signs in: ``username`` is the loyalty number (``MR482950826``)."""

    given_name: Mapped[str] = mapped_column(String)
    surname: Mapped[str] = mapped_column(String)
    email: Mapped[str] = mapped_column(String)
    phone: Mapped[str] = mapped_column(String)
    home_airport: Mapped[str] = mapped_column(String)
    seat_preference: Mapped[str] = mapped_column(String, doc="window | aisle | middle")


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``ma_session`` carries ``token``."""


class Meta(appkit.MetaRow, Base):
    """``as_of``, ``now``, ``timezone``, ``locale``, ``currency``, ``airline``, ``airline_code``,
    ``ticket_prefix``, ``seat_salt`` (the seed of the seat-occupancy and fare hashes)."""


class Airport(Base):
    """An airport of the network (builder.reference.places.AIRPORTS): code, name, city, coordinates, IANA zone."""

    __tablename__ = "airports"
    code: Mapped[str] = mapped_column(String, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    city: Mapped[str] = mapped_column(String)
    latitude: Mapped[float]
    longitude: Mapped[float]
    timezone: Mapped[str] = mapped_column(String)


class Aircraft(Base):
    """A seat map: ``business_rows``/``economy_rows`` are ``first-last``, ``*_letters`` the seat letters with
    ``|`` at the aisles (``ABC|DEF``)."""

    __tablename__ = "aircraft"
    name: Mapped[str] = mapped_column(String, primary_key=True)
    business_rows: Mapped[str] = mapped_column(String)
    business_letters: Mapped[str] = mapped_column(String)
    economy_rows: Mapped[str] = mapped_column(String)
    economy_letters: Mapped[str] = mapped_column(String)
    exit_rows: Mapped[str] = mapped_column(String, doc="comma-separated row numbers")


class FareFamily(Base):
    """A fare family and its rules (network.json ``fare_families``)."""

    __tablename__ = "fare_families"
    code: Mapped[str] = mapped_column(String, primary_key=True, doc="BASIC | MAIN | FLEX | BUSINESS")
    name: Mapped[str] = mapped_column(String, unique=True, doc="Basic Economy, Economy, Economy Flex, Business")
    cabin: Mapped[str] = mapped_column(String, doc="economy | business")
    multiplier: Mapped[float] = mapped_column(doc="times the Economy fare")
    changeable: Mapped[int] = mapped_column(Integer)
    cancel: Mapped[str] = mapped_column(String, doc="none | credit | refund")
    seat_selection: Mapped[int] = mapped_column(Integer, doc="1 if seats may be chosen before check-in")
    carry_on: Mapped[int] = mapped_column(Integer)
    checked_bags: Mapped[int] = mapped_column(Integer, doc="free checked bags per passenger")
    bag_kg: Mapped[int] = mapped_column(Integer)
    miles_percent: Mapped[int] = mapped_column(Integer, doc="award miles as percent of flown miles")
    position: Mapped[int] = mapped_column(Integer)


class Route(Base):
    """A scheduled route: five daily departures (``slots`` ``HH:MM`` comma-separated, local at the origin)
    with ``numbers`` (comma-separated), ``via`` a hub for journeys over 6,000 km (NULL: nonstop)."""

    __tablename__ = "routes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    origin: Mapped[str] = mapped_column(String, index=True)
    destination: Mapped[str] = mapped_column(String, index=True)
    numbers: Mapped[str] = mapped_column(String)
    slots: Mapped[str] = mapped_column(String)
    minutes: Mapped[int] = mapped_column(Integer, doc="block time (builder.world.travel.block_minutes)")
    distance_km: Mapped[int] = mapped_column(Integer)
    via: Mapped[str | None] = mapped_column(String, doc="the connecting hub; NULL for a nonstop route")
    aircraft: Mapped[str | None] = mapped_column(ForeignKey("aircraft.name"), doc="NULL for a connecting journey")
    base_fare_cents: Mapped[int] = mapped_column(Integer, doc="one-way Economy fare before the date factor")
    __table_args__ = (UniqueConstraint("origin", "destination"),)


class Card(appkit.UserCardRow, Base):
    """A payment card on file (builder.world.accounts.payment_cards)."""


class Loyalty(Base):
    """The MileagePass account: ``tier`` earned from last calendar year's status miles; ``status_miles`` flown
    this calendar year up to now; ``miles_balance`` redeemable miles (all award miles ever, none spent)."""

    __tablename__ = "loyalty"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    number: Mapped[str] = mapped_column(String, unique=True)
    program: Mapped[str] = mapped_column(String)
    tier: Mapped[str] = mapped_column(String, doc="Member | Silver | Gold | Platinum")
    member_since: Mapped[str] = mapped_column(String)
    miles_balance: Mapped[int] = mapped_column(Integer)
    status_miles: Mapped[int] = mapped_column(Integer)
    status_year: Mapped[int] = mapped_column(Integer)


class Booking(Base):
    """A reservation (PNR). Prices are per passenger: ``base_fare_cents + taxes_cents + carrier_fees_cents =
    fare_per_passenger_cents``; ``total_cents`` is that times the passengers (plus changes' differences).
    ``status`` is ``upcoming`` | ``past`` | ``cancelled`` (the seed's view at now; the app recomputes
    upcoming/past from its clock), or ``pending`` while the app waits for the bank to authorise a new booking
    (its seats are held; a declined card deletes it); ``credit_cents`` travel credit and ``refund_cents``
    refunded on cancel. ``fare_family`` is the outbound journey's; a leg booked in another family says so in
    ``segments.fare_family``."""

    __tablename__ = "bookings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    pnr: Mapped[str] = mapped_column(String, unique=True)
    status: Mapped[str] = mapped_column(String)
    fare_family: Mapped[str] = mapped_column(ForeignKey("fare_families.code"))
    destination: Mapped[str] = mapped_column(String, doc="city name")
    trip_type: Mapped[str] = mapped_column(String, doc="round_trip | one_way")
    passengers: Mapped[int] = mapped_column(Integer)
    fare_per_passenger_cents: Mapped[int] = mapped_column(Integer)
    base_fare_cents: Mapped[int] = mapped_column(Integer)
    taxes_cents: Mapped[int] = mapped_column(Integer)
    carrier_fees_cents: Mapped[int] = mapped_column(Integer)
    total_cents: Mapped[int] = mapped_column(Integer)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"))
    booked_at: Mapped[str] = mapped_column(String)
    changed_at: Mapped[str | None] = mapped_column(String)
    cancelled_at: Mapped[str | None] = mapped_column(String)
    credit_cents: Mapped[int] = mapped_column(Integer, default=0)
    refund_cents: Mapped[int] = mapped_column(Integer, default=0)
    authorization: Mapped[str | None] = mapped_column(
        String, doc="the bank's code of the booking's charge (app bookings)"
    )
    world_ref: Mapped[str | None] = mapped_column(String, doc="flight_booking event id; NULL for app bookings")


class Passenger(Base):
    """A traveller of a booking with the e-ticket number (13 digits: the airline's prefix + 10)."""

    __tablename__ = "passengers"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    booking_id: Mapped[int] = mapped_column(ForeignKey("bookings.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    full_name: Mapped[str] = mapped_column(String)
    given_name: Mapped[str] = mapped_column(String)
    surname: Mapped[str] = mapped_column(String)
    ticket_number: Mapped[str] = mapped_column(String, unique=True)
    loyalty_number: Mapped[str | None] = mapped_column(String)
    bcbp_name: Mapped[str] = mapped_column(String, doc="SURNAME/GIVEN in ASCII as the boarding pass prints it")
    world_ref: Mapped[str | None] = mapped_column(String)


class Segment(Base):
    """One flight of a booking. ``direction`` ``outbound`` | ``return``; ``leg`` 1, 2 within it."""

    __tablename__ = "segments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    booking_id: Mapped[int] = mapped_column(ForeignKey("bookings.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    direction: Mapped[str] = mapped_column(String)
    leg: Mapped[int] = mapped_column(Integer)
    flight_number: Mapped[str] = mapped_column(String, doc="MR 1104")
    origin: Mapped[str] = mapped_column(String)
    destination: Mapped[str] = mapped_column(String)
    dep_local: Mapped[str] = mapped_column(String)
    arr_local: Mapped[str] = mapped_column(String)
    dep_utc: Mapped[str] = mapped_column(String, index=True)
    arr_utc: Mapped[str] = mapped_column(String)
    duration_minutes: Mapped[int] = mapped_column(Integer)
    distance_miles: Mapped[int] = mapped_column(Integer)
    aircraft: Mapped[str] = mapped_column(ForeignKey("aircraft.name"))
    gate: Mapped[str | None] = mapped_column(String)
    boarding_group: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String, doc="scheduled | flown | cancelled")
    was_flight_number: Mapped[str | None] = mapped_column(
        String,
        doc="the flight this leg replaced when the airline changed the schedule (rebooked); else NULL",
    )
    was_dep_local: Mapped[str | None] = mapped_column(String, doc="that flight's departure (local ISO); else NULL")
    fare_family: Mapped[str | None] = mapped_column(
        ForeignKey("fare_families.code"),
        doc="the leg's fare family (app bookings); NULL: the booking's fare_family",
    )
    fare_cents: Mapped[int | None] = mapped_column(
        Integer,
        doc="the one-way fare per passenger of the journey (direction) this leg is part of, the same on each "
        "of its legs (app bookings; updated by a flight change); NULL for seeded legs",
    )
    world_ref: Mapped[str | None] = mapped_column(String, doc="flight event id; NULL for app segments")


class Seat(Base):
    """A passenger's seat on a segment (``9F``) and the check-in: ``sequence`` is the check-in sequence number
    printed on the boarding pass; NULL until checked in."""

    __tablename__ = "seats"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    segment_id: Mapped[int] = mapped_column(ForeignKey("segments.id"), index=True)
    passenger_id: Mapped[int] = mapped_column(ForeignKey("passengers.id"))
    seat: Mapped[str] = mapped_column(String)
    checked_in_at: Mapped[str | None] = mapped_column(String)
    sequence: Mapped[int | None] = mapped_column(Integer)
    changed_at: Mapped[str | None] = mapped_column(String, doc="set when the passenger changes seat in the app")
    world_ref: Mapped[str | None] = mapped_column(String)
    __table_args__ = (UniqueConstraint("segment_id", "passenger_id"),)


class MilesActivity(Base):
    """A line of the MileagePass statement: miles earned for a flown segment (or an app booking's segments)."""

    __tablename__ = "miles_activity"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    posted_on: Mapped[str] = mapped_column(String)
    description: Mapped[str] = mapped_column(String)
    segment_id: Mapped[int | None] = mapped_column(ForeignKey("segments.id"))
    status_miles: Mapped[int] = mapped_column(Integer)
    award_miles: Mapped[int] = mapped_column(Integer)


class TravelCredit(Base):
    """Travel credit left by a cancellation or a cheaper change (valid a year from issue)."""

    __tablename__ = "travel_credits"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    booking_id: Mapped[int] = mapped_column(ForeignKey("bookings.id"))
    amount_cents: Mapped[int] = mapped_column(Integer)
    issued_at: Mapped[str] = mapped_column(String)
    expires_on: Mapped[str] = mapped_column(String)
    reason: Mapped[str] = mapped_column(Text)


class Payment(Base):
    """A charge or refund on a card, as the bank authorised it (``kind`` charge | refund). A row the app wrote
    before the bank answered has ``authorization`` NULL until it does (it is deleted if the bank refuses)."""

    __tablename__ = "payments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    booking_id: Mapped[int] = mapped_column(ForeignKey("bookings.id"), index=True)
    kind: Mapped[str] = mapped_column(String)
    amount_cents: Mapped[int] = mapped_column(Integer)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"))
    reference: Mapped[str] = mapped_column(String, unique=True)
    authorization: Mapped[str | None] = mapped_column(String)
    description: Mapped[str] = mapped_column(String)
    at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)
