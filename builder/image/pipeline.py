"""The image stage of ``build-image``: cached base image + persona layer -> persona.qcow2."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Callable

from .bake import GUEST_JSON, BakeError, bake
from .base import REPO_ROOT, base_accounts, ensure_base


def build_persona_image(
    layer: Path,
    out_qcow2: Path,
    world: object,
    cache: Path,
    progress: Callable[[str], None],
    accel: str | None = None,
    thin: bool = True,
) -> Path:
    """Build ``out_qcow2`` from the persona ``layer`` directory.

    Gets the base image from ``cache`` (building the apps and the base on a miss, see
    :func:`builder.image.base.ensure_base`; app builds live in ``cache/appbuild``), then
    bakes the layer (:func:`builder.image.bake.bake`): a delta on the base, placed beside
    it, unless ``thin`` is False (a standalone qcow2). The clock comes from the layer's
    guest.json ``as_of`` (else ``world.now``). Returns ``out_qcow2``; raises the errors of
    those two steps (``BaseImageError``, ``AppError``, ``BakeError``).
    """
    cache = Path(cache)
    g = json.loads((Path(layer) / GUEST_JSON).read_text())
    as_of = g.get("as_of") or world.now.isoformat()  # type: ignore[attr-defined]
    as_of = as_of[:19]
    base = ensure_base(REPO_ROOT, cache, cache / "appbuild", progress)
    accounts = base_accounts(base)
    if accounts is not None and g["username"] in accounts:
        # The spec refuses the names it knows (RESERVED_USERNAMES); the base image has the last word.
        raise BakeError(
            f"username {g['username']!r} is a system account of the base image {base.name}; "
            "set identity.username in the persona to another name"
        )
    started = time.monotonic()
    out = bake(base, Path(layer), Path(out_qcow2), as_of, progress, accel=accel, thin=thin)
    progress(f"bake done in {time.monotonic() - started:.1f}s")
    return out
