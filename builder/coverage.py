"""Spec coverage: how many of a persona spec's facts a person at the built desktop can see.

A **fact** is a leaf of the spec as its author wrote it (the JSON file, not the completed spec): a string, a number
or a date at a path such as ``contacts[3].job``. Left out as not facts about the person: ``$schema``, ``id``,
``seed``, ``as_of``, ``history_months``, ``horizon_days``, comment keys (``_...``), booleans (a flag is not text
anyone reads) and a scripted message's ``from`` (``me`` or ``them``: who wrote the message, whose text is the fact;
the word "me" alone would be found anywhere), a contributor's ``chains`` and a contradiction's ``fact`` and ``about``
(pointers to facts written elsewhere in the spec, and notes on them). Every other leaf counts, enums included (``"method": "bill_pay"`` counts, and is seen only if those
words appear: ``bill_pay`` or ``bill pay``).

A fact is **visible** when its value appears in what the build puts on the desktop (``<build>/layer``), read the way
a person could read it:

* every text and number of every table of every SQLite file (the apps' databases, Firefox's history), except what
  no page shows: the ``meta`` and ``sessions`` tables, cells holding a JSON object (the cards the apps' simulated
  people answer from) and the columns :data:`HIDDEN_COLUMNS` names (how a contact writes, how close they are);
* every mail of the Maildir folders, decoded (headers, text and HTML parts, calendar parts, attached documents);
* every document of the home: text, Markdown, JSON, iCalendar, DOCX (python-docx), XLSX (openpyxl, values and
  formulas), ODT/ODS (the text of ``content.xml``), PDF (``pdftotext``).

Not read: the machine's configuration under ``etc/`` (the guest's settings, Firefox's policies) and Firefox's
``prefs.js``: no person reads those. Matching is case-insensitive, on word boundaries, over text whose runs of white
space are folded to one space. A number of one or two digits (a day of the month, a closeness of 5) is too short to
be told apart from any other number and counts as not found. A string matches as itself; a number as any of ``1650``, ``1650.00``, ``1,650.00``, ``1.650,00`` and, for an amount, its cents
(``165000``: databases store money so); a date as ISO ``2026-03-14`` or as the locales write it (``Mar 14, 2026``,
``14 March 2026``, ``14.03.2026``, ``03/14/2026``); a time ``18:30`` as itself or ``6:30 PM``; a number of
shares also as the broker stores it, in 1/10000 shares (``300000`` for 30); an amount under one unit (a prediction
market share's ``price`` of ``0.37``) also as its cents in a database row that holds a sibling fact's number as a
cell (``37`` beside the position's ``140`` shares). A list of strings is one fact per item. A flight number
``TP258`` also matches as airlines print it (``TP 258``). A number is not seen inside a URL or a path
(``?id=120``). A contact's app (``contacts[2].apps[1]``, an app's name) is seen when that contact's name appears in
the database of the app whose ``app.yaml`` declares that ``contact_app`` (in its ``contact_tables`` only, when it
names some, since an app may hold every contact for another reason). This is a lower bound a reader outside the
project would accept: a fact shown in another form (a weekday list as "every Tuesday") counts as not visible.

Usage: ``python -m builder.coverage SPEC.json BUILD_DIR [--missing] [--where]`` (``BUILD_DIR`` is
``<out>/<persona-id>``); prints the count, the visible share, with ``--missing`` each fact not found, with ``--where``
the first place each visible fact shows (to audit the count).
"""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import io
import json
import re
import sqlite3
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

#: Top-level keys that describe the build, not the person; and ``chains``, a contributor's pointers to facts written
#: elsewhere in the spec, with notes on them (the facts pointed at count where they are written).
NOT_FACTS = {"$schema", "id", "seed", "as_of", "history_months", "horizon_days", "chains"}
#: Keys of a top-level list's items that point at another fact or annotate it: a contradiction's ``fact`` (a path)
#: and ``about`` (how the task names it); its ``claim``, ``by``, ``at`` and ``text`` (the message) are facts.
POINTERS = {"contradictions": {"fact", "about"}}
#: Keys at any depth that tell whose a neighbouring fact is rather than a fact of their own.
NOT_FACTS_ANYWHERE = {"from"}

