"""Guildline's steps in the scenarios that chain apps: the actions a reference solution takes through Guildline's own
routes (see builder.tasks.steps for the shared rules). The app's whole testing interface: its oracle.py uses these
too, and it imports no other app.
"""

from __future__ import annotations

import urllib.parse
from pathlib import Path

from builder.tasks.oracle import OracleError, Web

APP = "network"


def post(web: Web, path: str, fields: list[tuple[str, str]], files: dict[str, tuple[str, bytes]] | None = None) -> str:
    """Post ``fields`` (and ``files``, multipart) to Guildline's ``path`` (303 expected); the redirect location.
    Raises :class:`OracleError` when Guildline answers with an error."""
    _, location = web.post_form(APP, path, fields, expect=(303,), files=files)
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


def connect(web: Web, name: str, note: str) -> None:
    """Invite ``name`` to connect, with ``note`` (the invitation page's Send; "" is Send without a note)."""
    post(web, "/api/invitations", [("action", "send"), ("person", str(person(web, name))), ("note", note)])


def apply(web: Web, slug: str, resume: Path, years: int) -> None:
    """Easy Apply to the job ``slug`` (the world's ``job-<n>``) with the account's email and phone as the form
    prefills them, the file ``resume`` uploaded and ``years`` of work experience."""
    job = web.one(APP, "SELECT id FROM jobs WHERE slug = ?", (slug,))
    email, phone = web.query(APP, "SELECT email, phone FROM users")[0]
    post(
        web,
        f"/api/applications?job={job}",
        [("email", email), ("phone", phone), ("years", str(years))],
        files={"resume": (resume.name, resume.read_bytes())},
    )
