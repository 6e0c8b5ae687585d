"""Fallback fonts for statement text DejaVu Sans cannot draw: CJK and Hangul, Thai, emoji.

DejaVu Sans (see :mod:`builder.files.pdftext`) draws Latin, Greek, Cyrillic, Hebrew and Arabic.
For any other character the first fallback here whose cmap has it draws it; text is split into
runs by font (:func:`font_runs`) and each fallback run becomes ``<font name="...">`` markup around
its escaped text (:func:`markup`). The fonts are TrueType (``glyf`` outlines), which reportlab's
``TTFont`` embeds as subsets; it cannot embed CFF-flavoured OpenType or colour-bitmap fonts, which
rules out Noto CJK and Noto Color Emoji. The smallest Debian set that covers the scripts:

* ``fonts-wqy-microhei`` (5 MB): WenQuanYi Micro Hei, a TrueType collection: CJK unified
  ideographs, kana, Hangul syllables, full-width forms (Chinese, Japanese, Korean names);
* ``fonts-tlwg-garuda-ttf`` (0.4 MB): Garuda regular and bold: Thai;
* ``fonts-symbola`` (3 MB): Symbola: monochrome emoji and symbols.

A fallback font that is not installed is left out with a :class:`FallbackFontMissing` warning
(once per process): statements still build, and only characters that font alone has print as the
missing-glyph box. A warning, not an error, because DejaVu alone is right for every persona whose
text it covers (the bytes of those statements do not change at all), while the warning names the
package for a persona that needs it. DejaVu itself stays required (:class:`FontMissing`).

Rendering is not shaped: Thai marks are drawn at the font's default mark positions and emoji ZWJ
sequences as their separate emoji, both readable and both extracted by ``pdftotext`` as typed.
"""

from __future__ import annotations

import unicodedata
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont

FONT_ROOT = Path("/usr/share/fonts/truetype")


class FallbackFontMissing(UserWarning):
    """A fallback font file is not installed: the characters only it has print as boxes."""


@dataclass(frozen=True)
class Fallback:
    name: str  # reportlab font name (also the family name); ours, never spec text
    package: str  # the Debian package that installs it
    file: str  # under FONT_ROOT
    bold_file: str | None = None  # a bold face, else bold text uses the regular one
    subfont: int = 0  # face index in a TrueType collection (.ttc)

    @property
    def bold_name(self) -> str:
        return f"{self.name}-Bold" if self.bold_file else self.name


# Tried in this order after DejaVu Sans; the first font that has a character draws it.
FALLBACKS = (
    Fallback("WenQuanYiMicroHei", "fonts-wqy-microhei", "wqy/wqy-microhei.ttc"),
    Fallback("Garuda", "fonts-tlwg-garuda-ttf", "tlwg/Garuda.ttf", "tlwg/Garuda-Bold.ttf"),
    Fallback("Symbola", "fonts-symbola", "ancient-scripts/Symbola_hint.ttf"),
)


def _to_unicode_cmap(fontname, subset):
    """reportlab's ToUnicode CMap, with code points beyond U+FFFF written as UTF-16 (surrogate pairs).

    reportlab 4.5.1 writes ``<%04X>``, so an emoji like U+1F984 becomes the five-digit ``<1F984>``
    and ``pdftotext`` reads U+1F98. For BMP characters the output is the same text as reportlab's.
    """

    def dest(v):
        return "%04X" % v if v <= 0xFFFF else chr(v).encode("utf-16-be").hex().upper()

    return "\n".join(
        [
            "/CIDInit /ProcSet findresource begin",
            "12 dict begin",
            "begincmap",
            "/CIDSystemInfo",
            "<< /Registry (%s)" % fontname,
            "/Ordering (%s)" % fontname,
            "/Supplement 0",
            ">> def",
            "/CMapName /%s def" % fontname,
            "/CMapType 2 def",
            "1 begincodespacerange",
            "<00> <%02X>" % (len(subset) - 1),
            "endcodespacerange",
            "%d beginbfchar" % len(subset),
        ]
        + ["<%02X> <%s>" % (i, dest(v)) for i, v in enumerate(subset)]
        + [
            "endbfchar",
            "endcmap",
            "CMapName currentdict /CMap defineresource pop",
            "end",
            "end",
        ]
    )


