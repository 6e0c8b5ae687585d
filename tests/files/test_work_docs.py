"""The documents of a working life (builder.files.work_docs) and the desktop touches (builder.files.desktop).

An expense report's totals, computed from its formulas (by LibreOffice, and by a small evaluator over the
cells), equal what the bank database shows for the trip's charges; LibreOffice opens every office file of
the layer's home; the recent-files lists parse and name only files that exist; two builds write the same
bytes and times.
"""

from __future__ import annotations

import csv
import re
import shutil
import sqlite3
import subprocess
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path
from urllib.parse import unquote

import pytest
from openpyxl import load_workbook

from apps.bank.seed import seed as seed_bank
from builder.files import desktop, work_docs
from builder.files.travel_docs import folios

from tests.conftest import REPO, _world

SOFFICE = shutil.which("soffice")
needs_soffice = pytest.mark.skipif(
    SOFFICE is None,
    reason="LibreOffice (soffice) is not installed: apt-get install libreoffice-calc libreoffice-writer",
)
OFFICE = (".odt", ".docx", ".ods", ".xlsx")


def _home(world, root: Path) -> Path:
    """A home with the hotel folios (as Bramblestay's hook writes them) and the work documents."""
    home = root / "home"
    home.mkdir(parents=True)
    folios(world, home)
    work_docs.work_docs(world, home)
    return home


# ---------------------------------------------------------------------------------------- formula evaluation


def _evaluate(ws) -> dict[str, Decimal]:
    """Every cell's value by evaluating the sheet's formulas (SUM, AVERAGE, ranges, refs, + and -)."""
    raw = {c.coordinate: c.value for row in ws.iter_rows() for c in row if c.value is not None}
    done: dict[str, Decimal] = {}

    def value(ref: str) -> Decimal:
        if ref not in done:
            v = raw.get(ref)
            if isinstance(v, str) and v.startswith("="):
                done[ref] = formula(v[1:])
            elif isinstance(v, (int, float, Decimal)):
                done[ref] = Decimal(str(v))
            else:
                done[ref] = Decimal(0)
        return done[ref]

    def cells(a: str, b: str) -> list[Decimal]:
        from openpyxl.utils import range_boundaries

        c1, r1, c2, r2 = range_boundaries(f"{a}:{b}")
        from openpyxl.utils import get_column_letter

        return [
            value(f"{get_column_letter(c)}{r}")
            for r in range(r1, r2 + 1)
            for c in range(c1, c2 + 1)
            if f"{get_column_letter(c)}{r}" in raw
        ]

    def formula(text: str) -> Decimal:
        m = re.fullmatch(r"(SUM|AVERAGE)\((.*)\)", text)
        if m:
            vals = []
            for arg in m.group(2).split(","):
                if ":" in arg:
                    vals += cells(*arg.split(":"))
                else:
                    vals.append(value(arg))
            return sum(vals, Decimal(0)) if m.group(1) == "SUM" else sum(vals, Decimal(0)) / len(vals)
        m = re.fullmatch(r"([A-Z]+[0-9]+)(?:([-+])([A-Z]+[0-9]+))?", text)
        assert m, f"formula the evaluator does not know: ={text}"
        out = value(m.group(1))
        if m.group(2):
            out = out - value(m.group(3)) if m.group(2) == "-" else out + value(m.group(3))
        return out

    return {ref: value(ref) for ref in raw}


def _report_totals(ws, values) -> tuple[Decimal, dict[str, Decimal]]:
    """(grand total, {subtotal label: value}) of a report sheet, read by the labels beside the formulas."""
    grand, subs = None, {}
    for row in ws.iter_rows():
        for c in row:
            if isinstance(c.value, str) and c.value.startswith("=SUM(") and c.column == 3:
                grand = values[c.coordinate]
            if isinstance(c.value, str) and c.value.startswith("=SUM(F"):
                label = ws.cell(c.row, 2).value
                subs[label] = values[c.coordinate]
    return grand, subs


