"""OpenDocument files (ODT, ODS, ODP) from odfpy whose bytes depend only on the document.

odfpy keeps the namespaces it has seen in one class-level dict (``odf.element.Element.namespaces``), filled as
elements are made and attributes written, and declares all of them, in the order first seen, on every document's
root. A document's bytes therefore depended on what the process had built before (another persona's files in a
fleet's Ray worker, say). :func:`odf_bytes` clears that dict before the document is made and writes it twice: odfpy
meets some namespaces only while writing, after the root's declarations went out.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any


def odf_bytes(make: Callable[[], Any]) -> bytes:
    """The bytes of the document ``make()`` returns (an ``odf.opendocument.OpenDocument``), built after odfpy's
    namespace memory was cleared: the same document gives the same bytes in any process, whatever it wrote before.
    The zip's dates and ``meta.xml`` are odfpy's (wall clock); callers normalise them."""
    from odf.element import Element

    Element.namespaces.clear()
    doc = make()
    doc.write(io.BytesIO())
    buf = io.BytesIO()
    doc.write(buf)
    return buf.getvalue()
