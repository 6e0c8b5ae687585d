"""Career (Professional network app): the persona's profile, connections, posts, invitations, recruiter
messages, saved jobs.

Work in progress: this module adds no events yet.
"""

from __future__ import annotations

from .context import Sim


def simulate_career(sim: Sim) -> None:
    """Add this module's events to ``sim`` (none yet)."""
