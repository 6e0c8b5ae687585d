"""``run-image``: boot a persona image with one command, serve its control API, reset it in seconds.

``run-image PATH|NAME`` (PATH: a build's output folder holding ``persona.qcow2`` and
``manifest.json``, or a ``.qcow2``; NAME: an image fetched by ``pull-image``) boots the image
through a copy-on-write overlay (the image itself is never written) with the guest clock at the
manifest's ``guest.rtc_base`` (the persona's ``as_of``), KVM when it really works and TCG otherwise
(:func:`builder.image.qemu.detect_accel`), and every port on ``--bind`` (default 127.0.0.1):

=============  =====================================================================
``--vnc-port``  VNC of the desktop (5900; no password: keep it on loopback)
``--qmp-port``  QMP (4444): screendump, input, snapshots for your own tools
``--http-port`` the guest's port 80 (8080): every app behind nginx by ``Host`` header
``--control-port``  the control API (5000): the guest's OSWorld-compatible API, proxied,
                plus ``GET /health`` and ``POST /reset`` answered here
=============  =====================================================================

Lifecycle. On a cold boot it waits until every app answers through nginx and the guest's control
API is up, then until Firefox shows its page and bookmarks toolbar, lets the desktop settle and
saves an internal snapshot ``persona-booted`` in the overlay (QMP ``human-monitor-command
savevm``: RAM, devices and disk in one). Only then does ``GET /health`` answer 200, so a harness
never starts an episode before the reset point exists. ``POST /reset`` restores that snapshot
(``loadvm``): the guest's clock, every app database, Firefox and the desktop come back as they
were at the snapshot, and the call returns once every app is healthy again. The overlay and
snapshot live in a state folder (``--state-dir``, default
``$XDG_STATE_HOME/persona-desktop/runs/<persona>-<hash of the image path>``, ``~/.local/state``
when unset) with ``state.json`` recording the image's identity (path, size, mtime, manifest hash)
and the machine (memory, CPUs, accelerator, QEMU version): a later ``run-image`` of the same image
and machine starts from the snapshot in seconds instead of booting; anything else changed makes a
fresh overlay. ``--fresh`` forces one. Ctrl-C or SIGTERM powers the guest off through ACPI
(``system_powerdown``), killing QEMU only after ``--shutdown-timeout`` seconds, and exits 0 on a
clean power-off.

The host control server: ``GET /state`` → ``{"databases": {app: sha256 of its file now}}`` and
``GET /state/apps/<app>`` → a consistent copy of that app's SQLite database (both read as root
through the guest agent, for graders: the persona's user, and so an agent, cannot read them);
``GET /state/seeded/<app>`` → that database as the reset point holds it (the seeded bytes, header
``X-Persona-SHA256``; 409 when no copy was kept and the guest's file has moved on), the start state a
state-diff check compares with: run-image keeps a copy in the state folder (or reads the build's
``layer/``) right after a boot or restore;
``GET /health`` → 200 ``{"status": "ok", "apps": {name: http_status},
"reset_point": true, ...}`` once ready, else 503 with what is missing; ``POST /reset`` → 200
``{"status": "ok", "seconds": s}`` (409 while a reset is running); ``POST /trajectory/start {"name"}`` and
``POST /trajectory/stop {"answer"}`` record the requests between them as an episode's trajectory under the state
folder's ``trajectories/`` and ``GET /trajectories/<name>`` answers it as a tar
(:mod:`builder.runtime.trajectory`); OSWorld's ``POST /start_recording`` and ``POST /end_recording`` (answering
an MP4 of the screen, taken on the host: :mod:`builder.runtime.video`); every other path is forwarded
verbatim (method, headers, body) to the guest's control API on its port 5000. The Docker wrapper
(``docker/entrypoint.sh``) runs this same code.
"""

from __future__ import annotations

import hashlib
import http.client
import http.server
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..bundle_format import check_bundle_format
from ..image import qemu as q
from ..image.boot import TOOLBAR_ROWS, VM, BootError, free_port, internal_snapshots
from ..image.thin import ThinImageError, check_base

Progress = Callable[[str], None]

SNAPSHOT_TAG = "persona-booted"
#: Bumped when what a snapshot holds changes (so an older state folder is not reused).
STATE_FORMAT = 1
GUEST_CONTROL_PORT = 5000
#: How long a cold boot may take to reach every app healthy (TCG on 2 cores takes 1-2 minutes).
BOOT_TIMEOUT = float(os.environ.get("PERSONA_BOOT_TIMEOUT", "1200"))
#: How long a reset may take to reach every app healthy again.
RESET_TIMEOUT = float(os.environ.get("PERSONA_RESET_TIMEOUT", "120"))
#: Seconds a stop waits for the power-off of a guest still booting cold (no reset point yet) before killing it.
BOOTING_STOP_S = 10.0
#: Seconds the desktop is left to settle before the reset point is saved.
SETTLE_SECONDS = float(os.environ.get("PERSONA_SETTLE_SECONDS", "10"))
#: How long to wait, after the desktop settled, for the guest to load every app's start page (persona-warm).
WARM_TIMEOUT = 300.0


class RunError(RuntimeError):
    """The image could not be found, booted, snapshotted or restored (the message says which)."""


class NotReady(RunError):
    """Asked for a reset (or the end state) before the machine is booted and its reset point saved."""


# ---------------------------------------------------------------- the image


