"""SQLAlchemy schema of Tidewell's database: the single source of truth for ``brokerage.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and follows these tables. Times are naive local
ISO 8601 (``YYYY-MM-DDTHH:MM:SS``) in the persona's zone, days ``YYYY-MM-DD``; money is integer cents in
``meta.currency``; share counts are integers of 1/10000 share (``shares_e4``: 12.5 shares = 125000).

Provenance (what task checks rely on): ``world_ref`` holds the world event id a row projects (a
``brokerage_*`` event) or ``seed:<what>``; rows the app writes (an order, a transfer, a watchlist entry, a cash
line) have ``world_ref IS NULL``.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the Tidewell schema."""


class User(appkit.UserRow, Base):
    """The persona, who signs in. ``password_hash`` is ``scrypt$<salt hex>$<hash hex>``."""

    email: Mapped[str] = mapped_column(String)


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``tw_session`` carries ``token``."""


class Account(Base):
    """The brokerage account (one row, id 1): number, display name (ISA / Depot for GB / DE personas)."""

    __tablename__ = "account"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[str] = mapped_column(String)
    last4: Mapped[str] = mapped_column(String)
    name: Mapped[str] = mapped_column(String)
    opened_on: Mapped[str] = mapped_column(String)


class Security(Base):
    """A listed security (builder/reference/securities/securities.yaml, the persona's currency). ``yield_bp`` the annual
    dividend yield in basis points; ``pay_months`` comma-separated month numbers; ``split_*`` a split in the
    history (None when none)."""

    __tablename__ = "securities"
    symbol: Mapped[str] = mapped_column(String, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    asset_class: Mapped[str] = mapped_column(String)
    class_label: Mapped[str] = mapped_column(String)
    sector: Mapped[str] = mapped_column(String)
    yield_bp: Mapped[int] = mapped_column(Integer)
    pay_months: Mapped[str] = mapped_column(String)
    split_on: Mapped[str | None] = mapped_column(String)
    split_ratio: Mapped[int | None] = mapped_column(Integer)


class Price(Base):
    """One close per symbol per trading day from the history's start to the world's now (the app's "today")."""

    __tablename__ = "prices"
    __table_args__ = {"sqlite_with_rowid": False}
    symbol: Mapped[str] = mapped_column(String, primary_key=True)
    day: Mapped[str] = mapped_column(String, primary_key=True)
    close_cents: Mapped[int] = mapped_column(Integer)


class Holding(Base):
    """A position now: ``shares_e4`` and its total ``cost_cents`` (average cost); updated by every fill."""

    __tablename__ = "holdings"
    symbol: Mapped[str] = mapped_column(ForeignKey("securities.symbol"), primary_key=True)
    shares_e4: Mapped[int] = mapped_column(Integer)
    cost_cents: Mapped[int] = mapped_column(Integer)


class CashLine(Base):
    """One movement of the account's cash: ``kind`` opening | deposit | withdrawal | buy | sell | dividend;
    ``amount_cents`` signed (+ into cash). The cash balance is their sum."""

    __tablename__ = "cash_ledger"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[str] = mapped_column(String, index=True)
    kind: Mapped[str] = mapped_column(String)
    amount_cents: Mapped[int] = mapped_column(Integer)
    description: Mapped[str] = mapped_column(String)
    reference: Mapped[str | None] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class Order(Base):
    """An order: ``side`` buy | sell; ``order_type`` market | limit | stop | stop_limit; ``status`` open | filled |
    cancelled. Filled: ``filled_at``, ``fill_price_cents``, ``amount_cents`` (shares x price, half up),
    ``cost_basis_cents`` and ``realised_gain_cents`` (sells, average cost). Open buys reserve ``reserved_cents``.
    ``time_in_force`` day | gtc (good 'til canceled; market orders are day orders); ``expires_on`` the last day
    (``YYYY-MM-DD``) an open order works: a day order's trading day, a GTC order's placing day + 90 days. An open
    order past it reads as expired and holds nothing."""

    __tablename__ = "orders"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    order_number: Mapped[str] = mapped_column(String, unique=True)
    placed_at: Mapped[str] = mapped_column(String)
    symbol: Mapped[str] = mapped_column(ForeignKey("securities.symbol"))
    side: Mapped[str] = mapped_column(String)
    order_type: Mapped[str] = mapped_column(String)
    shares_e4: Mapped[int] = mapped_column(Integer)
    limit_cents: Mapped[int | None] = mapped_column(Integer)
    stop_cents: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String)
    filled_at: Mapped[str | None] = mapped_column(String)
    fill_price_cents: Mapped[int | None] = mapped_column(Integer)
    amount_cents: Mapped[int | None] = mapped_column(Integer)
    cost_basis_cents: Mapped[int | None] = mapped_column(Integer)
    realised_gain_cents: Mapped[int | None] = mapped_column(Integer)
    reserved_cents: Mapped[int] = mapped_column(Integer, default=0)
    cancelled_at: Mapped[str | None] = mapped_column(String)
    recurring: Mapped[int] = mapped_column(Integer, default=0)
    time_in_force: Mapped[str] = mapped_column(String, default="day")
    expires_on: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class Dividend(Base):
    """A dividend credited to cash: ``per_share`` decimal text in currency units."""

    __tablename__ = "dividends"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    paid_on: Mapped[str] = mapped_column(String)
    symbol: Mapped[str] = mapped_column(ForeignKey("securities.symbol"))
    shares_e4: Mapped[int] = mapped_column(Integer)
    per_share: Mapped[str] = mapped_column(String)
    amount_cents: Mapped[int] = mapped_column(Integer)
    world_ref: Mapped[str | None] = mapped_column(String)


class Split(Base):
    """A stock split applied to a holding."""

    __tablename__ = "splits"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    day: Mapped[str] = mapped_column(String)
    symbol: Mapped[str] = mapped_column(ForeignKey("securities.symbol"))
    ratio: Mapped[int] = mapped_column(Integer)
    shares_before_e4: Mapped[int] = mapped_column(Integer)
    shares_after_e4: Mapped[int] = mapped_column(Integer)
    world_ref: Mapped[str | None] = mapped_column(String)


class Transfer(Base):
    """A bank transfer: ``direction`` deposit (checking -> Tidewell) | withdrawal; ``reference`` the key the bank's
    line carries (@persona/platform/transfers); ``bank_transaction_id`` the bank's line for app-made ones."""

    __tablename__ = "transfers"
    __table_args__ = (UniqueConstraint("direction", "reference"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[str] = mapped_column(String)
    direction: Mapped[str] = mapped_column(String)
    amount_cents: Mapped[int] = mapped_column(Integer)
    reference: Mapped[str] = mapped_column(String)
    account_last4: Mapped[str] = mapped_column(String)
    recurring: Mapped[int] = mapped_column(Integer, default=0)
    bank_transaction_id: Mapped[int | None] = mapped_column(Integer)
    world_ref: Mapped[str | None] = mapped_column(String)


class RecurringInvestment(Base):
    """The monthly automatic investment: ``amount_cents`` pulled from checking on ``day`` and invested in ``symbol``."""

    __tablename__ = "recurring_investments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    symbol: Mapped[str] = mapped_column(ForeignKey("securities.symbol"))
    amount_cents: Mapped[int] = mapped_column(Integer)
    day: Mapped[int] = mapped_column(Integer)
    active: Mapped[int] = mapped_column(Integer, default=1)
    world_ref: Mapped[str | None] = mapped_column(String)


class WatchItem(Base):
    """A symbol on the watchlist."""

    __tablename__ = "watchlist"
    symbol: Mapped[str] = mapped_column(ForeignKey("securities.symbol"), primary_key=True)
    added_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class Meta(appkit.MetaRow, Base):
    """``as_of``, ``now``, ``timezone``, ``locale``, ``currency``, ``user_name``, ``broker`` (builder.appkit.meta_rows)."""
