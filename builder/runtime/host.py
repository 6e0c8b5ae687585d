"""``persona-host``: the host agent, one process per machine that owns N persona VMs cloned from templates.

``persona-host serve IMAGE[,IMAGE...] --vms N [--port 7000] [--ports 20000-20999] [--bind 127.0.0.1]`` makes (or
reuses) each image's template (:mod:`builder.runtime.template`: from run-image's saved reset point, cold-booting
once when there is none), starts N clones spread over the images in turn, serves each clone's control API on a
port of its own (the OSWorld-compatible API run-image serves, ``GET /health`` and ``POST /reset`` included) and
its own API on ``--port``:

=====================  ============================================================================================
``GET /health``        200 ``{"status": "ok", "vms": n}`` once every VM started is healthy, else 503
``GET /capacity``      ``{"vms", "healthy", "free_memory_mb", "memory_per_vm_mb", "room"}``: VMs owned, healthy,
                       the host's MemAvailable, the guest size and how many more would fit in what is free
``GET /vms``           ``[{"id", "image", "persona", "control_url", "healthy", "restarts", "resets"}]``
``POST /vms``          ``{"image": ...}`` (optional: the first image): start one more clone; 201 with its record
``DELETE /vms/<id>``   stop that clone and free its ports
=====================  ============================================================================================

Ports come from ``--ports``, a range the agent owns and hands out in order (three per VM: its control API, the
guest's port 80, the guest's control port), never found by probing the host. A watchdog restarts a clone whose
QEMU died (from its template, so the VM is back at its reset point) and counts it in ``restarts``.
``persona-host template IMAGE`` only writes the template.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .run import (
    ControlServer,
    ImageRef,
    JSONHandler,
    Machine,
    RunError,
    default_state_dir,
    parse_memory,
    port_free,
    resolve_image,
)
from .template import Clone, Template, default_template_dir, load_template, write_template


class PortPool:
    """The ports ``first``..``last`` (inclusive), handed out in order and given back. Raises :class:`RunError` when
    none is left or the range is not a valid one."""

    def __init__(self, first: int, last: int, bind: str = "127.0.0.1"):
        if not 1024 <= first <= last <= 65535:
            raise RunError(f"--ports {first}-{last}: a range within 1024-65535")
        self.free = list(range(first, last + 1))
        self.bind = bind
        self._lock = threading.Lock()

    def take(self) -> int:
        """The lowest port of the range not handed out and not taken by another program."""
        with self._lock:
            while self.free:
                port = self.free.pop(0)
                if port_free(self.bind, port) and port_free("127.0.0.1", port):
                    return port
            raise RunError("no port left in the host agent's range (--ports)")

    def give(self, *ports: int) -> None:
        with self._lock:
            self.free = sorted(set(self.free) | {p for p in ports if p})


def mem_available_mb() -> int:
    """The host's MemAvailable (``/proc/meminfo``) in MiB."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) // 1024
    return 0


def ensure_template(ref: ImageRef, memory_mb: int, cpus: int, accel: str, progress=print) -> Template:
    """The image's template, written first when missing or stale: from run-image's reset point of this machine
    size (cold-booting the image once when there is none). Raises :class:`RunError`."""
    try:
        return load_template(ref)
    except RunError as e:
        progress(f"{ref.persona}: {e}; writing the template")
    state = default_state_dir(ref, memory_mb, cpus)
    m = Machine(
        ref,
        state_dir=state,
        http_port=0,
        vnc_port=None,
        qmp_port=None,
        memory_mb=memory_mb,
        cpus=cpus,
        accel=accel,
        progress=progress,
    )
    try:
        m.start()
    finally:
        m.stop()
    return write_template(ref, state, default_template_dir(ref), progress=progress)


@dataclass
class Slot:
    """One VM the agent owns: its clone, its control server and ports."""

    id: str
    image: str
    clone: Clone
    ports: list[int]
    server: ControlServer | None = None
    restarts: int = 0
    error: str | None = None
    starting: bool = True
    stopping: bool = False

    def describe(self, bind: str) -> dict:
        c = self.clone
        return {
            "id": self.id,
            "image": self.image,
            "persona": c.ref.persona,
            "control_url": f"http://{bind}:{self.ports[0]}",
            "healthy": bool(c.ready and not self.starting),
            "restarts": self.restarts,
            "resets": c.reset_count,
            "timings": dict(c.timings),
            **({"error": self.error} if self.error else {}),
        }


