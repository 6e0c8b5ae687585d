"""The task bundle's format number (docs/bundle-format.md says what each number means and what bumps it).

``manifest.json`` carries it as ``bundle_format``, every line of ``tasks/tasks.jsonl`` as ``format``. This module
imports only the standard library, so the runtime (run-image in its container) can check a bundle without the
builder's dependencies; :func:`sha256_file` is the digest of the manifest's artifacts and ``SHA256SUMS``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

#: The format this code writes and the newest it reads.
BUNDLE_FORMAT = 2


def check_bundle_format(found: object, where: str) -> None:
    """Accept a bundle's format number ``found`` read from ``where`` (a file name, a task id), or raise ``ValueError``.

    ``None`` (a bundle written before the number existed) is read as format 1. A number newer than
    :data:`BUNDLE_FORMAT` is refused with a message saying to update persona-desktop; anything but a positive
    integer is refused as malformed.
    """
    if found is None:
        return
    if isinstance(found, bool) or not isinstance(found, int) or found < 1:
        raise ValueError(f"{where}: bundle format {found!r} is not a positive integer")
    if found > BUNDLE_FORMAT:
        raise ValueError(
            f"{where}: bundle format {found} is newer than this persona-desktop reads ({BUNDLE_FORMAT}); "
            "update persona-desktop to read it"
        )


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file, read in 1 MiB blocks (the digests of ``manifest.json``'s artifacts and ``SHA256SUMS``;
    an 800 MB base image takes 2-4 s)."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
