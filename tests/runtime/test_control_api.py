"""The guest control API (image/guest/usr/local/lib/persona-control/server.py) run for real on this host.

A real X server (Xvfb 1280x800), a real session bus with the AT-SPI bus behind it, real GTK3
windows (zenity), the server under the host's system Python (/usr/bin/python3, as the guest runs it
under its own) on 127.0.0.1, and a real loopback HTTP server standing in for the guest's nginx.
pyautogui is the guest's pinned set (image/python-packages.txt) installed with pip into
.cache/test-pyautogui, never into the system Python; that case skips when pip cannot get it.
What this host cannot show (the guest network address, the systemd user unit, Firefox's tree,
nginx and the apps) is checked on a booted image.
"""

from __future__ import annotations

import hashlib
import http.client
import http.server
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
SERVER_DIR = ROOT / "image/guest/usr/local/lib/persona-control"
SERVER = SERVER_DIR / "server.py"
SYSTEM_PYTHON = "/usr/bin/python3"
PYTHON_PACKAGES = ROOT / "image/python-packages.txt"
WINDOW = "Persona Control Test"
ST = "https://accessibility.ubuntu.example.org/ns/state"
CP = "https://accessibility.ubuntu.example.org/ns/component"
# OSWorld's python command prefix (desktop_env/controllers/python.py), with the host's system Python.
PREFIX = "import pyautogui; import time; pyautogui.FAILSAFE = False; "


def _need(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (apt-get install xvfb xdotool dbus zenity; scripts/setup-deps.sh)")


def _system_python_has(*modules: str) -> list[str]:
    code = "import importlib.util,sys; print(' '.join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))"
    r = subprocess.run([SYSTEM_PYTHON, "-c", code, *modules], capture_output=True, text=True, timeout=30)
    return r.stdout.split()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pyautogui() -> Path | None:
    """The guest's pinned pyautogui set (image/python-packages.txt) in .cache/test-pyautogui-<hash> (pip
    --target, the way builder/image/base.py installs it into the guest), or None if pip cannot get it."""
    key = hashlib.sha256(PYTHON_PACKAGES.read_bytes()).hexdigest()[:16]
    dest = ROOT / ".cache" / f"test-pyautogui-{key}"
    if (dest / "pyautogui" / "__init__.py").exists():
        return dest
    tmp = dest.with_name(dest.name + ".part")
    shutil.rmtree(tmp, ignore_errors=True)
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--no-compile",
            "--require-hashes",
            "--target",
            str(tmp),
            "-r",
            str(PYTHON_PACKAGES),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if r.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        return None
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)
    return dest


class FakeNginx(http.server.BaseHTTPRequestHandler):
    """Answers like the guest's nginx in front of the apps, by Host (any path, the readiness path among them):
    a redirect, a page, a 502."""

    def do_GET(self):
        host = (self.headers.get("Host") or "").split(":")[0]
        if host == "bank.test":
            self.send_response(307)
            self.send_header("Location", "/login")
        elif host == "mail.test":
            self.send_response(200)
        else:
            self.send_response(502)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *a):
        pass


class Desktop:
    """The running pieces: base URL, env, tmp dirs, the nginx stand-in, the guest.json path."""

    def __init__(self, url, env, home, guest_json, nginx, procs, pyautogui):
        self.url, self.env, self.home, self.guest_json, self.nginx = url, env, home, guest_json, nginx
        self.procs, self.pyautogui = procs, pyautogui

    def get(self, path, **kw):
        return requests.get(self.url + path, timeout=kw.pop("timeout", 60), **kw)

    def post(self, path, **kw):
        return requests.post(self.url + path, timeout=kw.pop("timeout", 60), **kw)

    def execute(self, command, shell=False, **extra):
        r = self.post("/execute", json={"command": command, "shell": shell, **extra})
        return r

    def tree(self) -> ET.Element:
        r = self.get("/accessibility")
        assert r.status_code == 200, r.text
        return ET.fromstring(r.json()["AT"])

    def wait_window(self, title: str, present: bool = True, within: float = 60.0) -> ET.Element | None:
        end = time.monotonic() + within
        while True:
            root = self.tree()
            hits = [e for e in root.iter() if e.get("name") == title and e.tag in ("dialog", "frame", "alert")]
            if bool(hits) == present:
                return hits[0] if hits else None
            if time.monotonic() > end:
                raise AssertionError(f"window {title!r} {'never appeared' if present else 'still there'}")
            time.sleep(0.3)


