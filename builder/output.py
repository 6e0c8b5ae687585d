"""The output folder of ``build-image``: one slot ``OUT/<persona-id>`` per persona, replaced atomically.

Names under ``OUT`` for a persona id ``ID`` (all direct children of ``OUT``):

``ID``            the last good build
``.ID.partial``   the staging folder of the build under way (or, just after a swap, the old build being removed)
``.ID.old``       only left by the two-step fallback swap when it was interrupted: always a whole, good build
``.ID.lock``      the lock file (``flock``); kept, never removed (removing lock files races with their users)

Every step that touches any of these runs under the lock, so builds of one persona run one after the other
and builds of different personas side by side. The swap is one ``renameat2(RENAME_EXCHANGE)``: at every
instant ``OUT/ID`` is either the old build or the new one. Where the filesystem refuses the exchange, a
two-step rename is used whose interruption the next build repairs (:func:`recover`).

The persona id comes from an untrusted spec, so :func:`plan` refuses any id whose paths would not be plain,
direct children of ``OUT`` (empty, ``.``, ``..``, slashes, a leading dot, too long, control characters).
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import shutil
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

AT_FDCWD = -100
RENAME_EXCHANGE = 2
NAME_MAX = 255

# errno values meaning "this filesystem/kernel/libc cannot exchange", as opposed to a real failure.
_NO_EXCHANGE = {errno.EINVAL, errno.ENOSYS, errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP}


class OutputError(Exception):
    """A problem with ``--out`` or the persona's paths under it; the message is one line for the user."""


@dataclass(frozen=True)
class Slot:
    """The paths of one persona's output under ``out`` (an absolute, resolved folder)."""

    out: Path
    id: str

    @property
    def final(self) -> Path:
        return self.out / self.id

    @property
    def staging(self) -> Path:
        return self.out / f".{self.id}.partial"

    @property
    def old(self) -> Path:
        return self.out / f".{self.id}.old"

    @property
    def lock(self) -> Path:
        return self.out / f".{self.id}.lock"


def _check_id(persona_id: object) -> str:
    if not isinstance(persona_id, str) or not persona_id:
        raise OutputError(f"persona id {persona_id!r} is empty: refusing to build")
    bad = None
    if persona_id in (".", "..") or persona_id.startswith("."):
        bad = "starts with a dot"
    elif "/" in persona_id or "\\" in persona_id:
        bad = "contains a slash"
    elif any(ord(c) < 32 or ord(c) == 127 for c in persona_id):
        bad = "contains control characters"
    elif len(f".{persona_id}.partial".encode("utf-8", "surrogateescape")) > NAME_MAX:
        bad = "is too long for a file name"
    if bad:
        raise OutputError(f"persona id {persona_id!r} {bad}: refusing to use it as a folder name")
    return persona_id


def plan(out: Path, persona_id: str) -> Slot:
    """Check ``--out`` and the id without writing anything; the returned slot's paths are all direct
    children of the resolved ``out``. Raises :class:`OutputError`."""
    persona_id = _check_id(persona_id)
    try:
        return _plan(out, persona_id)
    except OSError as err:  # e.g. a parent folder that cannot be searched
        raise OutputError(f"--out {out}: {err.strerror or err}") from None


def _plan(out: Path, persona_id: str) -> Slot:
    if out.exists() and not out.is_dir():
        raise OutputError(f"--out {out}: exists and is not a directory")
    if not out.exists() and out.is_symlink():
        raise OutputError(f"--out {out}: is a dangling symlink")
    root = out.resolve()
    slot = Slot(root, persona_id)
    for path in (slot.final, slot.staging, slot.old, slot.lock):
        # Lexically and after resolving symlinks, the path must be a direct child of OUT.
        if Path(os.path.normpath(path)).parent != root or path.parent != root:
            raise OutputError(f"{path}: not a direct child of {root}: refusing to write there")
    if slot.final.is_symlink() or (slot.final.exists() and not slot.final.is_dir()):
        raise OutputError(
            f"{slot.final}: exists and is not a build folder (a symlink or a file): refusing to replace it"
        )
    if slot.final.exists() and slot.final.resolve().parent != root:
        raise OutputError(f"{slot.final}: resolves outside {root}: refusing to replace it")
    if not out.exists():
        # The nearest existing ancestor must be a writable directory, or nothing can be created.
        ancestor = root.parent
        while not ancestor.exists() and ancestor != ancestor.parent:
            ancestor = ancestor.parent
        if not ancestor.is_dir():
            raise OutputError(f"--out {out}: cannot be created: {ancestor} is not a directory")
        if not os.access(ancestor, os.W_OK | os.X_OK):
            raise OutputError(f"--out {out}: cannot be created: {ancestor} is not writable")
    elif not os.access(root, os.W_OK | os.X_OK):
        raise OutputError(f"--out {out}: is not writable")
    return slot


