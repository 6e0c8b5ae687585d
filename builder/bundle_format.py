"""The task bundle's format number (docs/bundle-format.md says what each number means and what bumps it).

``manifest.json`` carries it as ``bundle_format``, every line of ``tasks/tasks.jsonl`` as ``format``. This module
imports nothing, so the runtime (run-image in its container) can check a bundle without the builder's
dependencies.
"""

from __future__ import annotations

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
