"""SQLAlchemy schema of the __TITLE__ database (``__APP__.sqlite``): the only source of its tables.

Times are local wall-clock ISO 8601 strings in the persona's zone (``YYYY-MM-DDTHH:MM:SS``).
Rows the web app writes have ``world_ref`` NULL; seeded rows carry the world event they
come from, so a task check can tell the agent's work from the seed.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of the __TITLE__ schema."""


class User(Base):
    """The persona. ``password_hash`` is ``scrypt$<salt hex>$<hash hex>`` (see builder.appkit.password_hash)."""

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String, unique=True)
    password_hash: Mapped[str] = mapped_column(String)
    full_name: Mapped[str] = mapped_column(String)
    email: Mapped[str] = mapped_column(String)


class Session(Base):
    """A signed-in browser session; the cookie ``__COOKIE__`` carries ``token``."""

    __tablename__ = "sessions"
    token: Mapped[str] = mapped_column(String, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[str] = mapped_column(String)
    expires_at: Mapped[str] = mapped_column(String)


class Note(Base):
    """A note the persona keeps (the example workflow: replace with the app's own tables)."""

    __tablename__ = "notes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    title: Mapped[str] = mapped_column(String)
    body: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String, nullable=True)


class Meta(Base):
    """Key/value facts the web side reads: ``as_of``, ``now``, ``timezone``, ``locale``, ``currency``."""

    __tablename__ = "meta"
    key: Mapped[str] = mapped_column(String, primary_key=True)
    value: Mapped[str] = mapped_column(String)
