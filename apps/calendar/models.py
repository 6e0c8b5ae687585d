"""SQLAlchemy schema of the Daybook calendar database: the single source of truth for ``calendar.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and must follow these tables.

Time conventions:

* ``*_local`` columns are wall-clock times ``YYYY-MM-DDTHH:MM:SS`` in the zone named by the
  matching ``*_tz`` column (an IANA name); an all-day event stores dates ``YYYY-MM-DD`` with an
  exclusive end date (a one-day event on 2026-11-26 ends 2026-11-27).
* ``*_utc`` columns are the same instants as ``YYYY-MM-DDTHH:MM:SSZ`` (all-day: the persona's local
  midnight), for range queries.
* A recurring series is ONE ``events`` row with an RFC 5545 ``rrule`` (``FREQ=WEEKLY;BYDAY=MO,TU;
  UNTIL=20270115T173000Z``...), ``exdates`` (comma-separated ``YYYYMMDDTHHMMSS`` local starts in
  ``start_tz`` that the rule makes but that do not happen) and ``overrides`` rows for occurrences that
  deviate (another time, place or title, or cancelled), keyed by ``recurrence_id`` (the local start the
  rule gives that occurrence).

Rows projected from the world carry ``world_ref`` (the world's event or series id); rows the app
makes have ``world_ref IS NULL``. Rows the app changes get ``edited_at`` (the app's local now); seeded
rows have ``edited_at IS NULL``.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the calendar schema."""


class User(appkit.UserRow, Base):
    """The calendar's owner. ``password_hash`` is ``scrypt$<salt hex>$<hash hex>`` (N=16384, r=8, p=1)."""

    email: Mapped[str] = mapped_column(String, doc="personal address")
    work_email: Mapped[str | None] = mapped_column(String, doc="work address (invitations to work meetings)")


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``db_session`` carries ``token``."""


class Calendar(Base):
    """One of the owner's calendars (``work``, ``personal``): its colour (``#rrggbb``) and visibility."""

    __tablename__ = "calendars"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    color: Mapped[str] = mapped_column(String)
    owner_email: Mapped[str] = mapped_column(String)
    position: Mapped[int] = mapped_column(Integer)
    hidden: Mapped[int] = mapped_column(Integer, default=0, doc="1 when unticked in the calendar list")


class Event(Base):
    """A single event or the master row of a recurring series (see module docstring for times).

    ``uid`` is the iCalendar UID: ``<series id or world event id>@<organizer's mail domain>`` for the
    world's events (the scheme of the invitations' ``invite.ics`` in mail), ``<id>@daybook.test`` for
    events without organizer and for the app's own. ``source`` is the world's (``meeting``, ``trip``,
    ``flight``, ``hotel``, ``restaurant``, ``appointment``, ``birthday``, ``holiday``, ``exercise``,
    ``life_event``) or ``app``/``ics`` for events made in the app or added from an invitation file.
    ``organizer_is_self`` is 1 when the persona organizes (or owns) the event; 0 makes it an invitation.
    ``color`` NULL shows the event in its calendar's colour (every seeded event); the app stores a palette name
    (``tomato``, ``sage``...) when the persona picks one. A series' end is its rule's ``COUNT=`` or ``UNTIL=``.
    """

    __tablename__ = "events"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    uid: Mapped[str] = mapped_column(String, unique=True)
    calendar_id: Mapped[str] = mapped_column(ForeignKey("calendars.id"), index=True)
    title: Mapped[str] = mapped_column(String)
    description: Mapped[str] = mapped_column(Text, default="")
    location: Mapped[str] = mapped_column(String, default="")
    all_day: Mapped[int] = mapped_column(Integer, default=0)
    start_local: Mapped[str] = mapped_column(String)
    start_tz: Mapped[str] = mapped_column(String)
    end_local: Mapped[str] = mapped_column(String)
    end_tz: Mapped[str] = mapped_column(String)
    start_utc: Mapped[str] = mapped_column(String, index=True, doc="first occurrence's start")
    end_utc: Mapped[str] = mapped_column(String, doc="first occurrence's end")
    last_utc: Mapped[str] = mapped_column(
        String, index=True, doc="end of the last occurrence (far future if unbounded)"
    )
    rrule: Mapped[str | None] = mapped_column(String)
    color: Mapped[str | None] = mapped_column(
        String, doc="the event's own colour, a name of Daybook's palette (web/lib/colors.ts); NULL: its calendar's"
    )
    exdates: Mapped[str] = mapped_column(Text, default="")
    organizer_name: Mapped[str | None] = mapped_column(String)
    organizer_email: Mapped[str | None] = mapped_column(String)
    organizer_is_self: Mapped[int] = mapped_column(Integer, default=1)
    source: Mapped[str] = mapped_column(String)
    ref: Mapped[str | None] = mapped_column(String, doc="world id of the booking/flight/stay behind the event")
    invite_message_id: Mapped[str | None] = mapped_column(String, doc="Message-ID of the invitation mail, if any")
    sequence: Mapped[int] = mapped_column(Integer, default=0, doc="iCalendar SEQUENCE: +1 on every change")
    world_ref: Mapped[str | None] = mapped_column(String, index=True)
    created_at: Mapped[str] = mapped_column(String)
    edited_at: Mapped[str | None] = mapped_column(String)


