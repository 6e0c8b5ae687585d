"""Creating and finishing the SQLite files of a profile, deterministically.

Rules (shared ARCHITECTURE, determinism): journal_mode=DELETE (Firefox switches
places/cookies to WAL itself when it opens them), VACUUM at the end, no clock.
The same inputs and the same SQLite library give byte-identical files.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from .schema import PAGE_SIZE

_SIDECARS = ("", "-wal", "-shm", "-journal")


def new_database(path: Path, ddl: Sequence[str], user_version: int) -> sqlite3.Connection:
    """Create ``path`` afresh (removing any old file and sidecars) with ``ddl``."""
    path = Path(path)
    for suffix in _SIDECARS:
        Path(str(path) + suffix).unlink(missing_ok=True)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    db.execute("PRAGMA journal_mode = DELETE")
    db.execute("BEGIN")
    for statement in ddl:
        db.execute(statement)
    db.execute(f"PRAGMA user_version = {int(user_version)}")
    db.execute("COMMIT")
    return db


def finish(db: sqlite3.Connection, *, analyze: bool = False) -> None:
    """Optionally ANALYZE (Firefox's places.sqlite carries sqlite_stat1), VACUUM, close."""
    try:
        if analyze:
            db.execute("ANALYZE")
        db.execute("VACUUM")
    finally:
        db.close()
