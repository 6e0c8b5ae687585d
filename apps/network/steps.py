"""Guildline's steps in the scenarios that chain apps: the actions a reference solution takes through Guildline's own
routes (see builder.tasks.steps for the shared rules). The app's whole testing interface: its oracle.py uses these
too, and it imports no other app.
"""

from __future__ import annotations

import urllib.parse

from builder.tasks.oracle import OracleError, Web

APP = "network"


def post(web: Web, path: str, fields: list[tuple[str, str]]) -> str:
    """Post ``fields`` to Guildline's ``path`` (303 expected); the redirect location. Raises :class:`OracleError`
    when Guildline answers with an error."""
    _, location = web.post_form(APP, path, fields, expect=(303,))
    if "error" in urllib.parse.parse_qs(urllib.parse.urlsplit(location).query):
        raise OracleError(f"Guildline refused {path}: {urllib.parse.unquote_plus(location)!r}")
    return location


def person(web: Web, name: str) -> int:
    """The id of the Guildline person called ``name``."""
    return web.one(APP, "SELECT id FROM people WHERE name = ?", (name,))


def message(web: Web, name: str, body: str) -> None:
    """Open (or start) the conversation with ``name`` and send ``body``."""
    location = post(web, "/api/threads", [("person", str(person(web, name)))])
    if not location.startswith("/messaging/"):
        raise OracleError(f"Guildline opened no conversation: {location!r}")
    post(web, "/api/messages", [("thread", location.rsplit("/", 1)[1].split("?")[0]), ("body", body)])


def invitation(web: Web, name: str, action: str) -> None:
    """Answer the invitation to or from ``name``: ``action`` is ``accept`` or ``decline`` (received) or
    ``withdraw`` (sent)."""
    found = web.one(APP, "SELECT i.id FROM invitations i JOIN people p ON p.id = i.person_id WHERE p.name = ?", (name,))
    post(web, "/api/invitations", [("invitation", str(found)), ("action", action)])
