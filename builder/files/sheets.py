"""One spreadsheet model, written as XLSX (openpyxl) and ODS (odfpy) with the same cells, formulas and styles.

A :class:`Sheet` is rows of :class:`Cell`; a cell holds a value (text, a whole number, a money amount as a
``Decimal`` in currency units, a ``datetime.date``) and optionally a formula in A1 notation (``=SUM(F5:F9)``,
``=AVERAGE(B4:G4)``, ``=H4-I4``: functions SUM and AVERAGE, ranges, single references, ``+`` and ``-``).
A formula cell's ``value`` is its result computed by the caller: ODS stores it as the cached value (LibreOffice
shows it at once); XLSX has none (openpyxl writes no cached results), so the application computes it on load.

Both writers are reproducible: document properties carry the caller's ``when`` (never the clock) and the zip
is rewritten with every entry dated ``when`` (:func:`normalise_zip`), ``mimetype`` first and stored, as ODF
requires.
"""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from builder.files.odf import odf_bytes
from builder.money import symbol
from builder.reference.locale import conventions, format_date, format_money

FONT_FACE = "Liberation Sans"
# Spreadsheet symbols where they differ from CLDR's English ones (builder.money.symbol): a plain "$" for the
# Canadian and Australian dollar.
_SYMBOL_OVERRIDES = {"CAD": "$", "AUD": "$"}


def sheet_symbol(currency: str) -> str:
    """The symbol a spreadsheet's money format writes for ``currency`` (the code when CLDR has no symbol)."""
    return _SYMBOL_OVERRIDES.get(currency) or symbol(currency) or currency


# How each locale writes a numeric date (Excel format code; ODS parts).
_DATE_CODE = {"en_US": "MM/DD/YYYY", "de_DE": "DD.MM.YYYY"}
_DATE_PARTS = {"en_US": ("month", "/", "day", "/", "year"), "de_DE": ("day", ".", "month", ".", "year")}


@dataclass(frozen=True)
class Cell:
    """One cell. ``style``: ``text``, ``title``, ``head`` (bold on grey), ``bold``, ``note`` (small grey),
    ``money``, ``money_bold``, ``date``, ``int``. ``value``: ``str`` | ``int`` | ``Decimal`` (money, currency
    units) | ``datetime.date`` | ``None``; ``formula``: A1 notation starting ``=``, ``value`` its result."""

    value: str | int | Decimal | dt.date | None = None
    formula: str | None = None
    style: str = "text"


@dataclass
class Sheet:
    """A one-sheet workbook: ``rows`` (``None`` for an empty cell), column ``widths`` in characters,
    ``currency`` (ISO 4217) and ``locale`` (``en_US``/``en_GB``/``de_DE``...) for money and date formats,
    ``title`` and ``author`` for the document properties, ``timezone`` (IANA) of the naive local times the
    writers are given."""

    name: str
    title: str
    author: str
    currency: str
    locale: str
    rows: list[list[Cell | None]] = field(default_factory=list)
    widths: list[float] = field(default_factory=list)
    timezone: str = "UTC"

    def add(self, *cells: Cell | None) -> int:
        """Append a row; return its 1-based row number (what formulas refer to)."""
        self.rows.append(list(cells))
        return len(self.rows)


def _utc(when: dt.datetime, zone: str) -> dt.datetime:
    """Naive local ``when`` in IANA ``zone`` as a naive UTC datetime (what XLSX properties hold)."""
    from zoneinfo import ZoneInfo

    return when.replace(microsecond=0, tzinfo=ZoneInfo(zone)).astimezone(dt.timezone.utc).replace(tzinfo=None)


def col(n: int) -> str:
    """Column letter of 1-based column ``n`` (1 -> ``A``, 27 -> ``AA``)."""
    out = ""
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out


def money_code(currency: str, locale: str) -> str:
    """The Excel number format of money in ``currency`` as ``locale`` writes it (``"$"#,##0.00``;
    German ``#,##0.00 "€"``: the application shows its own separators)."""
    return conventions(locale)["spreadsheet"]["money_code"].format(symbol=sheet_symbol(currency))


def ods_formula(formula: str) -> str:
    """An A1 formula (``=SUM(F5:F9)-B2``) in OpenFormula as ODS stores it (``of:=SUM([.F5:.F9])-[.B2]``)."""
    body = re.sub(r"\b([A-Z]{1,3}[0-9]+):([A-Z]{1,3}[0-9]+)\b", r"[.\1:.\2]", formula.removeprefix("="))
    body = re.sub(r"(?<![.\w])([A-Z]{1,3}[0-9]+)\b(?!\])", r"[.\1]", body)
    body = body.replace(",", ";")
    return "of:=" + body


