"""Score a task from the end state: the apps' databases, the persona's home folder and the final answer.

The score is the sum of the weights of the rubric items whose checks pass (0..100). ``judge``
items are reported as ``not_assessable`` unless a judge (:mod:`builder.tasks.judge`) assessed them.

SQL checks run with their ``params`` bound by SQLite on a connection that cannot change
the state it grades: the file is opened read-only, ``PRAGMA query_only`` is on and an
authorizer allows only reading tables and calling functions (no writes, ``ATTACH``,
``PRAGMA`` or transactions). A query that fails (syntax, a refused statement, a wrong
number of parameters) makes its item ``violated`` with SQLite's error as the evidence.

``state_diff`` checks compare the database at the start of the episode (``initial``) with its
end state, both opened read-only; ``file`` checks read under ``home`` (the persona's home folder).
"""

from __future__ import annotations

import re
import sqlite3
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .matching import inside, amounts, numbers, occurrences, text_match
from .model import NOT_APPS, Check, Task

# What a check's statement may do: read columns, SELECT, call functions, recurse in a CTE.
_ALLOWED = frozenset(
    {sqlite3.SQLITE_READ, sqlite3.SQLITE_SELECT, sqlite3.SQLITE_FUNCTION, getattr(sqlite3, "SQLITE_RECURSIVE", 33)}
)
QUERY_SECONDS = 10.0


def _authorize(action: int, *_args) -> int:
    return sqlite3.SQLITE_OK if action in _ALLOWED else sqlite3.SQLITE_DENY


def _open_ro(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)


def _read_only(path: Path) -> sqlite3.Connection:
    """Open ``path`` read-only, with writes and attached databases refused by SQLite itself."""
    con = _open_ro(path)
    try:
        con.execute("PRAGMA query_only = 1")
        con.set_authorizer(_authorize)
        deadline = time.monotonic() + QUERY_SECONDS  # a runaway query (recursive CTE) is interrupted
        con.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    except BaseException:
        con.close()
        raise
    return con


#: How the commands report an item's status to people and harnesses (``grade`` and ``run-task`` alike).
REPORTED = {"met": "met", "violated": "unmet", "not_assessable": "needs_judge"}


@dataclass(frozen=True)
class ItemResult:
    """Outcome of one rubric item: ``status`` is ``met``, ``violated`` or ``not_assessable``."""

    item_id: str
    status: str
    weight: int
    evidence: str


def amounts_in(text: str) -> set[int]:
    """Every amount of money ``text`` states with its currency, as integer cents (:func:`.matching.amounts`)."""
    return amounts(text)


def numbers_in(text: str) -> set[int]:
    """Whole numbers ``text`` states on their own (:func:`.matching.numbers`)."""
    return numbers(text)


# --- state diff ---------------------------------------------------------------------------------


def _table_rows(con: sqlite3.Connection, table: str) -> tuple[list[str], dict[tuple, tuple]]:
    """``(columns, {key: row})`` of ``table``: keyed by ``rowid``, or by the primary key of a WITHOUT ROWID table."""
    q = '"' + table.replace('"', '""') + '"'
    cols = [r[1] for r in con.execute(f"PRAGMA table_info({q})")]
    try:
        cur = con.execute(f"SELECT rowid, * FROM {q}")
        return cols, {(r[0],): tuple(r[1:]) for r in cur}
    except sqlite3.OperationalError:  # WITHOUT ROWID: key on the declared primary key
        info = con.execute(f"PRAGMA table_info({q})").fetchall()
        pk = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5]]
        idx = [cols.index(c) for c in pk]
        return cols, {tuple(r[i] for i in idx): tuple(r) for r in con.execute(f"SELECT * FROM {q}")}


def _tables(con: sqlite3.Connection) -> list[str]:
    return [
        r[0]
        for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
    ]


