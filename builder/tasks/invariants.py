"""Invariants of an end state: what no task's correct completion may leave behind (a bill paid twice in one cycle, a
table booked twice, money below zero), checked over every end state a reference solution produces.

Every app that can be harmed declares ``INVARIANTS`` in ``apps/<app>/invariants.py``: a name -> a read-only SQL
query whose rows are violations. A violation counts when the end state has a row the start state lacks, so what
the seeded life already holds (a week the persona overdrew) is not blamed on the task. Queries run through the
grader's read-only connection (:func:`builder.tasks.grade.run_check`'s rules: no writes, no ``ATTACH``).
"""

from __future__ import annotations

import importlib
from pathlib import Path


def invariants_of(app: str) -> dict[str, str]:
    """``apps/<app>/invariants.py`` ``INVARIANTS`` (empty when the app has none)."""
    try:
        module = importlib.import_module(f"apps.{app}.invariants")
    except ModuleNotFoundError as e:
        if e.name != f"apps.{app}.invariants":
            raise
        return {}
    return dict(getattr(module, "INVARIANTS", {}))


def _rows(path: Path, query: str) -> set[tuple]:
    from .grade import _read_only

    con = _read_only(path)
    try:
        return {tuple(r) for r in con.execute(query).fetchall()}
    finally:
        con.close()


def broken(initial: dict[str, Path], end: dict[str, Path]) -> list[str]:
    """Every invariant the end state breaks that the start state did not: ``"<app>: <invariant>: <row>"`` lines,
    sorted. ``initial`` and ``end`` map app names to their databases (apps in only one of them are skipped).
    Raises ``sqlite3.Error`` when a query fails (an invariant that cannot run is a defect, not a pass)."""
    out = []
    for app in sorted(set(initial) & set(end)):
        for name, query in sorted(invariants_of(app).items()):
            new = _rows(end[app], query) - _rows(initial[app], query)
            out += [f"{app}: {name}: {row!r}" for row in sorted(new, key=repr)]
    return out


def checked(apps: list[str]) -> int:
    """How many invariants the apps declare (what an audit reports as checked per end state)."""
    return sum(len(invariants_of(a)) for a in apps)
