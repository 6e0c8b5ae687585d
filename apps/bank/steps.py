"""Larkspur Bank's steps in the long tasks that chain apps: checks of what the persona did here and the
actions that do it through Larkspur Bank's own routes (see builder.tasks.steps for the shared rules).
"""

from __future__ import annotations

from builder.tasks import steps as S
from builder.tasks.model import Check
from builder.tasks.oracle import OracleError, Web


def sent(contact: str, cents: int) -> Check:
    """A payment of ``cents`` from checking to ``contact`` made in the bank."""
    return S.sql(
        "bank",
        """SELECT COUNT(*) FROM transactions WHERE world_ref IS NULL
                          AND account_id = (SELECT id FROM accounts WHERE kind = 'checking') AND amount_cents = ?
                          AND (counterparty = ? OR instr(upper(description), upper(?)) > 0)""",
        [-cents, contact, contact],
        [[1]],
    )


def post(web: Web, path: str, fields: list[tuple[str, str]]) -> None:
    """A Larkspur Bank form (``/api/send``, ``/api/transfer``, ``/api/bills``) that must answer ``done=``."""
    _, location = web.post_form("bank", path, fields, expect=(303,))
    if "done" not in S.query_of(location):
        raise OracleError(f"Larkspur Bank refused {path}: {location!r}")


def account(web: Web, kind: str) -> str:
    return str(web.one("bank", "SELECT id FROM accounts WHERE kind = ?", (kind,)))


def send(web: Web, contact: str, cents: int, memo: str) -> None:
    """Send ``contact`` ``cents`` from checking with ``memo``."""
    who = web.one("bank", "SELECT id FROM contacts WHERE name = ?", (contact,))
    post(
        web,
        "/api/send",
        [("contact", str(who)), ("from", account(web, "checking")), ("amount", f"{cents / 100:.2f}"), ("memo", memo)],
    )


def card_charged(app: str, n: int = 1) -> Check:
    """``n`` card charges from ``app`` reached the bank."""
    return S.sql(
        "bank", "SELECT COUNT(*) >= ? FROM card_authorizations WHERE app = ? AND kind = 'charge'", [n, app], [[1]]
    )


def lock_card(web: Web, last4: str) -> None:
    """Lock the card ending ``last4`` on the Cards page (``/api/cards``, which answers ``locked=<account>``)."""
    found = web.one("bank", "SELECT id FROM accounts WHERE substr(card_number, -4) = ?", (last4,))
    _, location = web.post_form("bank", "/api/cards", [("account", str(found)), ("action", "lock")], expect=(303,))
    if "locked" not in S.query_of(location):
        raise OracleError(f"Larkspur Bank did not lock the card ending {last4}: {location!r}")
