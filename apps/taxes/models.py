"""SQLAlchemy schema of Ledgerleaf Tax: the single source of truth for ``taxes.sqlite``.

Money is integer cents of the persona's currency; times are naive local ISO strings.

Provenance (what task checks rely on): ``world_ref`` holds the world event id a row projects (the
``tax_return_filed`` of last year) or ``seed:<what>`` for rows the seed derived (the issued forms); rows the app
writes (this year's return, its values, its imports) have ``world_ref IS NULL``.

A return is one row of ``returns`` per tax year (``status`` ``draft`` | ``filed``, ``step`` the step the persona
left it on); every value typed or imported is one ``return_values`` row (``name`` a field of
``web/lib/fields.ts``, ``value`` the canonical text: cents as an integer string for money), UNIQUE per return.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the Ledgerleaf Tax schema."""


class User(appkit.UserRow, Base):
    """The persona (profile the personal-info step is prefilled from). ``password_hash``: ``scrypt$<salt>$<hash>``."""

    email: Mapped[str] = mapped_column(String)
    phone: Mapped[str] = mapped_column(String)
    birth_date: Mapped[str | None] = mapped_column(String)
    street: Mapped[str] = mapped_column(String)
    city: Mapped[str] = mapped_column(String)
    region: Mapped[str] = mapped_column(String)
    postal_code: Mapped[str] = mapped_column(String)
    occupation: Mapped[str] = mapped_column(String)
    tax_id_last4: Mapped[str] = mapped_column(String, doc="last four digits of the SSN / NI number / Steuer-ID")
    bank_last4: Mapped[str] = mapped_column(String, doc="checking account a refund goes to")


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``ll_session`` carries ``token``."""


class Meta(appkit.MetaRow, Base):
    """``as_of``, ``now``, ``timezone``, ``locale``, ``currency``, ``country``, ``tax_year``, ``year_key``."""


class IssuedForm(Base):
    """A tax form an employer, bank or broker issued for a tax year, ready to import (``boxes``: JSON box -> cents)."""

    __tablename__ = "issued_forms"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tax_year: Mapped[str] = mapped_column(String)
    form: Mapped[str] = mapped_column(String)
    issuer: Mapped[str] = mapped_column(String)
    issued_at: Mapped[str] = mapped_column(String)
    boxes: Mapped[str] = mapped_column(Text)
    world_ref: Mapped[str | None] = mapped_column(String)


class Return(Base):
    """One tax return. ``refund_cents`` > 0 a refund, < 0 owed (set when filed)."""

    __tablename__ = "returns"
    __table_args__ = (UniqueConstraint("user_id", "tax_year"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    tax_year: Mapped[str] = mapped_column(String, doc="label: 2025 or 2025-26")
    year_key: Mapped[str] = mapped_column(String, doc="the rules' year in builder/reference/tax/rules.json")
    country: Mapped[str] = mapped_column(String)
    status: Mapped[str] = mapped_column(String, doc="draft | filed")
    step: Mapped[str] = mapped_column(String, doc="personal | income | deductions | review | file")
    confirmation: Mapped[str | None] = mapped_column(String)
    filed_at: Mapped[str | None] = mapped_column(String)
    tax_cents: Mapped[int | None] = mapped_column(Integer)
    refund_cents: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[str] = mapped_column(String)
    updated_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class ReturnValue(Base):
    """One field of a return as typed or imported (``source``: ``typed`` | ``imported`` | ``profile``)."""

    __tablename__ = "return_values"
    __table_args__ = (UniqueConstraint("return_id", "name"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    return_id: Mapped[int] = mapped_column(ForeignKey("returns.id"))
    name: Mapped[str] = mapped_column(String)
    value: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String)
    updated_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class FormImport(Base):
    """An issued form imported into a return."""

    __tablename__ = "form_imports"
    __table_args__ = (UniqueConstraint("return_id", "form_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    return_id: Mapped[int] = mapped_column(ForeignKey("returns.id"))
    form_id: Mapped[int] = mapped_column(ForeignKey("issued_forms.id"))
    imported_at: Mapped[str] = mapped_column(String)


class Document(Base):
    """A PDF of a filed return (the seeded last year's return), downloadable from the returns list."""

    __tablename__ = "documents"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    return_id: Mapped[int] = mapped_column(ForeignKey("returns.id"))
    filename: Mapped[str] = mapped_column(String)
    content: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[str] = mapped_column(String)
