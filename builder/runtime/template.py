"""Many VMs from one booted state: a persona image's reset point written once as a *template*, and *clones* that
start from it with no boot.

A template is a folder beside the image (``<image dir>/persona.template/``, or ``--template-dir``):

============== ==============================================================================================
``disk.qcow2``  the disk at the reset point: a delta on the persona image (its backing file, never written), the
                clusters the boot wrote (tens of MB)
``ram``         the guest's RAM at the reset point, a plain file of ``memory_mb`` MiB (sparse: zero pages
                take no space)
``devices``     QEMU's migration stream of the machine without its RAM (capability ``x-ignore-shared``):
                CPUs, devices, clocks; tens of kilobytes
``template.json`` what the template depends on (the image's identity, the machine: memory, CPUs, accelerator,
                QEMU version), sizes and timings
============== ==============================================================================================

:func:`write_template` makes one from a ``run-image`` state folder whose reset point exists (the internal
snapshot ``persona-booted``): it copies the overlay, starts QEMU on the copy paused at the snapshot with its RAM in
``ram`` mapped shared (so restoring the snapshot writes the RAM into the file), writes the devices' stream and
keeps of the disk only its delta on the image (``qemu-img convert -B``: no snapshot, no RAM copy). A :class:`Clone` is a :class:`builder.runtime.run.Machine` that
starts QEMU with ``-incoming`` over its own overlay on ``disk.qcow2`` and ``ram`` mapped *privately*: every
clone reads the same page-cache pages of the file and copies only the pages its guest writes (the memory sharing
Kata's VM templating gets; QEMU 7.2 has no mapped-ram). It is healthy in seconds, and its reset starts QEMU
again the same way. After each start the guest's entropy pool is stirred with host randomness and its clock set
to the persona's ``as_of``.

No application secret is refreshed per clone: the apps' session secrets and the persona's signed-in cookies are
part of the persona (the seeded Firefox profile must stay signed in on every clone), and no clone can see
another's traffic, so a shared secret gives nothing away. What must differ per clone is the randomness drawn
after the restore (new session ids, CSRF tokens, order numbers): the kernel pool is stirred before the control
API answers, but a process that had already seeded its own generator before the snapshot (Node's, at server
start) draws the same numbers in every clone until it reseeds; the ids it makes are unique within one clone,
which is all an episode sees.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from ..image.boot import VM, BootError, free_port, internal_snapshots
from .run import (
    GUEST_CONTROL_PORT,
    RESET_TIMEOUT,
    SNAPSHOT_TAG,
    ImageRef,
    Machine,
    Progress,
    RunError,
    fingerprint,
)

#: Bumped when what a template holds changes.
TEMPLATE_FORMAT = 1


@dataclass(frozen=True)
class Template:
    """A template folder (see the module docstring). Raises nothing itself; :func:`load_template` checks it."""

    folder: Path

    @property
    def disk(self) -> Path:
        return self.folder / "disk.qcow2"

    @property
    def ram(self) -> Path:
        return self.folder / "ram"

    @property
    def devices(self) -> Path:
        return self.folder / "devices"

    @property
    def info_path(self) -> Path:
        return self.folder / "template.json"

    def info(self) -> dict:
        """``template.json`` as a dict. Raises :class:`RunError` when it is missing or unreadable."""
        try:
            return json.loads(self.info_path.read_text())
        except (OSError, ValueError) as e:
            raise RunError(f"{self.folder}: no readable template.json ({e})") from None


def default_template_dir(ref: ImageRef) -> Path:
    """``<the image's folder>/persona.template``: beside the image, as its manifest is."""
    return ref.qcow2.parent / f"{ref.qcow2.stem}.template"


def load_template(ref: ImageRef, folder: Path | None = None, accel: str | None = None) -> Template:
    """The template of ``ref`` in ``folder`` (default :func:`default_template_dir`), checked against the image and
    this host (same image file, same QEMU; ``accel`` when given). Raises :class:`RunError` naming what differs."""
    t = Template(Path(folder) if folder else default_template_dir(ref))
    info = t.info()
    for p in (t.disk, t.ram, t.devices):
        if not p.is_file():
            raise RunError(f"{t.folder}: {p.name} is missing: write the template again (persona-host template)")
    was = info.get("fingerprint") or {}
    now = fingerprint(ref, was.get("memory_mb", 0), was.get("cpus", 0), was.get("accel", ""))
    for key in ("format", "image", "size", "mtime_ns", "manifest_sha256", "qemu"):
        if was.get(key) != now.get(key):
            raise RunError(f"{t.folder}: made for another {key} ({was.get(key)!r}, now {now.get(key)!r})")
    if info.get("template_format") != TEMPLATE_FORMAT:
        raise RunError(
            f"{t.folder}: template format {info.get('template_format')!r}, this code reads {TEMPLATE_FORMAT}"
        )
    if accel and was.get("accel") != accel:
        raise RunError(f"{t.folder}: made under {was.get('accel')}, this host runs {accel}")
    return t


