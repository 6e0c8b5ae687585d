"""Spec text set in reportlab PDFs: escaped, laid out for right-to-left scripts, in embedded fonts.

Spec text is untrusted. Every piece of it that reaches a reportlab ``Paragraph`` goes through
:func:`para_text`, which escapes it, so it can never be read as Paragraph markup (``<img>``
would read host files or fetch URLs at build time, ``<`` crashes the parser); only markup the
caller writes itself (``<br/>``, ``&middot;``) is markup.

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
need a fallback become Paragraphs (:func:`cell`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Paragraph

from . import fonts

# The embedded fonts: reportlab name -> file. Regular and bold only (headings are upright bold).
FONT_PACKAGE = "fonts-dejavu-core"
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
_FONT_FILES = {FONT: "DejaVuSans.ttf", FONT_BOLD: "DejaVuSans-Bold.ttf"}


class FontMissing(RuntimeError):
    """A font file the statements embed is not installed."""


@lru_cache(maxsize=None)
def font_chars() -> frozenset[int]:
    """Register the statement fonts with reportlab once; return the code points both fonts have."""
    chars = None
    for name, file in _FONT_FILES.items():
        path = FONT_DIR / file
        if not path.is_file():
            raise FontMissing(
                f"statement PDFs need the font {path}: install the Debian package {FONT_PACKAGE} "
                f"(apt-get install {FONT_PACKAGE}, or run scripts/setup-deps.sh)"
            )
        # shapable=False: the text arrives shaped and in visual order (below), whatever is installed.
        font = TTFont(name, str(path), shapable=False)
        pdfmetrics.registerFont(font)
        have = frozenset(font.face.charToGlyph)
        chars = have if chars is None else chars & have
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD)
    return chars


@lru_cache(maxsize=None)
def reshaper():
    """An Arabic reshaper that emits only presentation forms and ligatures the fonts have."""
    from arabic_reshaper import ArabicReshaper
    from arabic_reshaper.ligatures import LIGATURES

    have = font_chars()
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
    :func:`visual` reorders and mirrors. A changed debug form is an error, never a silent misprint.
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


def visual(text: str) -> str:
    """``text`` (NFC) as it is drawn left to right: Arabic joined, right-to-left runs reversed.

    Grapheme clusters (a base and its combining marks) move as one, so marks stay on their letter
    (also in a left-to-right run nested in a right-to-left one), and brackets inside right-to-left
    runs are mirrored.
    """
    from bidi.mirror import MIRRORED

    text = unicodedata.normalize("NFC", text)
    if not any(unicodedata.bidirectional(ch) in ("R", "AL", "AN") for ch in text):
        return text
    have = font_chars()
    if any(unicodedata.bidirectional(ch) == "AL" for ch in text):
        # A presentation form the font lacks falls back to the plain letter (readable, not joined).
        text = "".join(ch if ord(ch) in have else unicodedata.normalize("NFKC", ch) for ch in reshaper().reshape(text))
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


def para_text(text: str, bold: bool = False) -> str:
    """Spec or world text, safe inside Paragraph markup: laid out (see :func:`visual`), then split
    into font runs, each escaped; runs DejaVu cannot draw are set in a fallback font
    (:func:`builder.files.fonts.markup`; ``bold`` picks its bold face when it has one)."""
    return fonts.markup(visual(text), font_chars(), bold=bold)


def cell(text: str, style: ParagraphStyle):
    """A plain table cell: the string itself when DejaVu draws all of it (drawn as is, no markup),
    else a Paragraph in ``style`` so the fallback fonts can draw the rest."""
    if not fonts.needs_fallback(text, font_chars()):
        return text
    return Paragraph(para_text(text, bold=style.fontName == FONT_BOLD), style)


def meta_text(text: str) -> str:
    """Spec text for the PDF's info dictionary: NFC, logical order, no control characters."""
    text = unicodedata.normalize("NFC", text)
    return "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)


def register() -> None:
    """Register the embedded fonts with reportlab (once): DejaVu, or :class:`FontMissing`; the installed
    fallbacks, with a warning naming each missing one's package."""
    font_chars()
    fonts.fallback_faces()
