"""The Docker wrapper built and run for real under Podman (no Docker engine, no registry here).

``scripts/podman-base`` imports a Debian trixie minbase (mmdebstrap) as the Dockerfile's BASE; the
test builds the image with ``podman build``, runs it on the built default persona (the build folder
mounted read-only at /image, a host folder as /state, ``--network=host`` with free ports passed by
env, BIND=127.0.0.1), waits for the control API's ``GET /health``, checks every app of the manifest
through the published http port with the persona's session cookie (read from the layer's Firefox
cookies.sqlite, the one the image holds), the control API (``/screenshot`` is a PNG, ``/platform``,
``POST /reset``), noVNC (its page and a WebSocket that reaches QEMU's VNC), then ``podman stop -t
150`` and the guest's clean power-off (exit code 0, run-image's log line), and last a second
container on the same /state that starts from the saved reset point. Figures (image size, build
time, time to healthy, reset, stop, restart) are printed and written to ``<out>/podman-wrapper.json``.

One container at a time (the machine has two cores). Env: ``PERSONA_PODMAN_BUILD`` = the build
folder to run (default ``<out>/dana-whitfield``, ``<out>`` as tests/image/test_boot.py:
``PERSONA_TEST_OUT`` or ./out).
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import random
import re
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.runtime.test_wrapper_context import context_files

pytestmark = pytest.mark.slow

OUT = Path(os.environ.get("PERSONA_TEST_OUT", REPO / "out"))
BUILD = Path(os.environ.get("PERSONA_PODMAN_BUILD") or OUT / "dana-whitfield").resolve()
PODMAN = ["podman", "--runtime", "runc", "--cgroup-manager=cgroupfs"]
# What a container needs on this machine (its default rlimits are above what the sandbox allows).
RUN_OPTS = ["--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1000:1000", "--network=host"]
TAG = "localhost/persona-desktop:pytest"
HEALTHY_TIMEOUT = 2400.0  # TCG on a shared 2-core machine, Firefox settled and the reset point saved
FIGURES: dict[str, object] = {}


def podman(*args: str, timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess:
    """Run one podman command (runc, cgroupfs); return the finished process. Raises on failure when ``check``."""
    r = subprocess.run([*PODMAN, *args], check=False, capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise AssertionError(f"podman {' '.join(args[:2])} failed ({r.returncode}): {r.stderr[-3000:]}")
    return r


def free_port(lo: int = 0, hi: int = 0) -> int:
    """A TCP port free on 127.0.0.1 now: any (``lo`` = 0), else a free one in ``lo``..``hi`` (random start,
    so parallel runs rarely pick the same)."""
    start = random.randrange(lo, hi) if lo else 0
    for port in [0] if not lo else [*range(start, hi), *range(lo, start)]:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise RuntimeError(f"no free port in {lo}..{hi}")


def http_get(
    port: int, path: str, host: str | None = None, cookie: str | None = None, timeout: float = 60
) -> tuple[int, dict[str, str], bytes]:
    """GET ``path`` from 127.0.0.1:``port`` (Host header ``host``), following redirects on the same host.

    Returns (status, lower-cased headers, body). Raises OSError / http.client.HTTPException.
    """
    for _ in range(6):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        headers = {"User-Agent": "persona-desktop-test"}
        if host:
            headers["Host"] = host
        if cookie:
            headers["Cookie"] = cookie
        try:
            c.request("GET", path, headers=headers)
            r = c.getresponse()
            body = r.read()
        finally:
            c.close()
        hdrs = {k.lower(): v for k, v in r.getheaders()}
        loc = hdrs.get("location")
        if r.status in (301, 302, 303, 307, 308) and loc:
            m = re.match(r"https?://([^/]+)(/.*)?$", loc)
            if m and host and m.group(1) != host:
                break
            path = (m.group(2) or "/") if m else loc
            continue
        break
    return r.status, hdrs, body


def session_cookies(build: Path, apps: list[dict]) -> dict[str, str]:
    """``{app name: "cookie=value"}`` from the layer's Firefox cookie store (the image's own session)."""
    stores = sorted(build.glob("layer/home/*/.mozilla/firefox/*/cookies.sqlite"))
    assert stores, f"no Firefox cookies.sqlite in {build}/layer"
    db = sqlite3.connect(f"file:{stores[0]}?mode=ro&immutable=1", uri=True)
    try:
        out = {}
        for a in apps:
            row = db.execute(
                "SELECT value FROM moz_cookies WHERE name = ? AND host IN (?, ?)",
                (a["session_cookie"], a["domain"], "." + a["domain"]),
            ).fetchone()
            assert row, f"no {a['session_cookie']} cookie for {a['domain']} in {stores[0]}"
            out[a["name"]] = f"{a['session_cookie']}={row[0]}"
        return out
    finally:
        db.close()


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def base_image() -> str:
    """The imported trixie minbase (scripts/podman-base), skipping where Podman cannot run a container."""
    missing = [t for t in ("podman", "runc", "mmdebstrap") if shutil.which(t) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (bash scripts/setup-deps.sh installs them)")
    r = subprocess.run(
        [str(REPO / "scripts" / "podman-base")], check=False, capture_output=True, text=True, timeout=1800
    )
    assert r.returncode == 0, f"scripts/podman-base failed: {r.stderr[-3000:]}"
    base = r.stdout.strip().splitlines()[-1]
    probe = podman("run", "--rm", *RUN_OPTS, base, "true", timeout=120, check=False)
    if probe.returncode != 0:
        pytest.skip(f"podman cannot run a container here: {(probe.stderr.strip().splitlines() or ['?'])[-1]}")
    return base


@pytest.fixture(scope="module")
def built_persona() -> Path:
    """The build folder to run: persona.qcow2 + manifest.json (+ layer/ for the session cookies)."""
    if not (BUILD / "persona.qcow2").is_file() or not (BUILD / "manifest.json").is_file():
        pytest.skip(
            f"no built persona at {BUILD}/persona.qcow2 (the slow suite builds it: tests/image/test_boot.py;"
            f" or set PERSONA_PODMAN_BUILD)"
        )
    return BUILD


@pytest.fixture(scope="module")
def wrapper_image(base_image) -> str:
    """``podman build`` of the Dockerfile on the imported base (the previous build of the tag is removed)."""
    old = podman("image", "inspect", "--format", "{{.Id}}", TAG, check=False).stdout.strip()
    args = ["build", "--network=host", "--build-arg", f"BASE={base_image}", "-t", TAG]
    # A TLS-intercepting proxy's CA (pip fetches qemu.qmp from PyPI during the build).
    ca = next(
        (
            p
            for p in (
                os.environ.get("SSL_CERT_FILE"),
                os.environ.get("REQUESTS_CA_BUNDLE"),
                "/etc/ssl/certs/ca-certificates.crt",
            )
            if p and Path(p).is_file()
        ),
        None,
    )
    if ca:
        args += ["--secret", f"id=ca_bundle,src={ca}"]
    t0 = time.monotonic()
    podman(*args, str(REPO), timeout=3600)
    FIGURES["build_s"] = round(time.monotonic() - t0, 1)
    new = podman("image", "inspect", "--format", "{{.Id}}", TAG).stdout.strip()
    if old and old != new:
        podman("rmi", old, check=False)
    FIGURES["image_size_mb"] = round(int(podman("image", "inspect", "--format", "{{.Size}}", TAG).stdout) / 1e6)
    return TAG


class Container:
    """The wrapper running on the build folder; ``ports`` by name, ``started`` monotonic seconds."""

    def __init__(self, image: str, build: Path, state: Path):
        self.name = f"persona-pytest-{uuid.uuid4().hex[:8]}"
        self.ports = {
            "CONTROL_PORT": free_port(),
            "HTTP_PORT": free_port(),
            "QMP_PORT": free_port(),
            "NOVNC_PORT": free_port(),
            "VNC_PORT": free_port(5900, 6900),
        }
        env = {"BIND": "127.0.0.1", "KVM": "auto", "SHUTDOWN_TIMEOUT": "120", **self.ports}
        args = ["run", "-d", "--name", self.name, *RUN_OPTS, "-v", f"{build}:/image:ro", "-v", f"{state}:/state"]
        if os.access("/dev/kvm", os.R_OK | os.W_OK):
            args += ["--device", "/dev/kvm"]
        for k, v in env.items():
            args += ["-e", f"{k}={v}"]
        self.started = time.monotonic()
        podman(*args, image)
        self.stopped = False

    def running(self) -> bool:
        """Whether the container is still up."""
        r = podman("inspect", "--format", "{{.State.Running}}", self.name, check=False)
        return r.stdout.strip() == "true"

    def logs(self) -> str:
        """stdout + stderr of the container so far."""
        r = podman("logs", self.name, check=False)
        return r.stdout + r.stderr

    def port(self, name: str) -> int:
        return self.ports[name]

    def wait(self, what: str, probe, timeout: float = HEALTHY_TIMEOUT):
        """Poll ``probe()`` (returns a truthy value when done) every 3 s; fail with the log tail."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            assert self.running(), f"container exited while waiting for {what}:\n{self.logs()[-4000:]}"
            try:
                done = probe()
                if done:
                    return done
            except (OSError, http.client.HTTPException, ValueError) as e:
                last = repr(e)
            time.sleep(3)
        raise AssertionError(f"{what} not ready after {timeout:.0f}s ({last}):\n{self.logs()[-4000:]}")

    def stop(self) -> float:
        """``podman stop -t 150`` (SIGTERM, SIGKILL after 150 s); returns the seconds it took."""
        t0 = time.monotonic()
        podman("stop", "-t", "150", self.name, timeout=300)
        self.stopped = True
        return time.monotonic() - t0

    def remove(self) -> None:
        podman("rm", "-f", self.name, check=False, timeout=300)