class Host:
    """The VMs of one host agent. ``add(image)`` starts a clone (blocking until healthy), ``remove(id)`` stops one,
    ``watch()`` restarts dead ones (a daemon thread). Raises :class:`RunError`."""

    def __init__(
        self,
        images: list[str],
        *,
        ports: PortPool,
        bind: str = "127.0.0.1",
        memory_mb: int = 4096,
        cpus: int = 2,
        accel: str = "auto",
        state_root: Path,
        progress=print,
    ):
        from ..image import qemu as q

        self.bind, self.ports, self.progress = bind, ports, progress
        self.memory_mb, self.cpus = memory_mb, cpus
        self.accel = q.detect_accel() if accel == "auto" else accel
        self.refs = {img: resolve_image(img) for img in images}
        self.templates = {
            img: ensure_template(r, memory_mb, cpus, self.accel, progress) for img, r in self.refs.items()
        }
        self.state_root = Path(state_root)
        self.slots: dict[str, Slot] = {}
        self._lock = threading.Lock()
        self._n = 0
        self._stop = threading.Event()

    def add(self, image: str | None = None) -> Slot:
        """Start one more clone of ``image`` (default: the images in turn) and serve its control API."""
        images = list(self.refs)
        with self._lock:
            img = image or images[self._n % len(images)]
            if img not in self.refs:
                raise RunError(f"{img}: not an image of this host agent ({', '.join(images)})")
            self._n += 1
            vid = f"vm{self._n}"
        ports = [self.ports.take(), self.ports.take(), self.ports.take()]
        clone = Clone(
            self.refs[img],
            self.templates[img],
            state_dir=self.state_root / vid,
            bind=self.bind,
            http_port=ports[1],
            progress=lambda s, v=vid: self.progress(f"{v}: {s}"),
        )
        clone.guest_control_port = ports[2]
        slot = Slot(vid, img, clone, ports)
        with self._lock:
            self.slots[vid] = slot
        try:
            clone.start()
        except RunError as e:
            slot.error = str(e)
            slot.starting = False
            raise
        slot.server = ControlServer.start(clone, self.bind, ports[0])
        slot.starting = False
        return slot

    def remove(self, vid: str) -> None:
        with self._lock:
            slot = self.slots.pop(vid, None)
        if slot is None:
            raise KeyError(vid)
        slot.stopping = True  # the watchdog leaves it alone from here on
        if slot.server is not None:
            slot.server.shutdown()
            slot.server.server_close()
        slot.clone.stop()
        self.ports.give(*slot.ports)

    def watch(self, every: float = 2.0) -> threading.Thread:
        """Restart, from its template, every clone whose QEMU died; on a daemon thread."""

        def loop():
            while not self._stop.wait(every):
                for slot in list(self.slots.values()):
                    c = slot.clone
                    vm = c.vm
                    dead = vm is not None and vm.proc is not None and vm.proc.poll() is not None
                    if dead and not (slot.starting or slot.stopping or self._stop.is_set() or c._reset_lock.locked()):
                        self.progress(f"{slot.id}: QEMU died; restarting it from the template")
                        slot.restarts += 1
                        try:
                            c.reset()
                            slot.error = None
                        except RunError as e:
                            slot.error = str(e)

        t = threading.Thread(target=loop, daemon=True)
        t.start()
        return t

    def capacity(self) -> dict:
        free = mem_available_mb()
        healthy = sum(1 for s in self.slots.values() if s.clone.ready and not s.starting)
        return {
            "vms": len(self.slots),
            "healthy": healthy,
            "free_memory_mb": free,
            "memory_per_vm_mb": self.memory_mb,
            "room": max(0, free // self.memory_mb),
        }

    def close(self) -> None:
        self._stop.set()
        for vid in list(self.slots):
            try:
                self.remove(vid)
            except KeyError:
                pass


class HostHandler(JSONHandler):
    """The host agent's own API (see the module docstring)."""

    server: "HostServer"

    def _body(self) -> dict:
        n = int(self.headers.get("Content-Length") or 0)
        if n <= 0:
            return {}
        try:
            data = json.loads(self.rfile.read(n))
        except ValueError:
            return {"_bad": True}
        return data if isinstance(data, dict) else {"_bad": True}

    def _route(self) -> None:
        h = self.server.host
        path = self.path.split("?", 1)[0].rstrip("/") or "/"
        if path == "/health" and self.command == "GET":
            slots = list(h.slots.values())
            ok = bool(slots) and all(s.clone.ready and not s.starting for s in slots)
            self._json(200 if ok else 503, {"status": "ok" if ok else "starting", "vms": len(slots)})
        elif path == "/capacity" and self.command == "GET":
            self._json(200, h.capacity())
        elif path == "/vms" and self.command == "GET":
            self._json(200, [s.describe(h.bind) for s in h.slots.values()])
        elif path == "/vms" and self.command == "POST":
            body = self._body()
            if body.get("_bad") or not isinstance(body.get("image", ""), str):
                self._json(400, {"status": "error", "error": 'give a JSON object {"image": IMAGE} or nothing'})
                return
            try:
                slot = h.add(body.get("image") or None)
            except RunError as e:
                self._json(409, {"status": "error", "error": str(e)})
                return
            self._json(201, slot.describe(h.bind))
        elif path.startswith("/vms/") and self.command == "DELETE":
            try:
                h.remove(path[len("/vms/") :])
            except KeyError:
                self._json(404, {"status": "error", "error": f"no VM {path[len('/vms/') :]!r}"})
                return
            self._json(200, {"status": "ok"})
        else:
            self._json(404, {"status": "error", "error": f"{self.command} {path}: no such route"})

    do_GET = do_POST = do_DELETE = _route


class HostServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, host: Host, bind: str, port: int):
        self.host = host
        super().__init__((bind, port), HostHandler)