def state_changes(before: Path, after: Path) -> list[tuple[str, str, tuple, frozenset[str]]]:
    """Every row change from database ``before`` to ``after``: ``(table, op, key, changed columns)``.

    ``op`` is ``insert``, ``update`` or ``delete`` (``changed columns`` is empty but for updates); a
    table created or dropped is reported as ``("<table>", "create"|"drop", (), {})``. Rows are keyed
    by ``rowid`` (the primary key of a WITHOUT ROWID table). Both files are opened read-only.
    Raises ``sqlite3.Error`` when either is not a database.
    """
    a, b = _open_ro(before), _open_ro(after)
    try:
        ta, tb = _tables(a), _tables(b)
        out: list[tuple[str, str, tuple, frozenset[str]]] = []
        out += [(t, "drop", (), frozenset()) for t in ta if t not in tb]
        out += [(t, "create", (), frozenset()) for t in tb if t not in ta]
        for t in (t for t in ta if t in tb):
            cols_a, rows_a = _table_rows(a, t)
            cols_b, rows_b = _table_rows(b, t)
            for key in sorted(rows_a.keys() - rows_b.keys(), key=repr):
                out.append((t, "delete", key, frozenset()))
            for key in sorted(rows_b.keys() - rows_a.keys(), key=repr):
                out.append((t, "insert", key, frozenset()))
            for key in sorted(rows_a.keys() & rows_b.keys(), key=repr):
                ra, rb = dict(zip(cols_a, rows_a[key])), dict(zip(cols_b, rows_b[key]))
                changed = frozenset(c for c in ra.keys() | rb.keys() if ra.get(c) != rb.get(c))
                if changed:
                    out.append((t, "update", key, changed))
        return out
    finally:
        a.close()
        b.close()


def _state_diff(check: Check, before: Path, after: Path) -> tuple[bool, str]:
    try:
        changes = state_changes(before, after)
    except sqlite3.Error as exc:
        return False, f"cannot compare the {check.app} databases: {exc}"
    ignore = set(check.ignore or ())
    counts = [0] * len(check.changes)
    stray = []
    for table, op, key, cols in changes:
        if table in ignore:
            continue
        for n, allowed in enumerate(check.changes):
            if (
                allowed.table == table
                and allowed.op == op
                and (op != "update" or allowed.columns is None or cols <= set(allowed.columns))
            ):
                counts[n] += 1
                break
        else:
            what = f"{op} {table} {key}" + (f" ({', '.join(sorted(cols))})" if cols else "")
            stray.append(what)
    short = [
        f"{c.op} {c.table}: {n} row(s), wanted {c.min}..{c.max if c.max is not None else 'any'}"
        for c, n in zip(check.changes, counts)
        if n < c.min or (c.max is not None and n > c.max)
    ]
    if stray or short:
        more = f" (+{len(stray) - 5} more)" if len(stray) > 5 else ""
        return False, "; ".join(short + ([f"changes not asked for: {', '.join(stray[:5])}{more}"] if stray else []))
    return True, "; ".join(f"{c.op} {c.table}: {n}" for c, n in zip(check.changes, counts))


# --- files ---------------------------------------------------------------------------------------


def _zip_names(path: Path) -> list[str]:
    try:
        with zipfile.ZipFile(path) as z:
            return z.namelist()
    except zipfile.BadZipFile:
        return []


def file_kind(path: Path) -> str:
    """What ``path`` holds by its bytes: ``pdf``, ``ods``, ``odt``, ``xlsx``, ``docx``, ``ics`` or ``text``
    (``other`` when none of them)."""
    head = path.read_bytes()[:4096]
    if head.startswith(b"%PDF-"):
        return "pdf"
    if head.startswith(b"PK"):
        names = _zip_names(path)
        if "mimetype" in names:
            with zipfile.ZipFile(path) as z:
                mime = z.read("mimetype").decode("ascii", "replace").strip()
            return {
                "application/vnd.oasis.opendocument.spreadsheet": "ods",
                "application/vnd.oasis.opendocument.text": "odt",
            }.get(mime, "other")
        if any(n.startswith("xl/") for n in names):
            return "xlsx"
        if any(n.startswith("word/") for n in names):
            return "docx"
        return "other"
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        return "other"
    return "ics" if text.lstrip().startswith("BEGIN:VCALENDAR") else "text"


