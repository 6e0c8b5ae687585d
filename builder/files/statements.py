"""Monthly bank statements as PDF files in the persona's ``~/Documents``.

Each PDF is reproducible: reportlab's invariant mode plus the statement's own date
as the document's creation date, so the bytes depend only on the world.

Spec text is untrusted. Every piece of it that reaches a reportlab ``Paragraph`` goes through
:func:`_para_text`, which escapes it, so it can never be read as Paragraph markup (``<img>``
would read host files or fetch URLs at build time, ``<`` crashes the parser); only markup we
write ourselves (``<br/>``, ``&middot;``) is markup. File names come from
:func:`builder.names.safe_filename`.

Text is set in DejaVu Sans (Debian's ``fonts-dejavu-core``), embedded as a subset, so any
Latin, Greek, Cyrillic, Hebrew or Arabic name prints. reportlab 4.5.1 lays out right-to-left
text only with ``rlbidi`` (not on our package index) and shapes only with ``uharfbuzz``, and
shaping without bidi reorders letters but not words; so text is prepared before reportlab sees
it: Arabic letters become their joined presentation forms (``arabic-reshaper``), and every line
is put in visual order by the Unicode Bidirectional Algorithm (``python-bidi``'s resolved
levels), then drawn left to right.

Characters DejaVu lacks (CJK, Hangul, Thai, emoji) are drawn by fallback fonts, chosen per
character (:mod:`builder.files.fonts`): after layout, the text is split into runs by font and each
fallback run is wrapped in ``<font name="...">`` around its escaped text. Plain table cells that
need a fallback become Paragraphs.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from . import fonts
from ..money import money
from ..names import safe_filename
from ..world import StatementPeriod, World, statements

BANK_NAME = "Larkspur Bank"
TEAL = colors.HexColor("#1f4e5f")
_KIND_TITLE = {"checking": "Checking", "savings": "Savings", "credit_card": "Credit card"}

# The embedded fonts: reportlab name -> file. Regular and bold only (headings are upright bold).
FONT_PACKAGE = "fonts-dejavu-core"
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
_FONT_FILES = {FONT: "DejaVuSans.ttf", FONT_BOLD: "DejaVuSans-Bold.ttf"}


class FontMissing(RuntimeError):
    """A font file the statements embed is not installed."""


@lru_cache(maxsize=None)
def _font_chars() -> frozenset[int]:
    """Register the statement fonts with reportlab once; return the code points both fonts have."""
    chars = None
    for name, file in _FONT_FILES.items():
        path = FONT_DIR / file
        if not path.is_file():
            raise FontMissing(f"statement PDFs need the font {path}: install the Debian package {FONT_PACKAGE} "
                              f"(apt-get install {FONT_PACKAGE}, or run scripts/setup-deps.sh)")
        # shapable=False: the text arrives shaped and in visual order (below), whatever is installed.
        font = TTFont(name, str(path), shapable=False)
        pdfmetrics.registerFont(font)
        have = frozenset(font.face.charToGlyph)
        chars = have if chars is None else chars & have
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD)
    return chars


@lru_cache(maxsize=None)
def _reshaper():
    """An Arabic reshaper that emits only presentation forms and ligatures the fonts have."""
    from arabic_reshaper import ArabicReshaper
    from arabic_reshaper.ligatures import LIGATURES

    have = _font_chars()
    config = {"delete_harakat": False, "shift_harakat_position": False}
    for key, (_match, forms) in LIGATURES:
        if not all(ord(f) in have for f in forms if f):
            config[key] = False
    return ArabicReshaper(configuration=config)


_LEVELS = re.compile(r"levels: \[(.*?)\n    \],", re.S)
_LEVEL = re.compile(r"Level\(\s*(\d+),?\s*\)")


def _bidi_levels(text: str) -> list[int]:
    """Resolved embedding level of each character of ``text`` (one line, base direction left to right).

    python-bidi's ``get_display`` reorders but does not mirror brackets (rule L4); its debug form
    (the pinned version's) carries the resolved levels, one per UTF-8 byte, from which
    :func:`_visual` reorders and mirrors. A changed debug form is an error, never a silent misprint.
    """
    from bidi import get_display

    found = _LEVELS.search(get_display(text, base_dir="L", debug=True))
    by_byte = [int(n) for n in _LEVEL.findall(found.group(1))] if found else []
    if len(by_byte) != len(text.encode()):
        raise RuntimeError("python-bidi's debug output changed; statements cannot lay out right-to-left text")
    levels, i = [], 0
    for ch in text:
        levels.append(by_byte[i])
        i += len(ch.encode())
    # L1: trailing whitespace goes back to the paragraph level.
    j = len(text)
    while j and unicodedata.bidirectional(text[j - 1]) in ("WS", "S", "BN"):
        j -= 1
        levels[j] = 0
    return levels


def _visual(text: str) -> str:
    """``text`` (NFC) as it is drawn left to right: Arabic joined, right-to-left runs reversed.

    Grapheme clusters (a base and its combining marks) move as one, so marks stay on their letter
    (also in a left-to-right run nested in a right-to-left one), and brackets inside right-to-left
    runs are mirrored.
    """
    from bidi.mirror import MIRRORED

    text = unicodedata.normalize("NFC", text)
    if not any(unicodedata.bidirectional(ch) in ("R", "AL", "AN") for ch in text):
        return text
    have = _font_chars()
    if any(unicodedata.bidirectional(ch) == "AL" for ch in text):
        # A presentation form the font lacks falls back to the plain letter (readable, not joined).
        text = "".join(ch if ord(ch) in have else unicodedata.normalize("NFKC", ch)
                       for ch in _reshaper().reshape(text))
    levels = _bidi_levels(text)
    clusters: list[list] = []  # [level, chars]
    for ch, level in zip(text, levels):
        if clusters and unicodedata.category(ch) in ("Mn", "Me", "Mc"):
            clusters[-1][1] += ch
        else:
            clusters.append([level, ch])
    # L2: from the highest level down to the lowest odd one, reverse every run at that level or higher.
    top = max(c[0] for c in clusters)
    low = min((c[0] for c in clusters if c[0] % 2), default=top + 1)
    for level in range(top, low - 1, -1):
        i = 0
        while i < len(clusters):
            if clusters[i][0] >= level:
                j = i
                while j < len(clusters) and clusters[j][0] >= level:
                    j += 1
                clusters[i:j] = clusters[i:j][::-1]
                i = j
            else:
                i += 1
    # L4: mirrored glyphs (brackets) in right-to-left runs. There a cluster is drawn marks first: the
    # fonts' Hebrew and Arabic marks have no advance and sit over the glyph drawn after them.
    return "".join(MIRRORED.get(chars, chars[::-1]) if level % 2 else chars for level, chars in clusters)


def _para_text(text: str, bold: bool = False) -> str:
    """Spec or world text, safe inside Paragraph markup: laid out (see :func:`_visual`), then split
    into font runs, each escaped; runs DejaVu cannot draw are set in a fallback font
    (:func:`builder.files.fonts.markup`; ``bold`` picks its bold face when it has one)."""
    return fonts.markup(_visual(text), _font_chars(), bold=bold)


def _cell(text: str, style: ParagraphStyle):
    """A plain table cell: the string itself when DejaVu draws all of it (drawn as is, no markup),
    else a Paragraph in ``style`` so the fallback fonts can draw the rest."""
    if not fonts.needs_fallback(text, _font_chars()):
        return text
    return Paragraph(_para_text(text, bold=style.fontName == FONT_BOLD), style)


def _meta_text(text: str) -> str:
    """Spec text for the PDF's info dictionary: NFC, logical order, no control characters."""
    text = unicodedata.normalize("NFC", text)
    return "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)


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
    _font_chars()  # registers the fonts, or says which package is missing
    fonts.fallback_faces()  # registers the installed fallbacks, warns about missing ones
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
    ending = _para_text(number[-4:])
    doc = SimpleDocTemplate(str(dest), pagesize=LETTER, leftMargin=0.7 * inch, rightMargin=0.7 * inch,
                            topMargin=0.6 * inch, bottomMargin=0.6 * inch,
                            title=f"{BANK_NAME} statement {period.end:%B %Y}", author=BANK_NAME,
                            subject=_meta_text(f"{account_name} ending {number[-4:]}"), creator=BANK_NAME,
                            initialFontName=FONT)  # else every page names an unembedded Helvetica
    place = f"{addr.city}{', ' + addr.region if addr.region else ''} {addr.postal_code}"
    story = [
        Paragraph(escape(BANK_NAME), title),
        Paragraph(f"{_KIND_TITLE[period.account]} statement &middot; {_para_text(account_name, bold=True)} "
                  f"ending {ending}", heading3),
        Paragraph(f"{_para_text(ident.name)}<br/>{_para_text(addr.street)}<br/>{_para_text(place)}", normal),
        Spacer(1, 10),
        Paragraph(f"Statement period: {period.start:%B %-d, %Y} to {period.end:%B %-d, %Y} "
                  f"&middot; Issued {issued:%B %-d, %Y}", small),
        Spacer(1, 8),
    ]
    cell = ParagraphStyle("c", parent=normal, fontSize=10, leading=12)
    amount = ParagraphStyle("ca", parent=cell, alignment=2)
    closing = ParagraphStyle("cb", parent=amount, fontName=FONT_BOLD)
    summary = Table([
        ["Opening balance", _cell(money(period.opening_cents, cur), amount)],
        ["Deposits and credits", _cell(money(period.credits_cents, cur), amount)],
        ["Withdrawals and debits", _cell(money(-period.debits_cents, cur), amount)],
        ["Closing balance", _cell(money(period.closing_cents, cur), closing)],
    ], colWidths=[2.6 * inch, 1.6 * inch])
    summary.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), FONT, 10), ("FONT", (0, 3), (-1, 3), FONT_BOLD, 10),
        ("ALIGN", (1, 0), (1, -1), "RIGHT"), ("LINEABOVE", (0, 3), (-1, 3), 0.8, TEAL),
        ("BOX", (0, 0), (-1, -1), 0.5, colors.grey), ("BACKGROUND", (0, 0), (-1, -1), colors.HexColor("#f3f7f8")),
    ]))
    story += [summary, Spacer(1, 14), Paragraph("Transactions", heading4)]
    rows = [["Date", "Description", "Amount", "Balance"]]
    balance = period.opening_cents
    small_amount = ParagraphStyle("sa", parent=small, alignment=2)
    for line in period.lines:
        balance += line.amount_cents
        # Table cells that are plain strings are drawn as they are (no markup); the description is spec text.
        rows.append([line.at.strftime("%m/%d"), Paragraph(_para_text(line.description), small),
                     _cell(money(line.amount_cents, cur), small_amount), _cell(money(balance, cur), small_amount)])
    if len(rows) == 1:
        rows.append(["", "No transactions this period", "", ""])
    table = Table(rows, colWidths=[0.6 * inch, 4.1 * inch, 1.1 * inch, 1.2 * inch], repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, 0), FONT_BOLD, 9), ("FONT", (0, 1), (-1, -1), FONT, 8.5),
        ("TEXTCOLOR", (0, 0), (-1, 0), colors.white), ("BACKGROUND", (0, 0), (-1, 0), TEAL),
        ("ALIGN", (2, 0), (-1, -1), "RIGHT"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f6f6f2")]),
    ]))
    story.append(table)

    def stamp(canvas, _doc):
        canvas.setCreator(BANK_NAME)
        canvas.setFont(FONT, 7.5)
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