def main(argv: list[str] | None = None) -> None:
    """Console script ``persona-host``."""
    import argparse
    import signal
    import sys

    ap = argparse.ArgumentParser(prog="persona-host", description=__doc__.split("\n\n")[0].replace("``", ""))
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve", help="own N clones of the images and serve their control APIs")
    s.add_argument("images", help="IMAGE[,IMAGE...]: build folders, qcow2 files or pulled names")
    s.add_argument("--vms", type=int, default=1, help="clones to start (default 1)")
    s.add_argument("--bind", default="127.0.0.1", help="address of every port (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=7000, help="the host agent's own API (default 7000)")
    s.add_argument(
        "--ports", default="20000-20999", help="the range the agent hands VM ports out of (default 20000-20999)"
    )
    s.add_argument("--memory", default="4G", help="guest memory, as the reset point was saved (default 4G)")
    s.add_argument("--cpus", type=int, default=2, help="guest CPUs (default 2)")
    s.add_argument(
        "--accel", default="auto", choices=["auto", "kvm", "tcg"], help="default auto: KVM when it works, else TCG"
    )
    s.add_argument("--state-root", type=Path, help="where the clones' overlays live (default under $XDG_STATE_HOME)")
    t = sub.add_parser("template", help="write an image's template from its run-image reset point")
    t.add_argument("image")
    t.add_argument("--memory", default="4G", help="guest memory (default 4G)")
    t.add_argument("--cpus", type=int, default=2, help="guest CPUs (default 2)")
    t.add_argument(
        "--accel", default="auto", choices=["auto", "kvm", "tcg"], help="default auto: KVM when it works, else TCG"
    )
    a = ap.parse_args(argv)

    def say(msg: str) -> None:
        print(f"persona-host: {msg}", file=sys.stderr, flush=True)

    try:
        mem = parse_memory(a.memory)
        from ..image import qemu as q

        names = [a.image] if a.cmd == "template" else a.images.split(",")
        refs = [resolve_image(n) for n in names]  # a wrong path is said before the KVM probe starts QEMU
        accel = q.detect_accel() if a.accel == "auto" else a.accel
        if a.cmd == "template":
            t = ensure_template(refs[0], mem, a.cpus, accel, say)
            print(json.dumps(t.info(), indent=2, sort_keys=True))
            return
        first, _, last = a.ports.partition("-")
        pool = PortPool(int(first), int(last or first), a.bind)
        root = a.state_root or default_state_dir(refs[0]).parent / f"host-{a.port}"
        host = Host(
            names,
            ports=pool,
            bind=a.bind,
            memory_mb=mem,
            cpus=a.cpus,
            accel=accel,
            state_root=root,
            progress=say,
        )
    except (RunError, ValueError) as e:
        raise SystemExit(f"persona-host: {e}") from None
    server = HostServer(host, a.bind, a.port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    say(f"API on http://{a.bind}:{a.port}/ (GET /vms, /capacity, /health)")
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    try:
        for _ in range(a.vms):
            if stopping.is_set():
                break
            t0 = time.monotonic()
            slot = host.add()
            say(
                f"{slot.id} healthy in {time.monotonic() - t0:.1f}s: control API {slot.describe(a.bind)['control_url']}"
            )
        host.watch()
        stopping.wait()
    except RunError as e:
        say(str(e))
    finally:
        server.shutdown()
        host.close()


if __name__ == "__main__":
    main()
