"""Bramblestay's steps in the scenarios that chain apps: the actions the persona takes here through its own routes
(see builder.tasks.steps for the shared rules). The app's whole testing interface: its oracle.py uses these too,
and it imports no other app.
"""

from __future__ import annotations

from builder.tasks.oracle import OracleError, Web

APP = "stays"


def expect_confirmed(location: str, marker: str) -> None:
    """Raise :class:`OracleError` unless Bramblestay's redirect ``location`` carries ``marker`` (its confirmation)."""
    if marker not in location:
        raise OracleError(f"Bramblestay did not confirm ({marker!r} not in {location!r})")


def change_dates(web: Web, confirmation: str, check_in: str, check_out: str) -> None:
    """Change booking ``confirmation`` to run from ``check_in`` to ``check_out`` (ISO dates), as the trip page's
    change form does (confirmed; inside the free-change window)."""
    _, location = web.post_form(
        APP,
        "/api/change",
        [("confirmation", confirmation), ("checkin", check_in), ("checkout", check_out), ("confirm", "yes")],
    )
    expect_confirmed(location, "changed=1")
