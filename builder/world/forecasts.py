"""Forecasts: the persona's prediction-market account (Prediction market app). Markets with price histories,
positions, trades, a balance funded from the bank.

Work in progress: this module adds no events yet.
"""

from __future__ import annotations

from .context import Sim


def simulate_forecasts(sim: Sim) -> None:
    """Add this module's events to ``sim`` (none yet)."""