@pytest.mark.parametrize("stem", ["dana-whitfield", "jana-petersen"])
def test_expense_report_totals_equal_the_banks_charges_for_the_trip(stem, tmp_path):
    _, world = _world(stem)
    home = _home(world, tmp_path)
    trips = work_docs.business_trips(world)
    assert trips, "every shipped persona has a past business trip"
    bank = sqlite3.connect(seed_bank(world, tmp_path / "bank.sqlite"))
    w = work_docs.words(world)
    for trip in trips:
        events = [
            e.id
            for e in world.events
            if isinstance(e.data, dict)
            and e.data.get("trip") == trip.index
            and e.kind != "p2p_payment"
            and e.status == "done"
        ]
        marks = ",".join("?" * len(events))
        bank_cents = -bank.execute(
            f"SELECT SUM(amount_cents) FROM transactions WHERE world_ref IN ({marks})", events
        ).fetchone()[0]
        per_cat = {}
        for ch in trip.charges:
            per_cat[ch.category] = per_cat.get(ch.category, 0) + ch.cents
        assert sum(per_cat.values()) == bank_cents
        folder = home / work_docs.trip_folder(world, trip)
        stem_ = work_docs.report_stem(world, trip)
        ws = load_workbook(folder / f"{stem_}.xlsx").active
        grand, subs = _report_totals(ws, _evaluate(ws))
        assert grand == Decimal(bank_cents) / 100, (trip.destination, grand, bank_cents)
        assert subs == {w["subtotal"].format(category=w["categories"][k]): Decimal(v) / 100 for k, v in per_cat.items()}
        # Meals, rides and the fare are in; the hotel's receipt is Bramblestay's folio in Downloads.
        assert {"airfare", "lodging", "ground", "meals"} <= set(per_cat)
        receipts = {c.value for c in ws["G"] if isinstance(c.value, str)}
        folio = next(r for r in receipts if r.startswith("~/Downloads/"))
        assert (home / folio.removeprefix("~/")).is_file()
        pdfs = sorted(p.name for p in folder.glob("*.pdf"))
        assert pdfs and set(pdfs) <= receipts
        assert not any("Folio" in p or "Hotelrechnung" in p for p in pdfs)  # never duplicated


