"""QEMU helpers shared by the base build, the bake and the boot: accelerator choice and
waiting for a marker line on a serial log."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Callable

Progress = Callable[[str], None]

QEMU = os.environ.get("PERSONA_QEMU", "qemu-system-x86_64")

_accel_cache: str | None = None


class QemuError(RuntimeError):
    """QEMU failed, or the guest did not reach the expected state in time."""


def _probe_boot_sector() -> bytes:
    """A 512-byte MBR that prints PERSONA-ACCEL-OK on COM1 and halts (real mode)."""
    msg = b"PERSONA-ACCEL-OK\r\n\0"
    head = bytes([0xFA, 0x31, 0xC0, 0x8E, 0xD8, 0xFC, 0xBA, 0xF8, 0x03])  # cli; ds=0; cld; dx=0x3f8
    body = bytes([0xAC, 0x84, 0xC0, 0x74, 0x03, 0xEE, 0xEB, 0xF8, 0xFA, 0xF4, 0xEB, 0xFC])
    addr = 0x7C00 + len(head) + 3 + len(body)
    code = head + bytes([0xBE, addr & 0xFF, addr >> 8]) + body + msg
    return code.ljust(510, b"\0") + b"\x55\xaa"


def kvm_usable(timeout: float = 10.0) -> bool:
    """Try KVM for real: boot a tiny boot sector under ``-accel kvm`` and see it print.

    False when /dev/kvm cannot be opened, QEMU refuses KVM, or the probe prints nothing
    within ``timeout`` seconds. This catches a KVM that cannot run a guest at all; a KVM
    that runs real-mode code but hangs a Linux guest (as on some nested hosts) is caught
    by the caller's boot watchdog (see ``boot.VM``) or forced off with PERSONA_ACCEL=tcg.
    """
    try:
        fd = os.open("/dev/kvm", os.O_RDWR)
        os.close(fd)
    except OSError:
        return False
    with tempfile.TemporaryDirectory() as td:
        img = Path(td) / "probe.img"
        img.write_bytes(_probe_boot_sector())
        try:
            r = subprocess.run(
                [
                    QEMU,
                    "-accel",
                    "kvm",
                    "-cpu",
                    "host",
                    "-machine",
                    "pc",
                    "-m",
                    "32",
                    "-display",
                    "none",
                    "-nodefaults",
                    "-serial",
                    "stdio",
                    "-no-reboot",
                    "-drive",
                    f"file={img},format=raw,if=ide",
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                timeout=timeout,
            )
            out = r.stdout
        except subprocess.TimeoutExpired as e:
            out = e.stdout or b""
    return b"PERSONA-ACCEL-OK" in out


def _broken_mark() -> Path:
    boot_id = "unknown"
    try:
        boot_id = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        pass
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "persona-desktop"
    return base / f"kvm-broken-{boot_id}"


def mark_kvm_broken(reason: str) -> None:
    """Remember (for this process and, via a file keyed by the host's boot id, for later
    processes until the host reboots) that KVM hangs real guests here."""
    global _accel_cache
    _accel_cache = "tcg"
    try:
        m = _broken_mark()
        m.parent.mkdir(parents=True, exist_ok=True)
        m.write_text(reason + "\n")
    except OSError:
        pass


def detect_accel() -> str:
    """The accelerator to use: ``"kvm"`` or ``"tcg"``.

    ``PERSONA_ACCEL=kvm|tcg`` forces the choice. Otherwise KVM is chosen when /dev/kvm opens,
    the boot-sector probe (:func:`kvm_usable`) prints, and no earlier boot on this host
    (since its last reboot) found that KVM hangs a Linux guest (:func:`mark_kvm_broken`,
    called by the boot watchdogs). TCG is the fallback.
    """
    global _accel_cache
    forced = os.environ.get("PERSONA_ACCEL", "").strip().lower()
    if forced in ("kvm", "tcg"):
        return forced
    if forced:
        raise ValueError(f"PERSONA_ACCEL must be kvm or tcg, not {forced!r}")
    if _accel_cache is None:
        if _broken_mark().exists():
            _accel_cache = "tcg"
        else:
            _accel_cache = "kvm" if kvm_usable() else "tcg"
    return _accel_cache


def accel_forced() -> bool:
    """True when PERSONA_ACCEL forces the accelerator (no fallback wanted)."""
    return os.environ.get("PERSONA_ACCEL", "").strip().lower() in ("kvm", "tcg")


#: A serial line that shows the guest kernel is running (printed within a second or
#: two under a working KVM; the watchdogs fall back to TCG when it does not come).
KERNEL_ALIVE = re.compile(r"Linux version \d|PERSONA-GRUB|PERSONA-BAKE|Welcome to|systemd\[1\]")
KVM_WATCHDOG_SECONDS = float(os.environ.get("PERSONA_KVM_WATCHDOG", "45"))


def accel_args(accel: str) -> list[str]:
    """QEMU arguments for ``accel`` (``kvm`` uses ``-cpu host``; ``tcg`` multi-threaded, its translation cache
    ``PERSONA_TCG_TB_SIZE`` MiB when set: QEMU's own default is 1 GiB, most of a TCG VM's own memory).
    Raises ``ValueError`` for another accelerator or a tb size that is not a whole number."""
    if accel == "kvm":
        return ["-accel", "kvm", "-cpu", "host"]
    if accel == "tcg":
        tb = os.environ.get("PERSONA_TCG_TB_SIZE", "").strip()
        if tb and not tb.isdigit():
            raise ValueError(f"PERSONA_TCG_TB_SIZE must be a whole number of MiB, not {tb!r}")
        return ["-accel", "tcg,thread=multi" + (f",tb-size={tb}" if tb else ""), "-cpu", "max"]
    raise ValueError(f"unknown accelerator {accel!r}")


def wait_serial(
    log: Path,
    ok: re.Pattern[str],
    fail: re.Pattern[str] | None,
    proc: subprocess.Popen | None,
    timeout: float,
    progress: Progress | None = None,
    echo: re.Pattern[str] | None = None,
) -> str:
    """Follow a serial log file until a line matches ``ok`` (returned) or ``fail``.

    Lines matching ``echo`` are passed to ``progress`` as they arrive. Raises
    :class:`QemuError` on a ``fail`` line, when ``proc`` exits first, or after
    ``timeout`` seconds (the message carries the log's last lines).
    """
    deadline = time.monotonic() + timeout
    pos = 0
    buf = ""
    while True:
        if log.exists():
            with open(log, "rb") as f:
                f.seek(pos)
                data = f.read()
                pos += len(data)
            buf += data.decode("utf-8", "replace")
            *lines, buf = buf.split("\n")
            for ln in lines:
                ln = ln.rstrip("\r")
                if echo and progress and echo.search(ln):
                    progress(ln.strip())
                if ok.search(ln):
                    return ln
                if fail and fail.search(ln):
                    raise QemuError(f"guest reported failure: {ln.strip()}\n{tail(log)}")
        if proc is not None and proc.poll() is not None:
            # Read what is left before giving up.
            if log.exists() and log.stat().st_size > pos:
                continue
            raise QemuError(f"QEMU exited ({proc.returncode}) before {ok.pattern!r}\n{tail(log)}")
        if time.monotonic() > deadline:
            raise QemuError(f"timed out after {timeout:.0f}s waiting for {ok.pattern!r}\n{tail(log)}")
        time.sleep(0.5)


def tail(log: Path, n: int = 40) -> str:
    """The last ``n`` lines of a text log (empty if missing)."""
    try:
        lines = log.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join(["--- serial log tail ---", *lines[-n:]])


def parse_as_of(as_of: str) -> datetime:
    """``as_of`` (``YYYY-MM-DDTHH:MM[:SS]``, naive local time) as a naive datetime.

    Raises :class:`ValueError` for anything else (an offset or ``Z`` is refused: the
    guest's clock shows local wall time).
    """
    dt = datetime.fromisoformat(as_of)
    if dt.tzinfo is not None:
        raise ValueError(f"as_of must be the persona's local wall time without offset, got {as_of!r}")
    return dt.replace(microsecond=0)


def rtc_base(as_of: str) -> str:
    """The QEMU ``-rtc base=`` value for ``as_of`` (the guest RTC runs in local time)."""
    return parse_as_of(as_of).strftime("%Y-%m-%dT%H:%M:%S")
