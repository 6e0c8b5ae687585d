"""Meridian Air's steps in the scenarios that chain apps: checks of what the persona did here and the actions
that do it through its own routes (see builder.tasks.steps for the shared rules). The app's whole testing interface:
its tasks.py and oracle.py use these too, and it imports no other app.
"""

from __future__ import annotations

from builder.tasks.oracle import OracleError

APP = "airline"


def expect_confirmed(location: str, marker: str) -> None:
    """Raise :class:`OracleError` unless Meridian Air's redirect ``location`` carries ``marker`` (its confirmation)."""
    if marker not in location:
        raise OracleError(f"Meridian Air did not confirm ({marker!r} not in {location!r})")