def file_contents(path: Path, kind: str) -> tuple[str, list[str], bool]:
    """``(text, formulas, has_chart)`` of a document: a PDF's text (pypdf), a text document's paragraphs
    and tables (odfpy, python-docx), a spreadsheet's cell values and formulas (odfpy, openpyxl)."""
    if kind == "pdf":
        from pypdf import PdfReader

        return "\n".join(p.extract_text() or "" for p in PdfReader(path).pages), [], False
    if kind in ("ods", "odt"):
        from odf import opendocument, table, teletype
        from odf import text as odftext

        doc = opendocument.load(str(path))
        parts = [teletype.extractText(p) for p in doc.getElementsByType(odftext.P)]
        formulas = [
            c.getAttribute("formula") for c in doc.getElementsByType(table.TableCell) if c.getAttribute("formula")
        ]
        parts += formulas
        chart = any("chart" in (m.get("media-type") or "") for m in _odf_manifest(path))
        return "\n".join(parts), formulas, chart
    if kind == "xlsx":
        import openpyxl

        wb = openpyxl.load_workbook(path, data_only=False)
        values, formulas = [], []
        for ws in wb.worksheets:
            for row in ws.iter_rows():
                for c in row:
                    if c.value is None:
                        continue
                    values.append(str(c.value))
                    if isinstance(c.value, str) and c.value.startswith("="):
                        formulas.append(c.value)
        chart = any(n.startswith("xl/charts/chart") for n in _zip_names(path))
        return "\n".join(values), formulas, chart
    if kind == "docx":
        import docx

        d = docx.Document(str(path))
        parts = [p.text for p in d.paragraphs]
        parts += [cell.text for t in d.tables for row in t.rows for cell in row.cells]
        return "\n".join(parts), [], False
    return path.read_text(encoding="utf-8", errors="replace"), [], False


def _odf_manifest(path: Path) -> list[dict[str, str]]:
    import xml.etree.ElementTree as ET

    ns = "{urn:oasis:names:tc:opendocument:xmlns:manifest:1.0}"
    with zipfile.ZipFile(path) as z:
        try:
            root = ET.fromstring(z.read("META-INF/manifest.xml"))
        except KeyError:
            return []
    return [
        {"path": e.get(f"{ns}full-path") or "", "media-type": e.get(f"{ns}media-type") or ""}
        for e in root.iter(f"{ns}file-entry")
    ]


def _file(check: Check, home: Path | None) -> tuple[bool, str]:
    if home is None:
        return False, "no home folder to read files from"
    matches = sorted((p for p in Path(home).glob(check.path) if p.is_file()), key=lambda p: (p.stat().st_mtime, str(p)))
    if not matches:
        return False, f"no file matches ~/{check.path}"
    path = matches[-1]
    rel = path.relative_to(home)
    kind = file_kind(path)
    want = check.kind or "any"
    if want != "any" and kind != want and not (want == "text" and kind == "ics"):
        return False, f"~/{rel} is {kind}, not {want}"
    if not (check.contains or check.formulas or check.chart):
        return True, f"~/{rel} ({kind})"
    try:
        text, formulas, chart = file_contents(path, kind)
    except Exception as exc:  # noqa: BLE001 -- any reader error of a damaged document fails the check, never the grader
        return False, f"cannot read ~/{rel}: {type(exc).__name__}: {exc}"
    missing = [s for s in (check.contains or []) if s.lower() not in text.lower()]
    funcs = " ".join(formulas).upper()
    missing_f = [f for f in (check.formulas or []) if re.search(rf"\b{re.escape(f.upper())}\s*\(", funcs) is None]
    problems = (
        ([f"missing text {missing!r}"] if missing else [])
        + ([f"no formula using {missing_f!r}"] if missing_f else [])
        + (["no chart"] if check.chart and not chart else [])
    )
    return not problems, f"~/{rel} ({kind}): " + ("; ".join(problems) if problems else "holds what it must")


