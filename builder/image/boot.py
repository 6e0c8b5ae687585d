"""Boot a persona image under QEMU for tests and demos.

``VM`` boots a qcow2 through a throwaway copy-on-write overlay (the image itself is never
written), with the guest clock at ``as_of``, KVM when it works (else TCG), 2 vCPUs, 4 GiB,
a USB tablet, user networking with a free host port forwarded to the guest's port 80
(nginx, which serves every app under its own ``Host``), QMP on a unix socket and the guest
agent on another. ``check_booted_image`` boots one and times it (``scripts/bench``).
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import qemu as q
from .qemu import rtc_base

Progress = Callable[[str], None]

# The Firefox profile the layer writes (builder.layer.PROFILE_NAME; not imported: run-image's container, which
# imports this module, has none of the layer's dependencies).
GUEST_PROFILE = "persona.default"


class BootError(RuntimeError):
    """The VM did not start, or did not reach the awaited state in time."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def parse_ppm(ppm: bytes) -> tuple[int, int, bytes]:
    """Split a binary PPM (P6, maxval 255) into (width, height, RGB bytes). Raises ``ValueError``."""
    m = re.match(rb"P6\s+(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)\s+(\d+)\s", ppm)
    if not m:
        raise ValueError("not a binary PPM")
    w, h, maxval = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if maxval != 255:
        raise ValueError("only 8-bit PPM is supported")
    return w, h, ppm[m.end() : m.end() + w * h * 3]


def ppm_to_png(ppm: bytes) -> bytes:
    """Convert a binary PPM (P6, maxval 255) to PNG bytes (pure Python, zlib)."""
    w, h, pix = parse_ppm(ppm)
    raw = b"".join(b"\0" + pix[y * w * 3 : (y + 1) * w * 3] for y in range(h))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 6))
        + chunk(b"IEND", b"")
    )


class GuestAgent:
    """Minimal client for qemu-guest-agent over its unix socket (JSON lines)."""

    def __init__(self, path: Path):
        self.path = path
        self.sock: socket.socket | None = None
        self.buf = b""

    def _connect(self, timeout: float) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(str(self.path))
        self.buf = b""
        # guest-sync discards stale replies; its id comes back once the agent is up.
        sync_id = int(time.time() * 1000) % 1_000_000_000
        self.sock.sendall(b"\xff" + json.dumps({"execute": "guest-sync", "arguments": {"id": sync_id}}).encode())
        while True:
            r = self._read()
            if r.get("return") == sync_id:
                return

    def _read(self) -> dict:
        assert self.sock is not None
        while b"\n" not in self.buf:
            data = self.sock.recv(65536)
            if not data:
                raise OSError("guest agent closed the connection")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        line = line.strip(b"\xff \r")
        return json.loads(line) if line else self._read()

    def call(self, cmd: str, timeout: float = 10.0, **args) -> object:
        """Run one agent command; return its ``return`` value. Raises OSError/BootError."""
        if self.sock is None:
            self._connect(timeout)
        assert self.sock is not None
        self.sock.settimeout(timeout)
        msg = {"execute": cmd}
        if args:
            msg["arguments"] = args
        try:
            self.sock.sendall(json.dumps(msg).encode() + b"\n")
            r = self._read()
        except (OSError, ValueError):
            self.close()
            raise
        if "error" in r:
            raise BootError(f"guest agent {cmd}: {r['error']}")
        return r.get("return")

    def exec(self, argv: list[str], timeout: float = 30.0) -> tuple[int, str]:
        """Run ``argv`` in the guest as root; return (exit code, stdout+stderr text)."""
        pid = self.call("guest-exec", path=argv[0], arg=argv[1:], **{"capture-output": True})["pid"]
        deadline = time.monotonic() + timeout
        while True:
            st = self.call("guest-exec-status", pid=pid)
            if st.get("exited"):
                out = base64.b64decode(st.get("out-data", "")) + base64.b64decode(st.get("err-data", ""))
                return int(st.get("exitcode", -1)), out.decode(errors="replace")
            if time.monotonic() > deadline:
                raise BootError(f"guest command timed out: {argv}")
            time.sleep(0.3)

    def read_file(self, path: str, limit: int = 1 << 30) -> bytes:
        """The bytes of guest file ``path`` (read as root, 4 MiB per call). Raises :class:`BootError`
        when the guest cannot open it or it is larger than ``limit`` bytes."""
        handle = self.call("guest-file-open", path=path, mode="rb")
        out = bytearray()
        try:
            while True:
                r = self.call("guest-file-read", timeout=60, handle=handle, count=4 << 20)
                out += base64.b64decode(r.get("buf-b64", ""))
                if len(out) > limit:
                    raise BootError(f"guest file {path} is larger than {limit} bytes")
                if r.get("eof") or not r.get("count"):
                    return bytes(out)
        finally:
            self.call("guest-file-close", handle=handle)

    def close(self) -> None:
        if self.sock is not None:
            try:
                self.sock.close()
            finally:
                self.sock = None