@needs_soffice
def test_libreoffice_computes_the_same_totals(world, tmp_path):
    home = _home(world, tmp_path)
    trip = work_docs.business_trips(world)[0]
    folder = home / work_docs.trip_folder(world, trip)
    stem = work_docs.report_stem(world, trip)
    out = tmp_path / "csv"
    for suffix in (".xlsx", ".ods"):
        # Comma-separated, quoted, UTF-8 (76), raw values (not as shown): what LibreOffice computed on loading the file.
        _soffice(
            tmp_path,
            "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false",
            out / suffix[1:],
            [folder / f"{stem}{suffix}"],
        )
        with open(out / suffix[1:] / f"{stem}.csv", encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        label = work_docs.words(world)["total"]
        totals = [Decimal(r[k]) for r in rows if len(r) > 5 and r[1] == label for k in (2, 5) if r[k]]
        assert totals == [Decimal(trip.total_cents) / 100] * 2, (suffix, totals)
        subtotals = sum(
            Decimal(r[5])
            for r in rows
            if len(r) > 5 and r[1].startswith(work_docs.words(world)["subtotal"].split("{")[0]) and r[5]
        )
        assert subtotals == Decimal(trip.total_cents) / 100


def _soffice(tmp_path: Path, fmt: str, outdir: Path, files: list[Path]) -> subprocess.CompletedProcess:
    profile = tmp_path / "lo-profile"
    return subprocess.run(
        [
            SOFFICE,
            f"-env:UserInstallation=file://{profile}",
            "--headless",
            "--norestore",
            "--convert-to",
            fmt,
            "--outdir",
            str(outdir),
            *map(str, files),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )


# ---------------------------------------------------------------------------------------- the layer's home


def _layer_home(layer: Path) -> Path:
    return next((layer / "home").iterdir())


@needs_soffice
def test_libreoffice_converts_every_office_file_of_the_home(default_layer, tmp_path):
    home = _layer_home(default_layer)
    files = sorted(p for p in home.rglob("*") if p.suffix in OFFICE and ".config" not in p.parts)
    assert any(p.suffix == ".xlsx" for p in files) and any(p.suffix == ".ods" for p in files)
    # Same-named files in different folders would overwrite each other's PDF: one batch per stem set.
    batches: list[list[Path]] = []
    for f in files:
        batch = next((b for b in batches if all(x.stem != f.stem for x in b)), None)
        if batch is None:
            batches.append(batch := [])
        batch.append(f)
    for n, batch in enumerate(batches):
        out = tmp_path / f"pdf{n}"
        proc = _soffice(tmp_path, "pdf", out, batch)
        for f in batch:
            pdf = out / f"{f.stem}.pdf"
            assert pdf.is_file() and pdf.stat().st_size > 1000, (f, proc.stdout[-500:], proc.stderr[-500:])
            text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
            assert text.strip(), f"{f.name} converted to an empty page"


def _listed(home: Path, user: str, uri: str) -> Path:
    assert uri.startswith(f"file:///home/{user}/"), uri
    return home / unquote(uri.removeprefix(f"file:///home/{user}/"))


def test_recent_lists_parse_and_name_only_files_that_exist(default_layer, world):
    home = _layer_home(default_layer)
    user = world.persona.identity.username
    xbel = ET.parse(home / ".local/share/recently-used.xbel").getroot()
    ns = {
        "bookmark": "http://www.freedesktop.org/standards/desktop-bookmarks",
        "mime": "http://www.freedesktop.org/standards/shared-mime-info",
    }
    marks = xbel.findall("bookmark")
    assert len(marks) == desktop.RECENT_LIMIT
    stamps = []
    for b in marks:
        path = _listed(home, user, b.get("href"))
        assert path.is_file(), path
        assert b.get("added") == b.get("modified") == b.get("visited")
        mime = b.find("info/metadata/mime:mime-type", ns).get("type")
        app = b.find("info/metadata/bookmark:applications/bookmark:application", ns)
        assert (app.get("name") == "LibreOffice") == (mime != "application/pdf")
        stamps.append(b.get("modified"))
    assert stamps == sorted(stamps, reverse=True)
    hrefs = [b.get("href") for b in marks]
    assert any(h.endswith(".xlsx") for h in hrefs) and any("/Documents/Personal/" in h for h in hrefs)

    xcu = ET.parse(home / ".config/libreoffice/4/user/registrymodifications.xcu").getroot()
    oor = "{http://openoffice.org/2001/registry}"
    items = [n.get(f"{oor}name") for i in xcu if i.get(f"{oor}path", "").endswith("ItemList") for n in i]
    order = [n.find("prop/value").text for i in xcu if i.get(f"{oor}path", "").endswith("OrderList") for n in i]
    assert items and order == items
    for uri in items:
        assert _listed(home, user, uri).suffix in OFFICE and _listed(home, user, uri).is_file()
    assert set(items) == {h for h in hrefs if not h.endswith(".pdf")}

    places = (home / ".config/gtk-3.0/bookmarks").read_text().splitlines()
    uris = [line.split(" ", 1)[0] for line in places]
    assert uris[:3] == [
        f"file:///home/{user}/Documents/Work",
        f"file:///home/{user}/Documents/Personal",
        f"file:///home/{user}/Downloads",
    ]
    assert f"file:///home/{user}/Documents/Work/Expenses" in uris
    assert all(_listed(home, user, u).is_dir() for u in uris)


def test_file_times_are_world_times(world, tmp_path):
    home = _home(world, tmp_path)
    trip = work_docs.business_trips(world)[0]
    report = home / work_docs.trip_folder(world, trip) / f"{work_docs.report_stem(world, trip)}.ods"
    when = work_docs.report_time(world, trip)
    assert report.stat().st_mtime == work_docs._timestamp(world, when)
    assert trip.return_ < when.date() <= world.now.date()
    budget = next((home / "Documents/Personal").glob("*.ods"))
    assert budget.stat().st_mtime <= work_docs._timestamp(world, world.now)


def test_budget_totals_follow_the_ledger(world, tmp_path):
    home = _home(world, tmp_path)
    shown, _ = work_docs.budget_months(world)
    assert len(shown) == work_docs.BUDGET_MONTHS
    income, spending = work_docs.monthly_flows(world)
    last = shown[-1]
    paid = sum(
        p.amount_cents
        for p in world.postings("checking")
        if p.kind == "paycheck" and p.at.date().replace(day=1) == last
    )
    assert income["income"][last] == paid
    assert "transfer" not in spending
    # The ODS's cached totals (what LibreOffice shows on opening) are the ledger's.
    from odf.opendocument import load
    from odf.table import TableCell, TableRow

    doc = load(str(next((home / "Documents/Personal").glob("*.ods"))))
    w = work_docs.words(world)
    rows = {}
    for tr in doc.spreadsheet.getElementsByType(TableRow):
        cells = tr.getElementsByType(TableCell)
        if cells and str(cells[0]):
            rows[str(cells[0])] = [c.getAttribute("value") for c in cells[1 : len(shown) + 1]]
    assert Decimal(rows[w["total_income"]][-1]) * 100 == sum(v.get(last, 0) for v in income.values())
    assert Decimal(rows[w["total_spending"]][-1]) * 100 == sum(v.get(last, 0) for v in spending.values())


def test_two_builds_write_the_same_bytes_and_times(tmp_path):
    script = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]);"
        "from tests.conftest import _world; from tests.files.test_work_docs import _home;"
        "from builder.files import desktop; w = _world('dana-whitfield')[1];"
        "h = _home(w, Path(sys.argv[2])); desktop.write_desktop(w, h)"
    )
    for run in ("a", "b"):  # two processes: no state shared between the builds
        subprocess.run([sys.executable, "-c", script, str(REPO), str(tmp_path / run)], check=True, cwd=REPO)

    def tree(root):
        # Times that are world times (whole seconds); the folios written here carry the clock's.
        return {
            str(p.relative_to(root)): (
                p.read_bytes(),
                p.stat().st_mtime_ns if not p.stat().st_mtime_ns % 1_000_000_000 else None,
            )
            for p in sorted(root.rglob("*"))
            if p.is_file()
        }

    ta, tb = tree(tmp_path / "a" / "home"), tree(tmp_path / "b" / "home")
    assert ta.keys() == tb.keys() and len(ta) > 10
    assert [k for k in ta if ta[k] != tb[k]] == []


