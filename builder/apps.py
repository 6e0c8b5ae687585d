"""The app registry: every folder ``apps/<name>/`` with an ``app.yaml`` is an app.

An app provides ``models.py`` (schema), ``seed.py`` with ``seed(world, path)`` and
``credentials(world)`` (and optionally ``home_files(world, home)``), ``tasks.py`` with
``tasks(world)``, and ``web/`` (its route tree, mounted into the one site, see
:mod:`builder.site`). Folders whose names start with ``_`` (shared packages) are not apps.
"""

from __future__ import annotations

import importlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from builder import yamlfile

REPO = Path(__file__).resolve().parent.parent
APPS_DIR = REPO / "apps"


class AppError(ValueError):
    """An app's ``app.yaml`` is missing a field, has a bad value, or clashes with another app."""


@dataclass(frozen=True)
class App:
    """One app's metadata from ``app.yaml``: served at ``http://<domain>/`` in the guest by the one site."""

    name: str
    title: str
    domain: str
    database: str
    session_cookie: str
    dir: Path
    brand: dict = field(default_factory=dict, compare=False)
    #: Services this app offers every other app (``card-network``: it authorises card payments,
    #: see ``@persona/platform/payments``); each service has at most one provider.
    provides: tuple[str, ...] = ()
    #: The spec's name for this app in ``contacts[].apps`` (``chat`` for the messaging app), and the tables of its
    #: database where a contact listed there shows (all of them when empty): ``builder.coverage`` reads them.
    contact_app: str | None = None
    contact_tables: tuple[str, ...] = ()

    @property
    def url(self) -> str:
        """The app's home URL in the guest."""
        return f"http://{self.domain}/"

    @property
    def guest_database(self) -> str:
        """Absolute path of the app's SQLite file inside the guest."""
        return f"/var/lib/persona-desktop/apps/{self.name}/{self.database}"

    def module(self, part: str) -> ModuleType:
        """Import ``apps.<name>.<part>`` (``seed``, ``tasks``, ``models``)."""
        return importlib.import_module(f"apps.{self.name}.{part}")

    def tables(self) -> tuple[str, ...]:
        """The table names of the app's schema (``models.py``'s ``Base.metadata``), sorted; ``()`` without a ``models.py``.

        The web side refuses a database file that lacks one of them (``@persona/platform/app``).
        """
        if not (self.dir / "models.py").is_file():
            return ()
        return tuple(sorted(self.module("models").Base.metadata.tables))


def _validate(app: App, meta: Path) -> None:
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,30}", app.name):
        raise AppError(
            f"{meta}: app name {app.name!r} must match [a-z][a-z0-9_]* (a Python package, a route segment and a folder name)"
        )
    if not re.fullmatch(r"[a-z0-9.-]+\.test", app.domain):
        raise AppError(f"{meta}: domain {app.domain!r} must be a reserved .test name (RFC 6761)")
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,100}", app.database):
        raise AppError(f"{meta}: database must be a bare file name")


def discover(apps_dir: Path = APPS_DIR, *, selected: bool = True) -> list[App]:
    """Return the apps under ``apps_dir`` sorted by name.

    ``$PERSONA_APPS`` (comma-separated names), when set and ``selected``, keeps only those apps:
    for working on one app without building the others (the full build and CI leave it unset).

    Raises :class:`AppError` on a missing field or bad value in an ``app.yaml``, or when two
    apps share a name, domain, database file or session cookie name (cookies are scoped to each
    app's host, but the oracle agent, the Firefox profile and people reading a cookie jar key by name).
    """
    out = []
    for meta in sorted(Path(apps_dir).glob("*/app.yaml")):
        if meta.parent.name.startswith("_"):
            continue
        data = yamlfile.safe_load(meta.read_text(encoding="utf-8")) or {}
        try:
            app = App(
                name=str(data["name"]),
                title=str(data["title"]),
                domain=str(data["domain"]),
                database=str(data["database"]),
                session_cookie=str(data["session_cookie"]),
                dir=meta.parent,
                brand=dict(data.get("brand") or {}),
                provides=tuple(str(x) for x in (data.get("provides") or [])),
                contact_app=str(data["contact_app"]) if data.get("contact_app") else None,
                contact_tables=tuple(str(x) for x in (data.get("contact_tables") or [])),
            )
        except KeyError as exc:
            raise AppError(f"{meta}: missing field {exc.args[0]}") from None
        except (TypeError, ValueError) as exc:
            raise AppError(f"{meta}: bad value: {exc}") from None
        _validate(app, meta)
        out.append(app)
    only = [n for n in os.environ.get("PERSONA_APPS", "").split(",") if n] if selected else []
    if only:
        unknown = sorted(set(only) - {a.name for a in out})
        if unknown:
            raise AppError(f"PERSONA_APPS names unknown apps: {', '.join(unknown)}")
        out = [a for a in out if a.name in only]
    services = [s for a in out for s in a.provides]
    if len(services) != len(set(services)):
        raise AppError(f"two apps provide the same service: {sorted({s for s in services if services.count(s) > 1})}")
    for attr in ("name", "domain", "database", "session_cookie"):
        values = [getattr(a, attr) for a in out]
        clash = sorted({v for v in values if values.count(v) > 1})
        if clash:
            raise AppError(f"apps share a {attr}: {clash}")
    return out
