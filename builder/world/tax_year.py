"""The previous tax year computed from the ledger (Tax filing app): wages and withholding, interest,
dividends and realised gains, deductions; the year-end tax forms.

Work in progress: this module adds no events yet.
"""

from __future__ import annotations

from .context import Sim


def simulate_tax_year(sim: Sim) -> None:
    """Add this module's events to ``sim`` (none yet)."""
