"""Helpers of the independent readers (:mod:`builder.tasks.reader`) for what pages and files show: the text of a PDF
in the home folder, a form's value under its label, the unit a shown amount is written in (days and clock times:
:mod:`builder.tasks.dates`).

Nothing here reads the world or a database; every function takes text a person sees (or a file of the home folder)
and raises :class:`builder.tasks.reader.Unreadable` when the text does not hold what is asked.
"""

from __future__ import annotations

import re
from pathlib import Path

from .reader import Unreadable


def pdf_text(path: Path) -> str:
    """The text of every page of the PDF at ``path`` (pypdf's extraction, pages joined by newlines). Raises
    :class:`Unreadable` when the file is not a PDF pypdf can read."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        return "\n".join(page.extract_text() or "" for page in PdfReader(str(path)).pages)
    except (PdfReadError, OSError, ValueError) as e:
        raise Unreadable(f"{path.name} is not a readable PDF: {e}") from e


def line_after(text: str, label: str) -> str:
    """The line that follows the first line of ``text`` starting with ``label`` (case-insensitive): a form's value
    printed under its box label. Raises :class:`Unreadable` when no line starts so or none follows it."""
    lines = [ln.strip() for ln in text.splitlines()]
    for i, ln in enumerate(lines):
        if ln.lower().startswith(label.lower()) and i + 1 < len(lines):
            return lines[i + 1]
    raise Unreadable(f"no line {label!r} followed by a value")


def unit_cents(shown: str) -> int:
    """Cents of the smallest unit an amount of money as a page shows it is written in: 1 when it has decimals
    (``$1,234.56``, ``1.234,56 €``, ``$0.00``), 100 when it is written in whole units (``¥1,850``, ``F CFA 700,737``,
    ``COP 5,079,878``): what a computed amount in that currency is rounded to (half up) before a person states it.
    Raises :class:`Unreadable` when ``shown`` holds no number."""
    from .matching import NUMBER_AT

    m = NUMBER_AT.search(shown.replace("\u2009", " "))
    if m is None:
        raise Unreadable(f"no amount of money in {shown!r}")
    return 1 if re.search(r"[.,]\d{1,2}$", m.group(1)) else 100


def to_step(cents, step: int) -> int:
    """``cents`` (any number: a share, a product of shares and a price) rounded half up to a multiple of ``step``
    cents (:func:`unit_cents`), as integer cents."""
    from decimal import ROUND_HALF_UP, Decimal

    value = cents if isinstance(cents, Decimal) else Decimal(str(cents))
    return int((value / step).quantize(Decimal(1), ROUND_HALF_UP)) * step
