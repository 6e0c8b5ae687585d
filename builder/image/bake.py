"""The bake: the base image + a persona layer -> ``persona.qcow2``.

Packer (qemu builder, ``image/packer/persona.json``) boots an overlay of the base qcow2 with
the layer, packed as a tar and attached raw as a second virtio disk (serial
``persona-layer``). In the guest, udev pulls in ``persona-bake.service`` for that disk; it
extracts the layer onto /, creates the user, sets autologin, timezone and hostname, checks
each app through nginx, prints ``PERSONA-BAKE: OK`` (or ``FAIL <why>``) on the serial port
and powers off. The overlay is then flattened and zstd-compressed into the output.

Guest clock: the guest keeps its RTC in local time (``/etc/adjtime`` says LOCAL, written
here into the layer), so ``-rtc base=<as_of>`` with the persona's local wall time shows
exactly ``as_of`` on the desktop clock, whatever the timezone. Callers pass ``as_of``
verbatim (``YYYY-MM-DDTHH:MM:SS``, local time of the persona).
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable
from zoneinfo import ZoneInfo

from . import qemu as q
from .qemu import parse_as_of, rtc_base  # noqa: F401  (re-exported: the bake's callers use them)
from .base import PACKER_TEMPLATE, BaseImageError, convert
from .thin import ThinImageError, base_sha256, place_base, relative_backing
from .packer import PackerError, iter_packer, packer_env

Progress = Callable[[str], None]

GUEST_JSON = "etc/persona-desktop/guest.json"
BAKE_TIMEOUT = float(os.environ.get("PERSONA_BAKE_TIMEOUT", "1800"))


class BakeError(RuntimeError):
    """The bake failed: bad layer, Packer error, guest ``PERSONA-BAKE: FAIL`` or timeout."""


def bake_rtc_base(as_of: str, timezone: str) -> str:
    """The ``-rtc base=`` for the bake boot: ``as_of`` converted to UTC.

    During the bake the guest still runs with the base's UTC zone (the persona's zone and
    the LOCAL RTC setting arrive with the layer), so the RTC must hold UTC for files made
    during the bake to get the right times.
    """
    dt = parse_as_of(as_of).replace(tzinfo=ZoneInfo(timezone))
    return dt.astimezone(ZoneInfo("UTC")).strftime("%Y-%m-%dT%H:%M:%S")


def read_guest_json(layer: Path) -> dict:
    """``layer/etc/persona-desktop/guest.json`` checked for the fields the guest needs.

    Raises :class:`BakeError` when missing or incomplete.
    """
    p = Path(layer) / GUEST_JSON
    if not p.is_file():
        raise BakeError(f"{p} missing: the persona layer must carry guest.json")
    g = json.loads(p.read_text())
    missing = [k for k in ("username", "full_name", "password", "uid", "timezone", "hostname", "apps") if k not in g]
    if missing:
        raise BakeError(f"{p} lacks {missing}")
    for app in g["apps"]:
        db = Path(layer) / "var/lib/persona-desktop/apps" / app["name"] / app["database"]
        if not db.is_file():
            raise BakeError(f"app {app['name']}: {db} missing from the layer")
    return g


def pack_layer(layer: Path, out_tar: Path, clamp_mtime: int) -> int:
    """Pack the directory ``layer`` as a deterministic tar at ``out_tar``; return its size.

    Entries are sorted, owned by 0:0 (``root``), modes kept, mtimes clamped to
    ``clamp_mtime`` (Unix seconds), plus ``etc/adjtime`` (guest RTC in local time) when the
    layer has none. The size is padded to a multiple of 1 MiB (it is attached as a disk).
    """
    layer = Path(layer)

    def info(name: str, st: os.stat_result | None, kind: bytes) -> tarfile.TarInfo:
        ti = tarfile.TarInfo(name)
        ti.uid = ti.gid = 0
        ti.uname = ti.gname = "root"
        ti.mtime = min(int(st.st_mtime), clamp_mtime) if st else clamp_mtime
        ti.mode = (st.st_mode & 0o7777) if st else 0o644
        ti.type = kind
        return ti

    with open(out_tar, "wb") as f, tarfile.open(fileobj=f, mode="w", format=tarfile.PAX_FORMAT) as tar:
        entries = []
        for dirpath, dirnames, filenames in os.walk(layer):
            dirnames.sort()
            for n in dirnames + sorted(filenames):
                entries.append(Path(dirpath, n))
        entries.sort(key=lambda p: p.relative_to(layer).as_posix())
        for p in entries:
            rel = p.relative_to(layer).as_posix()
            st = os.lstat(p)
            if p.is_symlink():
                ti = info(rel, st, tarfile.SYMTYPE)
                ti.linkname = os.readlink(p)
                tar.addfile(ti)
            elif p.is_dir():
                tar.addfile(info(rel, st, tarfile.DIRTYPE))
            elif p.is_file():
                ti = info(rel, st, tarfile.REGTYPE)
                ti.size = st.st_size
                with open(p, "rb") as fh:
                    tar.addfile(ti, fh)
            else:
                raise BakeError(f"unsupported file type in layer: {p}")
        if not (layer / "etc/adjtime").exists():
            data = b"0.0 0 0.0\n0\nLOCAL\n"
            ti = info("etc/adjtime", None, tarfile.REGTYPE)
            ti.size = len(data)
            tar.addfile(ti, io.BytesIO(data))
    size = out_tar.stat().st_size
    padded = -(-size // (1 << 20)) * (1 << 20)
    with open(out_tar, "r+b") as f:
        f.truncate(padded)
    return padded


def bake(
    base: Path,
    layer: Path,
    out_qcow2: Path,
    as_of: str,
    progress: Callable[[str], None],
    accel: str | None = None,
    thin: bool = True,
) -> Path:
    """Bake the persona layer directory ``layer`` into the base qcow2 ``base``.

    Writes ``out_qcow2`` (zstd-compressed qcow2) and returns it. ``thin`` (the default) keeps only
    what the bake changed, on ``base`` as its backing file named ``base-<hash16>.qcow2`` and placed
    beside the output (a hard link where it can: :mod:`builder.image.thin`); ``thin=False`` writes a
    standalone image. The file appears only on success (written as ``<out>.tmp`` and renamed). ``as_of``
    is the persona's local wall time (see :func:`rtc_base`); ``accel`` is ``"kvm"``,
    ``"tcg"`` or None to detect (:func:`builder.image.qemu.detect_accel`; a KVM guest that
    shows no sign of life falls back to TCG). Takes a few minutes under TCG.
    Raises :class:`BakeError` (bad layer, Packer failure, ``PERSONA-BAKE: FAIL``, timeout).
    """
    base, layer, out_qcow2 = Path(base).resolve(), Path(layer).resolve(), Path(out_qcow2).resolve()
    if not base.is_file():
        raise BakeError(f"base image {base} missing")
    if shutil.which("packer") is None:
        raise BakeError("packer not found: run scripts/setup-deps.sh")
    g = read_guest_json(layer)
    dt = parse_as_of(as_of)
    clamp = int(dt.replace(tzinfo=ZoneInfo(g["timezone"])).timestamp())
    out_qcow2.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="persona-bake-", dir=out_qcow2.parent))
    timings: dict[str, float] = {}
    try:
        t0 = time.monotonic()
        tar = work / "layer.tar"
        size = pack_layer(layer, tar, clamp)
        progress(f"layer packed: {size} bytes")
        accel = accel or q.detect_accel()
        t1 = time.monotonic()
        overlay = _run_packer(base, tar, work, bake_rtc_base(as_of, g["timezone"]), accel, progress)
        timings["packer_s"] = round(time.monotonic() - t1, 1)
        t1 = time.monotonic()
        tmp = out_qcow2.with_name(out_qcow2.name + ".tmp")
        try:
            if thin:
                progress(f"compressing the delta on {base.name} (qemu-img convert -c zstd -B)")
                convert(overlay, tmp, work / "convert.log", src_fmt="qcow2", backing=base)
                relative_backing(tmp, base.name)
                base_sha256(base)  # hashed once per cached base; the record goes along with each placed link
                place_base(base, out_qcow2.parent)
            else:
                progress("compressing (qemu-img convert -c zstd)")
                convert(overlay, tmp, work / "convert.log", src_fmt="qcow2")
        except (BaseImageError, ThinImageError) as e:
            raise BakeError(str(e)) from None
        except OSError as e:
            raise BakeError(f"placing the base image beside {out_qcow2}: {e}") from None
        os.replace(tmp, out_qcow2)
        timings["compress_s"] = round(time.monotonic() - t1, 1)
        timings["total_s"] = round(time.monotonic() - t0, 1)
        progress(
            f"baked {out_qcow2} ({out_qcow2.stat().st_size} bytes) in {timings['total_s']}s "
            f"(packer {timings['packer_s']}s, compress {timings['compress_s']}s)"
        )
        bake.last_timings = timings  # type: ignore[attr-defined]
        return out_qcow2
    finally:
        tmp = out_qcow2.with_name(out_qcow2.name + ".tmp")
        if tmp.exists():
            tmp.unlink()
        if os.environ.get("PERSONA_KEEP_WORK") == "1":
            progress(f"work dir kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


_OK = re.compile(r"PERSONA-BAKE: OK\s*$")
_FAIL = re.compile(r"PERSONA-BAKE: FAIL")


def _run_packer(base: Path, tar: Path, work: Path, rtc: str, accel: str, progress: Progress) -> Path:
    """Run Packer until the guest powers off; return the overlay qcow2 it produced."""
    while True:
        outdir = work / f"packer-{accel}"
        serial = work / f"serial-{accel}.log"
        serial.touch()
        cmd = [
            "packer",
            "build",
            "-machine-readable",
            "-color=false",
            "-var",
            f"base={base}",
            "-var",
            f"layer={tar}",
            "-var",
            f"output_directory={outdir}",
            "-var",
            f"serial_log={serial}",
            "-var",
            f"accelerator={accel}",
            "-var",
            f"rtc_base={rtc}",
            "-var",
            f"timeout={int(BAKE_TIMEOUT)}s",
            "-var",
            f"disk_size={_virtual_size_mib(base)}M",
            str(PACKER_TEMPLATE),
        ]
        progress(f"packer build ({accel})")
        watcher = _SerialWatch(serial, progress)
        watchdog = accel == "kvm" and not q.accel_forced()
        stop = threading.Event()
        state = {"kvm_dead": False}

        def poll_serial() -> None:
            t_start = time.monotonic()
            while not stop.wait(1.0):
                watcher.poll()
                if watchdog and not watcher.alive and time.monotonic() - t_start > q.KVM_WATCHDOG_SECONDS:
                    state["kvm_dead"] = True
                    _kill_qemu_using(outdir)
                    return

        th = threading.Thread(target=poll_serial, daemon=True)
        th.start()
        try:
            for line in iter_packer(cmd, packer_env(work / "packer-cache"), work, work / "packer.log"):
                if line.message and line.data[0] in ("say", "message", "error"):
                    progress("packer: " + line.message.strip())
        except PackerError as e:
            stop.set()
            th.join()
            watcher.poll()
            if watcher.failed:
                raise BakeError(f"guest: {watcher.failed}\n{q.tail(serial)}") from None
            if not state["kvm_dead"]:
                raise BakeError(f"{e}\n{q.tail(serial)}") from None
        finally:
            stop.set()
            th.join()
        watcher.poll()
        kvm_dead = state["kvm_dead"] and not watcher.ok
        if kvm_dead:
            _kill_qemu_using(outdir)
            q.mark_kvm_broken("kernel printed nothing under KVM (bake)")
            progress("bake: KVM guest shows no sign of life, retrying under TCG")
            accel = "tcg"
            continue
        if watcher.failed:
            raise BakeError(f"guest: {watcher.failed}\n{q.tail(serial)}")
        if not watcher.ok:
            raise BakeError(f"guest powered off without PERSONA-BAKE: OK\n{q.tail(serial)}")
        images = sorted(outdir.glob("*.qcow2"))
        if not images:
            raise BakeError(f"packer left no qcow2 in {outdir}")
        return images[0]


def _virtual_size_mib(image: Path) -> int:
    """Virtual size of a disk image in MiB (``qemu-img info``)."""
    r = subprocess.run(["qemu-img", "info", "--output=json", str(image)], capture_output=True, text=True)
    if r.returncode != 0:
        raise BakeError(f"qemu-img info {image}: {r.stderr.strip()}")
    return -(-json.loads(r.stdout)["virtual-size"] // (1 << 20))


def _kill_qemu_using(outdir: Path) -> None:
    """Kill a QEMU left behind by an interrupted Packer (its command line names ``outdir``)."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if cmdline and cmdline[0].endswith(b"qemu-system-x86_64") and any(str(outdir).encode() in a for a in cmdline):
            try:
                os.kill(int(pid), 9)
            except OSError:
                pass


class _SerialWatch:
    """Incremental reader of the bake's serial log."""

    def __init__(self, path: Path, progress: Progress):
        self.path, self.progress = path, progress
        self.pos = 0
        self.buf = ""
        self.ok = False
        self.failed: str | None = None
        self.alive = False

    def poll(self) -> None:
        try:
            with open(self.path, "rb") as f:
                f.seek(self.pos)
                data = f.read()
        except OSError:
            return
        self.pos += len(data)
        self.buf += data.decode("utf-8", "replace")
        *lines, self.buf = self.buf.split("\n")
        for ln in lines:
            ln = ln.strip("\r\n ")
            if not self.alive and q.KERNEL_ALIVE.search(ln):
                self.alive = True
            # The guest writes each marker straight to the serial port (line starts with it)
            # and systemd echoes it again with a journal prefix: read only the first kind.
            if not ln.startswith("PERSONA-BAKE: "):
                continue
            self.progress(ln)
            if _OK.match(ln):
                self.ok = True
            elif _FAIL.match(ln) and not self.failed:
                self.failed = ln