@pytest.fixture(scope="module")
def state_dir():
    """A host folder mounted as the containers' /state (run-image's overlay and reset point), removed after."""
    d = Path(tempfile.mkdtemp(prefix="persona-podman-state-"))
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="module")
def container(wrapper_image, built_persona, state_dir):
    """The wrapper running on the built persona until the stop test (or teardown) stops it."""
    c = Container(wrapper_image, built_persona, state_dir)
    try:
        yield c
    finally:
        if not c.stopped and c.running():
            c.stop()
        log = c.logs()
        (OUT / "podman-wrapper.log").write_text(log)
        c.remove()
        FIGURES["ports"] = c.ports
        (OUT / "podman-wrapper.json").write_text(json.dumps(FIGURES, indent=2) + "\n")
        print("podman wrapper figures:", json.dumps(FIGURES))


@pytest.fixture(scope="module")
def manifest(built_persona) -> dict:
    return json.loads((built_persona / "manifest.json").read_text())


@pytest.fixture(scope="module")
def healthy(container):
    """The container once run-image's ``GET /health`` is 200 (every app healthy, reset point saved)."""

    def health():
        status, _, body = http_get(container.port("CONTROL_PORT"), "/health", timeout=30)
        return status == 200 and json.loads(body)

    FIGURES["health"] = container.wait("GET /health 200", health)
    FIGURES["healthy_s"] = round(time.monotonic() - container.started, 1)
    m = re.search(r"every app healthy after (\d+)s", container.logs())
    if m:
        FIGURES["apps_healthy_s_after_qemu_start"] = int(m.group(1))
    return container