#: Tables and columns of the apps' databases that hold what the simulated people and the apps' logic use, not what a
#: page shows; a fact found only there is not visible.
HIDDEN_TABLES = {"meta", "sessions"}
#: Spec fields that hold an amount of money (written with cents, stored as cents).
MONEY_KEYS = {"amount", "balance", "salary", "opening_balance", "credit_limit", "monthly_payment", "cost_basis",
              "total", "monthly_contribution", "price"}  # fmt: skip
#: Spec fields that count shares (written as numbers, stored by the broker in 1/10000 shares).
SHARE_KEYS = {"shares"}

HIDDEN_COLUMNS = {"style", "messaging_style", "closeness", "password_hash", "session_token"}
#: Firefox's tables (``moz_*``): only what its history, bookmarks and form fill show; the rest is the browser's own
#: bookkeeping (frecency, visit counts, ids, GUIDs), numbers no person reads.
BROWSER_COLUMNS = {"moz_places": {"url", "title"}, "moz_bookmarks": {"title"}, "moz_formhistory": {"value"}}


def _app_sources() -> dict[str, re.Pattern]:
    """Where each contact app (``contacts[].apps``) shows its contacts, as a pattern of a source's path: the
    database of the app whose ``app.yaml`` names it ``contact_app``, only its ``contact_tables`` when it lists
    some (:class:`builder.apps.App`)."""
    from .apps import discover

    out = {}
    for app in discover(selected=False):
        if app.contact_app:
            tables = "|".join(re.escape(t) for t in app.contact_tables) or "[^/]+"
            out[app.contact_app] = re.compile(rf"/{re.escape(app.database)}:({tables})$")
    return out


_CONTACT_APP = re.compile(r"contacts\[(\d+)\]\.apps\[\d+\]")
_FLIGHT = re.compile(r"[A-Z0-9]{2}[0-9]{1,4}")
_SPACE = re.compile(r"\s+")
_TAGS = re.compile(r"<[^>]+>")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME = re.compile(r"^\d{2}:\d{2}$")


@dataclass(frozen=True)
class Fact:
    """One leaf of a spec: its ``path`` (``contacts[3].job``) and ``value`` as written."""

    path: str
    value: str | int | float


def facts(spec: dict) -> list[Fact]:
    """The facts of a spec as its author wrote it (module docstring): every string, number and date leaf outside
    :data:`NOT_FACTS` and comment keys, one per list item, in document order."""
    out: list[Fact] = []

    def walk(node, path: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k.startswith("_") or (not path and k in NOT_FACTS) or k in NOT_FACTS_ANYWHERE:
                    continue
                if k in POINTERS.get(path.split("[")[0], ()) and "." not in path:
                    continue
                walk(v, f"{path}.{k}" if path else k)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{path}[{i}]")
        elif isinstance(node, bool) or node is None:
            return
        elif isinstance(node, (str, int, float)):
            if str(node).strip():
                out.append(Fact(path, node))

    walk(spec, "")
    return out


def _fold(text: str) -> str:
    return _SPACE.sub(" ", text).casefold()


def _numbers(value: Decimal, money: bool) -> set[str]:
    """The ways a number (an amount when ``money``) is written (module docstring)."""
    out = {format(value.normalize(), "f")}
    if value == value.to_integral_value():
        out.add(str(int(value)))
    if not money:
        return out
    two = value.quantize(Decimal("0.01"))
    out |= {f"{two:f}", f"{two:,.2f}", f"{two:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")}
    if value == value.to_integral_value():
        whole = int(value)
        out |= {f"{whole:,}", f"{whole:,}".replace(",", ".")}
    if value == two and abs(value) >= 1:
        out.add(str(int(two * 100)))  # an amount as cents
    return out