def _die_with_parent() -> None:
    """In the child before exec: SIGKILL it when the thread that started it exits (Linux PR_SET_PDEATHSIG)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, 9)  # PR_SET_PDEATHSIG = 1, SIGKILL = 9
    except (OSError, AttributeError):
        pass


def make_overlay(image: Path, overlay: Path) -> None:
    """Create ``overlay`` (qcow2) backed by ``image`` (qcow2, never written). Raises :class:`BootError`."""
    tmp = overlay.with_name(overlay.name + ".tmp")
    r = subprocess.run(
        ["qemu-img", "create", "-q", "-f", "qcow2", "-b", str(Path(image).resolve()), "-F", "qcow2", str(tmp)],
        capture_output=True,
        text=True,
    )
    if r.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise BootError(f"qemu-img create overlay failed: {r.stderr.strip()}")
    os.replace(tmp, overlay)


def internal_snapshots(qcow2: Path) -> list[str]:
    """Tags of the internal snapshots in ``qcow2`` (``qemu-img info --force-share``: readable while QEMU runs)."""
    r = subprocess.run(
        ["qemu-img", "info", "--force-share", "--output=json", str(qcow2)], capture_output=True, text=True
    )
    if r.returncode != 0:
        raise BootError(f"qemu-img info {qcow2}: {r.stderr.strip()}")
    return [sn["name"] for sn in json.loads(r.stdout).get("snapshots", [])]


#: One line of ``xwininfo -root -tree``: id "title": (class) WxH+X+Y.
XWININFO_LINE = re.compile(r'^\s*0x[0-9a-f]+ "(?P<title>.*)": \(.*\)\s+(?P<w>\d+)x(?P<h>\d+)[+-]')


class VM:
    """A running QEMU guest booted from ``image`` through a throwaway overlay.

    Use as a context manager (``with VM(path, as_of) as vm: ...``); on exit the guest is
    shut down (ACPI power button, then killed after a timeout) and the overlay deleted.
    ``as_of`` is the persona's local wall time ``YYYY-MM-DDTHH:MM:SS`` (the guest RTC runs
    in local time; see :mod:`builder.image.bake`); None leaves the host's clock.
    ``accel`` is ``kvm``/``tcg``/None (detect; PERSONA_ACCEL forces). Under detected KVM a
    watchdog restarts the guest under TCG when the kernel shows no sign of life.
    ``vnc`` is a QEMU VNC display (e.g. ``"127.0.0.1:5"``) or None for none.

    For ``run-image`` (:mod:`builder.runtime.run`): ``state_dir`` keeps the overlay, sockets and
    serial log in a folder that outlives the VM (an existing ``overlay.qcow2`` there is reused,
    with its internal snapshots); ``bind`` and ``http_port`` (0: a free port) place the guest's
    port 80 on the host; ``forwards`` maps more guest TCP ports to host ports on 127.0.0.1;
    ``qmp_port`` adds a QMP server on ``bind`` for the user; ``loadvm`` starts from an internal
    snapshot of the overlay instead of booting (``-loadvm``; no KVM watchdog then).

    For clones of one booted state (:mod:`builder.runtime.template`): ``memory_path`` backs the guest's RAM with
    that file (``memory-backend-file``: ``memory_shared`` maps it shared, so the guest writes into the file, else
    privately, copy-on-write over the file's pages, which every clone of it shares through the page cache);
    ``incoming`` starts QEMU waiting for a migration stream (``-incoming``, e.g. ``exec:cat FILE``) instead of
    booting; ``paused`` starts with the CPUs stopped (``-S``); ``use_overlay=False`` runs ``image`` itself as the
    disk (written) instead of an overlay on it.
    Attributes after start: ``http_port`` (host port forwarded to guest port 80),
    ``accel``, ``serial_log``, ``started_at`` (monotonic seconds).
    """

    def __init__(
        self,
        image: Path,
        as_of: str | None = None,
        *,
        memory_mb: int = 4096,
        cpus: int = 2,
        accel: str | None = None,
        vnc: str | None = None,
        workdir: Path | None = None,
        progress: Progress | None = None,
        state_dir: Path | None = None,
        bind: str = "127.0.0.1",
        http_port: int = 0,
        forwards: dict[int, int] | None = None,
        qmp_port: int | None = None,
        loadvm: str | None = None,
        memory_path: Path | None = None,
        memory_shared: bool = False,
        incoming: str | None = None,
        paused: bool = False,
        use_overlay: bool = True,
    ):
        self.image = Path(image).resolve()
        self.as_of = as_of
        self.memory_mb, self.cpus = memory_mb, cpus
        self.accel = accel
        self.vnc = vnc
        self._workdir_arg = workdir
        self.state_dir = Path(state_dir).resolve() if state_dir else None
        self.bind = bind
        self._http_port_arg = http_port
        self.forwards = dict(forwards or {})
        self.qmp_port = qmp_port
        self.loadvm_tag = loadvm
        self.memory_path = Path(memory_path).resolve() if memory_path else None
        self.memory_shared = memory_shared
        self.incoming = incoming
        self.paused = paused
        self.use_overlay = use_overlay
        self.progress = progress or (lambda s: None)
        self.proc: subprocess.Popen | None = None
        self.qmp = None
        self.agent: GuestAgent | None = None
        self.http_port = 0
        self.started_at = 0.0
        self._qmp_lock = threading.Lock()

    # ------------------------------------------------------------------ lifecycle
    def __enter__(self) -> "VM":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.shutdown()
        finally:
            self.cleanup()

    def start(self) -> None:
        """Create the overlay and start QEMU; return once QMP answers (the guest boots on)."""
        if not self.image.is_file():
            raise BootError(f"image {self.image} missing")
        if self.state_dir is not None:
            self.state_dir.mkdir(parents=True, exist_ok=True)
            self.dir = self.state_dir
        else:
            self.dir = Path(tempfile.mkdtemp(prefix="persona-vm-", dir=self._workdir_arg))
        self.overlay = self.dir / "overlay.qcow2" if self.use_overlay else self.image
        if not self.overlay.exists():
            make_overlay(self.image, self.overlay)
        accel = self.accel or q.detect_accel()
        watchdog = (
            self.accel is None
            and accel == "kvm"
            and not q.accel_forced()
            and not (self.loadvm_tag or self.incoming or self.paused)
        )
        self._launch(accel)
        if watchdog:
            try:
                q.wait_serial(self.serial_log, q.KERNEL_ALIVE, None, self.proc, q.KVM_WATCHDOG_SECONDS)
            except q.QemuError:
                self.progress("vm: KVM guest shows no sign of life, restarting under TCG")
                q.mark_kvm_broken("kernel printed nothing under KVM (boot)")
                self._kill()
                self._launch("tcg")

    def _launch(self, accel: str) -> None:
        self.accel = accel
        self.http_port = self._http_port_arg or free_port()
        self.qmp_sock = self.dir / "qmp.sock"
        self.qga_sock = self.dir / "qga.sock"
        self.serial_log = self.dir / "serial.log"
        for p in (self.qmp_sock, self.qga_sock, self.serial_log):
            p.unlink(missing_ok=True)
        cmd = [
            q.QEMU,
            *q.accel_args(accel),
            "-machine",
            "pc,memory-backend=pc.ram" if self.memory_path else "pc",
            "-smp",
            str(self.cpus),
            "-m",
            str(self.memory_mb),
            *(
                [
                    "-object",
                    f"memory-backend-file,id=pc.ram,size={self.memory_mb}M,mem-path={self.memory_path},"
                    f"share={'on' if self.memory_shared else 'off'}",
                ]
                if self.memory_path
                else []
            ),
            # A throwaway overlay needs no flushes; a kept one must survive a host crash.
            "-drive",
            f"file={self.overlay},if=virtio,format=qcow2,discard=unmap,"
            f"cache={'writeback' if self.state_dir else 'unsafe'}",
            "-netdev",
            "user,id=n0,"
            + ",".join(
                [f"hostfwd=tcp:{self.bind}:{self.http_port}-:80"]
                + [f"hostfwd=tcp:127.0.0.1:{host}-:{guest}" for guest, host in sorted(self.forwards.items())]
            ),
            "-device",
            "virtio-net-pci,netdev=n0",
            "-usb",
            "-device",
            "usb-tablet",
            "-vga",
            "std",
            "-qmp",
            f"unix:{self.qmp_sock},server=on,wait=off",
            "-chardev",
            f"socket,path={self.qga_sock},server=on,wait=off,id=qga0",
            "-device",
            "virtio-serial",
            "-device",
            "virtserialport,chardev=qga0,name=org.qemu.guest_agent.0",
            "-serial",
            f"file:{self.serial_log}",
            "-display",
            "none",
        ]
        if self.vnc:
            cmd += ["-vnc", self.vnc]
        if self.qmp_port:
            cmd += ["-qmp", f"tcp:{self.bind}:{self.qmp_port},server=on,wait=off"]
        if self.loadvm_tag:
            cmd += ["-loadvm", self.loadvm_tag]
        if self.incoming:
            cmd += ["-incoming", self.incoming]
        if self.paused:
            cmd += ["-S"]
        if self.as_of:
            cmd += ["-rtc", f"base={rtc_base(self.as_of)},clock=vm"]
        self.progress(f"vm: starting ({accel}), http on 127.0.0.1:{self.http_port}")
        self.qemu_log = self.dir / "qemu.log"
        self.started_at = time.monotonic()
        # Its own session: a terminal's Ctrl-C reaches only us, and we power the guest off through ACPI.
        # If we die without that (SIGKILL), the kernel kills QEMU too instead of leaving it on our ports.
        self.proc = subprocess.Popen(
            cmd,
            stdout=open(self.qemu_log, "wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        from qemu.qmp.legacy import QEMUMonitorProtocol

        deadline = time.monotonic() + 30
        while not self.qmp_sock.exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise BootError(f"QEMU did not start: {self.qemu_log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.1)
        self.qmp = QEMUMonitorProtocol(str(self.qmp_sock))
        self.qmp.connect()
        self.agent = GuestAgent(self.qga_sock)

    def _kill(self) -> None:
        if self.qmp is not None:
            try:
                self.qmp.close()
            except Exception:
                pass
            self.qmp = None
        if self.agent is not None:
            self.agent.close()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def shutdown(self, timeout: float = 120.0) -> bool:
        """ACPI power-off (QMP ``system_powerdown``); kill QEMU if the guest is not down in
        ``timeout`` seconds. Returns True for a clean power-off (False when QEMU had already died)."""
        if self.proc is None:
            return True
        if self.proc.poll() is not None:
            self._kill()
            return self.proc.returncode == 0
        clean = False
        try:
            if self.qmp is not None:
                self.qmp.cmd("system_powerdown")
            self.proc.wait(timeout=timeout)
            clean = True
        except (subprocess.TimeoutExpired, Exception):
            clean = False
        finally:
            self._kill()
        return clean

    def hmp(self, command_line: str, timeout: float = 600.0) -> str:
        """Run a human-monitor command through QMP (``human-monitor-command``); return its text output."""
        assert self.qmp is not None
        with self._qmp_lock:
            self.qmp.settimeout(timeout)
            try:
                return str(self.qmp.cmd("human-monitor-command", **{"command-line": command_line}) or "")
            finally:
                self.qmp.settimeout(None)

    def savevm(self, tag: str) -> float:
        """Save the running machine (RAM, devices, disk) as internal snapshot ``tag`` of the overlay.

        Replaces an older snapshot of that tag. Returns the seconds it took (the guest is paused
        meanwhile). Raises :class:`BootError` with QEMU's message on failure.
        """
        t0 = time.monotonic()
        out = self.hmp(f"savevm {tag}").strip()
        if out:
            raise BootError(f"savevm {tag}: {out}")
        return time.monotonic() - t0

    def loadvm(self, tag: str) -> float:
        """Restore internal snapshot ``tag``: the guest runs on from that moment (clock included).

        Returns the seconds QEMU took. Raises :class:`BootError` when QEMU refuses (no such snapshot,
        a device that cannot be restored).
        """
        t0 = time.monotonic()
        out = self.hmp(f"loadvm {tag}").strip()
        if out:
            raise BootError(f"loadvm {tag}: {out}")
        if self.agent is not None:
            self.agent.close()  # its channel state was rewound with the guest
        return time.monotonic() - t0

    def migrate_to_file(self, path: Path, ignore_shared: bool = False, timeout: float = 600.0) -> float:
        """Write the machine's state as a migration stream to ``path`` (QMP ``migrate`` to ``exec:cat > path``; QEMU
        7.2 has no ``file:`` URI) and wait until it completes; the guest stays stopped afterwards. With
        ``ignore_shared`` (capability ``x-ignore-shared``) RAM in a shared memory-backend-file is left out: the
        stream holds the devices only. Returns the seconds it took. Raises :class:`BootError` when it fails."""
        import shlex

        assert self.qmp is not None
        t0 = time.monotonic()
        with self._qmp_lock:
            self.qmp.cmd("stop")
            caps = [{"capability": "x-ignore-shared", "state": bool(ignore_shared)}]
            self.qmp.cmd("migrate-set-capabilities", capabilities=caps)
            self.qmp.cmd("migrate", uri=f"exec:cat > {shlex.quote(str(path))}")
        while True:
            with self._qmp_lock:
                info = self.qmp.cmd("query-migrate") or {}
            status = info.get("status")
            if status == "completed":
                return time.monotonic() - t0
            if status in ("failed", "cancelled"):
                raise BootError(f"migration to {path} {status}: {info.get('error-desc', '')}")
            if time.monotonic() - t0 > timeout:
                raise BootError(f"migration to {path} not done after {timeout:.0f}s: {info}")
            time.sleep(0.05)

    def quit(self) -> None:
        """Stop QEMU at once (QMP ``quit``): for a stopped guest whose disk needs no power-off."""
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            assert self.qmp is not None
            with self._qmp_lock:
                self.qmp.cmd("quit")
            self.proc.wait(timeout=30)
        except Exception:  # noqa: BLE001 -- a QEMU that will not quit is killed
            pass
        self._kill()

    def cleanup(self) -> None:
        """Delete the overlay and sockets (the VM must be stopped)."""
        if self.state_dir is not None:
            return  # a kept state folder is its owner's
        if getattr(self, "dir", None) is not None and os.environ.get("PERSONA_KEEP_WORK") != "1":
            shutil.rmtree(self.dir, ignore_errors=True)

    def _check_alive(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            raise BootError(f"QEMU exited ({self.proc.returncode if self.proc else None})\n{q.tail(self.serial_log)}")

    # ------------------------------------------------------------------ probes
    def wait_http(
        self,
        host_header: str,
        path: str = "/",
        cookie: str | None = None,
        timeout: float = 900.0,
        ok_status: tuple[int, ...] = (200,),
    ) -> tuple[int, str]:
        """Poll ``http://<host_header><path>`` through the forwarded port until it answers
        with a status in ``ok_status`` (redirects on the same host are followed).

        ``cookie`` is a raw ``Cookie`` header value (``name=value``). Returns
        ``(status, body_text)``. Raises :class:`BootError` after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        last = "no answer"
        while True:
            self._check_alive()
            try:
                cur = path
                for _ in range(6):
                    c = http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=60)
                    headers = {"Host": host_header, "User-Agent": "persona-desktop-check"}
                    if cookie:
                        headers["Cookie"] = cookie
                    c.request("GET", cur, headers=headers)
                    r = c.getresponse()
                    body = r.read().decode("utf-8", "replace")
                    c.close()
                    loc = r.getheader("Location")
                    if r.status in (301, 302, 303, 307, 308) and loc:
                        m = re.match(r"https?://([^/]+)(/.*)?$", loc)
                        if m and m.group(1) != host_header:
                            break
                        cur = m.group(2) or "/" if m else loc
                        continue
                    break
                last = f"HTTP {r.status}"
                if r.status in ok_status:
                    return r.status, body
            except (OSError, http.client.HTTPException) as e:
                last = repr(e)
            if time.monotonic() > deadline:
                raise BootError(
                    f"http://{host_header}{path} not ready after {timeout:.0f}s: {last}\n{q.tail(self.serial_log)}"
                )
            time.sleep(3)

    def guest_exec(self, argv: list[str], timeout: float = 30.0) -> tuple[int, str]:
        """Run a command in the guest as root through the guest agent."""
        assert self.agent is not None
        return self.agent.exec(argv, timeout)

    def wait_agent(self, timeout: float = 600.0) -> None:
        """Wait until the guest agent answers ``guest-ping``."""
        deadline = time.monotonic() + timeout
        while True:
            self._check_alive()
            try:
                assert self.agent is not None
                self.agent.call("guest-ping", timeout=5)
                return
            except (OSError, ValueError, BootError):
                if self.agent:
                    self.agent.close()
            if time.monotonic() > deadline:
                raise BootError(f"guest agent silent after {timeout:.0f}s")
            time.sleep(2)

    def wait_window(
        self, pattern: str = r"Firefox", timeout: float = 900.0, min_size: tuple[int, int] = (400, 300)
    ) -> str:
        """Wait until an X window whose title matches ``pattern`` and whose size is at least
        ``min_size`` (pixels) exists on display :0 (Firefox's 10x10 leader window does not count).

        Polls ``xwininfo -root -tree`` in the guest (as root, with LightDM's X authority).
        Returns the matching line. Raises :class:`BootError` after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        self.wait_agent(timeout)
        rx = re.compile(pattern)
        script = (
            "for a in /var/run/lightdm/root/:0 /home/*/.Xauthority; do "
            '[ -r "$a" ] && XAUTHORITY=$a DISPLAY=:0 xwininfo -root -tree 2>/dev/null && exit 0; done; exit 1'
        )
        while True:
            self._check_alive()
            try:
                rc, out = self.guest_exec(["/bin/sh", "-c", script], timeout=30)
                for line in out.splitlines():
                    m = XWININFO_LINE.match(line)
                    if (
                        m
                        and rx.search(m.group("title"))
                        and int(m.group("w")) >= min_size[0]
                        and int(m.group("h")) >= min_size[1]
                    ):
                        return line.strip()
            except (OSError, ValueError, BootError):
                pass
            if time.monotonic() > deadline:
                raise BootError(f"no window matching {pattern!r} after {timeout:.0f}s")
            time.sleep(5)

    def band_colours(self, top: int, bottom: int) -> int:
        """Number of distinct colours in screen rows ``top``..``bottom - 1`` (a flat band has one or two)."""
        assert self.qmp is not None
        ppm = self.dir / "band.ppm"
        self.qmp.cmd("screendump", filename=str(ppm))
        w, h, pix = parse_ppm(ppm.read_bytes())
        band = pix[min(top, h) * w * 3 : min(bottom, h) * w * 3]
        return len({band[i : i + 3] for i in range(0, len(band), 3)})

    def screendump_ppm(self, ppm_path: Path) -> None:
        """Save the screen as binary PPM (QMP ``screendump``) through the QMP lock, so it never talks over a
        ``loadvm`` or a migration another thread runs. Raises QEMU's error (qemu.qmp's ``ExecuteError``)."""
        assert self.qmp is not None
        with self._qmp_lock:
            self.qmp.cmd("screendump", filename=str(ppm_path))

    def screendump(self, png_path: Path) -> Path:
        """Save the screen as PNG (QMP ``screendump``; PPM converted when PNG is unsupported)."""
        png_path = Path(png_path).resolve()
        png_path.parent.mkdir(parents=True, exist_ok=True)
        assert self.qmp is not None
        try:
            self.qmp.cmd("screendump", filename=str(png_path), format="png")
            if png_path.exists() and png_path.read_bytes()[:4] == b"\x89PNG":
                return png_path
        except Exception:
            pass
        ppm = self.dir / "screen.ppm"
        self.qmp.cmd("screendump", filename=str(ppm))
        png_path.write_bytes(ppm_to_png(ppm.read_bytes()))
        return png_path


# Rows of Firefox's bookmarks toolbar on the 1280x800 desktop (Xfce panel, tab strip, URL bar above it).
TOOLBAR_ROWS = (112, 144)


@dataclass(frozen=True)
class AppProbe:
    """One app to check in a booted guest: its host, the persona's cookie, text its signed-in page shows."""

    name: str
    title: str
    domain: str
    cookie_name: str
    cookie_value: str
    expected_text: str