# ---------------------------------------------------------------- tests


def test_image_holds_only_the_wrappers_files(wrapper_image):
    """The allow-list .dockerignore: run-image's modules are in (tests/runtime/test_wrapper_context.py checks they
    are all it imports), nothing else of the tree."""
    r = podman(
        "run", "--rm", *RUN_OPTS, "--entrypoint", "find", wrapper_image, "/opt/persona-desktop/builder", "-name", "*.py"
    )
    files = sorted(Path(p).relative_to("/opt/persona-desktop").as_posix() for p in r.stdout.split())
    expected = context_files()
    assert files == expected
    r = podman(
        "run",
        "--rm",
        *RUN_OPTS,
        "--entrypoint",
        "python3",
        wrapper_image,
        "-c",
        "import qemu.qmp, requests, rich, builder.image.boot; print('ok')",
    )
    assert r.stdout.strip() == "ok"
    print(f"image {FIGURES['image_size_mb']} MB, built in {FIGURES['build_s']} s")


def expected_texts(manifest: dict, build: Path) -> dict[str, str]:
    """``{app name: text its signed-in page shows}``: the apps' own probes (builder.image.boot.app_probes)
    for the manifest's persona, else the persona's full name from the layer's guest.json."""
    from builder.apps import discover
    from builder.image.boot import app_probes

    from tests.conftest import _world

    if (REPO / "personas" / f"{manifest['persona']}.json").is_file():
        names = {a["name"] for a in manifest["apps"]}
        world = _world(manifest["persona"])[1]
        return {p.name: p.expected_text for p in app_probes(world, [a for a in discover() if a.name in names])}
    name = json.loads((build / "layer/etc/persona-desktop/guest.json").read_text())["full_name"]
    return {a["name"]: name for a in manifest["apps"]}


