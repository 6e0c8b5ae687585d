"""Monthly statements computed from the world's ledger (shared by the bank app and the PDF files)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .finance import month_end
from .model import Posting, World


@dataclass(frozen=True)
class StatementPeriod:
    """One calendar-month statement of one account. Dates inclusive; cents in ledger sign.

    ``closing_cents == opening_cents + credits_cents - debits_cents`` always holds;
    ``debits_cents`` is the positive sum of money leaving the account.
    """

    account: str
    start: dt.date
    end: dt.date
    opening_cents: int
    credits_cents: int
    debits_cents: int
    closing_cents: int
    lines: tuple[Posting, ...]


def statements(world: World, account: str) -> list[StatementPeriod]:
    """Return the statements of ``account`` for every calendar month that ended before ``world.now``.

    The first period starts at ``world.start`` (a partial month if history starts mid-month).
    """
    lines = world.postings(account)
    balance = world.opening_balance_cents(account)
    out = []
    start = world.start.date()
    i = 0
    while True:
        end = month_end(start)
        if end >= world.now.date():
            break
        period = []
        while i < len(lines) and lines[i].at.date() <= end:
            period.append(lines[i])
            i += 1
        credits = sum(p.amount_cents for p in period if p.amount_cents > 0)
        debits = -sum(p.amount_cents for p in period if p.amount_cents < 0)
        closing = balance + credits - debits
        out.append(StatementPeriod(account, start, end, balance, credits, debits, closing, tuple(period)))
        balance = closing
        start = end + dt.timedelta(days=1)
    return out
