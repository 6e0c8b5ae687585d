"""SQLAlchemy schema of the Larkspur Bank database: the single source of truth for ``bank.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and must follow these
tables. Money is integer cents. Times are local wall-clock ISO 8601 strings in the
persona's time zone (``YYYY-MM-DDTHH:MM:SS``), dates ``YYYY-MM-DD``.

Sign conventions: ``transactions.amount_cents`` is positive when money enters the
account and negative when it leaves. A credit card's ``balance_cents`` is therefore
negative while money is owed (``-41218`` = $412.18 owed).
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the bank schema."""


class User(appkit.UserRow, Base):
    """A customer who can sign in. ``password_hash`` is ``scrypt$<salt hex>$<hash hex>`` (N=16384, r=8, p=1, 64 bytes)."""

    email: Mapped[str] = mapped_column(String)
    phone: Mapped[str] = mapped_column(String)
    address: Mapped[str] = mapped_column(String)


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``lb_session`` carries ``token``."""


class Account(Base):
    """A deposit or card account. ``kind`` is ``checking``, ``savings`` or ``credit_card``."""

    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    kind: Mapped[str] = mapped_column(String)
    name: Mapped[str] = mapped_column(String)
    number: Mapped[str] = mapped_column(String, unique=True, doc="full account or card number")
    card_number: Mapped[str | None] = mapped_column(
        String,
        doc="16-digit number of the card that spends from it (the credit card's own number, checking's debit card); NULL for savings",
    )
    routing_number: Mapped[str | None] = mapped_column(
        String, doc="US ABA routing number, UK sort code (NN-NN-NN) or German BLZ"
    )
    iban: Mapped[str | None] = mapped_column(String, doc="ISO 13616 IBAN (UK and German accounts), no spaces")
    opened_on: Mapped[str] = mapped_column(String)
    opening_balance_cents: Mapped[int] = mapped_column(Integer, doc="balance at the start of the history")
    balance_cents: Mapped[int] = mapped_column(Integer, doc="current balance, kept equal to opening + sum(amounts)")
    credit_limit_cents: Mapped[int | None] = mapped_column(Integer)
    apr_bps: Mapped[int | None] = mapped_column(Integer, doc="APR in basis points (2349 = 23.49%)")
    card_locked_at: Mapped[str | None] = mapped_column(
        String,
        doc="local ISO time the persona locked the account's card (no new charges: the card network declines them; "
        "refunds still post); NULL unlocked, and for every seeded account",
    )


class Transaction(Base):
    """One posted ledger line of one account.

    ``kind``: ``paycheck``, ``card_purchase``, ``bill_payment``, ``autopay``, ``transfer``,
    ``p2p_sent``, ``p2p_received``, ``card_payment``, ``interest``, ``external_transfer`` (to or from an
    account at another firm: a broker, a prediction market). Both legs of a transfer
    share ``transfer_id``. ``balance_after_cents`` is the account balance after this line
    in (posted_at, id) order.
    """

    __tablename__ = "transactions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    posted_at: Mapped[str] = mapped_column(String, index=True)
    description: Mapped[str] = mapped_column(String)
    counterparty: Mapped[str | None] = mapped_column(String)
    category: Mapped[str] = mapped_column(String)
    kind: Mapped[str] = mapped_column(String)
    amount_cents: Mapped[int] = mapped_column(Integer)
    balance_after_cents: Mapped[int] = mapped_column(Integer)
    transfer_id: Mapped[str | None] = mapped_column(String, index=True)
    memo: Mapped[str | None] = mapped_column(Text)
    world_ref: Mapped[str | None] = mapped_column(
        String, doc="id of the world event this line projects; NULL for lines made in the app"
    )


class CardAuthorization(Base):
    """A card payment another app asked the bank to authorise (the card network, ``/api/internal/card-network``).

    Shown at once as a pending line on the card's account; ``kind`` ``charge`` holds funds (it lowers
    the available balance or credit), ``refund`` is a pending credit. ``amount_cents`` is positive.
    (``app``, ``reference``, ``kind``) is unique: a retried call returns the first authorisation.
    None are seeded: every row is one an app made in this session.
    """

    __tablename__ = "card_authorizations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    authorized_at: Mapped[str] = mapped_column(String, doc="local ISO time of the authorisation")
    kind: Mapped[str] = mapped_column(String, doc="charge | refund")
    app: Mapped[str] = mapped_column(String, doc="the app that took the payment (its folder name)")
    reference: Mapped[str] = mapped_column(String, doc="the app's id of what was paid for (PNR, order number)")
    merchant: Mapped[str] = mapped_column(String, doc="statement descriptor")
    amount_cents: Mapped[int] = mapped_column(Integer)
    category: Mapped[str] = mapped_column(String)
    memo: Mapped[str | None] = mapped_column(Text)
    code: Mapped[str] = mapped_column(String, doc="6-character authorisation code")
    status: Mapped[str] = mapped_column(String, doc="pending")
    __table_args__ = (UniqueConstraint("app", "reference", "kind"),)


class ExternalTransfer(Base):
    """Money another app moved between the persona's checking account and an account at another firm (a broker's
    cash, a prediction market's balance), through ``/api/internal/transfers`` (``@persona/platform/transfers``).

    Each is posted at once as one ledger line on checking (``transaction_id``; ``direction`` ``out`` debits it,
    ``in`` credits it), as an ACH transfer the bank initiated on the persona's instruction would be.
    (``app``, ``reference``, ``direction``) is unique: a retried call returns the first transfer. None are seeded.
    """

    __tablename__ = "external_transfers"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transaction_id: Mapped[int] = mapped_column(ForeignKey("transactions.id"), index=True)
    created_at: Mapped[str] = mapped_column(String, doc="local ISO time")
    direction: Mapped[str] = mapped_column(String, doc="out (from checking) | in (to checking)")
    app: Mapped[str] = mapped_column(String, doc="the app that asked (its folder name)")
    reference: Mapped[str] = mapped_column(String, doc="the app's id of the transfer")
    counterparty: Mapped[str] = mapped_column(String, doc="the firm on the other side, as the ledger line names it")
    amount_cents: Mapped[int] = mapped_column(Integer)
    __table_args__ = (UniqueConstraint("app", "reference", "direction"),)


class Payee(Base):
    """A saved bill-pay payee."""

    __tablename__ = "payees"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String)
    account_number: Mapped[str] = mapped_column(String, doc="the customer's account number at the payee")
    category: Mapped[str] = mapped_column(String)
    __table_args__ = (UniqueConstraint("user_id", "name"),)


class ScheduledPayment(Base):
    """A bill payment waiting for its date: the world's recurring bill-pay and autopay charges (one row each, its next
    occurrence after now; ``world_ref`` that occurrence's event id) and the ones the persona schedules in the app
    (``world_ref`` NULL).

    ``method``: ``bill_pay`` (the bank sends it; amount and date can be changed) or ``autopay`` (the payee draws it
    from the account; it can only be stopped). ``frequency``: ``once`` or ``monthly`` (``day`` the day of the month it
    is due, 1-31: past a month's end on its last day, a weekend on the next business day); ``next_date`` the date it
    goes out (``YYYY-MM-DD``). ``status``: ``scheduled`` or ``cancelled`` (``cancelled_at`` set); ``updated_at`` set
    when the persona changed it.
    """

    __tablename__ = "scheduled_payments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    payee_id: Mapped[int] = mapped_column(ForeignKey("payees.id"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    method: Mapped[str] = mapped_column(String, doc="bill_pay | autopay")
    amount_cents: Mapped[int] = mapped_column(Integer)
    frequency: Mapped[str] = mapped_column(String, doc="once | monthly")
    day: Mapped[int | None] = mapped_column(Integer, doc="day of the month of a monthly payment")
    next_date: Mapped[str] = mapped_column(String)
    memo: Mapped[str | None] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String, default="scheduled")
    created_at: Mapped[str] = mapped_column(String)
    updated_at: Mapped[str | None] = mapped_column(String)
    cancelled_at: Mapped[str | None] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class Contact(Base):
    """A person the customer can send money to (P2P)."""

    __tablename__ = "contacts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String)
    email: Mapped[str] = mapped_column(String)
    phone: Mapped[str] = mapped_column(String)


class Statement(Base):
    """A monthly statement of one account: period dates inclusive, totals in cents.

    ``closing_cents = opening_cents + credits_cents - debits_cents``; ``debits_cents`` is positive.
    """

    __tablename__ = "statements"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    period_start: Mapped[str] = mapped_column(String)
    period_end: Mapped[str] = mapped_column(String)
    opening_cents: Mapped[int] = mapped_column(Integer)
    credits_cents: Mapped[int] = mapped_column(Integer)
    debits_cents: Mapped[int] = mapped_column(Integer)
    closing_cents: Mapped[int] = mapped_column(Integer)
    __table_args__ = (UniqueConstraint("account_id", "period_start"),)


class Meta(appkit.MetaRow, Base):
    """Key/value facts the app needs: ``as_of`` (the frozen today), ``currency``, ``timezone``, ``locale``."""
