"""Thin persona images: ``persona.qcow2`` as a delta on the shared base image.

A build folder holds either form of the persona's disk:

* **thin** (build-image's default): ``persona.qcow2`` holds only the clusters the bake changed
  (the persona layer, its users, the apps' first start: tens of MiB) and names its backing file by
  bare name, ``base-<hash16>.qcow2``, which sits beside it in the same folder (a hard link to the
  builder's cache, so a hundred builds cost the base's bytes once). QEMU resolves a relative backing
  name against the folder of the image that names it, so the folder moves, mounts into a container
  and publishes as it is. ``manifest.json`` records the base under ``image.base`` (file, size,
  SHA-256), and ``pull-image`` fetches each base once into ``_bases/`` of its cache.
* **full** (``build-image --full-image``, and every image made before thin ones): one standalone
  qcow2 with no backing file.

The header fields read here are the qcow2 format's own (QEMU ``docs/interop/qcow2.txt``: magic
``QFI\\xfb``, version, backing_file_offset u64 at byte 8, backing_file_size u32 at byte 16, all
big-endian).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

from ..bundle_format import sha256_file

QCOW2_MAGIC = b"QFI\xfb"
#: A base image's file name: ``base-`` and the first 16 hex digits of its recipe's hash (builder/image/base.py).
BASE_NAME = re.compile(r"base-[0-9a-f]{16}\.qcow2")
#: The longest backing file name QEMU writes or reads (its own limit).
MAX_BACKING_NAME = 1023


class ThinImageError(Exception):
    """A thin image whose base is missing, not the one it was made on, or a file that is not a qcow2."""


def backing_name(qcow2: Path) -> str | None:
    """The backing file name written in ``qcow2``'s header, or None for a standalone image.

    Raises :class:`ThinImageError` when the file is not a qcow2 (wrong magic, short header).
    """
    with open(qcow2, "rb") as f:
        head = f.read(20)
        if len(head) < 20 or head[:4] != QCOW2_MAGIC:
            raise ThinImageError(f"{qcow2}: not a qcow2 image")
        offset, size = struct.unpack(">QI", head[8:20])
        if offset == 0 or size == 0:
            return None
        if size > MAX_BACKING_NAME:
            raise ThinImageError(f"{qcow2}: a backing file name of {size} bytes (QEMU allows {MAX_BACKING_NAME})")
        f.seek(offset)
        raw = f.read(size)
    if len(raw) != size:
        raise ThinImageError(f"{qcow2}: truncated header (backing file name)")
    return raw.decode("utf-8", "replace")


def _record_path(base: Path) -> Path:
    return base.with_name(f".{base.name}.sha256.json")


def base_sha256(base: Path) -> str:
    """SHA-256 of a base image, hashed once and then read from a record beside it.

    The record (``.<name>.sha256.json``: digest, size, mtime_ns) is trusted only while the file keeps
    that size and mtime; otherwise the file is hashed again and the record rewritten (best effort:
    a read-only folder just means hashing each time).
    """
    base = Path(base)
    st = base.stat()
    rec_path = _record_path(base)
    try:
        rec = json.loads(rec_path.read_text())
        if rec.get("size") == st.st_size and rec.get("mtime_ns") == st.st_mtime_ns:
            return str(rec["sha256"])
    except (OSError, ValueError, KeyError):
        pass
    digest = sha256_file(base)
    record_sha256(base, digest)
    return digest


def record_sha256(base: Path, digest: str) -> None:
    """Write the record :func:`base_sha256` trusts: ``digest`` for ``base`` as it is now (size, mtime), for a
    caller that has just hashed or verified the file (a pull). Best effort: a read-only folder keeps no record."""
    base = Path(base)
    rec_path = _record_path(base)
    try:
        st = base.stat()
        tmp = rec_path.with_name(rec_path.name + f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"sha256": digest, "size": st.st_size, "mtime_ns": st.st_mtime_ns}) + "\n")
        os.replace(tmp, rec_path)
    except OSError:
        pass


def relative_backing(qcow2: Path, base_name: str) -> None:
    """Rewrite ``qcow2``'s backing file name to ``base_name`` (a name beside it), data untouched.

    ``qemu-img rebase -u`` changes only the header; the caller guarantees the base named is the one
    the delta was written against. Raises :class:`ThinImageError` when qemu-img fails.
    """
    r = subprocess.run(
        ["qemu-img", "rebase", "-u", "-f", "qcow2", "-F", "qcow2", "-b", base_name, str(qcow2)],
        capture_output=True,
        text=True,
    )
    if r.returncode != 0:
        raise ThinImageError(f"qemu-img rebase -u {qcow2}: {r.stderr.strip()}")


def place_base(base: Path, folder: Path) -> Path:
    """Put the base image ``base`` into ``folder`` under its own name; return the new path.

    A hard link when both are on one filesystem (no bytes copied), else a copy that shares
    extents where the filesystem can (``cp --reflink=auto``). A link to the same file already there
    is kept; any other file of that name is replaced. The base's SHA-256 record goes along (a hard
    link keeps its size and mtime, so :func:`base_sha256` need not hash it again; a copy's differs and
    is hashed once). Raises OSError when neither works (a full disk).
    """
    base, folder = Path(base), Path(folder)
    dest = folder / base.name
    if _record_path(base).is_file():
        shutil.copyfile(_record_path(base), _record_path(dest))
    if not (dest.exists() and os.path.samefile(dest, base)):
        link_or_copy(base, dest)
    return dest


def link_or_copy(src: Path, dest: Path) -> None:
    """Place ``src`` at ``dest`` through a temporary name beside it, so ``dest`` never holds half a file: a hard link
    when both are on one filesystem, else a copy sharing extents where the filesystem can (``cp --reflink=auto``),
    flushed to disk. Creates ``dest``'s folder. Raises OSError (a full disk: cp's message)."""
    src, dest = Path(src), Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    try:
        try:
            os.link(src, tmp)
        except OSError:
            r = subprocess.run(["cp", "--reflink=auto", str(src), str(tmp)], capture_output=True, text=True)
            if r.returncode != 0:
                raise OSError(f"cp {src} {tmp}: {r.stderr.strip()}")
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)


def image_record(folder: Path, qcow2_name: str = "persona.qcow2") -> dict:
    """``manifest.json``'s ``image`` object for the build folder ``folder``.

    ``{"qcow2": "persona.qcow2", "form": "full"}`` for a standalone image;
    ``{"qcow2": ..., "form": "thin", "base": {"file": "base-<hash16>.qcow2", "size": bytes,
    "sha256": hex}}`` for a delta, whose base must be beside it. Raises :class:`ThinImageError`
    when the named base is not in the folder.
    """
    folder = Path(folder)
    name = backing_name(folder / qcow2_name)
    if name is None:
        return {"qcow2": qcow2_name, "form": "full"}
    base = folder / name
    if "/" in name or not base.is_file():
        raise ThinImageError(f"{folder / qcow2_name}: its base {name} is not in {folder}")
    return {
        "qcow2": qcow2_name,
        "form": "thin",
        "base": {"file": name, "size": base.stat().st_size, "sha256": base_sha256(base)},
    }


def check_base(qcow2: Path, manifest: dict | None) -> Path | None:
    """Make sure a thin ``qcow2`` can be opened: its base is beside it and is the one it was made on.

    Returns the backing file's path (None for a standalone image). When the manifest says the image is thin
    (``image.base``), the header must name exactly that ``base-<hash16>.qcow2`` beside it and the file must have the
    manifest's SHA-256 (hashed once, then trusted by size and mtime: :func:`base_sha256`); a qcow2 of the user's own
    with no such manifest may name any backing file that exists. Raises :class:`ThinImageError` with what to do
    otherwise.
    """
    qcow2 = Path(qcow2)
    name = backing_name(qcow2)
    if name is None:
        return None
    want = ((manifest or {}).get("image") or {}).get("base") or {}
    if want and name != want.get("file"):
        raise ThinImageError(
            f"{qcow2} names the backing file {name!r}, not the base its manifest records ({want.get('file')!r})"
        )
    if want and not is_base_file(name):
        raise ThinImageError(f"{qcow2}: {name!r} is not a base image's name (base-<16 hex digits>.qcow2)")
    base = Path(name) if Path(name).is_absolute() else qcow2.parent / name
    digest = want.get("sha256")
    hint = f" (SHA-256 {digest})" if digest else ""
    if not base.is_file():
        raise ThinImageError(
            f"{qcow2} is a thin image on the base {name}{hint}, which is not beside it: pull the image again "
            f"(pull-image fetches its base), copy {name} from the folder it was built in, or rebuild with "
            "build-image (--full-image writes a standalone qcow2)"
        )
    if digest:
        got = base_sha256(base)
        if got != digest:
            raise ThinImageError(
                f"{base} is not the base {qcow2.name} was made on (SHA-256 {got}, the manifest records {digest}): "
                "a base rebuilt under the same name differs byte for byte; pull or rebuild the image"
            )
    return base


def is_base_file(name: str) -> bool:
    """True for a file name of the shared base image (``base-<hash16>.qcow2``: no folder, nothing else)."""
    return BASE_NAME.fullmatch(name) is not None