def test_a_minimal_spec_gets_its_documents_and_desktop_files(tmp_path):
    from builder.persona import complete
    from builder.persona.model import Persona
    from builder.world import simulate

    world = simulate(complete(Persona.model_validate({"identity": {"name": "Ada Quill"}})))
    home = tmp_path / "home"
    written = work_docs.work_docs(world, home)
    made = desktop.write_desktop(world, home)
    assert any(p.parent.name == "Personal" and p.suffix == ".ods" for p in written)
    for trip in work_docs.business_trips(world):
        name = f"{work_docs.report_stem(world, trip)}.xlsx"
        ws = load_workbook(home / work_docs.trip_folder(world, trip) / name).active
        assert _report_totals(ws, _evaluate(ws))[0] == Decimal(trip.total_cents) / 100
    for path in made:
        if path.suffix in (".xbel", ".xcu"):
            ET.parse(path)
    assert (home / "Desktop").is_dir() and (home / "Pictures").is_dir()
    dirs = (home / ".config/user-dirs.dirs").read_text().splitlines()
    assert 'XDG_DESKTOP_DIR="$HOME/Desktop"' in dirs and 'XDG_DOWNLOAD_DIR="$HOME/Downloads"' in dirs
    assert 'XDG_MUSIC_DIR="$HOME/"' in dirs and not (home / "Music").exists()
