"""SQLAlchemy schema of Cairn, the project board: the single source of truth for ``board.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and follows these tables. Times are local
wall-clock ISO strings in the persona's zone (``YYYY-MM-DDTHH:MM:SS``), dates ``YYYY-MM-DD``.

Seeded rows project the world's board (:func:`builder.world.projects.board`): ``world_ref`` holds the world
event id a row comes from (``ticket_created``, ``ticket_comment``, ``ticket_transition``...). Rows the app
writes have ``world_ref IS NULL``, so a task check tells what an agent did from what was seeded.

Statuses are ``backlog``, ``todo``, ``in_progress``, ``in_review``, ``done``; priorities ``urgent``, ``high``,
``medium``, ``low``. Every change the app makes to a ticket adds an ``activity`` row (field, old, new).
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the Cairn schema."""


class User(Base):
    """The persona's account (one row). ``password_hash`` is ``scrypt$<salt hex>$<hash hex>``."""

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"))
    username: Mapped[str] = mapped_column(String, unique=True)
    password_hash: Mapped[str] = mapped_column(String)
    full_name: Mapped[str] = mapped_column(String)
    email: Mapped[str] = mapped_column(String)


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``cn_session`` carries ``token``."""


class Meta(appkit.MetaRow, Base):
    """``as_of``, ``now``, ``timezone``, ``locale``, ``workspace``, ``team``, ``prefix`` (ticket key prefix)."""


class Person(Base):
    """A team member tickets can be assigned to. ``is_me`` marks the persona."""

    __tablename__ = "people"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String, unique=True)
    email: Mapped[str] = mapped_column(String)
    is_me: Mapped[int] = mapped_column(Integer, default=0)


class Project(Base):
    """A work project (the work chat's ``#proj-<slug>``); ``end`` NULL while it runs."""

    __tablename__ = "projects"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    slug: Mapped[str] = mapped_column(String, unique=True)
    start: Mapped[str] = mapped_column(String)
    end: Mapped[str | None] = mapped_column(String)


class Sprint(Base):
    """A two-week sprint; ``id`` is its number. It ``opens`` at its planning and ``closes`` when the next opens."""

    __tablename__ = "sprints"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    start: Mapped[str] = mapped_column(String)
    end: Mapped[str] = mapped_column(String)
    opens: Mapped[str] = mapped_column(String)
    closes: Mapped[str] = mapped_column(String)
    goal: Mapped[str] = mapped_column(Text)
    world_ref: Mapped[str | None] = mapped_column(String)


class Ticket(Base):
    """A ticket. ``key`` is ``<prefix>-<number>``; ``sprint_id`` NULL is the backlog; ``rank`` orders a column."""

    __tablename__ = "tickets"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String, unique=True)
    number: Mapped[int] = mapped_column(Integer, unique=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id"))
    type: Mapped[str] = mapped_column(String)
    title: Mapped[str] = mapped_column(Text)
    description: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String)
    priority: Mapped[str] = mapped_column(String)
    points: Mapped[int | None] = mapped_column(Integer)
    due: Mapped[str | None] = mapped_column(String)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("people.id"))
    assignee_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"))
    sprint_id: Mapped[int | None] = mapped_column(ForeignKey("sprints.id"))
    rank: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[str] = mapped_column(String)
    updated_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)

    __table_args__ = (Index("ix_tickets_sprint_status", "sprint_id", "status"),)


class TicketLabel(Base):
    """A label on a ticket (lower-case words with dashes)."""

    __tablename__ = "ticket_labels"
    ticket_id: Mapped[int] = mapped_column(ForeignKey("tickets.id"), primary_key=True)
    label: Mapped[str] = mapped_column(String, primary_key=True)


class Subtask(Base):
    """A checklist item of a ticket, in ``position`` order."""

    __tablename__ = "subtasks"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ticket_id: Mapped[int] = mapped_column(ForeignKey("tickets.id"))
    position: Mapped[int] = mapped_column(Integer)
    title: Mapped[str] = mapped_column(Text)
    done: Mapped[int] = mapped_column(Integer, default=0)
    world_ref: Mapped[str | None] = mapped_column(String)

    __table_args__ = (UniqueConstraint("ticket_id", "position"),)


class Comment(Base):
    """A comment on a ticket; ``body`` is stored verbatim."""

    __tablename__ = "comments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ticket_id: Mapped[int] = mapped_column(ForeignKey("tickets.id"))
    author_id: Mapped[int] = mapped_column(ForeignKey("people.id"))
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class Activity(Base):
    """One change to a ticket: ``field`` is created/status/sprint/title/description/assignee/priority/labels/
    points/due/comment; ``old``/``new`` are display values (NULL when none). ``meeting`` is the calendar event a
    seeded change followed (a sprint planning, a stand-up)."""

    __tablename__ = "activity"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ticket_id: Mapped[int] = mapped_column(ForeignKey("tickets.id"))
    at: Mapped[str] = mapped_column(String)
    actor_id: Mapped[int] = mapped_column(ForeignKey("people.id"))
    field: Mapped[str] = mapped_column(String)
    old: Mapped[str | None] = mapped_column(Text)
    new: Mapped[str | None] = mapped_column(Text)
    meeting: Mapped[str | None] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)

    __table_args__ = (Index("ix_activity_ticket", "ticket_id", "at"),)
