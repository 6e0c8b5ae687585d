"""Work projects (Project board app): projects from the persona's job, tickets across a sprint cadence,
tied to meetings and work chat.

Work in progress: this module adds no events yet.
"""

from __future__ import annotations

from .context import Sim


def simulate_projects(sim: Sim) -> None:
    """Add this module's events to ``sim`` (none yet)."""
