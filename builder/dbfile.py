"""Reproducible SQLite files for the apps: deterministic DDL order and a canonical finish.

SQLAlchemy's ``create_all`` emits a table's indexes in set order, which varies with
Python's hash seed; here tables go in dependency order and indexes by name, so the
schema (and so the file's bytes) is the same in every process.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import Engine, MetaData, create_engine
from sqlalchemy.schema import CreateIndex, CreateTable


def create(path: Path, metadata: MetaData) -> Engine:
    """Create a new SQLite file at ``path`` with ``metadata``'s tables and indexes; return an engine on it.

    Raises ``FileExistsError`` if ``path`` exists.
    """
    if path.exists():
        raise FileExistsError(path)
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as con:
        for table in metadata.sorted_tables:
            con.execute(CreateTable(table))
            for index in sorted(table.indexes, key=lambda i: i.name):
                con.execute(CreateIndex(index))
    return engine


def finish(path: Path) -> None:
    """Leave ``path`` in rollback-journal mode (no -wal/-shm files) and VACUUMed (canonical page layout)."""
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA journal_mode=DELETE")
        con.execute("VACUUM")
    finally:
        con.close()