@dataclass(frozen=True)
class ImageRef:
    """A persona image to run: ``qcow2`` and, when the build left one beside it, its ``manifest``."""

    qcow2: Path
    manifest: dict | None
    clock: str | None = None  # overrides the manifest's as_of (run-image --as-of)

    @property
    def persona(self) -> str:
        return (self.manifest or {}).get("persona") or self.qcow2.stem

    @property
    def as_of(self) -> str | None:
        """The guest clock's start: ``guest.rtc_base`` (the persona's local wall time) or ``now``."""
        m = self.manifest or {}
        return self.clock or (m.get("guest") or {}).get("rtc_base") or m.get("now")

    @property
    def apps(self) -> list[dict]:
        """The manifest's apps (``name``, ``title``, ``url``, ``domain``, ``session_cookie``, sign-in)."""
        return list((self.manifest or {}).get("apps") or [])

    def seeded_hashes(self) -> dict[str, str]:
        """Each app database's SHA-256 as the build seeded it (the manifest's ``layer/...`` artifacts).

        What ``GET /state`` answers right after a boot or a reset. Raises :class:`RunError` without a manifest.
        """
        if not self.manifest:
            raise RunError(f"{self.qcow2}: no manifest.json beside it, so no seeded hashes")
        by_path = {a["path"]: a["sha256"] for a in self.manifest.get("artifacts", [])}
        return {a["name"]: by_path["layer" + a["database"]] for a in self.apps}


def resolve_image(arg: str, cache_dir: str | os.PathLike | None = None) -> ImageRef:
    """``PATH|NAME`` → :class:`ImageRef`.

    A folder must hold ``persona.qcow2`` (and normally ``manifest.json``); a file must be a qcow2
    (``manifest.json`` beside it is read when present). A thin image's base must be beside it and
    match the manifest's SHA-256 (:func:`builder.image.thin.check_base`). Anything else is looked up as a pulled image
    name (``NAME[:TAG]`` in pull-image's cache, or ``cache_dir`` when given: its ``--cache-dir``;
    :func:`builder.runtime.pull.resolve_local`). Raises :class:`RunError`.
    """
    p = Path(arg).expanduser()
    if p.is_dir():
        qcow2 = p / "persona.qcow2"
        if not qcow2.is_file():
            raise RunError(f"{p}: no persona.qcow2 in this folder (build one with build-image, or pull one)")
    elif p.is_file():
        with open(p, "rb") as f:
            if f.read(4) != b"QFI\xfb":
                raise RunError(f"{p}: not a qcow2 image")
        qcow2 = p
    elif "/" in arg or arg.endswith(".qcow2"):
        raise RunError(f"{arg}: no such file or folder")
    else:
        try:
            from .pull import resolve_local
        except ImportError as e:  # pragma: no cover - pull.py ships with this package
            raise RunError(f"{arg}: not a path, and pulled images cannot be looked up ({e})") from None
        try:
            return resolve_image(str(resolve_local(arg, cache_dir)))
        except RunError:
            raise
        except Exception as e:
            raise RunError(str(e)) from None
    manifest = None
    mp = qcow2.parent / "manifest.json"
    if mp.is_file():
        try:
            manifest = json.loads(mp.read_text())
        except (OSError, ValueError) as e:
            raise RunError(f"{mp}: unreadable manifest ({e})") from None
        try:
            check_bundle_format(manifest.get("bundle_format") if isinstance(manifest, dict) else None, str(mp))
        except ValueError as e:
            raise RunError(str(e)) from None
    try:
        # A thin image (a delta on base-<hash>.qcow2): its base must be beside it, the one it was made on.
        check_base(qcow2.resolve(), manifest)
    except ThinImageError as e:
        raise RunError(str(e)) from None
    return ImageRef(qcow2.resolve(), manifest)


def qemu_version() -> str:
    """The first line of ``qemu-system-x86_64 --version`` (snapshots do not move across versions)."""
    try:
        return subprocess.run([q.QEMU, "--version"], capture_output=True, text=True, timeout=30).stdout.splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "unknown"


def fingerprint(ref: ImageRef, memory_mb: int, cpus: int, accel: str) -> dict:
    """What a saved snapshot depends on: the image file's identity and the machine it ran on."""
    st = ref.qcow2.stat()
    mp = ref.qcow2.parent / "manifest.json"
    return {
        "format": STATE_FORMAT,
        "image": str(ref.qcow2),
        "size": st.st_size,
        "mtime_ns": st.st_mtime_ns,
        "manifest_sha256": hashlib.sha256(mp.read_bytes()).hexdigest() if mp.is_file() else None,
        "as_of": ref.as_of,
        "memory_mb": memory_mb,
        "cpus": cpus,
        "accel": accel,
        "qemu": qemu_version(),
    }


def default_state_dir(ref: ImageRef, memory_mb: int = 4096, cpus: int = 2) -> Path:
    """``$XDG_STATE_HOME/persona-desktop/runs/<persona>-<12 hex of the image path>-<memory>m<cpus>c``.

    One folder per machine size, so trying ``--memory 3G`` does not throw away the 4G reset point.
    """
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local/state")
    key = hashlib.sha256(str(ref.qcow2).encode()).hexdigest()[:12]
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", ref.persona)[:60]
    return base / "persona-desktop" / "runs" / f"{safe}-{key}-{memory_mb}m{cpus}c"


def parse_memory(text: str) -> int:
    """``4G``, ``2560M``, ``3072`` (MiB) → MiB. Raises :class:`RunError`."""
    m = re.fullmatch(r"\s*(\d+)\s*([GgMm]i?[Bb]?)?\s*", str(text))
    if not m:
        raise RunError(f"memory {text!r}: give MiB or a size like 4G / 2560M")
    n = int(m.group(1))
    mib = n * 1024 if (m.group(2) or "M")[0] in "Gg" else n
    if not 1024 <= mib <= 262144:
        raise RunError(f"memory {text!r}: between 1G and 256G")
    return mib