def _dates(day: dt.date) -> set[str]:
    months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
              "November", "December"]  # fmt: skip
    month = months[day.month - 1]
    return {
        day.isoformat(),
        f"{month[:3]} {day.day}, {day.year}",
        f"{month} {day.day}, {day.year}",
        f"{day.day} {month} {day.year}",
        f"{day.day} {month[:3]} {day.year}",
        f"{day.day:02d}.{day.month:02d}.{day.year}",
        f"{day.day}.{day.month}.{day.year}",
        f"{day.month:02d}/{day.day:02d}/{day.year}",
        f"{day.month}/{day.day}/{day.year}",
        f"{day.day:02d}/{day.month:02d}/{day.year}",
    }


def forms(value: str | int | float, money: bool = False) -> set[str]:
    """Every written form of a fact's value that counts as seeing it (module docstring), case-folded; ``money``: the
    value is an amount."""
    text = str(value).strip()
    out = {text}
    if _DATE.match(text):
        try:
            out |= _dates(dt.date.fromisoformat(text))
        except ValueError:
            pass
    elif _TIME.match(text):
        h, m = int(text[:2]), int(text[3:])
        out.add(f"{(h - 1) % 12 + 1}:{m:02d} {'PM' if h >= 12 else 'AM'}")
        out.add(f"{(h - 1) % 12 + 1}:{m:02d}{'pm' if h >= 12 else 'am'}")
    elif re.fullmatch(r"[a-z]+(_[a-z]+)+", text):  # an enum's words: bill_pay as "bill pay", in_progress
        out.add(text.replace("_", " "))
    elif not isinstance(value, str) or re.fullmatch(r"-?\d+(\.\d+)?", text):
        try:
            out |= _numbers(Decimal(text), money)
        except InvalidOperation:
            pass
    return {_fold(x) for x in out}


def _sqlite_text(path: Path) -> Iterator[tuple[str, str]]:
    """(``file:table``, the table's visible cells as one text) for each table of a SQLite file (module docstring)."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error:
        return
    try:
        tables = [r[0] for r in con.execute("select name from sqlite_master where type = 'table'")]
        for table in tables:
            if table in HIDDEN_TABLES:
                continue
            quoted = '"' + table.replace('"', '""') + '"'
            cur = con.execute(f"select * from {quoted}")  # noqa: S608 - a table name of the file itself
            shown = [
                i
                for i, d in enumerate(cur.description)
                if d[0] not in HIDDEN_COLUMNS
                and not d[0].endswith("_json")
                and (not table.startswith("moz_") or d[0] in BROWSER_COLUMNS.get(table, ()))
            ]
            rows = []
            for row in cur:
                cells = [row[i] for i in shown]
                rows.append(
                    " | ".join(str(v) for v in cells if v is not None and not isinstance(v, bytes) and not _object(v))
                )
            yield f"{path.name}:{table}", "\n".join(rows)
    except sqlite3.Error:
        return
    finally:
        con.close()


def _object(value) -> bool:
    """Whether a cell holds a JSON object (an app's internal card), not text a page shows."""
    if not isinstance(value, str) or not value.startswith("{"):
        return False
    try:
        return isinstance(json.loads(value), dict)
    except ValueError:
        return False


def _document_text(name: str, data: bytes) -> str:
    """The text of one document (by its name's extension), '' for a kind not read."""
    lower = name.lower()
    try:
        if lower.endswith(".docx"):
            import docx

            d = docx.Document(io.BytesIO(data))
            cells = [c.text for t in d.tables for row in t.rows for c in row.cells]
            return "\n".join([p.text for p in d.paragraphs] + cells)
        if lower.endswith(".xlsx"):
            import openpyxl

            wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
            return "\n".join(
                " ".join(str(v) for v in row if v is not None)
                for ws in wb.worksheets
                for row in ws.iter_rows(values_only=True)
            )
        if lower.endswith((".odt", ".ods", ".odp")):
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                return _TAGS.sub(" ", z.read("content.xml").decode("utf-8", "replace"))
        if lower.endswith(".pdf"):
            run = subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=False)
            return run.stdout.decode("utf-8", "replace")
        if lower.endswith((".html", ".htm")):
            return _TAGS.sub(" ", data.decode("utf-8", "replace"))
        if lower.endswith((".txt", ".md", ".json", ".ics", ".csv", ".xbel", ".ini", ".vcf", ".eml")):
            return data.decode("utf-8", "replace")
    except Exception:  # noqa: BLE001 - a document no reader opens shows nothing
        return ""
    return ""


