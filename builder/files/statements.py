"""Monthly bank statements as PDF files in the persona's ``~/Documents``.

Each PDF is reproducible: reportlab's invariant mode plus the statement's own date
as the document's creation date, so the bytes depend only on the world.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from ..money import money
from ..world import StatementPeriod, World, statements

BANK_NAME = "Larkspur Bank"
TEAL = colors.HexColor("#1f4e5f")
_KIND_TITLE = {"checking": "Checking", "savings": "Savings", "credit_card": "Credit card"}


def statement_filename(account_name: str, period: StatementPeriod) -> str:
    """File name of one statement, e.g. ``Larkspur-Everyday-Checking-2026-10.pdf``."""
    words = account_name.split()
    if words[0] != BANK_NAME.split()[0]:
        words.insert(0, BANK_NAME.split()[0])
    return f"{'-'.join(words)}-{period.end:%Y-%m}.pdf"


def write_statement_pdf(world: World, account_name: str, number: str, period: StatementPeriod, dest: Path) -> Path:
    """Write one statement PDF to ``dest`` (letter size) and return it.

    The document's creation date is the day after the period's end (when a bank issues it).
    """
    issued = dt.datetime.combine(period.end + dt.timedelta(days=1), dt.time(6, 0))
    rl_config.invariant = 1
    cur = world.currency
    styles = getSampleStyleSheet()
    title = ParagraphStyle("t", parent=styles["Title"], textColor=TEAL, alignment=0, fontSize=20)
    small = ParagraphStyle("s", parent=styles["Normal"], fontSize=8.5, leading=11)
    ident = world.persona.identity
    addr = ident.address
    doc = SimpleDocTemplate(str(dest), pagesize=LETTER, leftMargin=0.7 * inch, rightMargin=0.7 * inch,
                            topMargin=0.6 * inch, bottomMargin=0.6 * inch,
                            title=f"{BANK_NAME} statement {period.end:%B %Y}", author=BANK_NAME,
                            subject=f"{account_name} ending {number[-4:]}", creator=BANK_NAME)
    story = [
        Paragraph(BANK_NAME, title),
        Paragraph(f"{_KIND_TITLE[period.account]} statement &middot; {account_name} ending {number[-4:]}",
                  styles["Heading3"]),
        Paragraph(f"{ident.name}<br/>{addr.street}<br/>{addr.city}{', ' + addr.region if addr.region else ''} "
                  f"{addr.postal_code}", styles["Normal"]),
        Spacer(1, 10),
        Paragraph(f"Statement period: {period.start:%B %-d, %Y} to {period.end:%B %-d, %Y} "
                  f"&middot; Issued {issued:%B %-d, %Y}", small),
        Spacer(1, 8),
    ]
    summary = Table([
        ["Opening balance", money(period.opening_cents, cur)],
        ["Deposits and credits", money(period.credits_cents, cur)],
        ["Withdrawals and debits", money(-period.debits_cents, cur)],
        ["Closing balance", money(period.closing_cents, cur)],
    ], colWidths=[2.6 * inch, 1.6 * inch])
    summary.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), "Helvetica", 10), ("FONT", (0, 3), (-1, 3), "Helvetica-Bold", 10),
        ("ALIGN", (1, 0), (1, -1), "RIGHT"), ("LINEABOVE", (0, 3), (-1, 3), 0.8, TEAL),
        ("BOX", (0, 0), (-1, -1), 0.5, colors.grey), ("BACKGROUND", (0, 0), (-1, -1), colors.HexColor("#f3f7f8")),
    ]))
    story += [summary, Spacer(1, 14), Paragraph("Transactions", styles["Heading4"])]
    rows = [["Date", "Description", "Amount", "Balance"]]
    balance = period.opening_cents
    for line in period.lines:
        balance += line.amount_cents
        rows.append([line.at.strftime("%m/%d"), Paragraph(line.description, small), money(line.amount_cents, cur),
                     money(balance, cur)])
    if len(rows) == 1:
        rows.append(["", "No transactions this period", "", ""])
    table = Table(rows, colWidths=[0.6 * inch, 4.1 * inch, 1.1 * inch, 1.2 * inch], repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 9), ("FONT", (0, 1), (-1, -1), "Helvetica", 8.5),
        ("TEXTCOLOR", (0, 0), (-1, 0), colors.white), ("BACKGROUND", (0, 0), (-1, 0), TEAL),
        ("ALIGN", (2, 0), (-1, -1), "RIGHT"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f6f6f2")]),
    ]))
    story.append(table)

    def stamp(canvas, _doc):
        canvas.setCreator(BANK_NAME)
        canvas.setFont("Helvetica", 7.5)
        canvas.setFillColor(colors.grey)
        canvas.drawString(0.7 * inch, 0.4 * inch, f"{BANK_NAME}, Member FDIC (fictional) · Page {canvas.getPageNumber()}")

    doc.build(story, onFirstPage=stamp, onLaterPages=stamp)
    return dest


def _with_creation_date(issued: dt.datetime):
    """reportlab reads SOURCE_DATE_EPOCH for the document dates; set it per document."""
    import os
    epoch = int(issued.replace(tzinfo=dt.timezone.utc).timestamp())
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)


def write_statements(world: World, numbers: dict[str, str], documents: Path, months: int = 3) -> list[Path]:
    """Write the last ``months`` statements of every account into ``documents``; return the paths in order.

    ``numbers`` maps account kind -> account or card number (as the bank database holds it).
    """
    documents.mkdir(parents=True, exist_ok=True)
    written = []
    for spec in world.persona.accounts:
        for period in statements(world, spec.kind)[-months:]:
            issued = dt.datetime.combine(period.end + dt.timedelta(days=1), dt.time(6, 0))
            _with_creation_date(issued)
            dest = documents / statement_filename(spec.name, period)
            written.append(write_statement_pdf(world, spec.name, numbers[spec.kind], period, dest))
    return written