def port_free(bind: str, port: int) -> bool:
    """True when TCP ``port`` on ``bind`` can be listened on now."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((bind, port))
            return True
        except OSError:
            return False


# ---------------------------------------------------------------- the running machine


class Machine:
    """One running persona image with its reset point.

    ``start()`` boots (or restores the saved reset point), ``ready`` tells whether the reset point
    exists and every app is healthy, ``reset()`` restores it, ``stop()`` powers off. Ports are the
    host ports after start: ``http_port``, ``vnc_port``, ``qmp_port``, ``guest_control_port`` (on
    127.0.0.1, the guest's port 5000). Raises :class:`RunError`.
    """

    def __init__(
        self,
        ref: ImageRef,
        *,
        state_dir: Path | None = None,
        bind: str = "127.0.0.1",
        http_port: int = 8080,
        vnc_port: int | None = 5900,
        qmp_port: int | None = 4444,
        memory_mb: int = 4096,
        cpus: int = 2,
        accel: str = "auto",
        fresh: bool = False,
        snapshot: bool = True,
        progress: Progress | None = None,
    ):
        self.ref = ref
        self.state_dir = Path(state_dir) if state_dir else default_state_dir(ref, memory_mb, cpus)
        self.bind = bind
        self.http_port, self.vnc_port, self.qmp_port = http_port, vnc_port, qmp_port
        self.memory_mb, self.cpus = memory_mb, cpus
        self.accel_arg = accel
        self.fresh, self.snapshot = fresh, snapshot
        self.progress = progress or (lambda s: None)
        self.vm: VM | None = None
        self.guest_control_port = 0
        self.ready = False
        self.restored = False
        self.timings: dict[str, float] = {}
        self._lock_fd: int | None = None
        self._reset_lock = threading.Lock()
        self._agent_lock = threading.Lock()
        self._forwarded: set[http.client.HTTPConnection] = set()
        self._forwarded_lock = threading.Lock()
        self.reset_count = 0
        #: The episode's trajectory being recorded (POST /trajectory/start .. /stop), under trajectory_root.
        self.recorder = None
        self.trajectory_root = self.state_dir / "trajectories"
        self._recorder_lock = threading.Lock()
        #: The screen recording running (POST /start_recording .. /end_recording), a video.ScreenRecorder.
        self.video = None
        self._video_count = 0

    def grab_screen(self, ppm: Path) -> None:
        """Write the guest's screen to ``ppm`` (binary PPM) with QMP ``screendump`` under the machine's QMP lock.
        Raises :class:`RunError` when there is no machine or QEMU wrote nothing."""
        vm = self.vm
        if vm is None or vm.qmp is None:
            raise RunError("no machine")
        ppm.unlink(missing_ok=True)
        vm.screendump_ppm(ppm)
        if not ppm.is_file():
            raise RunError("screendump wrote nothing")

    def drop_recording(self) -> None:
        """Stop and throw away a screen recording still running (an agent that never ended it): a reset or a stop
        ends the episode it belonged to."""
        with self._recorder_lock:
            video, self.video = self.video, None
        if video is not None:
            try:
                video.stop()
            except RuntimeError:
                pass
            video.out.unlink(missing_ok=True)

    # -- start
    def start(self) -> None:
        """Boot or restore, then wait until the reset point exists and every app is healthy."""
        if self.vnc_port and not 5900 <= self.vnc_port <= 65535:
            raise RunError("--vnc-port must be 5900 or above (QEMU numbers VNC displays from 5900)")
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        self._check_ports(" (another run-image?)")
        if self.accel_arg not in ("auto", "kvm", "tcg"):
            raise RunError(f"--accel {self.accel_arg!r}: auto, kvm or tcg")
        accel = q.detect_accel() if self.accel_arg == "auto" else self.accel_arg
        fp = fingerprint(self.ref, self.memory_mb, self.cpus, accel)
        overlay = self.state_dir / "overlay.qcow2"
        state_file = self.state_dir / "state.json"
        reuse = False
        if overlay.exists() and not self.fresh and self.snapshot:
            try:
                saved = json.loads(state_file.read_text())
                # A reset point saved under TCG after the KVM watchdog fell back (a host whose KVM hangs guests) is
                # this machine's as well when the probe says KVM again (a new container forgets the broken-KVM mark):
                # with --accel auto, restore it under TCG rather than boot afresh.
                was = saved.get("fingerprint") if isinstance(saved, dict) else None
                was = was if isinstance(was, dict) else {}
                if self.accel_arg == "auto" and was.get("accel") == "tcg" and was == dict(fp, accel="tcg"):
                    accel, fp = "tcg", dict(fp, accel="tcg")
                reuse = was == fp and SNAPSHOT_TAG in internal_snapshots(overlay)
            except (OSError, ValueError, BootError):
                reuse = False
            if not reuse:
                self.progress("the image or machine changed since the saved reset point: starting a fresh overlay")
        if not reuse:
            overlay.unlink(missing_ok=True)
            state_file.unlink(missing_ok=True)
        self.guest_control_port = free_port()
        self.vm = VM(
            self.ref.qcow2,
            self.ref.as_of,
            memory_mb=self.memory_mb,
            cpus=self.cpus,
            accel=accel if (reuse or self.accel_arg != "auto") else None,
            vnc=f"{self.bind}:{self.vnc_port - 5900}" if self.vnc_port else None,
            progress=self.progress,
            state_dir=self.state_dir,
            bind=self.bind,
            http_port=self.http_port,
            forwards={GUEST_CONTROL_PORT: self.guest_control_port},
            qmp_port=self.qmp_port,
            loadvm=SNAPSHOT_TAG if reuse else None,
        )
        try:
            self.vm.start()
        except BootError as e:
            raise RunError(str(e)) from None
        t0 = self.vm.started_at
        self.http_port = self.vm.http_port
        fp["accel"] = self.vm.accel  # the KVM watchdog may have fallen back to TCG
        self.restored = reuse
        if reuse:
            self.progress("restored the saved reset point")
        self.wait_healthy(RESET_TIMEOUT if reuse else BOOT_TIMEOUT)
        self.timings["healthy_s"] = round(time.monotonic() - t0, 1)
        if not reuse:
            self.progress(f"every app healthy after {self.timings['healthy_s']:.0f}s")
            if self.snapshot:
                self.progress(
                    "waiting for Firefox, the desktop and the apps' start pages before saving the reset "
                    "point (minutes under TCG)"
                )
                self._await_desktop()
                self._await_warm()
                self.timings["desktop_s"] = round(time.monotonic() - t0, 1)
                self._clock_to_as_of()
                secs = self.vm.savevm(SNAPSHOT_TAG)
                self.timings["savevm_s"] = round(secs, 1)
                state_file.write_text(
                    json.dumps(
                        {"fingerprint": fp, "snapshot": SNAPSHOT_TAG, "timings": self.timings}, indent=2, sort_keys=True
                    )
                    + "\n"
                )
                self.progress(f"reset point saved in {secs:.1f}s")
        if self.snapshot:
            t1 = time.monotonic()
            kept = self.keep_seeded()
            if kept:
                self.progress(f"kept the start copy of {kept} app database(s) in {time.monotonic() - t1:.1f}s")
        self.ready = True

    def _check_ports(self, hint: str = "") -> None:
        """Raise :class:`RunError` when a host port this machine is to listen on is taken (``hint``: who may hold
        it)."""
        for port in (self.http_port, self.vnc_port, self.qmp_port):
            if port and not port_free(self.bind, port):
                raise RunError(f"port {port} on {self.bind} is in use{hint}: choose other ports")

    def _take_lock(self) -> None:
        import fcntl

        fd = os.open(self.state_dir / "lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise RunError(f"{self.state_dir} is in use by another run-image: stop it or pass --state-dir") from None
        self._lock_fd = fd

    def _await_desktop(self) -> None:
        """Wait for Firefox's page and its bookmarks toolbar, then let the desktop settle."""
        assert self.vm is not None
        try:
            self.vm.wait_window(r".\s[—–-]\s(Mozilla )?Firefox", timeout=600)
        except BootError:
            self.progress("Firefox's page title did not appear in 600s; saving the reset point anyway")
        deadline = time.monotonic() + 300
        while self.vm.band_colours(*TOOLBAR_ROWS) < 8 and time.monotonic() < deadline:
            time.sleep(5)
        time.sleep(SETTLE_SECONDS)

    def _await_warm(self, timeout: float = WARM_TIMEOUT) -> None:
        """Wait until the guest has loaded every app's start page (persona-warm.service), so the reset point holds
        a warmed server; gives up after ``timeout`` s with a progress line (the pages then load on first visit)."""
        deadline = time.monotonic() + timeout
        while True:
            ok, detail = self.health()
            if detail.get("warm") is not False:  # True, or None: an image without the service
                return
            if time.monotonic() > deadline:
                self.progress(
                    f"the apps' start pages were not loaded after {timeout:.0f}s; saving the reset point anyway"
                )
                return
            time.sleep(2)

    def _clock_to_as_of(self) -> None:
        """Set the guest's clock back to ``as_of`` (the boot took minutes of it), so every reset starts there."""
        g = (self.ref.manifest or {}).get("guest") or {}
        if not self.ref.as_of or not g.get("timezone"):
            return
        from datetime import datetime
        from zoneinfo import ZoneInfo

        at = datetime.fromisoformat(self.ref.as_of).replace(tzinfo=ZoneInfo(g["timezone"]))
        with self._agent_lock:
            try:
                # `date -s`, not guest-set-time: that also runs hwclock, which Debian 13 no longer ships by default
                rc, out = self._agent().exec(["/bin/date", "-u", "-s", f"@{int(at.timestamp())}"], timeout=30)
                if rc != 0:
                    raise BootError(out.strip())
            except (OSError, BootError) as e:
                self.progress(f"could not set the guest clock to as_of ({e}); the reset point keeps the boot's time")
            finally:
                self._agent().close()  # leave the agent's socket free for other tools between requests

    # -- health
    def guest_control(self, method: str, path: str, timeout: float = 10.0) -> tuple[int, bytes]:
        """One request to the guest's control API; returns (status, body). Raises OSError/HTTPException."""
        c = http.client.HTTPConnection("127.0.0.1", self.guest_control_port, timeout=timeout)
        try:
            c.request(method, path)
            r = c.getresponse()
            return r.status, r.read()
        finally:
            c.close()

    def health(self) -> tuple[bool, dict]:
        """(every app healthy, details): the guest control API's own ``GET /health``.

        The guest asks each app through its nginx (one request per app, in parallel), so one answer here
        proves both the control API and every app; details are ``{"apps": {name: status}, "control_api": status,
        "warm": bool|None}`` (``warm``: every app's start page loaded since boot; None from an image without
        persona-warm.service) plus the guest's ``failing`` reasons when there are any.
        """
        try:
            status, body = self.guest_control("GET", "/health", timeout=30)
        except (OSError, http.client.HTTPException) as e:
            return False, {"apps": {}, "control_api": type(e).__name__}
        try:
            guest = json.loads(body)
        except ValueError:
            guest = {}
        detail = {"apps": guest.get("apps", {}), "control_api": status, "warm": guest.get("warm")}
        if guest.get("failing"):
            detail["failing"] = guest["failing"]
        return status == 200 and bool(detail["apps"]), detail

    def wait_healthy(self, timeout: float) -> dict:
        """Poll :meth:`health` until it is fine; return its details. Raises :class:`RunError` after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        last: dict = {}
        while True:
            if self.vm is None or self.vm.proc is None or self.vm.proc.poll() is not None:
                raise RunError(f"QEMU exited\n{q.tail(self.state_dir / 'serial.log')}")
            ok, last = self.health()
            if ok:
                return last
            if time.monotonic() > deadline:
                raise RunError(
                    f"not healthy after {timeout:.0f}s: {json.dumps(last)}\n{q.tail(self.state_dir / 'serial.log')}"
                )
            time.sleep(0.25)

    # -- end state (read as root through the guest agent: the persona's user cannot read app databases)
    def _agent(self):
        assert self.vm is not None and self.vm.agent is not None
        return self.vm.agent

    def app_database_path(self, name: str) -> str:
        """The guest path of app ``name``'s database (from the manifest). Raises :class:`RunError`."""
        for a in self.ref.apps:
            if a["name"] == name and a.get("database"):
                return a["database"]
        raise RunError(f"no app {name!r} in this image (apps: {', '.join(a['name'] for a in self.ref.apps)})")

    def database_hashes(self) -> dict[str, str]:
        """SHA-256 hex of each app's database file as it is on the guest's disk now."""
        paths = [self.app_database_path(a["name"]) for a in self.ref.apps]
        with self._agent_lock:
            rc, out = self._agent().exec(["/usr/bin/sha256sum", "--", *paths], timeout=60)
        if rc != 0:
            raise RunError(f"sha256sum in the guest failed: {out.strip()}")
        by_path = {ln.split(None, 1)[1].strip(): ln.split(None, 1)[0] for ln in out.splitlines() if ln.strip()}
        return {a["name"]: by_path[self.app_database_path(a["name"])] for a in self.ref.apps}

    def _seeded_sources(self, name: str) -> tuple[str, list[Path]]:
        """(seeded SHA-256, local files that may hold its bytes: the state folder's copy, the build's layer/)."""
        try:
            want = self.ref.seeded_hashes()[name]
        except KeyError:
            raise RunError(f"no app {name!r} in this image") from None
        guest_path = self.app_database_path(name)
        return want, [
            self.state_dir / "seeded" / f"{name}.sqlite",
            self.ref.qcow2.parent / "layer" / guest_path.lstrip("/"),
        ]

    def seeded_database(self, name: str) -> bytes:
        """App ``name``'s database as the reset point holds it (its seeded bytes, checked against the manifest's
        SHA-256): the copy kept in the state folder, else the build's ``layer/``, else the guest's file while it
        still has those bytes (then kept). For graders' state diffs.

        Raises :class:`RunError` for an unknown app, an image without a manifest, or when no copy is kept and
        the guest's file has changed since the reset point (the message says to reset first).
        """
        want, files = self._seeded_sources(name)
        for f in files:
            try:
                data = f.read_bytes()
            except OSError:
                continue
            if hashlib.sha256(data).hexdigest() == want:
                return data
        if self.vm is None:
            raise RunError(f"no copy of the start of {name} is kept and the machine is not running")
        if self.database_hashes().get(name) != want:
            raise RunError(
                f"the {name} database has changed since the reset point and no copy of its start was kept: "
                "POST /reset, then ask for it before acting"
            )
        with self._agent_lock:
            try:
                data = self._agent().read_file(self.app_database_path(name))
            except BootError as e:
                raise RunError(str(e)) from None
        if hashlib.sha256(data).hexdigest() != want:
            raise RunError(f"the {name} database changed while it was read: ask again")
        files[0].parent.mkdir(parents=True, exist_ok=True)
        tmp = files[0].with_suffix(".part")
        tmp.write_bytes(data)
        tmp.replace(files[0])
        return data

    def keep_seeded(self) -> int:
        """Keep a copy of every app database the state folder and the build's ``layer/`` lack, read from the guest
        while it is at the reset point (right after a boot or a restore), so ``GET /state/seeded/<app>`` can answer
        later. Returns how many were copied; an image without a manifest keeps none."""
        if not self.ref.manifest:
            return 0
        n = 0
        missing = []
        for a in self.ref.apps:
            want, files = self._seeded_sources(a["name"])
            if not any(f.is_file() and hashlib.sha256(f.read_bytes()).hexdigest() == want for f in files):
                missing.append(a["name"])
        for name in missing:
            try:
                self.seeded_database(name)
                n += 1
            except RunError as e:
                self.progress(f"no start copy of {name}: {e}")
        return n

    def export_database(self, name: str) -> bytes:
        """A consistent copy of app ``name``'s SQLite database (``sqlite3 .backup`` in the guest), as bytes."""
        src = self.app_database_path(name)
        tmp = f"/run/persona-export-{re.sub(r'[^a-z0-9_]', '_', name)}.sqlite"
        with self._agent_lock:
            agent = self._agent()
            rc, out = agent.exec(["/usr/bin/sqlite3", src, f".backup {tmp}"], timeout=120)
            try:
                if rc != 0:
                    raise RunError(f"sqlite3 .backup of {src} failed: {out.strip()}")
                try:
                    return agent.read_file(tmp)
                except BootError as e:
                    raise RunError(str(e)) from None
            finally:
                agent.exec(["/bin/rm", "-f", tmp], timeout=30)

    # -- reset
    def reset(self) -> float:
        """Restore the reset point and wait until every app is healthy; return the seconds it all took.

        Raises :class:`RunError` without a reset point, or when the guest does not come back.
        """
        if not self.snapshot:
            raise RunError("this run has no reset point (started with --no-snapshot)")
        if self.vm is None:
            raise RunError("the machine is not running")
        if not self.ready and not self._reset_lock.locked():
            raise NotReady("the reset point does not exist yet: wait for GET /health to answer 200")
        if not self._reset_lock.acquire(blocking=False):
            raise RunError("a reset is already running")
        self.drop_recording()
        try:
            assert self.vm is not None
            self.ready = False
            t0 = time.monotonic()
            try:
                self.timings["loadvm_s"] = round(self.vm.loadvm(SNAPSHOT_TAG), 2)
            except BootError as e:
                self.vm.hmp("cont")  # a refused loadvm leaves the guest paused
                raise RunError(str(e)) from None
            self.reset_count += 1
            self._abort_forwarded()
            # The restored guest's clock runs on from the host's time since the snapshot: back to as_of.
            t1 = time.monotonic()
            self._clock_to_as_of()
            t2 = time.monotonic()
            self.wait_healthy(RESET_TIMEOUT)
            # Where a reset's time goes (scripts/bench-run prints them): loadvm, the clock, the apps' health.
            self.timings["reset_clock_s"] = round(t2 - t1, 2)
            self.timings["reset_health_s"] = round(time.monotonic() - t2, 2)
            self.ready = True
            return time.monotonic() - t0
        finally:
            self._reset_lock.release()

    def open_forward(self, timeout: float) -> http.client.HTTPConnection:
        """A connection to the guest's control API that a reset will cut (its TCP state is rewound with the guest)."""
        c = http.client.HTTPConnection("127.0.0.1", self.guest_control_port, timeout=timeout)
        with self._forwarded_lock:
            self._forwarded.add(c)
        return c

    def close_forward(self, c: http.client.HTTPConnection) -> None:
        with self._forwarded_lock:
            self._forwarded.discard(c)
        c.close()

    def _abort_forwarded(self) -> None:
        """Cut requests that were in flight into the guest: after a restore they would never be answered."""
        with self._forwarded_lock:
            conns = list(self._forwarded)
        for c in conns:
            if c.sock is not None:
                try:
                    c.sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    # -- stop
    def stop(self, timeout: float = 120.0) -> bool:
        """ACPI power-off; QEMU is killed after ``timeout`` s (after :data:`BOOTING_STOP_S` while a cold boot has
        not yet saved its reset point: a booting guest ignores ACPI, and its overlay is thrown away by the next start
        anyway). Returns True for a clean power-off."""
        self.drop_recording()
        clean = True
        if self.vm is not None:
            if not self.ready and not self.restored and not (self.state_dir / "state.json").is_file():
                timeout = min(timeout, BOOTING_STOP_S)
            clean = self.vm.shutdown(timeout)
            self.vm = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
        return clean


# ---------------------------------------------------------------- the host control server

_HOP = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailers",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
    "server",
    "date",
}  # this server sends its own Server and Date


