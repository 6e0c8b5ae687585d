"""Cairn (the board)'s steps in the scenarios that chain apps: checks of what the persona did here and the actions
that do it through its own routes (see builder.tasks.steps for the shared rules). The app's whole testing interface:
its tasks.py and oracle.py use these too, and it imports no other app.
"""

from __future__ import annotations

from builder.tasks.oracle import OracleError, Web

APP = "board"


def post(web: Web, path: str, fields: list[tuple[str, str]]) -> str:
    """Post ``fields`` to the board's ``path`` (303 expected); the redirect location. Raises :class:`OracleError` when
    the board answers with an error."""
    _, location = web.post_form(APP, path, fields, expect=(303,))
    if "error=" in location:
        raise OracleError(f"the board refused {path}: {location!r}")
    return location