# --- answers -------------------------------------------------------------------------------------


def _answer_list(check: Check, answer: str) -> tuple[bool, str]:
    """Every item named at a place of its own (two items that share a spelling, "Adam", need two mentions; an item
    listed twice is one item), none of ``reject`` outside an item's mention, in order when ``ordered``."""
    reject = [str(r) for r in check.reject or ()]
    bad_spans = [sp for r in reject for sp in occurrences(answer, r)]
    items = list(dict.fromkeys(tuple(i) for i in check.items))
    spans = {i: sorted(sp for s in i for sp in occurrences(answer, s) if not inside(sp, bad_spans)) for i in items}
    used: list[tuple[int, int]] = []
    first: dict[tuple, int] = {}
    # Items with the fewest mentions choose first; each takes its earliest mention no other item took.
    for item in sorted(items, key=lambda i: (len(spans[i]), items.index(i))):
        free = [sp for sp in spans[item] if not any(sp[0] < b and a < sp[1] for a, b in used)]
        if free:
            used.append(free[0])
            first[item] = free[0][0]
    missing = [i[0] for i in items if i not in first]
    wrong = [r for r in reject if any(not inside(sp, used) for sp in occurrences(answer, r))]
    if missing:
        return False, f"not named: {missing!r}"
    if wrong:
        return False, f"also names other candidates: {wrong!r}"
    order = [first[i] for i in items]
    if check.ordered and order != sorted(order):
        return False, "every item named, but not in the asked order"
    return True, "every item named" + (" in order" if check.ordered else "")