def _fix_to_unicode() -> None:
    """Install :func:`_to_unicode_cmap` in reportlab (the subsetting code looks the name up there)."""
    if ttfonts.makeToUnicodeCMap is not _to_unicode_cmap:
        if ttfonts.makeToUnicodeCMap("X", [0x41, 0xFFFD]) != _to_unicode_cmap("X", [0x41, 0xFFFD]):
            raise RuntimeError("reportlab's ToUnicode CMap changed; check builder/files/fonts.py against it")
        ttfonts.makeToUnicodeCMap = _to_unicode_cmap


@dataclass(frozen=True)
class Face:
    name: str
    bold_name: str
    chars: frozenset[int] = field(repr=False)


@lru_cache(maxsize=None)
def fallback_faces() -> tuple[Face, ...]:
    """Register the installed fallback fonts with reportlab once; warn about each missing one."""
    _fix_to_unicode()
    faces = []
    for fb in FALLBACKS:
        files = [fb.file] + ([fb.bold_file] if fb.bold_file else [])
        missing = [FONT_ROOT / f for f in files if not (FONT_ROOT / f).is_file()]
        if missing:
            warnings.warn(
                FallbackFontMissing(
                    f"statement PDFs fall back to the font {missing[0]} for characters DejaVu Sans lacks, and it is "
                    f"not installed: those characters print as boxes (apt-get install {fb.package}, or run "
                    f"scripts/setup-deps.sh)"
                ),
                stacklevel=2,
            )
            continue
        # shapable=False: text arrives in visual order, as for DejaVu.
        regular = TTFont(fb.name, str(FONT_ROOT / fb.file), subfontIndex=fb.subfont, shapable=False)
        pdfmetrics.registerFont(regular)
        if fb.bold_file:
            pdfmetrics.registerFont(TTFont(fb.bold_name, str(FONT_ROOT / fb.bold_file), shapable=False))
        # Paragraph's <font name=...> maps the name back to a family: register it as one.
        pdfmetrics.registerFontFamily(
            fb.name, normal=fb.name, bold=fb.bold_name, italic=fb.name, boldItalic=fb.bold_name
        )
        faces.append(Face(fb.name, fb.bold_name, frozenset(regular.face.charToGlyph)))
    return tuple(faces)


def _extends(ch: str) -> bool:
    """``ch`` belongs to the character before it: a combining mark, joiner, variation selector,
    emoji skin-tone modifier or tag; it stays in that character's font when the font has it."""
    cp = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or cp in (0x200C, 0x200D)
        or 0xFE00 <= cp <= 0xFE0F
        or 0xE0100 <= cp <= 0xE01EF
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
    )


def font_runs(text: str, base: frozenset[int], faces: tuple[Face, ...]) -> list[tuple[Face | None, str]]:
    """``text`` split into runs by the font that draws them: ``None`` for the base font (DejaVu),
    else the first fallback face that has the character. A character no font has stays where it is,
    in the current run (the base font's run at the start): it prints as that font's box."""
    runs: list[list] = []  # [face or None, text]
    for ch in text:
        cp = ord(ch)
        if runs and _extends(ch):
            face = runs[-1][0]
            if cp in (base if face is None else face.chars):
                runs[-1][1] += ch
                continue
        if cp in base:
            face = None
        else:
            face = next((f for f in faces if cp in f.chars), runs[-1][0] if runs else None)
        if runs and runs[-1][0] is face:
            runs[-1][1] += ch
        else:
            runs.append([face, ch])
    return [(face, t) for face, t in runs]


def markup(text: str, base: frozenset[int], bold: bool = False) -> str:
    """``text`` (already in visual order) as Paragraph markup: every run escaped, fallback runs in
    ``<font name="...">`` tags. Only the tags (with our own font names) are markup."""
    out = []
    for face, run in font_runs(text, base, fallback_faces()):
        if face is None:
            out.append(escape(run))
        else:
            out.append(f'<font name="{face.bold_name if bold else face.name}">{escape(run)}</font>')
    return "".join(out)


def needs_fallback(text: str, base: frozenset[int]) -> bool:
    """Whether some character of ``text`` is not in the base font but in a fallback font."""
    faces = fallback_faces()
    return any(ord(ch) not in base and any(ord(ch) in f.chars for f in faces) for ch in text)
