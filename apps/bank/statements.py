"""Larkspur Bank's monthly statements as PDF files in the persona's ``~/Documents``.

Each PDF is reproducible: reportlab's invariant mode plus the statement's own date
as the document's creation date, so the bytes depend only on the world. Spec text in
them is set through :mod:`builder.files.pdftext` (escaped, any script, embedded fonts);
file names come from :func:`builder.names.safe_filename`.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from builder.files.pdftext import FONT, FONT_BOLD, cell, meta_text, para_text, register
from builder.names import safe_filename
from builder.world import StatementPeriod, World, statements
from builder.reference.locale import Fmt

BANK_NAME = "Larkspur Bank"
TEAL = colors.HexColor("#1f4e5f")
_KIND_TITLE = {"checking": "Checking", "savings": "Savings", "credit_card": "Credit card"}
# The statement's wording per locale (a German persona's bank writes German; a British one "current account").
WORDS = {
    "en_US": {
        "checking": "Checking",
        "savings": "Savings",
        "credit_card": "Credit card",
        "statement": "statement",
        "ending": "ending",
        "period": "Statement period",
        "to": "to",
        "issued": "Issued",
        "opening": "Opening balance",
        "credits": "Deposits and credits",
        "debits": "Withdrawals and debits",
        "closing": "Closing balance",
        "transactions": "Transactions",
        "date": "Date",
        "description": "Description",
        "amount": "Amount",
        "balance": "Balance",
        "none": "No transactions this period",
        "page": "Member FDIC (fictional) · Page",
        # A bank outside the US claims no FDIC membership (builder/reference/banking deposit_insurance).
        "page_abroad": "(fictional bank) · Page",
    },
    "en_GB": {
        "checking": "Current account",
        "savings": "Savings",
        "credit_card": "Credit card",
        "statement": "statement",
        "ending": "ending",
        "period": "Statement period",
        "to": "to",
        "issued": "Issued",
        "opening": "Opening balance",
        "credits": "Money in",
        "debits": "Money out",
        "closing": "Closing balance",
        "transactions": "Transactions",
        "date": "Date",
        "description": "Description",
        "amount": "Amount",
        "balance": "Balance",
        "none": "No transactions this period",
        "page": "(fictional bank) · Page",
    },
    "de_DE": {
        "checking": "Girokonto",
        "savings": "Tagesgeld",
        "credit_card": "Kreditkarte",
        "title_checking": "Kontoauszug Girokonto",
        "title_savings": "Kontoauszug Tagesgeld",
        "title_credit_card": "Kreditkartenabrechnung",
        "statement": "Kontoauszug",
        "ending": "endend auf",
        "period": "Zeitraum",
        "to": "bis",
        "issued": "Erstellt am",
        "opening": "Alter Kontostand",
        "credits": "Gutschriften",
        "debits": "Belastungen",
        "closing": "Neuer Kontostand",
        "transactions": "Umsätze",
        "date": "Datum",
        "description": "Buchungstext",
        "amount": "Betrag",
        "balance": "Saldo",
        "none": "Keine Umsätze in diesem Zeitraum",
        "page": "(fiktive Bank) · Seite",
    },
}


def statement_filename(account_name: str, period: StatementPeriod) -> str:
    """File name of one statement, e.g. ``Larkspur-Everyday-Checking-2026-10.pdf``.

    The account name is spec text: :func:`builder.names.safe_filename` makes it one safe path
    component (no ``/``, no ``..``), so the statement always lands in the folder it is written to.
    """
    prefix = BANK_NAME.split()[0]
    words = account_name.split()
    if not words or words[0] != prefix:
        words.insert(0, prefix)
    return f"{safe_filename(' '.join(words), fallback=prefix)}-{period.end:%Y-%m}.pdf"


def write_statement_pdf(world: World, account_name: str, number: str, period: StatementPeriod, dest: Path) -> Path:
    """Write one statement PDF to ``dest`` (letter size) and return it.

    The document's creation date is the day after the period's end (when a bank issues it).
    """
    register()  # the embedded fonts, or which package is missing
    issued = dt.datetime.combine(period.end + dt.timedelta(days=1), dt.time(6, 0))
    rl_config.invariant = 1
    cur = world.currency
    styles = getSampleStyleSheet()
    title = ParagraphStyle("t", parent=styles["Title"], textColor=TEAL, alignment=0, fontSize=20, fontName=FONT_BOLD)
    normal = ParagraphStyle("n", parent=styles["Normal"], fontName=FONT)
    small = ParagraphStyle("s", parent=normal, fontSize=8.5, leading=11)
    heading3 = ParagraphStyle("h3", parent=styles["Heading3"], fontName=FONT_BOLD)
    heading4 = ParagraphStyle("h4", parent=styles["Heading4"], fontName=FONT_BOLD)
    ident = world.persona.identity
    addr = ident.address
    ending = para_text(number[-4:])
    fmt = Fmt(world.persona)
    words = WORDS.get(world.persona.bank, WORDS["en_US"])
    if addr.country.upper() != "US" and "page_abroad" in words:
        words = {**words, "page": words["page_abroad"]}

    def money(cents: int, _currency: str = "") -> str:  # amounts as the persona's locale writes them
        return fmt.money(cents)

    def long(d: dt.date) -> str:  # "September 4, 2026" / "4 September 2026" / "4. September 2026"
        month = fmt.month(d).rsplit(" ", 1)[0]
        return (
            f"{month} {d.day}, {d.year}"
            if fmt.us
            else f"{d.day}. {month} {d.year}"
            if fmt.de
            else f"{d.day} {month} {d.year}"
        )

    doc = SimpleDocTemplate(
        str(dest),
        pagesize=LETTER if fmt.us else A4,
        leftMargin=0.7 * inch,
        rightMargin=0.7 * inch,
        topMargin=0.6 * inch,
        bottomMargin=0.6 * inch,
        title=f"{BANK_NAME} {words['statement']} {fmt.month(period.end)}",
        author=BANK_NAME,
        subject=meta_text(f"{account_name} ending {number[-4:]}"),
        creator=BANK_NAME,
        initialFontName=FONT,
    )  # else every page names an unembedded Helvetica
    place = (
        f"{addr.city}{', ' + addr.region if addr.region else ''} {addr.postal_code}"
        if addr.country == "US"
        else f"{addr.city} {addr.postal_code}"
        if addr.country == "GB"
        else f"{addr.postal_code} {addr.city}"
    )
    story = [
        Paragraph(escape(BANK_NAME), title),
        Paragraph(
            f"{words.get('title_' + period.account) or words[period.account] + ' ' + words['statement']} "
            f"&middot; {para_text(account_name, bold=True)} {words['ending']} {ending}",
            heading3,
        ),
        Paragraph(f"{para_text(ident.name)}<br/>{para_text(addr.street)}<br/>{para_text(place)}", normal),
        Spacer(1, 10),
        Paragraph(
            f"{words['period']}: {long(period.start)} {words['to']} {long(period.end)} "
            f"&middot; {words['issued']} {long(issued.date())}",
            small,
        ),
        Spacer(1, 8),
    ]
    cell_style = ParagraphStyle("c", parent=normal, fontSize=10, leading=12)
    amount = ParagraphStyle("ca", parent=cell_style, alignment=2)
    closing = ParagraphStyle("cb", parent=amount, fontName=FONT_BOLD)
    summary = Table(
        [
            [words["opening"], cell(money(period.opening_cents, cur), amount)],
            [words["credits"], cell(money(period.credits_cents, cur), amount)],
            [words["debits"], cell(money(-period.debits_cents, cur), amount)],
            [words["closing"], cell(money(period.closing_cents, cur), closing)],
        ],
        colWidths=[2.6 * inch, 1.6 * inch],
    )
    summary.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 10),
                ("FONT", (0, 3), (-1, 3), FONT_BOLD, 10),
                ("ALIGN", (1, 0), (1, -1), "RIGHT"),
                ("LINEABOVE", (0, 3), (-1, 3), 0.8, TEAL),
                ("BOX", (0, 0), (-1, -1), 0.5, colors.grey),
                ("BACKGROUND", (0, 0), (-1, -1), colors.HexColor("#f3f7f8")),
            ]
        )
    )
    story += [summary, Spacer(1, 14), Paragraph(words["transactions"], heading4)]
    rows = [[words["date"], words["description"], words["amount"], words["balance"]]]
    balance = period.opening_cents
    small_amount = ParagraphStyle("sa", parent=small, alignment=2)
    for line in period.lines:
        balance += line.amount_cents
        # Table cells that are plain strings are drawn as they are (no markup); the description is spec text.
        # The line's day as the locale writes it without the year: 09/04 (US), 04/09 (UK), 04.09. (DE).
        day = fmt.numeric_date(line.at)[:5] + ("." if fmt.de else "")
        text = para_text(line.description) + (f"<br/>{para_text(line.memo)}" if line.memo else "")
        rows.append(
            [
                day,
                Paragraph(text, small),
                cell(money(line.amount_cents, cur), small_amount),
                cell(money(balance, cur), small_amount),
            ]
        )
    if len(rows) == 1:
        rows.append(["", words["none"], "", ""])
    table = Table(rows, colWidths=[0.6 * inch, 4.1 * inch, 1.1 * inch, 1.2 * inch], repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), FONT_BOLD, 9),
                ("FONT", (0, 1), (-1, -1), FONT, 8.5),
                ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
                ("BACKGROUND", (0, 0), (-1, 0), TEAL),
                ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f6f6f2")]),
            ]
        )
    )
    story.append(table)

    def stamp(canvas, _doc):
        canvas.setCreator(BANK_NAME)
        canvas.setFont(FONT, 7.5)
        canvas.setFillColor(colors.grey)
        canvas.drawString(0.7 * inch, 0.4 * inch, f"{BANK_NAME}, {words['page']} {canvas.getPageNumber()}")

    doc.build(story, onFirstPage=stamp, onLaterPages=stamp)
    return dest


def _with_creation_date(issued: dt.datetime):
    """reportlab reads SOURCE_DATE_EPOCH for the document dates; set it per document."""
    epoch = int(issued.replace(tzinfo=dt.UTC).timestamp())
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)


def write_statements(world: World, numbers: dict[str, str], documents: Path, months: int = 3) -> list[Path]:
    """Write the last ``months`` statements of every account into ``documents``; return the paths in order.

    ``numbers`` maps account kind -> account or card number (as the bank database holds it).
    Two accounts whose names make the same file name are told apart by their kind.
    """
    documents.mkdir(parents=True, exist_ok=True)
    folder = documents.resolve()
    written = []
    # Bank accounts only: a brokerage account's statements are its broker's, not the bank's.
    for spec in (a for a in world.persona.accounts if a.kind in _KIND_TITLE):
        for period in statements(world, spec.kind)[-months:]:
            issued = dt.datetime.combine(period.end + dt.timedelta(days=1), dt.time(6, 0))
            _with_creation_date(issued)
            name = statement_filename(spec.name, period)
            if documents / name in written:
                name = statement_filename(f"{spec.name} {spec.kind}", period)
            dest = documents / name
            if dest.resolve().parent != folder:
                raise ValueError(f"statement file name {name!r} leaves {documents}")
            written.append(write_statement_pdf(world, spec.name, numbers[spec.kind], period, dest))
    return written