def _copy(src: Path, dst: Path) -> None:
    """Copy a disk image, sharing blocks where the file system can (reflink) and keeping holes."""
    r = subprocess.run(["cp", "--reflink=auto", "--sparse=always", str(src), str(dst)], capture_output=True, text=True)
    if r.returncode != 0:
        raise RunError(f"copying {src} failed: {r.stderr.strip()}")


def write_template(
    ref: ImageRef,
    state_dir: Path,
    dest: Path | None = None,
    progress: Progress | None = None,
) -> Template:
    """Write the template of the reset point saved in the run-image state folder ``state_dir`` (its overlay must
    hold the snapshot ``persona-booted`` and its ``state.json`` the machine it was saved on) into ``dest``
    (default :func:`default_template_dir`), replacing an older one. The state folder is only read, and must not be
    in use by a running run-image. Returns the :class:`Template`. Raises :class:`RunError`."""
    say = progress or (lambda s: None)
    state_dir = Path(state_dir)
    overlay = state_dir / "overlay.qcow2"
    try:
        saved = json.loads((state_dir / "state.json").read_text())
        fp = saved["fingerprint"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise RunError(f"{state_dir}: no reset point saved by run-image here ({e})") from None
    if not overlay.is_file() or SNAPSHOT_TAG not in internal_snapshots(overlay):
        raise RunError(f"{state_dir}: the overlay holds no reset point ({SNAPSHOT_TAG})")
    if fp != fingerprint(ref, fp.get("memory_mb", 0), fp.get("cpus", 0), fp.get("accel", "")):
        raise RunError(f"{state_dir}: its reset point was saved for another image or QEMU")
    dest = Path(dest) if dest else default_template_dir(ref)
    work = dest.with_name(dest.name + ".new")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    t0 = time.monotonic()
    t = Template(work)
    booted = work / "booted.qcow2"  # the overlay with its snapshot: run once, then reduced to t.disk
    _copy(overlay, booted)
    copied = time.monotonic() - t0
    say(f"template: disk copied in {copied:.1f}s; restoring the reset point into the RAM file")
    vm = VM(
        booted,
        ref.as_of,
        memory_mb=fp["memory_mb"],
        cpus=fp["cpus"],
        accel=fp["accel"],
        state_dir=work / "qemu",
        loadvm=SNAPSHOT_TAG,
        paused=True,
        use_overlay=False,
        memory_path=t.ram,
        memory_shared=True,
        forwards={GUEST_CONTROL_PORT: free_port()},
        progress=say,
    )
    try:
        vm.start()
        loaded = time.monotonic() - t0
        migrate_s = vm.migrate_to_file(t.devices, ignore_shared=True)
        vm.quit()
    except BootError as e:
        vm._kill()
        raise RunError(f"writing the template failed: {e}") from None
    # The disk as the snapshot left it, as a delta on the image: the clusters the boot wrote (tens of MB), without
    # the snapshot's own RAM copy.
    r = subprocess.run(
        ["qemu-img", "convert", "-O", "qcow2", "-B", str(ref.qcow2), "-F", "qcow2", str(booted), str(t.disk)],
        capture_output=True,
        text=True,
    )
    if r.returncode != 0:
        raise RunError(f"writing the template's disk failed: {r.stderr.strip()}")
    booted.unlink()
    shutil.rmtree(work / "qemu", ignore_errors=True)
    sizes = {
        p.name: {"bytes": p.stat().st_size, "allocated": p.stat().st_blocks * 512} for p in (t.disk, t.ram, t.devices)
    }
    info = {
        "template_format": TEMPLATE_FORMAT,
        "fingerprint": fp,
        "snapshot": SNAPSHOT_TAG,
        "sizes": sizes,
        "timings": {
            "copy_s": round(copied, 1),
            "loadvm_s": round(loaded - copied, 1),
            "migrate_s": round(migrate_s, 2),
            "total_s": round(time.monotonic() - t0, 1),
        },
    }
    t.info_path.write_text(json.dumps(info, indent=2, sort_keys=True) + "\n")
    if dest.exists():
        shutil.rmtree(dest)
    os.replace(work, dest)
    say(f"template written to {dest} in {info['timings']['total_s']:.0f}s")
    return Template(dest)


class Clone(Machine):
    """A VM started from a :class:`Template` with no boot: its own overlay on the template's disk, the template's
    RAM file mapped copy-on-write, the devices' migration stream as its ``-incoming``. ``start()`` returns once
    every app is healthy; ``reset()`` starts QEMU again the same way over a fresh overlay (the guest is back at the
    reset point: databases, Firefox, desktop, clock). Ports as :class:`Machine` (``http_port`` 0: a free port);
    the control API is served by :class:`builder.runtime.run.ControlServer` as for run-image. Raises
    :class:`RunError`."""

    def __init__(self, ref: ImageRef, template: Template, *, state_dir: Path, **kw):
        info = template.info()
        fp = info["fingerprint"]
        kw.setdefault("vnc_port", None)
        kw.setdefault("qmp_port", None)
        kw.setdefault("http_port", 0)
        super().__init__(ref, state_dir=state_dir, memory_mb=fp["memory_mb"], cpus=fp["cpus"], accel=fp["accel"], **kw)
        self.template = template
        self.snapshot = True
        # QEMU dies with the thread that started it (PR_SET_PDEATHSIG, builder.image.boot): every start of this
        # clone's QEMU runs on this one long-lived thread, not on the HTTP request thread that asked for a reset.
        from concurrent.futures import ThreadPoolExecutor

        self._launcher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="clone-qemu")

    def start(self) -> None:
        """Start from the template and wait until every app is healthy."""
        self.state_dir.mkdir(parents=True, exist_ok=True)
        if self._lock_fd is None:
            self._take_lock()
        self._check_ports()
        t0 = time.monotonic()
        self._launch()
        self.wait_healthy(RESET_TIMEOUT)
        self.timings["healthy_s"] = round(time.monotonic() - t0, 2)
        self.restored = True
        self.ready = True

    def _launch(self) -> None:
        """Start QEMU from the template (on the launcher thread) and prepare the guest."""
        self._launcher.submit(self._start_qemu).result()
        t1 = time.monotonic()
        self._after_restore()
        self.timings["after_restore_s"] = round(time.monotonic() - t1, 2)

    def _start_qemu(self) -> None:
        import shlex

        if self.vm is not None:
            self.vm._kill()
        (self.state_dir / "overlay.qcow2").unlink(missing_ok=True)
        if not self.guest_control_port:
            self.guest_control_port = free_port()
        t0 = time.monotonic()
        self.vm = VM(
            self.template.disk,
            self.ref.as_of,
            memory_mb=self.memory_mb,
            cpus=self.cpus,
            accel=self.accel_arg,
            vnc=f"{self.bind}:{self.vnc_port - 5900}" if self.vnc_port else None,
            state_dir=self.state_dir,
            bind=self.bind,
            http_port=self.http_port,
            forwards={GUEST_CONTROL_PORT: self.guest_control_port},
            qmp_port=self.qmp_port,
            memory_path=self.template.ram,
            memory_shared=False,
            incoming="defer",
            progress=self.progress,
        )
        try:
            self.vm.start()
            with self.vm._qmp_lock:
                caps = [{"capability": "x-ignore-shared", "state": True}]
                self.vm.qmp.cmd("migrate-set-capabilities", capabilities=caps)
                self.vm.qmp.cmd("migrate-incoming", uri=f"exec:cat {shlex.quote(str(self.template.devices))}")
            self._await_incoming()
        except BootError as e:
            raise RunError(str(e)) from None
        self.http_port = self.vm.http_port
        self.timings["incoming_s"] = round(time.monotonic() - t0, 2)

    def _await_incoming(self, timeout: float = 120.0) -> None:
        """Wait until the migration stream is loaded, then run the guest (the template's machine never ran after
        its snapshot was loaded, so the stream carries the run state "prelaunch" and QEMU does not start it)."""
        assert self.vm is not None and self.vm.qmp is not None
        deadline = time.monotonic() + timeout
        while True:
            self.vm._check_alive()
            with self.vm._qmp_lock:
                migration = (self.vm.qmp.cmd("query-migrate") or {}).get("status")
                status = (self.vm.qmp.cmd("query-status") or {}).get("status")
                if migration == "completed" and status in ("prelaunch", "paused"):
                    self.vm.qmp.cmd("cont")
                    continue
            if status == "running":
                return
            if migration == "failed" or status in ("internal-error", "shutdown", "guest-panicked"):
                raise BootError(f"the clone did not start: migration {migration}, status {status}")
            if time.monotonic() > deadline:
                raise BootError(f"the clone did not load its state in {timeout:.0f}s (status {status})")
            time.sleep(0.05)

    def _after_restore(self) -> None:
        """Stir the guest's entropy pool with host randomness and set its clock to ``as_of``."""
        with self._agent_lock:
            try:
                rc, out = self._agent().exec(
                    ["/bin/sh", "-c", f"printf %s {secrets.token_hex(64)} > /dev/urandom"], timeout=30
                )
                if rc != 0:
                    self.progress(f"could not stir the guest's entropy: {out.strip()}")
            except (OSError, BootError) as e:
                self.progress(f"could not stir the guest's entropy ({e})")
            finally:
                self._agent().close()
        self._clock_to_as_of()

    def reset(self) -> float:
        """Start QEMU again from the template over a fresh overlay; return the seconds until every app is
        healthy. Raises :class:`RunError`."""
        if not self._reset_lock.acquire(blocking=False):
            raise RunError("a reset is already running")
        self.drop_recording()
        try:
            self.ready = False
            t0 = time.monotonic()
            self._launch()
            self.reset_count += 1
            self._abort_forwarded()
            self.wait_healthy(RESET_TIMEOUT)
            self.ready = True
            return time.monotonic() - t0
        finally:
            self._reset_lock.release()

    def stop(self, timeout: float = 10.0) -> bool:
        """Stop QEMU at once (a clone's disk is thrown away) and release the state folder."""
        self.drop_recording()
        if self.vm is not None:
            self.vm.quit()
            self.vm = None
        self._launcher.shutdown(wait=False)
        (self.state_dir / "overlay.qcow2").unlink(missing_ok=True)
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
        return True
