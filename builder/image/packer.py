"""Packer's ``-machine-readable`` output: parsing and a runner that turns it into progress."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

Progress = Callable[[str], None]


class PackerError(RuntimeError):
    """``packer build`` failed; the message carries Packer's error lines."""


@dataclass(frozen=True)
class PackerLine:
    """One machine-readable line: ``timestamp,target,type,data...``.

    ``timestamp`` is Unix seconds, ``target`` the build name (empty for global messages),
    ``type`` e.g. ``ui``, ``artifact``, ``error``; ``data`` the remaining fields with
    ``%!(PACKER_COMMA)`` turned back into commas and ``\\n`` / ``\\r`` escapes into newlines.
    """

    timestamp: int
    target: str
    type: str
    data: tuple[str, ...]

    @property
    def message(self) -> str | None:
        """The text of a ``ui`` line (``ui,say|message|error,TEXT``), else None."""
        if self.type == "ui" and len(self.data) >= 2:
            return self.data[1]
        return None

    @property
    def is_error(self) -> bool:
        """True for ``ui,error,...`` and ``error,...`` lines."""
        return (self.type == "ui" and self.data[:1] == ("error",)) or self.type == "error"


def _unescape(field: str) -> str:
    return field.replace("%!(PACKER_COMMA)", ",").replace("\\n", "\n").replace("\\r", "\r")


def parse_line(line: str) -> PackerLine | None:
    """Parse one machine-readable line; None for a line that is not one (e.g. blank).

    >>> parse_line("1700000000,,ui,say,Build 'qemu' finished%!(PACKER_COMMA) ok.").message
    "Build 'qemu' finished, ok."
    """
    line = line.rstrip("\r\n")
    parts = line.split(",")
    if len(parts) < 3 or not parts[0].isdigit():
        return None
    return PackerLine(int(parts[0]), parts[1], parts[2], tuple(_unescape(p) for p in parts[3:]))


def artifact_files(lines: list[PackerLine]) -> list[str]:
    """Files named by ``artifact,N,file,I,PATH`` lines, in order."""
    return [ln.data[3] for ln in lines if ln.type == "artifact" and len(ln.data) >= 4 and ln.data[1] == "file"]


def iter_packer(cmd: list[str], env: dict, cwd: Path, log: Path) -> Iterator[PackerLine]:
    """Run a ``packer ... -machine-readable`` command, yield parsed lines, log raw ones.

    Raises :class:`PackerError` (with its error lines) when Packer exits non-zero.
    """
    errors: list[str] = []
    with open(log, "ab") as lf:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=cwd)
        assert p.stdout is not None
        try:
            for raw in p.stdout:
                lf.write(raw)
                lf.flush()
                pl = parse_line(raw.decode(errors="replace"))
                if pl is None:
                    continue
                if pl.is_error:
                    errors.append(pl.data[-1])
                yield pl
        finally:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    p.kill()
            rc = p.wait()
    if rc != 0:
        raise PackerError(f"packer exited {rc}: " + " | ".join(e.strip() for e in errors[-5:]) + f" (log {log})")


def packer_env(cache_dir: Path) -> dict:
    """Environment for an offline Packer run (no update checks, cache under ``cache_dir``)."""
    return dict(
        os.environ, CHECKPOINT_DISABLE="1", PACKER_CACHE_DIR=str(cache_dir), PACKER_NO_COLOR="1", PACKER_LOG="0"
    )