def create(slot: Slot) -> None:
    """Create ``OUT`` (and parents). Raises :class:`OutputError`."""
    try:
        slot.out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OutputError(f"--out {slot.out}: cannot be created: {err.strerror or err}") from None


@contextmanager
def locked(slot: Slot, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold ``OUT/.<id>.lock`` (``flock``, exclusive); call ``on_wait`` once if another build holds it."""
    try:
        fd = os.open(slot.lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as err:
        raise OutputError(f"{slot.lock}: cannot open the lock file: {err.strerror or err}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OutputError(f"{slot.lock}: is not a regular file")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait:
                on_wait()
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the flock


def remove(path: Path) -> None:
    """Remove a file, symlink (never followed) or folder tree; nothing if absent."""
    try:
        st = path.lstat()
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        shutil.rmtree(path)
    else:
        path.unlink()


def recover(slot: Slot) -> list[str]:
    """Repair what an interrupted build left (call under the lock). Returns what was done, for logging."""
    done = []
    if slot.old.is_symlink() or (slot.old.exists() and not slot.old.is_dir()):
        remove(slot.old)
        done.append(f"removed stray {slot.old.name}")
    elif slot.old.exists():
        if not os.path.lexists(slot.final):
            # Interrupted between the two renames of the fallback swap: the old build is whole; put it back.
            os.rename(slot.old, slot.final)
            done.append(f"restored {slot.final.name} from {slot.old.name}")
        else:
            remove(slot.staging)
            os.rename(slot.old, slot.staging)  # deleted below, like any stale staging folder
            done.append(f"removed stale {slot.old.name}")
    if os.path.lexists(slot.staging):
        remove(slot.staging)
        done.append(f"removed stale {slot.staging.name}")
    _fsync_dir(slot.out)
    return done


_renameat2_fn = None


def _renameat2(src: Path, dst: Path, flags: int) -> None:
    """``renameat2(AT_FDCWD, src, AT_FDCWD, dst, flags)``; raises OSError (ENOSYS if libc lacks it)."""
    global _renameat2_fn
    if _renameat2_fn is None:
        libc = ctypes.CDLL(None, use_errno=True)
        try:
            fn = libc.renameat2
        except AttributeError:
            raise OSError(errno.ENOSYS, "renameat2 is not in this libc") from None
        fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
        fn.restype = ctypes.c_int
        _renameat2_fn = fn
    if _renameat2_fn(AT_FDCWD, os.fsencode(src), AT_FDCWD, os.fsencode(dst), flags) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), str(src), None, str(dst))


def exchange(a: Path, b: Path) -> None:
    """Swap two existing paths atomically (``RENAME_EXCHANGE``)."""
    _renameat2(a, b, RENAME_EXCHANGE)


def swap_into_place(staging: Path, final: Path, old: Path) -> str:
    """Replace ``final`` by ``staging`` (call under the lock) and remove the previous build.

    Returns how: ``"rename"`` (no previous build), ``"exchange"`` (one atomic ``RENAME_EXCHANGE``) or
    ``"two-step"`` (the filesystem refused the exchange: ``final`` -> ``old``, ``staging`` -> ``final``;
    a kill between the two leaves ``old`` whole, and :func:`recover` puts it back).
    In every case the previous build is removed from the staging name, so ``old`` only ever holds a whole build.
    """
    if not os.path.lexists(final):
        os.rename(staging, final)
        _fsync_dir(final.parent)
        return "rename"
    try:
        exchange(staging, final)
        how = "exchange"
    except OSError as err:
        if err.errno not in _NO_EXCHANGE:
            raise
        remove(old)
        os.rename(final, old)
        os.rename(staging, final)
        os.rename(old, staging)
        how = "two-step"
    _fsync_dir(final.parent)
    remove(staging)  # the previous build, now under the staging name
    return how


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