def _mail_text(data: bytes) -> str:
    msg = email.message_from_bytes(data, policy=email.policy.default)
    parts = [f"{k}: {v}" for k, v in msg.items()]
    for part in msg.walk():
        if part.is_multipart():
            continue
        name = part.get_filename() or ""
        payload = part.get_payload(decode=True) or b""
        kind = part.get_content_type()
        if name:
            parts.append(name)
            parts.append(_document_text(name, payload))
        elif kind == "text/html":
            parts.append(_TAGS.sub(" ", payload.decode(part.get_content_charset() or "utf-8", "replace")))
        elif kind.startswith("text/"):
            parts.append(payload.decode(part.get_content_charset() or "utf-8", "replace"))
    return "\n".join(parts)


def desktop_text(layer: Path) -> list[tuple[str, str]]:
    """Everything readable on the built desktop (module docstring): (source, folded text) pairs, a source being a
    file's path under ``layer`` or ``file:table`` of a database."""
    chunks: list[tuple[str, str]] = []
    for path in sorted(p for p in layer.rglob("*") if p.is_file()):
        name, where = path.name, str(path.relative_to(layer))
        if where.startswith("etc/") or name == "prefs.js":
            continue
        if "/Mail/" in f"/{where}" and path.parent.name in ("cur", "new"):
            chunks.append((where, _mail_text(path.read_bytes())))
        elif name.endswith((".sqlite", ".db", ".sqlite3")):
            chunks.extend(_sqlite_text(path))
        else:
            chunks.append((where, _document_text(name, path.read_bytes())))
    return [(where, _fold(text)) for where, text in chunks if text.strip()]


def _pattern(forms_: set[str]) -> re.Pattern | None:
    """One regular expression for a fact's forms, each on word boundaries; None when every form is a bare number of
    one or two digits (module docstring)."""
    usable = [f for f in forms_ if f and not re.fullmatch(r"-?\d{1,2}", f)]
    if not usable:
        return None

    def bounded(f: str) -> str:
        # A number inside a URL or a path (``?id=120``, ``/12.5/``) is no number anyone reads as the fact.
        if re.fullmatch(r"-?[\d.,]+", f):
            return rf"(?<![\w/=?&#%.]){re.escape(f)}(?![\w/?&#%=]|[.,]\d)"
        return rf"(?<!\w){re.escape(f)}(?!\w)"

    return re.compile("|".join(bounded(f) for f in sorted(usable, key=len, reverse=True)))


def _cents_beside(f: Fact, spec: dict, text: str) -> re.Match | None:
    """Where an amount under one unit (a share's price, ``0.37``) shows as its cents (``37``, too short to count
    alone) in a cell of a database row (one line of ``text``) whose cells also hold each sibling fact that is a whole
    number or one word (the position's ``140`` shares and its side ``yes``); None elsewhere or without such a
    sibling."""
    try:
        value = Decimal(str(f.value))
    except InvalidOperation:
        return None
    if isinstance(f.value, str) or not 0 < value < 1 or value * 100 % 1:
        return None
    node: object = spec
    parts = re.findall(r"[^.\[\]]+|\[\d+\]", f.path)
    for part in parts[:-1]:
        node = node[int(part[1:-1])] if part.startswith("[") else node[part]
    siblings = [
        _fold(str(v))
        for k, v in (node.items() if isinstance(node, dict) else ())
        if k != parts[-1] and ((isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, str) and v.isalpha()))
    ]
    if not siblings:
        return None

    def cell(value: str) -> re.Pattern:
        return re.compile(rf"(?:^|(?<=\| )){re.escape(value)}(?=(?: \|)|$)", re.M)

    others = [cell(v) for v in siblings]
    for found in cell(str(int(value * 100))).finditer(text):
        start = max(text.rfind("\n", 0, found.start()), text.rfind("\x00", 0, found.start())) + 1
        ends = [e for e in (text.find("\n", found.end()), text.find("\x00", found.end())) if e >= 0]
        row = text[start : min(ends) if ends else len(text)]
        if all(o.search(row) for o in others):
            return found
    return None