class Override(Base):
    """One occurrence of a series that deviates from the rule (RFC 5545 ``RECURRENCE-ID``).

    ``start_local``/``end_local`` are in the series' ``start_tz``; ``title``, ``location`` and
    ``description`` are NULL to inherit the series'. ``cancelled`` 1 drops the occurrence.
    """

    __tablename__ = "overrides"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    recurrence_id: Mapped[str] = mapped_column(String)
    start_local: Mapped[str] = mapped_column(String)
    end_local: Mapped[str] = mapped_column(String)
    title: Mapped[str | None] = mapped_column(String)
    location: Mapped[str | None] = mapped_column(String)
    description: Mapped[str | None] = mapped_column(Text)
    cancelled: Mapped[int] = mapped_column(Integer, default=0)
    world_ref: Mapped[str | None] = mapped_column(String, doc="the world's occurrence event id")
    edited_at: Mapped[str | None] = mapped_column(String)
    __table_args__ = (UniqueConstraint("event_id", "recurrence_id"),)


class Attendee(Base):
    """A guest of an event. ``partstat`` is RFC 5545's ``ACCEPTED``, ``DECLINED``, ``TENTATIVE`` or
    ``NEEDS-ACTION``; ``is_self`` marks the persona's own row; ``role`` is ``organizer`` or ``guest``."""

    __tablename__ = "attendees"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String)
    email: Mapped[str | None] = mapped_column(String)
    role: Mapped[str] = mapped_column(String)
    partstat: Mapped[str] = mapped_column(String)
    is_self: Mapped[int] = mapped_column(Integer, default=0)
    responded_at: Mapped[str | None] = mapped_column(String, doc="app's local now when the persona answered in the app")


class Reminder(Base):
    """A reminder ``minutes`` before the start (all-day: before local midnight), ``method`` ``popup`` or ``email``.
    An event has at most five (the form's slots), each ``minutes`` at most once."""

    __tablename__ = "reminders"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    minutes: Mapped[int] = mapped_column(Integer)
    method: Mapped[str] = mapped_column(String)


class RsvpReply(Base):
    """Every answer the persona gave to an invitation in the app, and what became of the reply mail.

    ``mail_status`` is ``sent`` (the mail app took the reply), ``failed`` (it did not; ``mail_error``
    says why) or ``internal`` (the answer came from the mail app, which sends its own reply); ``pending`` while the
    mail app is being asked (the answer and its row are written first, then the mail goes out). The same answer
    again while or after its reply goes out adds no row and mails nothing.
    """

    __tablename__ = "rsvp_replies"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    partstat: Mapped[str] = mapped_column(String)
    at: Mapped[str] = mapped_column(String)
    mail_status: Mapped[str] = mapped_column(String)
    mail_error: Mapped[str | None] = mapped_column(String)
    subject: Mapped[str] = mapped_column(String)


class Meta(appkit.MetaRow, Base):
    """Key/value facts the app needs: ``as_of``, ``now`` (local ISO), ``timezone``, ``locale``, ``week_start``."""