def test_every_app_answers_signed_in_through_the_published_port(healthy, manifest, built_persona):
    cookies = session_cookies(built_persona, manifest["apps"])
    texts = expected_texts(manifest, built_persona)
    port = healthy.port("HTTP_PORT")
    for app in manifest["apps"]:

        def signed_in(app=app):
            status, _, body = http_get(port, "/", host=app["domain"], cookie=cookies[app["name"]])
            return status == 200 and body.decode("utf-8", "replace")

        body = healthy.wait(f"http://{app['domain']}/", signed_in)
        FIGURES.setdefault("app_answered_s", {})[app["name"]] = round(time.monotonic() - healthy.started, 1)
        assert texts[app["name"]] in body, f"{app['domain']}: the signed-in page does not show {texts[app['name']]!r}"
        # The cookie is what signs in: without it the app sends the visitor to its sign-in page.
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        c.request("GET", "/", headers={"Host": app["domain"]})
        r = c.getresponse()
        r.read()
        c.close()
        assert r.status in (302, 303, 307), f"{app['domain']} without a cookie: HTTP {r.status}"


def test_control_api_through_its_port(healthy, manifest):
    port = healthy.port("CONTROL_PORT")
    health = FIGURES["health"]
    assert health["status"] == "ok"
    assert sorted(health["apps"]) == sorted(a["name"] for a in manifest["apps"])
    status, hdrs, png = http_get(port, "/screenshot")
    assert status == 200 and png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000, (status, hdrs, png[:200])
    (OUT / "podman-wrapper-screenshot.png").write_bytes(png)
    status, _, body = http_get(port, "/platform")
    assert status == 200 and body.decode().strip() == "Linux"
    # The reset point lives in the container's state dir: POST /reset restores it and returns when healthy.
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    t0 = time.monotonic()
    c.request("POST", "/reset", body=b"", headers={"Content-Length": "0"})
    r = c.getresponse()
    body = r.read()
    c.close()
    FIGURES["reset_s"] = round(time.monotonic() - t0, 1)
    assert r.status == 200 and json.loads(body)["status"] == "ok", (r.status, body[:500])
    status, _, body = http_get(port, "/health")
    assert status == 200 and json.loads(body)["status"] == "ok"


def test_novnc_serves_its_page_and_reaches_vnc(healthy):
    port = healthy.port("NOVNC_PORT")
    status, _, body = http_get(port, "/vnc.html")
    assert status == 200 and b"noVNC" in body
    # A WebSocket through websockify to QEMU's VNC server: the first frame is its RFB greeting.
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(
            (
                f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                f"Sec-WebSocket-Protocol: binary\r\n\r\n"
            ).encode()
        )
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(4096)
            assert chunk, f"websockify closed the connection: {data!r}"
            data += chunk
        head, rest = data.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head
        while len(rest) < 2 + 12:
            chunk = s.recv(4096)
            assert chunk, f"no VNC greeting through websockify: {rest!r}"
            rest += chunk
        assert rest[0] & 0x0F == 0x2 and rest[1] == 12, rest[:16]  # one binary frame of 12 bytes
        assert rest[2:14] == b"RFB 003.008\n"


def test_stop_powers_the_guest_off_cleanly(healthy):
    assert healthy.running()
    FIGURES["stop_s"] = round(healthy.stop(), 1)
    state = podman("inspect", "--format", "{{.State.ExitCode}}", healthy.name).stdout.strip()
    said = "guest powered off cleanly"  # run-image's line; it exits 0 only then
    for _ in range(10):  # the container's log file may trail its exit by a moment
        log = healthy.logs()
        if said in log:
            break
        time.sleep(1)
    assert state == "0", f"exit code {state}:\n{log[-4000:]}"
    assert said in log, log[-4000:]
    print(f"stopped in {FIGURES['stop_s']} s")


def test_a_new_container_on_the_same_state_restores_the_reset_point(healthy, wrapper_image, built_persona, state_dir):
    """STATE_DIR on a volume: the next container starts from the saved reset point instead of booting."""
    if not healthy.stopped:
        healthy.stop()  # one container at a time
    c = Container(wrapper_image, built_persona, state_dir)
    try:

        def health():
            status, _, body = http_get(c.port("CONTROL_PORT"), "/health", timeout=30)
            return status == 200 and json.loads(body)

        assert c.wait("GET /health 200 after a restart", health)["status"] == "ok"
        FIGURES["restart_healthy_s"] = round(time.monotonic() - c.started, 1)
        assert "restored the saved reset point" in c.logs(), c.logs()[-4000:]
        FIGURES["restart_stop_s"] = round(c.stop(), 1)
        assert podman("inspect", "--format", "{{.State.ExitCode}}", c.name).stdout.strip() == "0", c.logs()[-4000:]
    finally:
        (OUT / "podman-wrapper-restart.log").write_text(c.logs())
        if not c.stopped and c.running():
            c.stop()
        c.remove()
