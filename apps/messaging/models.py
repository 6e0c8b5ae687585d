"""SQLAlchemy schema of Parley's database: the single source of truth for ``messaging.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and must follow these tables.
Times are local wall-clock ISO 8601 strings in the persona's time zone (``YYYY-MM-DDTHH:MM:SS``).

Provenance (what task checks rely on): ``world_ref`` holds the id of the world event a row
projects (a ``chat_message``), or ``seed:<what>`` for rows the seed derived (group conversations,
their history, contacts' tapbacks). Rows the app writes (a sent message, a reply, a reaction,
a new group) have ``world_ref IS NULL``.

A message is visible once ``deliver_at <= now`` (the app's clock): a contact's reply to a message
the user sent is stored at once with ``deliver_at = sent_at + delay``. ``sender_id`` is NULL for
the persona's own messages. ``read_at`` is when the persona read a contact's message (NULL:
unread). That a contact read the persona's message is not stored: a later message from that
contact in the same conversation means it was read (the receipt shows that message's time).

The persona may quote a message when replying (``quote_id``: the quoted message, picked in the app; the reply
engine's own threading is ``reply_to_id``), edit an own text within :data:`EDIT_WINDOW_MINUTES` of sending
(``edited_at``; the text it replaced is kept in ``message_edits``) and delete an own message for everyone
(``deleted_at``; ``body`` is cleared, the row stays and shows as a tombstone; the deleted text is kept in
``message_edits`` with ``action = 'delete'``). Seeded messages quote nothing and are neither edited nor deleted.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit

#: How long after sending the persona may edit a text (the web side's EDIT_WINDOW_MINUTES, lib/chat.ts).
EDIT_WINDOW_MINUTES = 15


class Base(DeclarativeBase):
    """Declarative base of the Parley schema."""


class User(appkit.UserRow, Base):
    """The persona, who signs in. ``password_hash`` is ``scrypt$<salt hex>$<hash hex>`` (N=16384, r=8, p=1)."""

    phone: Mapped[str] = mapped_column(String)
    email: Mapped[str] = mapped_column(String)


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``pl_session`` carries ``token``."""


class Contact(Base):
    """A person in the address book (the spec's contacts who use chat).

    ``shared_activities`` is a JSON list of strings; ``card_json`` the contact card the reply
    engine answers from (``builder.world.cards.contact_card``), JSON text.
    """

    __tablename__ = "contacts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String, unique=True)
    phone: Mapped[str] = mapped_column(String)
    email: Mapped[str | None] = mapped_column(String)
    relationship: Mapped[str | None] = mapped_column(String)
    messaging_style: Mapped[str | None] = mapped_column(String)
    closeness: Mapped[int | None] = mapped_column(Integer)
    birthday: Mapped[str | None] = mapped_column(String, doc="YYYY-MM-DD")
    city: Mapped[str | None] = mapped_column(String)
    shared_activities: Mapped[str] = mapped_column(Text, default="[]")
    card_json: Mapped[str] = mapped_column(Text)


class Conversation(Base):
    """A thread: ``kind`` ``direct`` (one contact, ``contact_id``) or ``group`` (``title``, members)."""

    __tablename__ = "conversations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String)
    title: Mapped[str | None] = mapped_column(String)
    contact_id: Mapped[int | None] = mapped_column(ForeignKey("contacts.id"), unique=True)
    created_at: Mapped[str] = mapped_column(String)
    thread_id: Mapped[str | None] = mapped_column(String, doc="the world's chat thread id (direct conversations)")
    world_ref: Mapped[str | None] = mapped_column(
        String, doc="seed:group/<slug> or the thread; NULL when made in the app"
    )


class Member(Base):
    """A contact in a group conversation (the persona is always a member)."""

    __tablename__ = "members"
    conversation_id: Mapped[int] = mapped_column(ForeignKey("conversations.id"), primary_key=True)
    contact_id: Mapped[int] = mapped_column(ForeignKey("contacts.id"), primary_key=True)


class Message(Base):
    """One message; see the module docstring for ``sender_id``, ``deliver_at``, ``read_at``, ``world_ref``."""

    __tablename__ = "messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    conversation_id: Mapped[int] = mapped_column(ForeignKey("conversations.id"))
    sender_id: Mapped[int | None] = mapped_column(ForeignKey("contacts.id"))
    body: Mapped[str] = mapped_column(Text)
    sent_at: Mapped[str] = mapped_column(String)
    deliver_at: Mapped[str] = mapped_column(String)
    read_at: Mapped[str | None] = mapped_column(String)
    reply_to_id: Mapped[int | None] = mapped_column(ForeignKey("messages.id"), doc="the message a reply answers")
    quote_id: Mapped[int | None] = mapped_column(
        ForeignKey("messages.id"), doc="the message the persona quoted replying to it (same conversation)"
    )
    edited_at: Mapped[str | None] = mapped_column(String, doc="when the persona last edited the text; NULL: never")
    deleted_at: Mapped[str | None] = mapped_column(String, doc="when the persona deleted it for everyone (body '')")
    ref: Mapped[str | None] = mapped_column(String, doc="the world event the message is about (a booking, a payment)")
    world_ref: Mapped[str | None] = mapped_column(String, index=True)
    __table_args__ = (Index("ix_messages_conversation_deliver", "conversation_id", "deliver_at"),)


class MessageEdit(Base):
    """The audit trail of the persona's edits and deletions: ``body`` is the text the change replaced."""

    __tablename__ = "message_edits"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id"), index=True)
    action: Mapped[str] = mapped_column(String, doc="edit | delete")
    body: Mapped[str] = mapped_column(Text, doc="the text before the change")
    edited_at: Mapped[str] = mapped_column(String)


class Reaction(Base):
    """A tapback (one of ❤️ 👍 😂 😮 😢 ❗) on a message; ``contact_id`` NULL: the persona's."""

    __tablename__ = "reactions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id"), index=True)
    contact_id: Mapped[int | None] = mapped_column(ForeignKey("contacts.id"))
    emoji: Mapped[str] = mapped_column(String)
    created_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)
    __table_args__ = (UniqueConstraint("message_id", "contact_id", "emoji"),)


class Meta(appkit.MetaRow, Base):
    """Key/value facts: ``as_of``, ``now``, ``timezone``, ``locale``, ``seed`` (the reply engine's)."""
