"""Score a task from the apps' end-state databases and the agent's final answer.

The score is the sum of the weights of the rubric items whose checks pass (0..100).
Items without a machine check are left to a judge and reported as ``not_assessable``.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .model import Check, Task

_AMOUNT = re.compile(r"(?<![\d.])-?\d{1,3}(?:[,\u202f ]\d{3})*(?:\.\d{2})?(?![\d])|(?<![\d.])-?\d+(?:\.\d{2})?(?![\d])")


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
    """Evaluate one check; return (passed, evidence). ``databases`` maps app name -> SQLite path (opened read-only)."""
    if check.type == "sql":
        path = databases.get(check.app)
        if path is None:
            return False, f"no database for app {check.app!r}"
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = [list(r) for r in con.execute(check.query).fetchall()]
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
