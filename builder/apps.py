"""The app registry: every folder ``apps/<name>/`` with an ``app.yaml`` is an app.

An app provides ``models.py`` (schema), ``seed.py`` with ``seed(world, path)`` and
``credentials(world)``, ``tasks.py`` with ``tasks(world)``, and ``web/`` (Next.js).
Folders whose names start with ``_`` (shared packages) are not apps.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import yaml

REPO = Path(__file__).resolve().parent.parent
APPS_DIR = REPO / "apps"


@dataclass(frozen=True)
class App:
    """One app's metadata from ``app.yaml``: served at ``http://<domain>/`` in the guest, Next.js on ``port``."""

    name: str
    title: str
    domain: str
    port: int
    database: str
    session_cookie: str
    dir: Path
    brand: dict = field(default_factory=dict, compare=False)

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


def discover(apps_dir: Path = APPS_DIR) -> list[App]:
    """Return the apps under ``apps_dir`` sorted by name. Raises ``ValueError`` on a malformed ``app.yaml``."""
    out = []
    for meta in sorted(apps_dir.glob("*/app.yaml")):
        if meta.parent.name.startswith("_"):
            continue
        data = yaml.safe_load(meta.read_text(encoding="utf-8"))
        try:
            out.append(App(name=data["name"], title=data["title"], domain=data["domain"], port=int(data["port"]),
                           database=data["database"], session_cookie=data["session_cookie"], dir=meta.parent,
                           brand=data.get("brand", {})))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"{meta}: missing or bad field {exc}") from None
    return out
