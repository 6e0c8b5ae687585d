"""SQLAlchemy schema of Hunchline's database: the single source of truth for ``markets.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and must follow these tables. Times are naive
local ISO 8601 strings in the persona's zone; dates ``YYYY-MM-DD``; money is integer cents in the persona's
currency (``meta.currency``). A share of a side pays 100 cents if that side wins and 0 if it loses; the YES price
of a market is in cents (1-99) and NO costs ``100 - YES``. Hunchline charges no fees.

Provenance (what task checks rely on): ``world_ref`` holds the world event id a row projects (a
``forecast_deposit``, ``forecast_trade``, ``forecast_payout``, ``forecast_watch``) or ``seed:<what>``; rows the app
writes (a trade, a deposit, a withdrawal, a watchlist entry) have ``world_ref IS NULL``.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the Hunchline schema."""


class User(appkit.UserRow, Base):
    """The persona, who signs in. ``password_hash`` is ``scrypt$<salt hex>$<hash hex>``."""

    email: Mapped[str] = mapped_column(String)
    opened_at: Mapped[str] = mapped_column(String, doc="when the account was opened (local ISO)")


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``hl_session`` carries ``token``."""


class Category(Base):
    """A market category (``key`` as in builder/reference/forecasts/questions.yaml, ``name`` in the persona's language)."""

    __tablename__ = "categories"
    key: Mapped[str] = mapped_column(String, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    position: Mapped[int] = mapped_column(Integer)


class Market(Base):
    """A yes/no market (builder.world.forecasts.Market). Trading is open while the app's today is before
    ``close_date``; ``status`` at the world's now: ``open``, ``closed`` (awaiting resolution) or ``resolved``
    (``outcome`` yes | no). ``yes_cents``: the latest YES price."""

    __tablename__ = "markets"
    ticker: Mapped[str] = mapped_column(String, primary_key=True)
    category: Mapped[str] = mapped_column(ForeignKey("categories.key"), index=True)
    question: Mapped[str] = mapped_column(String)
    rules: Mapped[str] = mapped_column(Text)
    open_date: Mapped[str] = mapped_column(String)
    close_date: Mapped[str] = mapped_column(String, index=True)
    resolve_date: Mapped[str] = mapped_column(String)
    status: Mapped[str] = mapped_column(String)
    outcome: Mapped[str | None] = mapped_column(String)
    yes_cents: Mapped[int] = mapped_column(Integer)
    volume: Mapped[int] = mapped_column(Integer, doc="shares traded by everyone, a seeded figure")
    local: Mapped[int] = mapped_column(Integer)


class Price(Base):
    """The YES price of a market at the end of a day (cents, 1-99)."""

    __tablename__ = "prices"
    ticker: Mapped[str] = mapped_column(ForeignKey("markets.ticker"), primary_key=True)
    day: Mapped[str] = mapped_column(String, primary_key=True)
    yes_cents: Mapped[int] = mapped_column(Integer)


class Activity(Base):
    """One line of the account's history; ``amount_cents`` is its effect on cash (deposit +, withdrawal -, buy -,
    sell +, payout +), so the balance is their sum. ``kind``: deposit | withdrawal | buy | sell | payout;
    ``reference`` unique per kind (HL-DEP-0001, HL-TRD-0001, HL-PAY-0001, or the app's own); trades and payouts name
    ``ticker``, ``side`` (yes | no), ``shares`` and ``price_cents`` (per share; 100 for a payout);
    transfers carry the bank's ``bank_transaction_id`` and ``account_last4`` when the app made them."""

    __tablename__ = "activity"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    at: Mapped[str] = mapped_column(String, index=True)
    kind: Mapped[str] = mapped_column(String)
    reference: Mapped[str] = mapped_column(String)
    ticker: Mapped[str | None] = mapped_column(ForeignKey("markets.ticker"), index=True)
    side: Mapped[str | None] = mapped_column(String)
    shares: Mapped[int | None] = mapped_column(Integer)
    price_cents: Mapped[int | None] = mapped_column(Integer)
    amount_cents: Mapped[int] = mapped_column(Integer)
    bank_transaction_id: Mapped[int | None] = mapped_column(Integer)
    account_last4: Mapped[str | None] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String, index=True)
    __table_args__ = (UniqueConstraint("kind", "reference"),)


class Position(Base):
    """Shares held of one side of a market: ``shares`` = bought - sold (0 after a full sale); ``cost_cents`` what
    the shares still held cost at average price; ``realized_cents`` profit of sales and payouts so far;
    ``settled`` 1 once the market resolved (a winning side paid ``shares`` x 100)."""

    __tablename__ = "positions"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    ticker: Mapped[str] = mapped_column(ForeignKey("markets.ticker"), primary_key=True)
    side: Mapped[str] = mapped_column(String, primary_key=True)
    shares: Mapped[int] = mapped_column(Integer)
    cost_cents: Mapped[int] = mapped_column(Integer)
    realized_cents: Mapped[int] = mapped_column(Integer)
    settled: Mapped[int] = mapped_column(Integer)


class WatchlistItem(Base):
    """A market on the persona's watchlist."""

    __tablename__ = "watchlist"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    ticker: Mapped[str] = mapped_column(ForeignKey("markets.ticker"), primary_key=True)
    added_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class Meta(appkit.MetaRow, Base):
    """Key/value facts: ``as_of``, ``now``, ``timezone``, ``locale``, ``currency``, ``user_name``."""
