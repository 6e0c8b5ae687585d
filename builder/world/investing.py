"""Investing: the persona's brokerage account (Brokerage app). Holdings from the spec (or completed), a daily
price history per symbol, buys/sells, recurring investments funded from checking, dividends, a watchlist.

Work in progress: this module adds no events yet.
"""

from __future__ import annotations

from .context import Sim


def simulate_investing(sim: Sim) -> None:
    """Add this module's events to ``sim`` (none yet)."""