def app_probes(world, apps) -> list[AppProbe]:
    """A probe per app (in ``apps``' order): the persona's seeded session and the text its page must show.

    The text is the seed's optional ``signed_in_text(world)`` (the bank: the checking balance),
    else the persona's full name.
    """
    out = []
    for a in apps:
        seed = a.module("seed")
        text = seed.signed_in_text(world) if hasattr(seed, "signed_in_text") else world.persona.identity.name
        out.append(
            AppProbe(a.name, a.title, a.domain, a.session_cookie, seed.credentials(world)["session_token"], text)
        )
    return out


def memory_used_mb(meminfo: str) -> float:
    """MemTotal - MemAvailable of a ``/proc/meminfo`` text, in MiB (what the guest's programs use)."""
    info = {k: int(v.split()[0]) for k, v in (ln.split(":", 1) for ln in meminfo.splitlines() if ":" in ln)}
    return round((info["MemTotal"] - info["MemAvailable"]) / 1024, 1)


def guest_memory_used_mb(vm: "VM") -> float:
    """:func:`memory_used_mb` of the guest's /proc/meminfo, read through the guest agent."""
    rc, out = vm.guest_exec(["/bin/cat", "/proc/meminfo"])
    return memory_used_mb(out)


def check_booted_image(
    qcow2: Path,
    as_of: str,
    probes: list[AppProbe],
    screendump_dir: Path,
    *,
    timeout: float = 1200.0,
    progress: Progress | None = None,
) -> dict:
    """Boot ``qcow2`` through a throwaway overlay and time it (``scripts/bench``); return the figures.

    For every probe, fetches ``http://<domain>/`` through the forwarded port with its session cookie and asserts
    ``expected_text`` is in the signed-in page; waits for the Firefox window and its bookmarks toolbar (up to 300 s),
    reads the guest's memory in use, saves a screendump of Firefox's home page (``<screendump_dir>/home.png``) and
    checks the guest's clock date is ``as_of``'s. Returns ``{"accel",
    "healthy_s": {name: s}, "all_healthy_s", "desktop_s", "memory_used_mb", "toolbar", "guest_date", "window",
    "screendump"}`` (seconds from QEMU start). Raises :class:`BootError` or ``AssertionError``. The test suite looks
    at the desktop through run-image's control API instead (:mod:`builder.runtime.desktop_check`), on the machine
    its episodes use.
    """
    progress = progress or (lambda s: None)
    screendump_dir = Path(screendump_dir)
    screendump_dir.mkdir(parents=True, exist_ok=True)
    with VM(qcow2, as_of, progress=progress) as vm:
        healthy = {}
        for probe in probes:
            status, body = vm.wait_http(probe.domain, "/", f"{probe.cookie_name}={probe.cookie_value}", timeout=timeout)
            healthy[probe.name] = round(time.monotonic() - vm.started_at, 1)
            progress(f"app {probe.name} ({probe.domain}) healthy after {healthy[probe.name]:.0f}s")
            if probe.expected_text not in body:
                snippet = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))[:800]
                raise AssertionError(
                    f"{probe.expected_text!r} not in http://{probe.domain}/ (HTTP {status}): {snippet}"
                )
        line = vm.wait_window(timeout=timeout)
        progress(f"window: {line}")
        # Firefox titles its window "<page title> — Mozilla Firefox" once the page has loaded.
        try:
            line = vm.wait_window(r".\s[—–-]\s(Mozilla )?Firefox", timeout=300)
            progress(f"page loaded: {line}")
        except BootError:
            progress("page title did not appear in 300s; taking the screendump anyway")
        # Firefox fills the bookmarks toolbar at its first idle moment after start-up (the
        # browser-idle-startup task); under TCG that is a minute or more after the page title.
        deadline = time.monotonic() + 300
        while not (toolbar := vm.band_colours(*TOOLBAR_ROWS) >= 8) and time.monotonic() < deadline:
            time.sleep(10)
        progress(f"bookmarks toolbar {'drawn' if toolbar else 'still empty after 300s'}")
        time.sleep(float(os.environ.get("PERSONA_SETTLE_SECONDS", "5")))  # let the page paint
        desktop_s = time.monotonic() - vm.started_at
        memory = guest_memory_used_mb(vm)
        progress(f"guest memory in use with Firefox up: {memory:.0f} MiB")
        rc, guest_date = vm.guest_exec(["/bin/date", "+%Y-%m-%dT%H:%M:%S %Z"])
        guest_date = guest_date.strip()
        if as_of and not guest_date.startswith(as_of[:10]):
            raise AssertionError(f"guest date {guest_date!r} is not as_of {as_of!r}")
        shot = vm.screendump(screendump_dir / "home.png")
        return {
            "accel": vm.accel,
            "healthy_s": healthy,
            "all_healthy_s": max(healthy.values()),
            "desktop_s": round(desktop_s, 1),
            "memory_used_mb": memory,
            "toolbar": toolbar,
            "guest_date": guest_date,
            "window": line,
            "screendump": str(shot),
        }