def coverage(spec: dict, layer: Path) -> tuple[list[tuple[Fact, str]], list[Fact]]:
    """((visible fact, the first source showing it), ...), [facts not found] of ``spec`` on the desktop built into
    ``layer``."""
    import bisect

    chunks = desktop_text(layer)
    starts, parts, at = [], [], 0
    for _, text in chunks:
        starts.append(at)
        parts.append(text)
        at += len(text) + 1
    text = "\x00".join(parts)
    seen, missing, sources = [], [], _app_sources()
    for f in facts(spec):
        key = re.sub(r"\[\d+\]$", "", f.path).rsplit(".", 1)[-1]
        app = _CONTACT_APP.fullmatch(f.path)
        if app:  # the contact's name in that app's own files
            name = _pattern({_fold(spec["contacts"][int(app.group(1))]["name"])})
            place = sources.get(str(f.value))
            where = [(src, t) for src, t in chunks if place and place.search(f"/{src}")]
            hit = next((src for src, t in where if name and name.search(t)), None)
            (missing.append(f) if hit is None else seen.append((f, hit)))
            continue
        values = forms(f.value, money=key in MONEY_KEYS)
        if key == "flight" and _FLIGHT.fullmatch(str(f.value)):
            values.add(_fold(f"{str(f.value)[:2]} {str(f.value)[2:]}"))
        if key in SHARE_KEYS and not isinstance(f.value, str) and Decimal(str(f.value)) * 10000 % 1 == 0:
            values.add(str(int(Decimal(str(f.value)) * 10000)))  # as 1/10000 shares (a broker's holdings)
        pattern = _pattern(values)
        found = pattern.search(text) if pattern else None
        if found is None and key in MONEY_KEYS:
            found = _cents_beside(f, spec, text)
        if found is None:
            missing.append(f)
        else:
            seen.append((f, chunks[bisect.bisect_right(starts, found.start()) - 1][0]))
    return seen, missing


def main(argv: list[str] | None = None) -> int:
    """``python -m builder.coverage SPEC.json BUILD_DIR [--missing] [--where]`` (module docstring). Exit 2 on a bad
    argument."""
    args = list(sys.argv[1:] if argv is None else argv)
    show, where = "--missing" in args, "--where" in args
    args = [a for a in args if a not in ("--missing", "--where")]
    if len(args) != 2:
        print("usage: python -m builder.coverage SPEC.json BUILD_DIR [--missing] [--where]", file=sys.stderr)
        return 2
    spec_path, build = Path(args[0]), Path(args[1])
    layer = build / "layer"
    if not layer.is_dir() or not spec_path.is_file():
        print(f"{build}: no layer/ (build it with --until layer or later), or no spec {spec_path}", file=sys.stderr)
        return 2
    spec = json.loads(spec_path.read_text(encoding="utf-8"))
    seen, missing = coverage(spec, layer)
    total = len(seen) + len(missing)
    print(f"{spec_path.name}: {len(seen)} of {total} facts visible ({100 * len(seen) / max(1, total):.1f} %)")
    if where:
        for f, src in seen:
            print(f"  seen: {f.path} = {f.value!r} in {src}")
    if show:
        for f in missing:
            print(f"  not found: {f.path} = {f.value!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
