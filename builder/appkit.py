"""What every app's Python side shares: sign-in facts, password hashes and the ``meta`` rows.

An app's ``seed.py`` uses these so that every app signs the persona in the same way (a derived
password and a derived session token per app) and every database tells its web side "today"
the same way (``meta``: ``as_of``, ``now``, ``timezone``, ``locale``, ``currency``).
"""

from __future__ import annotations

import hashlib

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .dates import add_months
from .rng import token
from .world import World


def credentials(world: World, app: str) -> dict[str, str]:
    """``{"username", "password", "session_token"}`` of the persona in app ``app``, derived from the seed.

    The username is the persona's; the password is ``<username>-<8 characters>`` from the stream
    ``<app>/password``; the token 48 characters from ``<app>/session``.
    """
    user = world.persona.identity.username
    return {
        "username": user,
        "password": f"{user}-{token(world.seed, f'{app}/password', length=8)}",
        "session_token": token(world.seed, f"{app}/session", length=48),
    }


def password_hash(password: str, salt: bytes) -> str:
    """``scrypt$<salt hex>$<key hex>`` (scrypt N=16384, r=8, p=1, 64-byte key; RFC 7914), as ``@persona/platform/auth`` verifies."""
    key = hashlib.scrypt(password.encode(), salt=salt, n=16384, r=8, p=1, dklen=64)
    return f"scrypt${salt.hex()}${key.hex()}"


def app_salt(world: World, app: str) -> bytes:
    """16 bytes of salt for the persona's password in ``app`` (stream ``<app>/salt``)."""
    return bytes.fromhex(token(world.seed, f"{app}/salt", length=32))


def session_expiry(world: World) -> str:
    """When a seeded session expires: a year after the world's now (local ISO)."""
    return add_months(world.now, 12).isoformat()


def meta_rows(world: World, **extra: str) -> dict[str, str]:
    """The ``meta`` table of an app database: ``as_of``, ``now``, ``timezone``, ``locale``, ``currency`` and ``extra``."""
    p = world.persona
    rows = {
        "as_of": p.as_of.isoformat(),
        "now": world.now.isoformat(),
        "timezone": p.timezone,
        "locale": p.bank,
        "currency": world.currency,
    }
    rows.update(extra)
    return dict(sorted(rows.items()))


class SessionRow:
    """Columns of the ``sessions`` table every app has (a declarative mixin: ``class Session(SessionRow, Base)``).

    ``token`` is the session cookie's value; ``created_at``/``expires_at`` are local ISO times.
    ``@persona/platform/session`` reads and writes exactly these.
    """

    __tablename__ = "sessions"
    token: Mapped[str] = mapped_column(String, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[str] = mapped_column(String)
    expires_at: Mapped[str] = mapped_column(String)


class MetaRow:
    """Columns of the ``meta`` key/value table every app has (``class Meta(MetaRow, Base)``); rows from :func:`meta_rows`."""

    __tablename__ = "meta"
    key: Mapped[str] = mapped_column(String, primary_key=True)
    value: Mapped[str] = mapped_column(String)


#: ``sort_order`` of the shared columns below: before the app's own (SQLAlchemy puts a mixin's columns after the
#: subclass's otherwise), so ``CREATE TABLE`` lists them first, in the order written here.
_SHARED_FIRST = -1


class UserRow:
    """The first columns of the ``users`` table (a declarative mixin: ``class User(UserRow, Base)``, then the app's
    own columns): ``id``, ``username`` (unique; the persona's, see :func:`credentials`), ``password_hash``
    (:func:`password_hash`), ``full_name``. ``@persona/platform/auth`` signs in against exactly these."""

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, sort_order=_SHARED_FIRST)
    username: Mapped[str] = mapped_column(String, unique=True, sort_order=_SHARED_FIRST)
    password_hash: Mapped[str] = mapped_column(String, sort_order=_SHARED_FIRST)
    full_name: Mapped[str] = mapped_column(String, sort_order=_SHARED_FIRST)


class CardRow:
    """The ``cards`` table of an app that keeps the persona's payment cards on file (``class Card(CardRow, Base)``):
    one row per card of ``builder.world.accounts.payment_cards``. ``account`` is the bank account kind
    (``credit_card`` | ``checking``), ``brand`` the network (``Visa``), ``last4`` the masked number's last four
    digits (what ``@persona/platform/payments`` charges), ``holder`` the name on the card, ``expiry`` ``MM/YY``,
    ``label`` what the app shows, ``is_default`` 1 for the card checkout picks first."""

    __tablename__ = "cards"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, sort_order=_SHARED_FIRST)
    account: Mapped[str] = mapped_column(String, doc="credit_card | checking", sort_order=_SHARED_FIRST)
    brand: Mapped[str] = mapped_column(String, sort_order=_SHARED_FIRST)
    last4: Mapped[str] = mapped_column(String, sort_order=_SHARED_FIRST)
    holder: Mapped[str] = mapped_column(String, sort_order=_SHARED_FIRST)
    expiry: Mapped[str] = mapped_column(String, doc="MM/YY", sort_order=_SHARED_FIRST)
    label: Mapped[str] = mapped_column(String, sort_order=_SHARED_FIRST)
    is_default: Mapped[int] = mapped_column(Integer, default=0, sort_order=_SHARED_FIRST)


class UserCardRow:
    """:class:`CardRow` with ``user_id`` (the owning user) after ``id``, for apps whose cards belong to a user row."""

    __tablename__ = "cards"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, sort_order=_SHARED_FIRST)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), sort_order=_SHARED_FIRST)
    account: Mapped[str] = mapped_column(String, doc="credit_card | checking", sort_order=_SHARED_FIRST)
    brand: Mapped[str] = mapped_column(String, sort_order=_SHARED_FIRST)
    last4: Mapped[str] = mapped_column(String, sort_order=_SHARED_FIRST)
    holder: Mapped[str] = mapped_column(String, sort_order=_SHARED_FIRST)
    expiry: Mapped[str] = mapped_column(String, doc="MM/YY", sort_order=_SHARED_FIRST)
    label: Mapped[str] = mapped_column(String, sort_order=_SHARED_FIRST)
    is_default: Mapped[int] = mapped_column(Integer, default=0, sort_order=_SHARED_FIRST)
