"""Score a task from the apps' end-state databases and the agent's final answer.

The score is the sum of the weights of the rubric items whose checks pass (0..100).
Items without a machine check are left to a judge and reported as ``not_assessable``.

SQL checks run with their ``params`` bound by SQLite on a connection that cannot change
the state it grades: the file is opened read-only, ``PRAGMA query_only`` is on and an
authorizer allows only reading tables and calling functions (no writes, ``ATTACH``,
``PRAGMA`` or transactions). A query that fails (syntax, a refused statement, a wrong
number of parameters) makes its item ``violated`` with SQLite's error as the evidence.
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from .model import Check, Task

_AMOUNT = re.compile(r"(?<![\d.])-?\d{1,3}(?:[,\u202f ]\d{3})*(?:\.\d{2})?(?![\d])|(?<![\d.])-?\d+(?:\.\d{2})?(?![\d])")


# What a check's statement may do: read columns, SELECT, call functions, recurse in a CTE.
_ALLOWED = frozenset({sqlite3.SQLITE_READ, sqlite3.SQLITE_SELECT, sqlite3.SQLITE_FUNCTION,
                      getattr(sqlite3, "SQLITE_RECURSIVE", 33)})
QUERY_SECONDS = 10.0


def _authorize(action: int, *_args) -> int:
    return sqlite3.SQLITE_OK if action in _ALLOWED else sqlite3.SQLITE_DENY


def _read_only(path: Path) -> sqlite3.Connection:
    """Open ``path`` read-only, with writes and attached databases refused by SQLite itself."""
    con = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
    try:
        con.execute("PRAGMA query_only = 1")
        con.set_authorizer(_authorize)
        deadline = time.monotonic() + QUERY_SECONDS  # a runaway query (recursive CTE) is interrupted
        con.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    except BaseException:
        con.close()
        raise
    return con


@dataclass(frozen=True)
class ItemResult:
    """Outcome of one rubric item: ``status`` is ``met``, ``violated`` or ``not_assessable``."""

    item_id: str
    status: str
    weight: int
    evidence: str


def amounts_in(text: str) -> set[int]:
    """All money amounts written in ``text``, as integer cents (``$1,234.5`` is not money; ``1,234.50`` is)."""
    out = set()
    for raw in _AMOUNT.findall(text.replace("\u00a0", " ")):
        digits = raw.replace(",", "").replace(" ", "").replace("\u202f", "")
        whole, _, frac = digits.partition(".")
        out.add(abs(int(whole or 0)) * 100 + int(frac or 0))
    return out


def run_check(check: Check, databases: dict[str, Path], answer: str) -> tuple[bool, str]:
    """Evaluate one check; return (passed, evidence). ``databases`` maps app name -> SQLite path (opened read-only).

    A sql check's ``params`` are bound to its ``?`` placeholders; a failing query returns
    ``(False, <the SQLite error>)`` instead of raising.
    """
    if check.type == "sql":
        path = databases.get(check.app)
        if path is None:
            return False, f"no database for app {check.app!r}"
        try:
            con = _read_only(path)
        except sqlite3.Error as exc:
            return False, f"cannot open the {check.app} database read-only: {exc}"
        try:
            rows = [list(r) for r in con.execute(check.query, check.params).fetchall()]
        except sqlite3.Error as exc:
            return False, f"query failed: {type(exc).__name__}: {exc}"
        finally:
            con.close()
        return rows == check.expected, f"query returned {rows!r}, expected {check.expected!r}"
    if check.type == "answer_amount":
        found = amounts_in(answer)
        return check.cents in found, f"amounts in answer: {sorted(found)}"
    hit = [s for s in check.any_of if s.lower() in answer.lower()]
    return bool(hit), f"found {hit!r}" if hit else "none of the expected strings in the answer"


def grade(task: Task, databases: dict[str, Path], answer: str = "") -> tuple[int, list[ItemResult]]:
    """Return (score 0..100, per-item results) for ``task``."""
    results = []
    for item in task.rubric:
        if item.check is None:
            results.append(ItemResult(item.id, "not_assessable", item.weight, "needs a judge"))
            continue
        ok, evidence = run_check(item.check, databases, answer)
        results.append(ItemResult(item.id, "met" if ok else "violated", item.weight, evidence))
    return sum(r.weight for r in results if r.status == "met"), results
