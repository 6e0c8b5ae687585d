"""Safe names from untrusted text: slugs for ids and user names, file names for paths.

Spec text (a persona's name, an account's name, a payee) is untrusted. Whatever reaches a
path goes through :func:`safe_filename`, which never returns an empty string, ``.``/``..``,
a name starting with ``.`` or ``-``, or anything holding a path separator or a control
character; ids go through :func:`ascii_slug`.
"""

from __future__ import annotations

import re
import unicodedata

# Longest file-name component we write (ext4 allows 255 bytes; leave room for suffixes).
MAX_FILENAME_BYTES = 120


def ascii_slug(text: str, sep: str = "-") -> str:
    """``"Zoë O'Brien"`` -> ``"zoe-o-brien"``: ASCII letters and digits joined by ``sep``; may be empty."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", sep, plain).strip(sep)


def safe_filename(text: str, fallback: str = "file") -> str:
    """A single path component made from ``text`` (Unicode letters kept, NFC), safe on every POSIX filesystem.

    Separators, control characters and characters shells and file managers trip on become ``-``;
    the result is at most :data:`MAX_FILENAME_BYTES` UTF-8 bytes. Returns ``fallback`` (itself
    made safe) when nothing usable is left.
    """
    text = unicodedata.normalize("NFC", text)
    kept = "".join(ch if (ch.isalnum() or ch in "._+") and unicodedata.category(ch)[0] != "C" else "-" for ch in text)
    name = re.sub(r"-{2,}", "-", kept).strip("-.")
    while len(name.encode()) > MAX_FILENAME_BYTES:
        name = name[:-1].rstrip("-.")
    if not name or set(name) <= {"."}:
        return safe_filename(fallback, "file") if fallback != text else "file"
    return name