class JSONHandler(http.server.BaseHTTPRequestHandler):
    """A handler that answers JSON and logs nothing (the control API's and the host agent's)."""

    protocol_version = "HTTP/1.1"

    def log_message(self, fmt: str, *args) -> None:
        pass  # an agent's screenshot loop would flood the terminal; errors are answered as JSON

    def _json(self, status: int, obj) -> None:
        body = (json.dumps(obj, sort_keys=True) + "\n").encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class ControlHandler(JSONHandler):
    """``/health`` and ``/reset`` answered here; everything else forwarded to the guest's control API."""

    server: "ControlServer"

    def _body(self) -> bytes:
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n > 0 else b""

    def _route(self) -> None:
        m = self.server.machine
        path = self.path.split("?", 1)[0]
        if path == "/health" and self.command == "GET":
            if not m.ready:
                state = "resetting" if m._reset_lock.locked() else "starting" if m.vm else "stopped"
                self._json(503, {"status": state, "reset_point": state == "resetting"})
                return
            ok, detail = m.health()
            self._json(200 if ok else 503, {"status": "ok" if ok else "unhealthy", "reset_point": m.snapshot, **detail})
            return
        if path == "/reset" and self.command == "POST":
            self._body()
            try:
                secs = m.reset()
            except NotReady as e:
                self._json(503, {"status": "error", "error": str(e)})
                return
            except RunError as e:
                self._json(409 if "already running" in str(e) else 500, {"status": "error", "error": str(e)})
                return
            self._json(200, {"status": "ok", "seconds": round(secs, 2), "loadvm_seconds": m.timings.get("loadvm_s")})
            return
        if path.startswith("/state") and not m.ready:
            self._json(503, {"status": "starting", "error": "the machine is not ready (booting or resetting)"})
            return
        if path == "/state" and self.command == "GET":
            try:
                self._json(200, {"databases": m.database_hashes()})
            except (RunError, BootError, OSError) as e:
                self._json(500, {"status": "error", "error": str(e)})
            return
        if path.startswith("/state/seeded/") and self.command == "GET":
            name = path[len("/state/seeded/") :]
            try:
                data = m.seeded_database(name)
            except RunError as e:
                msg = str(e)
                status = 404 if "no app" in msg else 409 if "changed" in msg else 500
                self._json(status, {"status": "error", "error": msg})
                return
            except (BootError, OSError) as e:
                self._json(500, {"status": "error", "error": str(e)})
                return
            self._send_bytes(data, "application/vnd.sqlite3", {"X-Persona-SHA256": hashlib.sha256(data).hexdigest()})
            return
        if path.startswith("/state/apps/") and self.command == "GET":
            name = path[len("/state/apps/") :]
            try:
                data = m.export_database(name)
            except RunError as e:
                self._json(404 if "no app" in str(e) else 500, {"status": "error", "error": str(e)})
                return
            except (BootError, OSError) as e:
                self._json(500, {"status": "error", "error": str(e)})
                return
            self._send_bytes(data, "application/vnd.sqlite3")
            return
        if path in ("/start_recording", "/end_recording") and self.command == "POST":
            self._body()
            self._recording(path)
            return
        if path in ("/trajectory/start", "/trajectory/stop") and self.command == "POST":
            self._trajectory(path.rsplit("/", 1)[1])
            return
        if path.startswith("/trajectories/") and self.command == "GET":
            self._send_trajectory(path[len("/trajectories/") :])
            return
        if path in ("/health", "/reset"):
            self._json(405, {"status": "error", "error": f"{self.command} {path} is not allowed"})
            return
        self._forward()

    def _recording(self, path: str) -> None:
        """OSWorld's ``POST /start_recording`` and ``POST /end_recording`` (which answers the MP4 itself), done on the
        host from QEMU's screen (:mod:`builder.runtime.video`). A recording ended while a trajectory is recorded is
        also kept in it as ``recording.mp4``."""
        from .video import ScreenRecorder, VideoUnavailable

        m = self.server.machine
        with m._recorder_lock:
            if path == "/start_recording":
                if m.video is not None:
                    self._json(409, {"status": "error", "error": "a recording is running: POST /end_recording first"})
                    return
                if not m.ready:
                    self._json(503, {"status": "error", "error": "the machine is not ready (booting or resetting)"})
                    return
                m._video_count += 1
                out = m.state_dir / "recordings" / f"recording-{m._video_count}.mp4"
                try:
                    out.unlink(missing_ok=True)
                    m.video = ScreenRecorder(m.grab_screen, out)
                except VideoUnavailable as e:
                    self._json(501, {"status": "error", "error": str(e)})
                    return
                except OSError as e:
                    self._json(500, {"status": "error", "error": f"cannot write {out}: {e}"})
                    return
                m.video.start()
                self._json(200, {"status": "ok", "message": "recording started"})
                return
            video, m.video = m.video, None
            if video is None:
                self._json(400, {"status": "error", "error": "no recording is running: POST /start_recording first"})
                return
            try:
                out = video.stop()
                data = out.read_bytes()
                if m.recorder is not None:
                    m.recorder.add_file("recording.mp4", out)
            except (RuntimeError, OSError) as e:
                self._json(500, {"status": "error", "error": str(e)})
                return
            finally:
                video.out.unlink(missing_ok=True)
        self._send_bytes(data, "video/mp4", {"X-Persona-Recording": json.dumps(video.summary() | {"bytes": len(data)})})

    def _trajectory(self, what: str) -> None:
        """``POST /trajectory/start {"name"}``: record the requests from here on (:mod:`builder.runtime.trajectory`);
        ``POST /trajectory/stop {"answer"}``: write it and answer its summary and ``name``."""
        from .trajectory import Recorder, safe_name

        m = self.server.machine
        try:
            body = json.loads(self._body() or b"{}")
            if not isinstance(body, dict):
                raise ValueError("not a JSON object")
        except ValueError as e:
            self._json(400, {"status": "error", "error": f"the body must be a JSON object: {e}"})
            return
        with m._recorder_lock:
            if what == "start":
                if m.recorder is not None:
                    self._json(
                        409, {"status": "error", "error": f"{m.recorder.name!r} is being recorded: stop it first"}
                    )
                    return
                try:
                    base = safe_name(str(body.get("name") or "episode"))
                except ValueError as e:
                    self._json(400, {"status": "error", "error": str(e)})
                    return
                name, n = base, 1
                while (m.trajectory_root / name).exists():
                    n += 1
                    name = f"{base}-{n}"
                m.recorder = Recorder(m.trajectory_root / name, name)
                self._json(200, {"status": "ok", "name": name})
                return
            if m.recorder is None:
                self._json(409, {"status": "error", "error": "no trajectory is being recorded"})
                return
            answer = body.get("answer")
            summary = m.recorder.stop(answer if isinstance(answer, str) else None)
            m.recorder = None
        self._json(200, {"status": "ok", **summary})

    def _send_trajectory(self, name: str) -> None:
        """``GET /trajectories/<name>``: the recorded folder as an uncompressed tar (its PNGs are compressed)."""
        from .trajectory import pack, safe_name

        m = self.server.machine
        try:
            folder = m.trajectory_root / safe_name(name)
        except ValueError:
            folder = None
        if folder is None or safe_name(name) != name or not (folder / "trajectory.json").is_file():
            self._json(404, {"status": "error", "error": f"no finished trajectory {name!r}"})
            return
        self._send_bytes(pack(folder), "application/x-tar")

    def _send_bytes(self, data: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        """Answer 200 with ``data`` as ``content_type`` (and ``headers``)."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _forward(self) -> None:
        m = self.server.machine
        body = self._body()
        headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP}
        if m._reset_lock.locked():
            self._json(503, {"status": "error", "error": "a reset is running: try again when it returns"})
            return
        resets = m.reset_count
        c = m.open_forward(timeout=600)
        t0 = time.monotonic()
        try:
            c.request(self.command, self.path, body=body or None, headers=headers)
            r = c.getresponse()
            data = r.read()
            recorder = m.recorder
            if recorder is not None:
                recorder.request(self.command, self.path, body, r.status, data, time.monotonic() - t0)
        except (OSError, http.client.HTTPException) as e:
            cut = m._reset_lock.locked() or m.reset_count != resets
            self._json(
                503 if cut else 502,
                {
                    "status": "error",
                    "error": (
                        "the request was cut by a reset of the machine"
                        if cut
                        else f"the guest's control API did not answer: {e}"
                    ),
                },
            )
            return
        finally:
            m.close_forward(c)
        self.send_response(r.status, r.reason)
        for k, v in r.getheaders():
            if k.lower() not in _HOP:
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = _route


class ControlServer(http.server.ThreadingHTTPServer):
    """The control API on the host (``bind``:``port``) for one :class:`Machine`."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, machine: Machine, bind: str, port: int):
        self.machine = machine
        super().__init__((bind, port), ControlHandler)

    @classmethod
    def start(cls, machine: Machine, bind: str, port: int) -> "ControlServer":
        """Bind ``bind``:``port`` (0: a free port) and serve on a daemon thread; ``shutdown()`` stops it."""
        server = cls(machine, bind, port)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server

    def handle_error(self, request, client_address) -> None:
        """A client that hung up (curl -m, a harness killed mid-request) is no error worth a traceback."""
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError, TimeoutError)):
            return
        super().handle_error(request, client_address)