@pytest.fixture(scope="module")
def desktop(tmp_path_factory):
    _need("Xvfb", "xdotool", "dbus-daemon", "zenity")
    if not Path(SYSTEM_PYTHON).exists():
        pytest.skip(f"needs {SYSTEM_PYTHON}")
    missing = _system_python_has("PIL", "Xlib", "pyatspi")
    if missing:
        pytest.skip(
            f"{SYSTEM_PYTHON} lacks {', '.join(missing)} (apt-get install python3-pil python3-xlib "
            "python3-pyatspi gir1.2-atspi-2.0)"
        )
    tmp = tmp_path_factory.mktemp("control")
    home = tmp / "home"
    (home / "Desktop").mkdir(parents=True)
    procs: list[subprocess.Popen] = []
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "NO_AT_BRIDGE", "AT_SPI_BUS_ADDRESS", "XAUTHORITY", "PYTHONPATH")
    }
    env["HOME"] = str(home)
    http_srv = None
    try:
        rfd, wfd = os.pipe()
        x = subprocess.Popen(
            ["Xvfb", "-displayfd", str(wfd), "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
            pass_fds=[wfd],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        procs.append(x)
        os.close(wfd)
        with os.fdopen(rfd) as f:
            num = f.readline().strip()
        assert num.isdigit(), "Xvfb did not report its display"
        env["DISPLAY"] = f":{num}"

        rfd, wfd = os.pipe()
        bus = subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", f"--print-address={wfd}"],
            pass_fds=[wfd],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        procs.append(bus)
        os.close(wfd)
        with os.fdopen(rfd) as f:
            env["DBUS_SESSION_BUS_ADDRESS"] = f.readline().strip()
        assert env["DBUS_SESSION_BUS_ADDRESS"], "dbus-daemon did not report its address"

        procs.append(
            subprocess.Popen(
                ["zenity", "--info", "--title", WINDOW, "--text", "Hello from the control API test", "--width", "420"],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )

        # The nginx stand-in: bound (connections refused) until the health test starts it.
        http_srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeNginx, bind_and_activate=False)
        http_srv.server_bind()
        nginx = f"127.0.0.1:{http_srv.server_address[1]}"
        guest_json = tmp / "guest.json"
        guest_json.write_text(
            json.dumps({"apps": [{"name": "bank", "domain": "bank.test"}, {"name": "mail", "domain": "mail.test"}]})
        )

        pyag = _pyautogui()
        senv = dict(env)
        if pyag:
            senv["PYTHONPATH"] = str(pyag)
        opener = tmp / "opener"
        opener.write_text('#!/bin/sh\nexec zenity --info --title "Opened $(basename "$1")" --text "$1"\n')
        opener.chmod(0o755)
        port = _free_port()
        srv = subprocess.Popen(
            [
                SYSTEM_PYTHON,
                str(SERVER),
                "--bind",
                "127.0.0.1",
                "--port",
                str(port),
                "--guest-json",
                str(guest_json),
                "--nginx",
                nginx,
                "--opener",
                str(opener),
                "--warm-json",
                str(tmp / "warm.json"),
            ],
            env=senv,
            stdout=subprocess.DEVNULL,
            stderr=open(tmp / "server.log", "wb"),
        )
        procs.append(srv)
        url = f"http://127.0.0.1:{port}"
        end = time.monotonic() + 20
        while True:
            try:
                if requests.get(url + "/platform", timeout=2).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            assert srv.poll() is None, (tmp / "server.log").read_text()
            assert time.monotonic() < end, "the server did not come up"
            time.sleep(0.1)
        d = Desktop(url, env, home, guest_json, http_srv, procs, pyag)
        d.wait_window(WINDOW)
        yield d
        assert srv.poll() is None, "the server died during the tests"
        srv.send_signal(signal.SIGTERM)
        assert srv.wait(10) == 0, "the server did not stop cleanly on SIGTERM"
        assert "Traceback" not in (tmp / "server.log").read_text()
    finally:
        if http_srv is not None:
            http_srv.shutdown() if getattr(http_srv, "_serving", False) else None
            http_srv.server_close()
        for p in reversed(procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()


def _png(data: bytes):
    from PIL import Image

    return Image.open(io.BytesIO(data))


def test_screenshot_is_the_whole_desktop(desktop):
    r = desktop.get("/screenshot")
    assert r.status_code == 200
    assert r.headers["Content-Type"] == "image/png"
    assert r.content[:8] == b"\x89PNG\r\n\x1a\n"
    img = _png(r.content)
    assert img.size == (1280, 800)
    assert img.convert("RGB").getcolors(maxcolors=1) is None  # the dialog is in it, not one flat colour


def test_screen_size_platform_desktop_path(desktop):
    assert desktop.get("/screen_size").json() == {"width": 1280, "height": 800}
    assert desktop.post("/screen_size").json() == {"width": 1280, "height": 800}  # OSWorld's client POSTs
    r = desktop.get("/platform")
    assert (r.status_code, r.text) == (200, "Linux")
    assert desktop.post("/desktop_path").json() == {"desktop_path": str(desktop.home / "Desktop")}


def test_execute_shapes(desktop):
    r = desktop.execute(["echo", "hello", "world"])
    assert r.status_code == 200
    assert r.json() == {"status": "success", "output": "hello world\n", "error": "", "returncode": 0}
    r = desktop.execute("printf '%s' 'two words'")  # a string without shell: split like a shell would
    assert r.json()["output"] == "two words"
    r = desktop.execute("echo $DISPLAY; echo oops >&2; exit 3", shell=True)
    body = r.json()
    assert (body["output"], body["error"], body["returncode"]) == (desktop.env["DISPLAY"] + "\n", "oops\n", 3)
    r = desktop.execute(["pwd"])
    assert r.json()["output"].strip() == str(desktop.home)  # runs in the persona's home
    r = desktop.execute(["ls", "-d", "~/Desktop"])
    assert r.json()["output"].strip() == str(desktop.home / "Desktop")
    r = desktop.execute(["no-such-program-xyz"])
    assert r.status_code == 200 and r.json()["returncode"] == 127
    r = desktop.execute(["sh", "-c", "printf '\\377\\376ok'"])
    assert r.json()["output"].endswith("ok")  # undecodable bytes do not fail the call


def test_execute_timeout_and_background_children(desktop):
    t0 = time.monotonic()
    r = desktop.execute(["sleep", "30"], timeout=1)
    assert r.status_code == 500
    body = r.json()
    assert body["status"] == "error" and "timed out" in body["message"] and body["returncode"] == -9
    assert time.monotonic() - t0 < 10
    # A child left running in the background with our stdout does not hold the answer back.
    t0 = time.monotonic()
    r = desktop.execute("sleep 20 & echo $!", shell=True)
    pid = int(r.json()["output"])
    assert time.monotonic() - t0 < 10
    os.kill(pid, signal.SIGTERM)


def test_execute_bad_input(desktop):
    for body, why in ((b"{not json", "not JSON"), (b"[1, 2]", "object"), (b"", "required")):
        r = requests.post(desktop.url + "/execute", data=body, headers={"Content-Type": "application/json"}, timeout=10)
        assert r.status_code == 400 and why in r.json()["message"], r.text
    for cmd in ([], [1, 2], "", None, {"a": 1}):
        r = desktop.execute(cmd)
        assert r.status_code == 400 and r.json()["status"] == "error", (cmd, r.text)
    r = desktop.execute("echo 'unclosed")
    assert r.status_code == 400 and "split" in r.json()["message"]
    r = desktop.execute(["true"], timeout=-1)
    assert r.status_code == 400
    r = requests.post(desktop.url + "/execute", data=b"x" * ((1 << 20) + 1), timeout=30)
    assert r.status_code == 413
    assert desktop.get("/no/such/thing").status_code == 404
    r = desktop.post("/platform")
    assert r.status_code == 405 and "GET" in r.json()["message"]
    assert "Traceback" not in r.text


def test_xdotool_click_moves_the_pointer_and_presses_the_button(desktop):
    # /setup/launch starts a second dialog; its OK button is found through AT-SPI and clicked with xdotool.
    title = "Persona Click Test"
    r = desktop.post(
        "/setup/launch",
        json={
            "command": ["zenity", "--question", "--title", title, "--text", "Click me", "--width", "300"],
            "shell": False,
        },
    )
    assert r.status_code == 200 and "launched successfully" in r.text
    dialog = desktop.wait_window(title)
    buttons = [e for e in dialog.iter("push-button") if e.get("name") in ("Yes", "_Yes")]
    assert buttons, ET.tostring(dialog, encoding="unicode")[:2000]
    x, y = (int(v) for v in re.findall(r"-?\d+", buttons[0].get(f"{{{CP}}}screencoord")))
    w, h = (int(v) for v in re.findall(r"-?\d+", buttons[0].get(f"{{{CP}}}size")))
    cx, cy = x + w // 2, y + h // 2
    r = desktop.execute(f"xdotool mousemove {cx} {cy} click 1", shell=True)
    assert r.json()["returncode"] == 0, r.text
    assert desktop.get("/cursor_position").json() == [cx, cy]
    desktop.wait_window(title, present=False)  # the click answered the dialog: it closed
    desktop.wait_window(WINDOW)  # the other one is untouched


def test_pyautogui_through_osworld_prefix(desktop):
    if desktop.pyautogui is None:
        pytest.skip("pip could not fetch the guest's pinned pyautogui set (image/python-packages.txt)")
    cmd = [
        SYSTEM_PYTHON,
        "-c",
        PREFIX + "pyautogui.moveTo(321, 123); pyautogui.click(x=333, y=444); "
        "print(tuple(pyautogui.position()), pyautogui.size())",
    ]
    r = desktop.execute(cmd)
    assert r.status_code == 200
    body = r.json()
    if "install tkinter" in body["error"]:
        pytest.fail(
            "`import pyautogui` exits: the MouseInfo it imports needs tkinter, which the guest (and "
            f"{SYSTEM_PYTHON} here) lacks. Drop MouseInfo and pyperclip from image/python-packages.txt "
            "(pyautogui runs without them) or add python3-tk to the guest."
        )
    assert body["returncode"] == 0, body["error"]
    assert body["output"].strip() == "(333, 444) Size(width=1280, height=800)"
    assert desktop.get("/cursor_position").json() == [333, 444]


def test_accessibility_tree_is_osworld_shaped(desktop):
    t0 = time.monotonic()
    r = desktop.get("/accessibility")
    took = time.monotonic() - t0
    assert r.status_code == 200 and r.headers["Content-Type"] == "application/json"
    xml = r.json()["AT"]
    assert xml.startswith("<desktop-frame ") and f'xmlns:st="{ST}"' in xml
    root = ET.fromstring(xml)
    apps = [a for a in root if a.tag == "application"]
    assert any(a.get("name") == "zenity" for a in apps)
    dialog = next(e for e in root.iter("dialog") if e.get("name") == WINDOW)
    assert dialog.get(f"{{{ST}}}showing") == "true" and dialog.get(f"{{{ST}}}visible") == "true"
    # where X itself says the window is (xdotool), as OSWorld writes it: "(x, y)", "(w, h)"
    geo = desktop.execute(f"xdotool search --name '^{WINDOW}$' getwindowgeometry --shell", shell=True).json()
    g = dict(line.split("=", 1) for line in geo["output"].split())
    assert dialog.get(f"{{{CP}}}screencoord") == f"({g['X']}, {g['Y']})"
    assert dialog.get(f"{{{CP}}}size") == f"({g['WIDTH']}, {g['HEIGHT']})"
    labels = [e for e in dialog.iter("label") if e.get("name") == "Hello from the control API test"]
    assert labels and labels[0].text == "Hello from the control API test"  # the Text interface's text
    assert root.get("truncated") is None
    print(f"accessibility: {len(xml)} chars, {sum(1 for _ in root.iter())} nodes, {took * 1000:.0f} ms")
    # Limits: one node only -> cut, and the root says so.
    small = ET.fromstring(desktop.get("/accessibility", params={"max_nodes": 1}).json()["AT"])
    assert small.get("truncated") == "nodes" and sum(1 for _ in small.iter()) == 2
    assert desktop.get("/accessibility", params={"max_nodes": "lots"}).status_code == 400


def test_terminal_without_a_terminal(desktop):
    assert desktop.get("/terminal").json() == {"output": None, "status": "success"}


def test_file_reads_bytes_and_404s(desktop):
    data = os.urandom(300_000) + b"\x00end"
    p = desktop.home / "Documents" / "report ü.bin"
    p.parent.mkdir(exist_ok=True)
    p.write_bytes(data)
    r = desktop.post("/file", data={"file_path": str(p)})  # urlencoded, as OSWorld's client sends it
    assert r.status_code == 200 and r.content == data
    assert "attachment" in r.headers["Content-Disposition"]
    r = desktop.post("/file", files={"file_path": (None, "~/Documents/report ü.bin")})  # multipart, ~ expanded
    assert r.status_code == 200 and r.content == data
    r = desktop.post("/file", data={"file_path": str(desktop.home / "missing.txt")})
    assert r.status_code == 404 and r.json()["error"] == "File not found"
    r = desktop.post("/file", data={"file_path": "relative/path.txt"})
    assert r.status_code == 400 and "absolute" in r.json()["message"]
    r = desktop.post("/file", data={})
    assert r.status_code == 400 and "file_path is required" in r.json()["message"]
    assert desktop.post("/file", data={"file_path": str(desktop.home)}).status_code == 400


def test_upload_writes_the_file_in_place(desktop):
    data = os.urandom(3 << 20)
    target = desktop.home / "Downloads" / "new" / "upload.bin"
    r = desktop.post(
        "/setup/upload",
        data={"file_path": str(target)},
        files={"file_data": ("upload.bin", data, "application/octet-stream")},
    )
    assert r.status_code == 200 and r.text == "File Uploaded"
    assert hashlib.sha256(target.read_bytes()).hexdigest() == hashlib.sha256(data).hexdigest()
    # file_data before file_path (spooled first), replacing the file
    body = (
        b'--XyZ\r\nContent-Disposition: form-data; name="file_data"; filename="a"\r\n\r\n'
        + b"second"
        + b'\r\n--XyZ\r\nContent-Disposition: form-data; name="file_path"\r\n\r\n'
        + str(target).encode()
        + b"\r\n--XyZ--\r\n"
    )
    r = requests.post(
        desktop.url + "/setup/upload",
        data=body,
        headers={"Content-Type": "multipart/form-data; boundary=XyZ"},
        timeout=30,
    )
    assert r.status_code == 200 and target.read_bytes() == b"second"
    assert sorted(p.name for p in target.parent.iterdir()) == ["upload.bin"]  # no temporary files left
    # bad input: nothing written, nothing left behind
    bad = desktop.home / "Downloads" / "bad.bin"
    r = desktop.post("/setup/upload", data={"file_path": str(bad)})
    assert r.status_code == 400 and "file_data" in r.json()["message"]
    r = desktop.post("/setup/upload", data={"file_path": "rel.bin"}, files={"file_data": ("x", b"x")})
    assert r.status_code == 400
    cut = (
        b'--XyZ\r\nContent-Disposition: form-data; name="file_path"\r\n\r\n'
        + str(target).encode()
        + b'\r\n--XyZ\r\nContent-Disposition: form-data; name="file_data"; filename="a"\r\n\r\n'
        + b"third, cut short" * 1000
    )  # no closing boundary: a client that died mid-upload
    r = requests.post(
        desktop.url + "/setup/upload",
        data=cut,
        headers={"Content-Type": "multipart/form-data; boundary=XyZ"},
        timeout=30,
    )
    assert r.status_code == 400 and "boundary" in r.json()["message"]
    assert target.read_bytes() == b"second" and not bad.exists()
    assert sorted(p.name for p in target.parent.iterdir()) == ["upload.bin"]
    # over the 512 MB cap: refused from the header, before any byte of it is read
    c = http.client.HTTPConnection(*desktop.url.removeprefix("http://").split(":"), timeout=30)
    c.putrequest("POST", "/setup/upload")
    c.putheader("Content-Type", "multipart/form-data; boundary=XyZ")
    c.putheader("Content-Length", str(600 << 20))
    c.endheaders()
    resp = c.getresponse()
    assert resp.status == 413 and "limit" in json.loads(resp.read())["message"]
    c.close()


def test_open_file_waits_for_its_window(desktop):
    doc = desktop.home / "Documents" / "notes-for-open.txt"
    doc.parent.mkdir(exist_ok=True)
    doc.write_text("hello\n")
    r = desktop.post("/setup/open_file", json={"path": "~/Documents/notes-for-open.txt", "timeout": 30})
    assert r.status_code == 200 and "opened" in r.text
    desktop.wait_window("Opened notes-for-open.txt")
    r = desktop.post("/setup/open_file", json={"path": str(desktop.home / "nope.txt")})
    assert r.status_code == 404
    r = desktop.post("/setup/open_file", json={"path": "Documents/x.txt"})
    assert r.status_code == 400
    r = desktop.post("/setup/open_file", json={})
    assert r.status_code == 400


def test_execute_with_verification(desktop):
    r = desktop.post(
        "/execute_with_verification", json={"command": ["true"], "verification": {"window_exists": WINDOW.lower()}}
    )
    assert r.status_code == 200 and r.json()["verification"] == "passed"
    r = desktop.post(
        "/execute_with_verification",
        json={
            "command": "echo hi",
            "shell": True,
            "max_wait_time": 1,
            "check_interval": 0.2,
            "verification": {"command_success": "false"},
        },
    )
    assert r.status_code == 500
    assert r.json()["status"] == "verification_failed" and r.json()["output"] == "hi\n"


def test_health_follows_the_apps(desktop):
    r = desktop.get("/health")  # nothing listening where nginx should be
    assert r.status_code == 503
    body = r.json()
    assert body["status"] == "unhealthy" and body["apps"] == {"bank": None, "mail": None}
    assert set(body["failing"]) == {"bank", "mail"}
    srv = desktop.nginx
    srv.server_activate()
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    srv._serving = True
    r = desktop.get("/health")
    assert r.status_code == 200, r.text
    assert r.json() == {"status": "ok", "apps": {"bank": 307, "mail": 200}, "warm": False}  # a 307 to /login is healthy
    (desktop.guest_json.parent / "warm.json").write_text("{}")  # what persona-warm.service writes when done
    assert desktop.get("/health").json()["warm"] is True
    desktop.guest_json.write_text(
        json.dumps({"apps": [{"name": "bank", "domain": "bank.test"}, {"name": "broken", "domain": "broken.test"}]})
    )
    r = desktop.get("/health")
    assert r.status_code == 503
    assert r.json()["apps"] == {"bank": 307, "broken": 502} and list(r.json()["failing"]) == ["broken"]


def _server_module():
    import importlib.util

    sys.path.insert(0, str(SERVER_DIR))
    try:
        spec = importlib.util.spec_from_file_location("persona_control_server", SERVER)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(str(SERVER_DIR))


def test_default_bind_is_the_default_route_address():
    """The address it binds without --bind: the IPv4 address of the interface with the default route."""
    srv = _server_module()
    iface = srv.default_route_interface()
    if iface is None or shutil.which("ip") is None:
        pytest.skip("this host has no IPv4 default route (or no ip tool) to compare with")
    out = subprocess.run(["ip", "-o", "-4", "addr", "show", "dev", iface], capture_output=True, text=True).stdout
    addrs = re.findall(r"inet (\d+\.\d+\.\d+\.\d+)/", out)
    assert srv.interface_ipv4(iface) in addrs
    assert srv.guest_address(1) == srv.interface_ipv4(iface)
    assert srv.interface_ipv4("no-such-if0") is None
    assert srv.default_route_interface("/nonexistent") is None


def test_refuses_to_listen_everywhere():
    r = subprocess.run(
        [SYSTEM_PYTHON, str(SERVER), "--bind", "0.0.0.0", "--port", str(_free_port())],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert r.returncode == 2 and "refusing to listen on every address" in r.stderr


def test_http_level_errors_are_json(desktop):
    c = http.client.HTTPConnection(*desktop.url.removeprefix("http://").split(":"), timeout=10)
    c.request("BREW", "/screenshot")
    r = c.getresponse()
    assert r.status == 501 and json.loads(r.read())["status"] == "error"
    c.close()
    # keep-alive: several calls on one connection stay in step, a refused body included
    with requests.Session() as s:
        assert s.get(desktop.url + "/platform", timeout=10).text == "Linux"
        assert s.post(desktop.url + "/nope", data=b"x" * 5000, timeout=10).status_code == 404
        assert s.post(desktop.url + "/execute", data=b"x" * (3 << 20), timeout=10).status_code == 413
        assert s.post(desktop.url + "/execute", json={"command": ["echo", "1"]}, timeout=10).json()["output"] == "1\n"


def test_window_endpoints(desktop):
    title = "Persona Close Test"
    assert (
        desktop.post(
            "/setup/launch", json={"command": f"zenity --info --title '{title}' --text bye", "shell": True}
        ).status_code
        == 200
    )
    desktop.wait_window(title)
    r = desktop.post("/window_size", data={"app_class_name": "zenity"})
    assert r.status_code == 200 and set(r.json()) == {"width", "height"} and r.json()["width"] > 0
    assert desktop.post("/window_size", data={"app_class_name": "no-such-class"}).status_code == 404
    r = desktop.post("/setup/activate_window", json={"window_name": title.upper()})
    assert r.status_code == 200
    assert (
        desktop.post("/setup/activate_window", json={"window_name": title.upper(), "strict": True}).status_code == 404
    )
    assert desktop.post("/setup/close_window", json={"window_name": "no such window"}).status_code == 404
    r = desktop.post("/setup/close_window", json={"window_name": title, "strict": True})
    assert r.status_code == 200
    desktop.wait_window(title, present=False)
    desktop.wait_window(WINDOW)


STUBBORN = """
import sys, time
from Xlib import X, display
d = display.Display()
s = d.screen()
w = s.root.create_window(50, 50, 300, 200, 0, s.root_depth, X.InputOutput, X.CopyFromParent,
                         background_pixel=s.white_pixel)
w.set_wm_name(sys.argv[1])  # no WM_PROTOCOLS: a WM_DELETE_WINDOW is never acted on
w.map()
d.sync()
while True:
    d.next_event()
"""


def test_close_window_says_when_the_window_stays(desktop, tmp_path):
    """A window that ignores the close request is reported as still open (500 naming it), never as closed."""
    title = "Persona Stubborn Window"
    script = tmp_path / "stubborn.py"
    script.write_text(STUBBORN)
    proc = subprocess.Popen([SYSTEM_PYTHON, str(script), title], env=desktop.env)
    try:
        end = time.monotonic() + 30
        while desktop.post("/setup/activate_window", json={"window_name": title}).status_code != 200:
            assert time.monotonic() < end and proc.poll() is None, "the stubborn window never appeared"
            time.sleep(0.3)
        t0 = time.monotonic()
        r = desktop.post("/setup/close_window", json={"window_name": title, "timeout": 2})
        assert r.status_code == 500, r.text
        assert r.json()["windows"] == [title] and "still open after 2 s" in r.json()["message"]
        assert 2 <= time.monotonic() - t0 < 10
        assert proc.poll() is None  # it is still there
        assert desktop.post("/setup/close_window", json={"window_name": title, "timeout": "x"}).status_code == 400
    finally:
        proc.kill()
        proc.wait(10)


def test_wallpaper_round_trip(desktop):
    """/setup/change_wallpaper sets xfdesktop's backdrop through xfconf; /wallpaper gives that image back."""
    _need("xfconf-query", "xrandr")
    from PIL import Image

    r = desktop.post("/wallpaper")
    assert r.status_code == 404 and r.json()["message"].startswith("File not found"), r.text  # none set yet
    img = desktop.home / "Pictures" / "beach.png"
    img.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (64, 40), (20, 120, 200)).save(img)
    r = desktop.post("/setup/change_wallpaper", json={"path": "~/Pictures/beach.png"})
    assert (r.status_code, r.text) == (200, "Wallpaper changed successfully"), r.text
    got = desktop.post("/wallpaper")
    assert got.status_code == 200 and got.content == img.read_bytes()
    assert got.headers["Content-Type"] == "image/png"
    assert desktop.get("/wallpaper").content == img.read_bytes()
    props = desktop.execute(["xfconf-query", "-c", "xfce4-desktop", "-l", "-v"]).json()["output"]
    lines = [ln.split() for ln in props.splitlines() if "/last-image" in ln]
    assert lines and all(v == str(img) for _, v in lines), props
    assert lines[0][0].startswith("/backdrop/screen0/monitor") and lines[0][0].endswith("/workspace0/last-image")
    assert desktop.post("/setup/change_wallpaper", json={}).status_code == 400
    assert desktop.post("/setup/change_wallpaper", json={"path": "~/Pictures/none.png"}).status_code == 404
    assert desktop.post("/wallpaper").content == img.read_bytes()  # a refused change changed nothing


def test_accessibility_leaves_out_what_is_off_screen(desktop):
    """A window moved wholly below the screen (as an auto-hidden panel) is not in the tree an agent gets; the
    root counts what was left out and ?all=1 shows it, with its position below the screen's 800 rows."""
    title = "Persona Offscreen Test"
    assert desktop.post("/setup/launch", json={"command": ["zenity", "--info", "--title", title]}).status_code == 200
    desktop.wait_window(title)
    r = desktop.execute(f"xdotool search --name '^{title}$' windowmove --sync 100 1500", shell=True)
    assert r.json()["returncode"] == 0, r.text
    try:
        desktop.wait_window(title, present=False)
        root = desktop.tree()
        assert int(root.get("hidden")) >= 1
        assert any(e.get("name") == WINDOW for e in root.iter("dialog"))  # what is on the screen stays
        full = ET.fromstring(desktop.get("/accessibility", params={"all": "1"}).json()["AT"])
        assert full.get("hidden") is None
        moved = next(e for e in full.iter("dialog") if e.get("name") == title)
        x, y = (int(v) for v in re.findall(r"-?\d+", moved.get(f"{{{CP}}}screencoord")))
        assert y >= 800, moved.attrib
    finally:
        assert desktop.post("/setup/close_window", json={"window_name": title, "strict": True}).status_code == 200


def test_list_directory_run_python_run_bash(desktop):
    base = desktop.home / "tree"
    (base / "a" / "b").mkdir(parents=True)
    (base / "a" / "f.txt").write_text("x")
    r = desktop.post("/list_directory", json={"path": str(base)})
    assert r.json() == {
        "directory_tree": {
            "type": "directory",
            "name": "tree",
            "children": [
                {
                    "type": "directory",
                    "name": "a",
                    "children": [{"type": "directory", "name": "b", "children": []}, {"type": "file", "name": "f.txt"}],
                }
            ],
        }
    }
    assert desktop.post("/list_directory", json={"path": "tree"}).status_code == 400
    r = desktop.post("/run_python", json={"code": "import sys; print('out'); print('err', file=sys.stderr)"})
    body = r.json()
    assert (r.status_code, body["status"], body["output"], body["error"], body["return_code"]) == (
        200,
        "success",
        "out\n",
        "err\n",
        0,
    )
    r = desktop.post("/run_python", json={"code": "raise SystemExit(4)"})
    assert r.json()["status"] == "error" and r.json()["return_code"] == 4
    r = desktop.post("/run_bash_script", json={"script": "pwd\necho err >&2\nexit 5", "working_dir": str(base)})
    assert r.json() == {"status": "error", "output": f"{base}\nerr\n", "error": "", "returncode": 5}
    assert desktop.post("/run_bash_script", json={"script": ""}).status_code == 400


def test_firefox_episode_through_the_tree(desktop, tmp_path):
    """OSWorld-style step on Firefox: find a link in /accessibility, click it, see the next page's title."""
    ff = shutil.which("firefox-esr") or shutil.which("firefox")
    if ff is None:
        pytest.skip("needs firefox-esr")
    (tmp_path / "two.html").write_text("<!doctype html><title>Second Page</title><p>arrived</p>")
    (tmp_path / "one.html").write_text(
        '<!doctype html><title>First Page</title><h1>Bank</h1><p><a href="two.html">Go to the second page</a></p>'
    )
    (tmp_path / "profile").mkdir()
    env = {**desktop.env, "GNOME_ACCESSIBILITY": "1", "HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [ff, "--no-remote", "--profile", str(tmp_path / "profile"), (tmp_path / "one.html").as_uri()],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        end = time.monotonic() + 90
        link = None
        while link is None:
            assert time.monotonic() < end, "Firefox's page never showed in the accessibility tree"
            root = desktop.tree()
            link = next(
                (
                    e
                    for e in root.iter("link")
                    if e.get("name") == "Go to the second page" and e.get(f"{{{CP}}}screencoord")
                ),
                None,
            )
            if link is not None:  # laid out yet? (Firefox reports (-1, -1) before the first paint)
                x, y = (int(v) for v in re.findall(r"-?\d+", link.get(f"{{{CP}}}screencoord")))
                w, h = (int(v) for v in re.findall(r"-?\d+", link.get(f"{{{CP}}}size")))
                if min(x, y) < 0 or min(w, h) <= 0:
                    link = None
            time.sleep(0.5)
        assert any(a.get("name") == "Firefox" for a in root if a.tag == "application")
        before = desktop.get("/screenshot").content
        r = desktop.execute(f"xdotool mousemove {x + w // 2} {y + h // 2} click 1", shell=True)
        assert r.json()["returncode"] == 0, (x, y, w, h, r.text)
        while True:
            assert time.monotonic() < end, "the click did not open the second page"
            frames = [e.get("name") or "" for e in desktop.tree().iter("frame")]
            if any(f.startswith("Second Page") for f in frames):
                break
            time.sleep(0.5)
        assert desktop.get("/screenshot").content != before
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def _python313() -> str | None:
    """A working Python 3.13 (Debian 13's python3 version), or None."""
    cands = [str(p) for p in sorted(Path.home().glob(".pyenv/versions/3.13*/bin/python3.13"))]
    cands += [c for c in (shutil.which("python3.13"),) if c]
    for c in cands:
        r = subprocess.run(
            [c, "-c", "import sys; print(sys.version_info[:2] == (3, 13))"], capture_output=True, text=True, timeout=30
        )
        if r.stdout.strip() == "True":
            return c
    return None


def test_guest_python_and_missing_parts(tmp_path):
    """Under Python 3.13 (the guest's; no cgi module) and without PIL/Xlib/pyatspi the server still
    starts, the stdlib endpoints work and the others answer 500 naming the missing package."""
    py = _python313()
    if py is None:
        pytest.skip("no python3.13 on this host")
    have = subprocess.run(
        [
            py,
            "-I",
            "-c",
            "import importlib.util as u; print([m for m in ('PIL', 'Xlib', 'pyatspi') if u.find_spec(m)])",
        ],
        capture_output=True,
        text=True,
        timeout=30,
    ).stdout.strip()
    if have != "[]":
        pytest.skip(f"{py} has {have}: cannot show the missing-package answers")
    port = _free_port()
    log = open(tmp_path / "server.log", "wb")
    srv = subprocess.Popen(
        [
            py,
            "-I",
            str(SERVER),
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--guest-json",
            str(tmp_path / "none.json"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=log,
        env={"PATH": os.environ["PATH"], "HOME": str(tmp_path), "DISPLAY": ":99"},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + 20
        while True:
            try:
                if requests.get(url + "/platform", timeout=2).text == "Linux":
                    break
            except requests.ConnectionError:
                pass
            assert srv.poll() is None and time.monotonic() < end, (tmp_path / "server.log").read_text()
            time.sleep(0.1)
        for path, package in (
            ("/screenshot", "python3-pil"),
            ("/cursor_position", "python3-xlib"),
            ("/screen_size", "python3-xlib"),
            ("/accessibility", "python3-pyatspi"),
        ):
            r = requests.get(url + path, timeout=30)
            assert r.status_code == 500 and package in r.json()["message"], (path, r.text)
        r = requests.post(url + "/execute", json={"command": "echo hi", "shell": True}, timeout=30)
        assert r.json()["output"] == "hi\n"
        r = requests.post(
            url + "/setup/upload",
            data={"file_path": str(tmp_path / "u.txt")},
            files={"file_data": ("u", b"guest")},
            timeout=30,
        )
        assert r.status_code == 200 and (tmp_path / "u.txt").read_bytes() == b"guest"
        r = requests.get(url + "/health", timeout=30)
        assert r.status_code == 503 and "none.json" in r.json()["error"]
    finally:
        srv.terminate()
        srv.wait(10)
        log.close()
    assert "Traceback" not in (tmp_path / "server.log").read_text()