def run_check(
    check: Check,
    databases: dict[str, Path],
    answer: str,
    *,
    initial: dict[str, Path] | None = None,
    home: Path | None = None,
) -> tuple[bool, str]:
    """Evaluate one machine check; return (passed, evidence). ``databases`` maps app name -> SQLite path (opened read-only).

    A sql check's ``params`` are bound to its ``?`` placeholders; a failing query returns
    ``(False, <the SQLite error>)`` instead of raising. ``initial`` (app -> the database at the start)
    serves state_diff checks, ``home`` file checks; without them those checks fail with a reason.
    Raises ``ValueError`` for a ``judge`` check (a program does not judge it).
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
    if check.type == "state_diff":
        before, after = (initial or {}).get(check.app), databases.get(check.app)
        if before is None or after is None:
            return False, f"no {'initial' if before is None else 'end'} database for app {check.app!r}"
        return _state_diff(check, before, after)
    if check.type == "file":
        return _file(check, home)
    if check.type == "answer_amount":
        found = amounts(answer)
        wrong = sorted(found & {abs(int(r)) for r in check.reject or ()} - {check.cents})
        ok = check.cents in found and not wrong
        return ok, f"amounts in answer: {sorted(found)}" + (f"; other candidates named: {wrong}" if wrong else "")
    if check.type == "answer_number":
        found = numbers(answer)
        wrong = sorted(found & {int(r) for r in check.reject or ()} - {check.value})
        ok = check.value in found and not wrong
        return ok, f"numbers in answer: {sorted(found)[:20]}" + (f"; other candidates named: {wrong}" if wrong else "")
    if check.type == "answer_list":
        return _answer_list(check, answer)
    if check.type == "answer_text":
        ok, hit, wrong = text_match(answer, check.any_of, [str(r) for r in check.reject or ()])
        if wrong:
            return False, f"names other candidates {wrong!r}" + (f" besides {hit!r}" if hit else "")
        return ok, f"found {hit!r}" if hit else "none of the expected spellings in the answer (whole words)"
    raise ValueError(f"a {check.type} check is not for a program to judge")


# A judge: (task, rubric item, evidence text) -> (met, the judge's reason), or None when it gives no verdict.
Judge = Callable[[Task, "object", str], "tuple[bool, str] | None"]


def describe_changes(before: Path, after: Path, limit: int = 30) -> list[str]:
    """Up to ``limit`` lines saying what changed from ``before`` to ``after``: each inserted or updated
    row with its values (text cut at 300 characters), each deleted row's key. For a judge's evidence."""
    lines = []
    a, b = _open_ro(before), _open_ro(after)
    try:
        for table, op, key, cols in state_changes(before, after)[:limit]:
            if op in ("insert", "update"):
                names = [r[1] for r in b.execute(f'PRAGMA table_info("{table.replace(chr(34), chr(34) * 2)}")')]
                row = (
                    b.execute(
                        f'SELECT * FROM "{table.replace(chr(34), chr(34) * 2)}" WHERE rowid = ?', (key[0],)
                    ).fetchone()
                    if len(key) == 1
                    else None
                )
                values = {
                    n: (v[:300] if isinstance(v, str) else v)
                    for n, v in zip(names, row or ())
                    if not isinstance(v, bytes) and (op == "insert" or n in cols)
                }
                lines.append(f"{op} {table}: {values}")
            else:
                lines.append(f"{op} {table} {key}")
    except sqlite3.Error as exc:
        lines.append(f"(cannot list the changes: {exc})")
    finally:
        a.close()
        b.close()
    return lines


def evidence_for(task: Task, databases: dict[str, Path], answer: str, initial: dict[str, Path] | None) -> str:
    """The evidence a judge reads for ``task``: the final answer and, per app with both states, what changed."""
    parts = [f"Final answer of the agent:\n{answer.strip() or '(none)'}"]
    for app in task.apps_involved:
        if initial and app in initial and app in databases:
            changes = describe_changes(initial[app], databases[app])
            parts.append(f"Changes in the {app} app:\n" + ("\n".join(changes) if changes else "(none)"))
    return "\n\n".join(parts)


def graded_apps(task: Task) -> list[str]:
    """The apps whose databases grading ``task`` reads: its ``apps_involved`` (files and the browser aside), then every
    other app a sql or state_diff check names (an app the task's actions write into through a service, such as the
    bank a booking charges), in rubric order."""
    out = [a for a in task.apps_involved if a not in NOT_APPS]
    for item in task.rubric:
        c = item.check
        if c is not None and c.type in ("sql", "state_diff") and c.app not in out:
            out.append(c.app)
    return out


def grade(
    task: Task,
    databases: dict[str, Path],
    answer: str = "",
    *,
    initial: dict[str, Path] | None = None,
    home: Path | None = None,
    judge: Judge | None = None,
) -> tuple[int, list[ItemResult]]:
    """Return (score 0..100, per-item results) for ``task``.

    ``databases``: app name -> the end state's SQLite file; ``initial``: app -> the file at the start
    of the episode (state_diff checks); ``home``: the persona's home folder (file checks); ``judge``:
    called for ``judge`` items only (see :mod:`builder.tasks.judge`); without it they are ``not_assessable``.
    """
    results = []
    judge_evidence = None
    for item in task.rubric:
        if not item.check.machine:
            if judge and judge_evidence is None:
                judge_evidence = evidence_for(task, databases, answer, initial)
            verdict = judge(task, item, judge_evidence) if judge else None
            if verdict is None:
                results.append(ItemResult(item.id, "not_assessable", item.weight, "needs a judge"))
            else:
                ok, why = verdict
                results.append(ItemResult(item.id, "met" if ok else "violated", item.weight, f"judge: {why}"))
            continue
        ok, evidence = run_check(item.check, databases, answer, initial=initial, home=home)
        results.append(ItemResult(item.id, "met" if ok else "violated", item.weight, evidence))
    return sum(r.weight for r in results if r.status == "met"), results