def normalise_zip(path: Path, when: dt.datetime) -> None:
    """Rewrite the zip at ``path`` with every entry dated ``when`` (naive local), mode 0644, in the same order,
    ``mimetype`` stored uncompressed (ODF); deflate level fixed, so the bytes depend only on the contents."""
    with zipfile.ZipFile(path) as z:
        entries = [(i.filename, i.compress_type, z.read(i.filename)) for i in z.infolist()]
    stamp = (max(when.year, 1980), when.month, when.day, when.hour, when.minute, when.second)
    with zipfile.ZipFile(path, "w") as z:
        for name, kind, data in entries:
            info = zipfile.ZipInfo(name, stamp)
            info.compress_type = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            z.writestr(info, data, compress_type=info.compress_type, compresslevel=6 if kind else None)


def write_xlsx(sheet: Sheet, path: Path, when: dt.datetime) -> Path:
    """Write ``sheet`` as an XLSX workbook at ``path`` (properties and zip dated ``when``, naive local)."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.writer.excel import ExcelWriter

    wb = Workbook()
    ws = wb.active
    ws.title = sheet.name[:31]
    money = money_code(sheet.currency, sheet.locale)
    date_code = _DATE_CODE.get(sheet.locale, "DD/MM/YYYY")
    grey = PatternFill("solid", fgColor="E8ECF1")
    for r, row in enumerate(sheet.rows, 1):
        for c, cell in enumerate(row, 1):
            if cell is None:
                continue
            x = ws.cell(r, c, cell.formula if cell.formula else cell.value)
            s = cell.style
            # Liberation Sans (the guest's fonts-liberation2), not openpyxl's default Calibri the guest lacks.
            if s == "title":
                x.font = Font(name=FONT_FACE, bold=True, size=14)
            elif s in ("head", "bold", "money_bold"):
                x.font = Font(name=FONT_FACE, bold=True)
            elif s == "note":
                x.font = Font(name=FONT_FACE, italic=True, size=9, color="5D6875")
            else:
                x.font = Font(name=FONT_FACE)
            if s == "head":
                x.fill = grey
            if s in ("money", "money_bold"):
                x.number_format = money
            elif s == "date":
                x.number_format = date_code
            elif s == "int":
                x.number_format = "0"
            if s == "head" and c > 1:
                x.alignment = Alignment(horizontal="center")
    for c, width in enumerate(sheet.widths, 1):
        ws.column_dimensions[col(c)].width = width
    # Printed (or exported to PDF) landscape, all columns on the page's width.
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    stamp = _utc(when, sheet.timezone)
    wb.properties.creator = sheet.author
    wb.properties.lastModifiedBy = sheet.author
    wb.properties.title = sheet.title
    wb.properties.created = stamp
    wb.properties.modified = stamp
    # openpyxl's save() stamps "modified" with the clock; its writer alone keeps ours.
    ExcelWriter(wb, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED)).save()
    normalise_zip(path, when)
    return path


def write_ods(sheet: Sheet, path: Path, when: dt.datetime) -> Path:
    """Write ``sheet`` as an ODS spreadsheet at ``path`` (cached formula results, metadata and zip dated
    ``when``, naive local)."""
    path.write_bytes(odf_bytes(lambda: _ods_document(sheet, when)))
    normalise_zip(path, when)
    return path


def _ods_document(sheet: Sheet, when: dt.datetime):
    """``sheet`` as an odfpy ``OpenDocumentSpreadsheet`` (metadata dated ``when``)."""
    from odf import dc, meta, number
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.style import (
        MasterPage,
        PageLayout,
        PageLayoutProperties,
        Style,
        TableCellProperties,
        TableColumnProperties,
        TextProperties,
    )
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    lang, _, country = sheet.locale.partition("_")
    sym = sheet_symbol(sheet.currency)
    cur = number.CurrencyStyle(name="N-money", language=lang, country=country or lang.upper())
    if conventions(sheet.locale)["spreadsheet"]["symbol_after"]:
        cur.addElement(number.Number(decimalplaces="2", minintegerdigits="1", grouping="true"))
        cur.addElement(number.Text(text=" "))
        cur.addElement(number.CurrencySymbol(language=lang, country=country or lang.upper(), text=sym))
    else:
        cur.addElement(number.CurrencySymbol(language=lang, country=country or lang.upper(), text=sym))
        cur.addElement(number.Number(decimalplaces="2", minintegerdigits="1", grouping="true"))
    doc.automaticstyles.addElement(cur)
    date = number.DateStyle(name="N-date")
    for part in _DATE_PARTS.get(sheet.locale, ("day", "/", "month", "/", "year")):
        date.addElement(
            {
                "day": number.Day(style="long"),
                "month": number.Month(style="long"),
                "year": number.Year(style="long"),
            }.get(part)
            or number.Text(text=part)
        )
    doc.automaticstyles.addElement(date)

    styles = {}
    for name, bold, size, italic, fill, data in (
        ("text", False, None, False, None, None),
        ("title", True, "14pt", False, None, None),
        ("head", True, None, False, "#e8ecf1", None),
        ("bold", True, None, False, None, None),
        ("note", False, "9pt", True, None, None),
        ("money", False, None, False, None, "N-money"),
        ("money_bold", True, None, False, None, "N-money"),
        ("date", False, None, False, None, "N-date"),
        ("int", False, None, False, None, None),
    ):
        st = Style(name=f"ce-{name}", family="table-cell", **({"datastylename": data} if data else {}))
        props = {}
        if bold:
            props["fontweight"] = "bold"
        if size:
            props["fontsize"] = size
        if italic:
            props["fontstyle"] = "italic"
            props["color"] = "#5d6875"
        if props:
            st.addElement(TextProperties(**props))
        if fill:
            st.addElement(TableCellProperties(backgroundcolor=fill))
        doc.automaticstyles.addElement(st)
        styles[name] = st

    # Printed (or exported to PDF) landscape on one page.
    layout = PageLayout(name="pm1")
    layout.addElement(
        PageLayoutProperties(printorientation="landscape", pagewidth="29.7cm", pageheight="21cm", scaletopages="1")
    )
    doc.automaticstyles.addElement(layout)
    doc.masterstyles.addElement(MasterPage(name="Default", pagelayoutname=layout))
    table_style = Style(name="ta1", family="table", masterpagename="Default")
    doc.automaticstyles.addElement(table_style)
    table = Table(name=sheet.name[:31], stylename=table_style)
    for c, width in enumerate(sheet.widths, 1):
        st = Style(name=f"co{c}", family="table-column")
        st.addElement(TableColumnProperties(columnwidth=f"{width * 0.19:.2f}cm"))
        doc.automaticstyles.addElement(st)
        table.addElement(TableColumn(stylename=st))
    for row in sheet.rows:
        tr = TableRow()
        for cell in row:
            tr.addElement(_ods_cell(cell, styles, sheet, TableCell, P))
        table.addElement(tr)
    doc.spreadsheet.addElement(table)

    stamp = when.replace(microsecond=0).isoformat()
    doc.meta.addElement(dc.Title(text=sheet.title))
    doc.meta.addElement(meta.InitialCreator(text=sheet.author))
    doc.meta.addElement(dc.Creator(text=sheet.author))
    doc.meta.addElement(meta.CreationDate(text=stamp))
    doc.meta.addElement(dc.Date(text=stamp))
    return doc


def shown(cell: Cell, sheet: Sheet) -> str:
    """The text a cell shows (an ODS cell's paragraph): money and dates in the sheet's locale."""
    v = cell.value
    if v is None:
        return ""
    if cell.style in ("money", "money_bold"):
        return format_money(int((Decimal(v) * 100).to_integral_value()), sheet.currency, sheet.locale)
    if isinstance(v, dt.date):
        return format_date(v, "numeric_date", sheet.locale)
    return str(v)


def _ods_cell(cell: Cell | None, styles: dict, sheet: Sheet, TableCell, P):
    if cell is None:
        return TableCell()
    kw = {"stylename": styles.get(cell.style, styles["text"])}
    if cell.formula:
        kw["formula"] = ods_formula(cell.formula)
    v = cell.value
    if cell.style in ("money", "money_bold") and v is not None:
        kw.update(valuetype="currency", currency=sheet.currency, value=str(v))
    elif isinstance(v, dt.date):
        kw.update(valuetype="date", datevalue=v.isoformat())
    elif isinstance(v, (int, Decimal)) and not isinstance(v, bool):
        kw.update(valuetype="float", value=str(v))
    elif v is not None:
        kw.update(valuetype="string")
    tc = TableCell(**kw)
    if v is not None:
        tc.addElement(P(text=shown(cell, sheet)))
    return tc
