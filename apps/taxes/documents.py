"""Ledgerleaf Tax's PDFs: the year's tax forms as their issuers print them and last year's filed return.

Forms (``builder.world.tax_year.tax_forms``) go to ``~/Documents/<Taxes folder in the persona's language>/<year>/``
with the file time of the day each was made available; the filed return's copy is stored in the database
(``documents``) and written beside last year's forms. Bytes depend only on the world: reportlab's invariant mode
and the document's own date (``SOURCE_DATE_EPOCH``); spec text through :mod:`builder.files.pdftext`.
"""

from __future__ import annotations

import datetime as dt
import io
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from builder import yamlfile
from builder.files.pdftext import FONT, FONT_BOLD, para_text, register
from builder.names import safe_filename
from builder.world import World
from builder.reference.locale import Fmt

GREEN = colors.HexColor("#2f6b3a")
APP_NAME = "Ledgerleaf Tax"


@lru_cache(maxsize=1)
def words() -> dict[str, Any]:
    """``data/forms.yaml``: titles and box labels per form, the folder name and return labels per locale."""
    return yamlfile.safe_load((Path(__file__).parent / "data" / "forms.yaml").read_text(encoding="utf-8"))


def _epoch(at: dt.datetime) -> None:
    os.environ["SOURCE_DATE_EPOCH"] = str(int(at.replace(tzinfo=dt.UTC).timestamp()))


def _doc(target, world: World, title: str, author: str):
    register()
    rl_config.invariant = 1
    fmt = Fmt(world.persona)
    return SimpleDocTemplate(
        target,
        pagesize=LETTER if fmt.us else A4,
        leftMargin=0.7 * inch,
        rightMargin=0.7 * inch,
        topMargin=0.6 * inch,
        bottomMargin=0.6 * inch,
        title=title,
        author=author,
        creator=APP_NAME,
        initialFontName=FONT,
    )


def _styles():
    s = getSampleStyleSheet()
    return (
        ParagraphStyle("t", parent=s["Title"], fontName=FONT_BOLD, fontSize=16, alignment=0, textColor=GREEN),
        ParagraphStyle("n", parent=s["Normal"], fontName=FONT, fontSize=10, leading=13),
    )


def _address(world: World) -> str:
    ident = world.persona.identity
    a = ident.address
    place = (
        f"{a.city}{', ' + a.region if a.region else ''} {a.postal_code}"
        if a.country == "US"
        else f"{a.postal_code} {a.city}"
        if a.country == "DE"
        else f"{a.city} {a.postal_code}"
    )
    return f"{para_text(ident.name)}<br/>{para_text(a.street)}<br/>{para_text(place)}"


def _table(rows: list[list], widths) -> Table:
    t = Table(rows, colWidths=widths)
    t.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 10),
                ("ALIGN", (1, 0), (1, -1), "RIGHT"),
                ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
                ("BACKGROUND", (0, 0), (0, -1), colors.HexColor("#f1f5ef")),
            ]
        )
    )
    return t


def form_pdf(world: World, form: dict[str, Any], dest: Path) -> Path:
    """Write one issued form (a :func:`builder.world.tax_year.tax_forms` entry) to ``dest``; return it."""
    spec = words()[form["form"]]
    fmt = Fmt(world.persona)
    _epoch(form["issued"])
    title_style, normal = _styles()
    doc = _doc(str(dest), world, f"{spec['title']} {form['tax_year']}", form["issuer"])
    rows = []
    for box, label in spec["boxes"].items():
        if box in form["boxes"]:
            v = form["boxes"][box]
            rows.append([label, v if isinstance(v, str) or box in ("sales", "periods") else fmt.money(v)])
    story = [
        Paragraph(para_text(f"{spec['title']} {form['tax_year']}"), title_style),
        Spacer(1, 6),
        _table(
            [
                [spec["payer"], Paragraph(para_text(form["issuer"]), normal)],
                [spec["recipient"], Paragraph(_address(world), normal)],
            ],
            [2.2 * inch, 4.6 * inch],
        ),
        Spacer(1, 12),
        _table(rows, [4.4 * inch, 2.4 * inch]),
        Spacer(1, 12),
        Paragraph(para_text(f"{fmt.numeric_date(form['issued'])} · {form['issuer']}"), normal),
    ]
    doc.build(story)
    return dest


def return_pdf(world: World, filed: dict[str, Any], filed_at: dt.datetime) -> bytes:
    """Last year's filed return (the ``tax_return_filed`` event's data) as PDF bytes."""
    w = words()["return"].get(world.persona.bank) or words()["return"]["en_US"]
    fmt = Fmt(world.persona)
    _epoch(filed_at)
    title_style, normal = _styles()
    buf = io.BytesIO()
    doc = _doc(buf, world, f"{w['title']} {filed['tax_year']}", APP_NAME)
    inputs, lines = filed["inputs"], filed["lines"]
    rows = [[w["tax_year"], filed["tax_year"]], [w["wages"], fmt.money(inputs["wages"])]]
    for key in ("interest", "dividends", "gains", "donations"):
        if inputs.get(key):
            rows.append([w[key], fmt.money(inputs[key])])
    rows += [[w[k], fmt.money(lines[k])] for k in ("total_income", "deduction", "taxable", "tax", "withheld")]
    refund = lines["refund"]
    rows.append([w["refund"] if refund >= 0 else w["owed"], fmt.money(abs(refund))])
    story = [
        Paragraph(para_text(f"{w['title']} {filed['tax_year']}"), title_style),
        Spacer(1, 6),
        Paragraph(_address(world), normal),
        Spacer(1, 10),
        _table(rows, [4.4 * inch, 2.4 * inch]),
        Spacer(1, 12),
        Paragraph(
            para_text(
                f"{w['filed']} {fmt.numeric_date(filed_at)} · {filed['authority']} · "
                f"{w['confirmation']} {filed['confirmation']}"
            ),
            normal,
        ),
    ]
    doc.build(story)
    return buf.getvalue()


def form_filename(form: dict[str, Any]) -> str:
    """``W-2-Cascadia-Field-Robotics-2025.pdf``: the form, its issuer, the year (one safe path component)."""
    return f"{safe_filename(form['form'] + ' ' + form['issuer'] + ' ' + form['tax_year'], fallback=form['form'])}.pdf"


def return_filename(filed: dict[str, Any]) -> str:
    """``Ledgerleaf-Tax-Return-2024.pdf``."""
    return f"Ledgerleaf-Tax-Return-{safe_filename(filed['tax_year'], fallback='year')}.pdf"


def set_time(path: Path, at: dt.datetime, timezone: str) -> None:
    """Give ``path`` the modification time ``at`` (naive local in ``timezone``)."""
    from zoneinfo import ZoneInfo

    stamp = at.replace(tzinfo=ZoneInfo(timezone)).timestamp()
    os.utime(path, (stamp, stamp))
