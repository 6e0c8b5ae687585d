"""SQLAlchemy schema of Huddle, the work chat: the single source of truth for ``workchat.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and follows these tables.
Times are local wall-clock ISO 8601 strings in the persona's time zone
(``YYYY-MM-DDTHH:MM:SS``), dates ``YYYY-MM-DD``.

Seeded rows project the world's ``work_chat_message`` events (``messages.world_ref`` is the
event id). Rows the app writes have ``world_ref IS NULL`` (messages) or a non-NULL ``added_at``
/ ``saved_at`` / ``pinned_at`` / ``status_set_at`` (reactions, saves, pins, status), so a task
check can tell what an agent did from what was seeded.

A message is visible once ``deliver_at <= now`` (the app's clock): seeded messages have
``deliver_at = sent_at``; a colleague's reply written by the reply engine has
``deliver_at = sent_at + delay``.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the Huddle schema."""


class User(Base):
    """The persona's Huddle account (one row). ``password_hash`` is ``scrypt$<salt hex>$<hash hex>``.

    Status: ``status_emoji`` (a ``:shortcode:``), ``status_text`` and ``status_expires_at`` (local ISO,
    NULL = never clears); shown only while ``status_expires_at`` is NULL or after now.
    ``status_set_at`` is when the app last set it (NULL: the seeded empty status).
    """

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"))
    username: Mapped[str] = mapped_column(String, unique=True)
    password_hash: Mapped[str] = mapped_column(String)
    status_emoji: Mapped[str] = mapped_column(String, default="")
    status_text: Mapped[str] = mapped_column(String, default="")
    status_expires_at: Mapped[str | None] = mapped_column(String)
    status_set_at: Mapped[str | None] = mapped_column(String)


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``hd_session`` carries ``token``."""


class Person(Base):
    """A workspace member. ``is_me`` marks the persona; ``colleague`` a contact of ``persona.work.colleagues``.

    ``handle`` is the ``first.last`` search handle (``from:@sam.okafor``); ``card_json`` is the contact
    card the reply engine answers from (``builder.world.cards.contact_card``), NULL for members who
    are not contacts (they never answer).
    """

    __tablename__ = "people"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String, unique=True)
    handle: Mapped[str] = mapped_column(String, unique=True)
    email: Mapped[str] = mapped_column(String)
    title: Mapped[str] = mapped_column(String, default="")
    is_me: Mapped[int] = mapped_column(Integer, default=0)
    colleague: Mapped[int] = mapped_column(Integer, default=0)
    card_json: Mapped[str | None] = mapped_column(Text)


class Channel(Base):
    """A channel (``kind`` ``channel``) or a direct conversation (``kind`` ``dm`` with ``dm_person_id``).

    ``position`` is the order of :func:`builder.world.work_chat.channels`.
    """

    __tablename__ = "channels"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String, unique=True)
    kind: Mapped[str] = mapped_column(String)
    topic: Mapped[str] = mapped_column(String)
    purpose: Mapped[str] = mapped_column(String)
    created: Mapped[str] = mapped_column(String)
    position: Mapped[int] = mapped_column(Integer)
    dm_person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"))


class ChannelMember(Base):
    """Membership of a person in a channel, with the persona's notification preferences on the persona's own rows:
    ``notify`` ``all`` (every new message counts in the sidebar), ``mentions`` (only mentions do) or ``nothing``;
    ``muted`` 1 greys the channel out and leaves it unbolded. Seeded ``all`` for a DM, ``mentions`` for a channel,
    unmuted; ``prefs_set_at`` is when the app last changed them (NULL: as seeded)."""

    __tablename__ = "channel_members"
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id"), primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), primary_key=True)
    notify: Mapped[str] = mapped_column(String, default="mentions", doc="all | mentions | nothing")
    muted: Mapped[int] = mapped_column(Integer, default=0)
    prefs_set_at: Mapped[str | None] = mapped_column(String)


class Message(Base):
    """One message. ``thread_root_id`` is the root message of its thread (NULL for a root).

    ``is_read`` is the persona's read state (world ``read``; opening a channel marks its messages read).
    ``deleted`` messages keep their row (text emptied by the app); ``edited_at`` is set by an edit.
    A scheduled message (``scheduled_at`` set) is the persona's with ``sent_at = deliver_at`` the time it goes out:
    until then it shows only in Scheduled, where it can be sent now, rescheduled or deleted.
    ``reply_to_id`` is the agent's message a generated colleague reply answers.
    """

    __tablename__ = "messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id"), index=True)
    thread_root_id: Mapped[int | None] = mapped_column(ForeignKey("messages.id"), index=True)
    sender_id: Mapped[int] = mapped_column(ForeignKey("people.id"))
    text: Mapped[str] = mapped_column(Text)
    sent_at: Mapped[str] = mapped_column(String, index=True)
    deliver_at: Mapped[str] = mapped_column(String, index=True)
    edited_at: Mapped[str | None] = mapped_column(String)
    deleted: Mapped[int] = mapped_column(Integer, default=0)
    is_read: Mapped[int] = mapped_column(Integer, default=1)
    pinned: Mapped[int] = mapped_column(Integer, default=0)
    pinned_at: Mapped[str | None] = mapped_column(String, doc="when the app pinned it; NULL for seeded pins")
    world_ref: Mapped[str | None] = mapped_column(String, unique=True, doc="world event id; NULL for app-written")
    event_ref: Mapped[str | None] = mapped_column(
        String, doc="the world event the message talks about (a meeting, a flight)"
    )
    reply_to_id: Mapped[int | None] = mapped_column(ForeignKey("messages.id"))
    scheduled_at: Mapped[str | None] = mapped_column(
        String,
        doc="when the persona scheduled it (its sent_at = deliver_at is the time it goes out); NULL: sent at once",
    )


class Mention(Base):
    """A person written as ``@First Last`` in a message, in order of appearance."""

    __tablename__ = "mentions"
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id"), primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)


class Reaction(Base):
    """An emoji reaction (``:shortcode:``) of one person on one message; ``added_at`` NULL when seeded."""

    __tablename__ = "reactions"
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id"), primary_key=True)
    emoji: Mapped[str] = mapped_column(String, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), primary_key=True)
    added_at: Mapped[str | None] = mapped_column(String)


class SavedItem(Base):
    """A message the persona saved for later (only the app saves: the world has no saves)."""

    __tablename__ = "saved_items"
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id"), primary_key=True)
    saved_at: Mapped[str] = mapped_column(String)
    __table_args__ = (UniqueConstraint("message_id"),)


class Meta(appkit.MetaRow, Base):
    """Key/value facts: ``as_of``, ``now``, ``timezone``, ``locale``, ``workspace``, ``workspace_domain``,
    ``reply_seed`` (the reply engine's seed)."""