# ---------------------------------------------------------------- the command


def endpoints_text(m: Machine, control: tuple[str, int]) -> str:
    """What the user needs: addresses and sign-in details, one per line."""
    host = m.bind
    lines = [
        f"control API  http://{control[0]}:{control[1]}/   (GET /health, POST /reset, GET /screenshot, POST /execute ...)"
    ]
    if m.vnc_port:
        lines.append(f"VNC          {host}:{m.vnc_port}")
    if m.qmp_port:
        lines.append(f"QMP          {host}:{m.qmp_port}")
    lines.append(
        f"apps         http://{host}:{m.http_port}/ with the app's Host header, e.g. "
        f"curl -H 'Host: {m.ref.apps[0]['domain'] if m.ref.apps else '<domain>'}' "
        f"http://{host}:{m.http_port}/"
    )
    g = (m.ref.manifest or {}).get("guest") or {}
    if g:
        lines.append(f"desktop      user {g.get('username')}  password {g.get('password')}")
    for a in m.ref.apps:
        lines.append(
            f"  {a.get('title', a['name']):<16} http://{a['domain']}/  user {a.get('username')}  "
            f"password {a.get('password')}  cookie {a.get('session_cookie')}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Console script ``run-image``."""
    import argparse

    ap = argparse.ArgumentParser(
        prog="run-image",
        description=(
            "Boot a persona image (a build folder, a qcow2, or a pulled NAME[:TAG]) through a copy-on-write "
            "overlay, wait until every app is healthy, save a reset point and serve the control API. "
            "Ctrl-C or SIGTERM powers the guest off."
        ),
    )
    ap.add_argument("image", help="build folder with persona.qcow2 + manifest.json, a .qcow2, or a pulled NAME[:TAG]")
    ap.add_argument(
        "--bind",
        default=os.environ.get("BIND", "127.0.0.1"),
        help="address for every port (default 127.0.0.1; 0.0.0.0 only inside a container)",
    )
    ap.add_argument("--control-port", type=int, default=5000, help="control API on the host (default 5000)")
    ap.add_argument("--http-port", type=int, default=8080, help="the guest's port 80 (default 8080)")
    ap.add_argument("--vnc-port", type=int, default=5900, help="VNC (default 5900; 0: none)")
    ap.add_argument("--qmp-port", type=int, default=4444, help="QMP for your tools (default 4444; 0: none)")
    ap.add_argument(
        "--as-of",
        help="guest clock start, the persona's local wall time YYYY-MM-DDTHH:MM:SS (default: the manifest's as_of)",
    )
    ap.add_argument("--memory", default="4G", help="guest memory (default 4G)")
    ap.add_argument("--cpus", type=int, default=2, help="guest CPUs (default 2)")
    ap.add_argument(
        "--accel",
        default=os.environ.get("PERSONA_ACCEL") or "auto",
        choices=["auto", "kvm", "tcg"],
        help="auto: KVM when it really works, else TCG (default auto, or $PERSONA_ACCEL)",
    )
    ap.add_argument(
        "--cache-dir",
        type=Path,
        help="where a pulled NAME[:TAG] is looked up: pull-image's --cache-dir (default its own cache)",
    )
    ap.add_argument("--state-dir", type=Path, help="overlay and reset point (default under $XDG_STATE_HOME)")
    ap.add_argument("--fresh", action="store_true", help="throw away the saved overlay and boot cold")
    ap.add_argument("--no-snapshot", action="store_true", help="no reset point (POST /reset then fails)")
    ap.add_argument("--shutdown-timeout", type=float, default=120.0, help="seconds to wait for the power-off")
    a = ap.parse_args(argv)

    def say(msg: str) -> None:
        print(f"[run-image] {msg}", file=sys.stderr, flush=True)

    stopping = threading.Event()

    def on_signal(signum, _frame) -> None:
        stopping.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    m: Machine | None = None
    server: ControlServer | None = None
    try:
        try:
            ref = resolve_image(a.image, a.cache_dir)
            if a.as_of:
                try:
                    q.parse_as_of(a.as_of)
                except ValueError as e:
                    raise RunError(f"--as-of {a.as_of!r}: {e}") from None
                ref = ImageRef(ref.qcow2, ref.manifest, q.parse_as_of(a.as_of).isoformat())
            m = Machine(
                ref,
                state_dir=a.state_dir,
                bind=a.bind,
                http_port=a.http_port,
                vnc_port=a.vnc_port or None,
                qmp_port=a.qmp_port or None,
                memory_mb=parse_memory(a.memory),
                cpus=a.cpus,
                accel=a.accel,
                fresh=a.fresh,
                snapshot=not a.no_snapshot,
                progress=say,
            )
            if a.control_port and not port_free(a.bind, a.control_port):
                raise RunError(f"port {a.control_port} on {a.bind} is in use: pass --control-port")
            # The control server answers /health (503 "starting") from the first second.
            server = ControlServer.start(m, a.bind, a.control_port)
            say(f"{ref.persona}: {ref.qcow2} (clock {ref.as_of or 'host'}), state {m.state_dir}")
            m.start()
        except RunError as e:
            say(f"error: {e}")
            if m is not None:
                m.stop(a.shutdown_timeout)
            sys.exit(1)
        if m.restored:
            say(f"ready: restored the reset point, every app healthy after {m.timings['healthy_s']:.0f}s")
        else:
            say(
                f"ready: booted, every app healthy {m.timings['healthy_s']:.0f}s after start, the desktop settled "
                f"and the reset point saved {m.timings.get('desktop_s', m.timings['healthy_s']):.0f}s after start"
            )
        print(endpoints_text(m, server.server_address[:2]), flush=True)
        while not stopping.is_set():
            if m.vm is None or m.vm.proc is None or m.vm.proc.poll() is not None:
                say("QEMU exited")
                sys.exit(1)
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    if m is not None and not m.ready and not m.restored and not (m.state_dir / "state.json").is_file():
        say(f"stopping: the guest is still booting (no reset point yet), so it is stopped within {BOOTING_STOP_S:.0f}s")
    else:
        say(f"stopping: powering the guest off (up to {a.shutdown_timeout:.0f}s)")
    if server is not None:
        server.shutdown()
    t0 = time.monotonic()
    clean = m.stop(a.shutdown_timeout) if m is not None else True
    say(f"guest {'powered off cleanly' if clean else 'killed'} after {time.monotonic() - t0:.0f}s")
    sys.exit(0 if clean else 1)


if __name__ == "__main__":
    main()
