"""SQLAlchemy schema of the Mailbox database: the single source of truth for ``mail.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and follows these tables.
Times are local wall-clock ISO 8601 strings in the persona's time zone
(``YYYY-MM-DDTHH:MM:SS``). Address lists are JSON arrays of ``{"name", "email"}``.

Seeded rows carry ``messages.world_ref`` (the world's email event id); rows the app writes
(sent mail, drafts, replies from contacts, mail delivered by other apps) have
``world_ref IS NULL`` and say where they came from in ``origin``. A message is visible once
``deliver_at <= now`` (the app's clock), so a contact's answer "arrives" a little after it was sent.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the mail schema."""


class User(appkit.UserRow, Base):
    """The mailbox owner. ``password_hash`` is ``scrypt$<salt hex>$<hash hex>``; ``signature`` is appended to new mail."""

    email: Mapped[str] = mapped_column(String, doc="the personal address (@mailbox.test)")
    work_email: Mapped[str | None] = mapped_column(String, doc="the work address, when the persona has one")
    signature: Mapped[str] = mapped_column(Text, default="")


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``mb_session`` carries ``token``."""


class Message(Base):
    """One mail. ``folder``: ``inbox``, ``sent``, ``drafts``, ``archive``, ``spam``, ``trash``.

    ``origin``: ``world`` (seeded), ``app`` (written by the user in the app: sent mail, drafts,
    RSVP answers), ``reply`` (a contact's answer from the reply engine), ``internal`` (delivered
    by another app through ``/api/internal/deliver``). ``references_json`` is a JSON array of
    Message-IDs; ``prev_folder`` remembers where a trashed message came from.
    """

    __tablename__ = "messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[str] = mapped_column(String, unique=True, doc="RFC 5322 Message-ID with angle brackets")
    thread_id: Mapped[str] = mapped_column(String, index=True)
    in_reply_to: Mapped[str | None] = mapped_column(String)
    references_json: Mapped[str] = mapped_column(Text, default="[]")
    folder: Mapped[str] = mapped_column(String, index=True)
    prev_folder: Mapped[str | None] = mapped_column(String)
    from_name: Mapped[str] = mapped_column(String)
    from_email: Mapped[str] = mapped_column(String, index=True)
    to_json: Mapped[str] = mapped_column(Text)
    cc_json: Mapped[str] = mapped_column(Text, default="[]")
    subject: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    snippet: Mapped[str] = mapped_column(String)
    sent_at: Mapped[str] = mapped_column(String, index=True, doc="the Date of the mail, local ISO")
    deliver_at: Mapped[str] = mapped_column(
        String, index=True, doc="when it shows in lists, local ISO (= sent_at for seeded mail)"
    )
    is_read: Mapped[int] = mapped_column(Integer, default=0)
    is_starred: Mapped[int] = mapped_column(Integer, default=0)
    has_attachments: Mapped[int] = mapped_column(Integer, default=0)
    origin: Mapped[str] = mapped_column(String, default="world")
    world_ref: Mapped[str | None] = mapped_column(
        String, doc="id of the world email event; NULL for mail made in the app"
    )
    ref: Mapped[str | None] = mapped_column(
        String, doc="the world event the mail is about (a booking, a paycheck, a meeting)"
    )


class Attachment(Base):
    """A file attached to a message, its bytes in ``content`` (ICS invitations, generated payslip PDFs, uploads)."""

    __tablename__ = "attachments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id"), index=True)
    filename: Mapped[str] = mapped_column(String)
    content_type: Mapped[str] = mapped_column(String)
    size: Mapped[int] = mapped_column(Integer, doc="bytes of content")
    content: Mapped[bytes] = mapped_column(LargeBinary)


class Label(Base):
    """A user label (``work``, ``receipts``, ...): from the world's mail, or made in the app."""

    __tablename__ = "labels"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String, unique=True)
    color: Mapped[str] = mapped_column(String)


class MessageLabel(Base):
    """A label on a message."""

    __tablename__ = "message_labels"
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id"), primary_key=True)
    label_id: Mapped[int] = mapped_column(ForeignKey("labels.id"), primary_key=True, index=True)


class Contact(Base):
    """A person from the persona's address book; ``card_json`` is the reply engine's contact card."""

    __tablename__ = "contacts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    email: Mapped[str] = mapped_column(String, unique=True)
    relationship: Mapped[str | None] = mapped_column(String)
    card_json: Mapped[str] = mapped_column(Text)


class Rsvp(Base):
    """The user's answer to an invitation (``partstat``: ``ACCEPTED``, ``DECLINED``, ``TENTATIVE``).

    ``reply_message_id`` is the sent REPLY mail; ``calendar_status`` is ``notified`` when the
    calendar app took the answer, ``pending`` when it could not be reached (kept, shown as a notice).
    """

    __tablename__ = "rsvps"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id"), index=True)
    uid: Mapped[str] = mapped_column(String, index=True)
    partstat: Mapped[str] = mapped_column(String)
    answered_at: Mapped[str] = mapped_column(String)
    reply_message_id: Mapped[int | None] = mapped_column(ForeignKey("messages.id"))
    calendar_status: Mapped[str] = mapped_column(String)
    __table_args__ = (UniqueConstraint("message_id"),)


class Meta(appkit.MetaRow, Base):
    """Key/value facts: ``as_of``, ``now``, ``timezone``, ``locale``, ``seed`` (the reply engine's seed)."""
