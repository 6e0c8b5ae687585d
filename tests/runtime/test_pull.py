"""pull-image against a real nginx on 127.0.0.1: resume over HTTP Range after 20 killed pulls,
automatic retries after cut connections, corruption, servers ignoring Range, the cache, locks,
bad input, publish -> pull round trips through a file:// index, and hf:// through HF_ENDPOINT.

nginx (Debian's package) is started by the tests themselves with a config in a temporary folder;
every test skips with the reason when it is not installed.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from builder.runtime import pull as P

REPO = Path(__file__).resolve().parents[2]
MiB = 1 << 20
BIG = 128 * MiB
SMALL = 16 * MiB
SLOW_RATE = "32m"  # nginx limit_rate for /slow/: 128 MiB take ~4 s, long enough to cut 20 times
NGINX = shutil.which("nginx", path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (apt-get install nginx)")

LOG_RE = re.compile(r'^(\S+) (\S+) (\d{3}) "([^"]*)" (\d+)$')


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"nginx exited: {log.read_text() if log.exists() else ''}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError("nginx did not listen in 15 s")


class Site:
    """The served tree, its nginx, and the access log (method, uri, status, range, bytes)."""

    def __init__(self, root: Path, port: int, log: Path, big: bytes, small: bytes):
        self.root, self.port, self.log = root, port, log
        self.base = f"http://127.0.0.1:{port}"
        self.index = f"{self.base}/index.json"
        self.big, self.small = big, small
        self.big_sha, self.small_sha = _sha(big), _sha(small)

    def requests(self, uri: str | None = None) -> list[tuple[str, str, int, str, int]]:
        rows = []
        for line in self.log.read_text().splitlines():
            m = LOG_RE.match(line)
            if m and (uri is None or m.group(2) == uri):
                rows.append((m.group(1), m.group(2), int(m.group(3)), m.group(4), int(m.group(5))))
        return rows

    def wait_requests(self, uri: str, count: int, timeout: float = 10) -> list:
        """nginx logs a request when its connection ends: wait for ``count`` of them."""
        deadline = time.monotonic() + timeout
        while len(rows := self.requests(uri)) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return rows

    def view(self, token: str) -> View:
        return View(self, token)


class View:
    """The site under ``/u/<token>/`` (same files), so each test reads only its own log lines."""

    def __init__(self, site: Site, token: str):
        self.site, self.prefix = site, f"/u/{token}"
        self.base = site.base + self.prefix
        self.index = f"{self.base}/index.json"

    def rows(self, rel: str, count: int = 0) -> list[tuple[str, str, int, str, int]]:
        """Log lines for ``rel`` (waiting until there are ``count``): (method, uri, status, range, bytes)."""
        return self.site.wait_requests(f"{self.prefix}/{rel}", count)

    def settled_rows(self, rel: str, count: int) -> list:
        """Exactly the lines so far, after waiting for ``count`` and a moment for stragglers."""
        self.rows(rel, count)
        time.sleep(0.3)
        return self.rows(rel)


def _spec(data: bytes, url: str) -> dict:
    return {"url": url, "size": len(data), "sha256": _sha(data)}


def _git_blob_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    base = tmp_path_factory.mktemp("nginx")
    root = base / "www"
    big = random.Random(20261201).randbytes(BIG)
    small = random.Random(7).randbytes(SMALL)
    bad = bytearray(small)
    bad[random.Random(8).randrange(SMALL)] ^= 0x01  # one flipped bit in one byte
    manifest = json.dumps({"persona": "big", "as_of": "2026-11-16", "seed": 1}).encode()
    tasks = b'{"id": "bank-001"}\n'
    files = {
        "big/persona.qcow2": big,
        "big/manifest.json": manifest,
        "big/tasks/tasks.jsonl": tasks,
        "small/persona.qcow2": small,
        "smallbad/persona.qcow2": bytes(bad),
        "small/manifest.json": manifest.replace(b'"big"', b'"small"'),
        "hf/v1/persona.qcow2": small,
        "hf/v1/manifest.json": manifest,
        "bad.json": b'{"format": 1, "images": [',
    }
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)

    def entry(persona, tag, qcow2_url, data, mf=manifest, folder="big"):
        return {
            "persona": persona,
            "tag": tag,
            "as_of": "2026-11-16",
            "created": "2026-12-01T10:00:00Z",
            "qcow2": _spec(data, qcow2_url),
            "manifest": _spec(mf, f"{folder}/manifest.json"),
            "tasks": _spec(tasks, "big/tasks/tasks.jsonl"),
        }

    small_mf = files["small/manifest.json"]
    index = {
        "format": 1,
        "images": [
            entry("big", "latest", "slow/big/persona.qcow2", big),
            entry("big", "fast", "big/persona.qcow2", big),
            entry("big", "norange", "norange/big/persona.qcow2", big),
            entry("big", "turns", "slow/big/persona.qcow2", big),
            entry("big", "full", "big/persona.qcow2", big),
            entry("big", "tamper", "big/persona.qcow2", big),
            entry("small", "latest", "small/persona.qcow2", small, small_mf, "small"),
            entry("small", "corrupt", "smallbad/persona.qcow2", small, small_mf, "small"),
        ],
    }
    (root / "index.json").write_text(json.dumps(index))

    # what huggingface_hub's get_paths_info gets from the hub (POST /api/models/<repo>/paths-info/<rev>)
    paths_info = json.dumps(
        [
            {
                "type": "file",
                "path": "v1/persona.qcow2",
                "size": SMALL,
                "oid": _git_blob_sha1(small),
                "lfs": {"size": SMALL, "oid": _sha(small), "pointerSize": 134},
            },
            {"type": "file", "path": "v1/manifest.json", "size": len(manifest), "oid": _git_blob_sha1(manifest)},
        ]
    )
    port = _free_port()
    log, err = base / "access.log", base / "error.log"
    (base / "temp").mkdir()
    conf = base / "nginx.conf"
    conf.write_text(f"""
{"user root;" if os.geteuid() == 0 else ""}
daemon off;
worker_processes 1;
pid {base}/nginx.pid;
error_log {err} info;
events {{ worker_connections 128; }}
http {{
  log_format pull '$request_method $uri $status "$http_range" $body_bytes_sent';
  access_log {log} pull;
  default_type application/octet-stream;
  types {{ application/json json; }}
  client_body_temp_path {base}/temp/body;
  proxy_temp_path {base}/temp/proxy;
  fastcgi_temp_path {base}/temp/fastcgi;
  uwsgi_temp_path {base}/temp/uwsgi;
  scgi_temp_path {base}/temp/scgi;
  sendfile on;
  server {{
    listen 127.0.0.1:{port};
    root {root};
    location ~ ^/u/[^/]+/slow/(.*)$ {{ alias {root}/$1; limit_rate {SLOW_RATE}; }}
    location ~ ^/u/[^/]+/norange/(.*)$ {{ alias {root}/$1; max_ranges 0; }}
    location ~ ^/u/[^/]+/(.*)$ {{ alias {root}/$1; }}
    location = /api/models/acme/dana-image/paths-info/main {{
      default_type application/json;
      return 200 '{paths_info}';
    }}
    location /acme/dana-image/resolve/main/ {{ alias {root}/hf/; }}
  }}
}}
""")
    proc = subprocess.Popen(
        [NGINX, "-c", str(conf), "-p", str(base)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        _wait_port(port, proc, err)
        yield Site(root, port, log, big, small)
    finally:
        proc.send_signal(signal.SIGQUIT)  # graceful stop
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(autouse=True)
def _drop_big_files(tmp_path):
    """Each test leaves up to 128 MiB images in its tmp_path and pytest keeps three runs: drop them."""
    yield
    for p in tmp_path.rglob("*"):
        if p.is_file() and p.stat().st_size > MiB:
            p.unlink()


def _cli(*args: str, env: dict | None = None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "builder.runtime.pull", *args],
        cwd=REPO,
        capture_output=True,
        check=False,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
        **kw,
    )


def _popen(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "builder.runtime.pull", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _one_error_line(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 1, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pull-image: error: "), r.stderr
    return lines[0]


def _no_files_under_final_names(folder: Path) -> list[str]:
    return (
        sorted(
            p.name
            for p in folder.rglob("*")
            if p.is_file() and not p.name.startswith(".") and not p.name.endswith(".part")
        )
        if folder.exists()
        else []
    )


# ---------------------------------------------------------------- resume


def test_twenty_killed_pulls_resume_over_range(site, tmp_path):
    """SIGKILL a real pull-image process 20 times at seeded random points; every restart asks
    nginx for exactly the missing bytes (206 with Range: bytes=<partial size>-) and the result
    hashes to the served file."""
    v = site.view("twenty")
    cache = tmp_path / "cache"
    folder = cache / "big" / "latest"
    part = folder / "persona.qcow2.part"
    rng = random.Random(9)
    cuts = sorted(rng.sample(range(2, BIG // MiB - 16), 20))  # the last cut leaves 0.5 s to spare
    cuts = [c * MiB + rng.randrange(MiB) for c in cuts]
    sizes_after_kill = []
    t0 = time.monotonic()
    for cut in cuts:
        start = part.stat().st_size if part.exists() else 0
        target = max(cut, start + 1)
        proc = _popen("big", "--index", v.index, "--cache-dir", str(cache))
        try:
            while True:
                try:
                    size = part.stat().st_size
                except FileNotFoundError:
                    size = 0
                if size >= target:
                    break
                assert proc.poll() is None, f"pull finished before cut at {target}: {proc.stderr.read()}"
                time.sleep(0.002)
        finally:
            proc.kill()
            proc.wait()
        sizes_after_kill.append(part.stat().st_size)
        assert not (folder / "persona.qcow2").exists()
    r = _cli("big", "--index", v.index, "--cache-dir", str(cache))
    elapsed = time.monotonic() - t0
    assert r.returncode == 0, r.stderr
    qcow2 = folder / "persona.qcow2"
    assert r.stdout.strip() == str(qcow2)
    assert hashlib.sha256(qcow2.read_bytes()).hexdigest() == site.big_sha
    assert not part.exists()
    assert sizes_after_kill == sorted(sizes_after_kill) and len(set(sizes_after_kill)) == 20

    rows = v.settled_rows("slow/big/persona.qcow2", 21)
    assert len(rows) == 21
    assert rows[0][2:4] == (200, "-")
    assert [(status, rng_) for _, _, status, rng_, _ in rows[1:]] == [(206, f"bytes={s}-") for s in sizes_after_kill]
    # the 21 responses together carried the file once, plus whatever a killed client had not yet read
    assert sum(r[4] for r in rows) >= BIG
    print(
        f"\n20 kills at {[round(s / MiB, 1) for s in sizes_after_kill]} MiB; {BIG // MiB} MiB pulled "
        f"in {elapsed:.1f} s in 21 processes"
    )


class CuttingProxy:
    """A TCP proxy on 127.0.0.1 in front of nginx that closes chosen connections of the qcow2
    after a number of response bytes (``cuts``: one entry per connection, None = let it through)."""

    def __init__(self, upstream_port: int, cuts: list[int | None]):
        self.upstream, self.cuts = upstream_port, list(cuts)
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.cut_count = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(client,), daemon=True).start()

    def _one(self, client: socket.socket) -> None:
        with client, socket.create_connection(("127.0.0.1", self.upstream)) as up:
            head = b""
            while b"\r\n\r\n" not in head:
                data = client.recv(65536)
                if not data:
                    return
                head += data
            limit = self.cuts.pop(0) if b"persona.qcow2" in head.split(b"\r\n")[0] and self.cuts else None
            up.sendall(head)
            sent = 0
            while True:
                data = up.recv(65536)
                if not data:
                    return
                if limit is not None and sent + len(data) >= limit:
                    client.sendall(data[: max(0, limit - sent)])
                    self.cut_count += 1
                    client.shutdown(socket.SHUT_RDWR)
                    return
                client.sendall(data)
                sent += len(data)

    def close(self) -> None:
        self.sock.close()


def test_cut_connections_resume_automatically(site, tmp_path):
    """Connections cut mid-body at three random points: one pull() resumes by itself (Range).

    A plain URL pull through the proxy, so that every proxied connection carries one image request."""
    rng = random.Random(11)
    cuts = sorted(rng.sample(range(MiB, BIG - MiB), 3))
    cuts = [b - a for a, b in zip([0, *cuts[:-1]], cuts, strict=True)]  # per-connection byte budgets
    proxy = CuttingProxy(site.port, cuts)
    v = site.view("cuts")
    try:
        result = P.pull(
            f"http://127.0.0.1:{proxy.port}{v.prefix}/big/persona.qcow2",
            sha256=site.big_sha,
            cache_dir=tmp_path,
            backoff=0.01,
        )
    finally:
        proxy.close()
    assert proxy.cut_count == 3
    t = result.transfers["persona.qcow2"]
    assert t.retries == 3 and t.restarts == 0
    assert hashlib.sha256(result.qcow2.read_bytes()).hexdigest() == site.big_sha
    rows = v.settled_rows("big/persona.qcow2", 4)
    assert [r[2] for r in rows] == [200, 206, 206, 206]
    assert all(r[3].startswith("bytes=") for r in rows[1:])


def test_gives_up_after_retries_then_a_second_pull_resumes(site, tmp_path):
    """Every connection after the first 5 MiB is cut at once: pull gives up with a clear line and
    keeps the partial file; the next pull (straight to nginx: the URL cache is content-addressed,
    so another URL of the same bytes continues it) resumes with a Range request."""
    proxy = CuttingProxy(site.port, [5 * MiB] + [0] * 10)
    v = site.view("giveup")
    try:
        with pytest.raises(
            P.PullError,
            match=r"\(2 retries\); \d+ bytes kept in .*persona\.qcow2\.part, run "
            r"pull-image again to resume",
        ):
            P.pull(
                f"http://127.0.0.1:{proxy.port}{v.prefix}/big/persona.qcow2",
                sha256=site.big_sha,
                cache_dir=tmp_path,
                retries=2,
                backoff=0.01,
            )
    finally:
        proxy.close()
    folder = tmp_path / "_url" / site.big_sha[:16]
    part = folder / "persona.qcow2.part"
    kept = part.stat().st_size
    assert 0 < kept <= 5 * MiB and not (folder / "persona.qcow2").exists()
    assert [r[2] for r in v.settled_rows("big/persona.qcow2", 3)] == [200, 206, 206]  # the first and 2 retries
    direct = site.view("giveup-direct")
    r = _cli(f"{direct.base}/big/persona.qcow2", "--sha256", site.big_sha, "--cache-dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert f"resumed at {kept / MiB:.1f} MiB" in r.stderr
    assert [(x[2], x[3]) for x in direct.settled_rows("big/persona.qcow2", 1)] == [(206, f"bytes={kept}-")]
    assert hashlib.sha256(Path(r.stdout.strip()).read_bytes()).hexdigest() == site.big_sha


# ---------------------------------------------------------------- integrity


def test_corrupted_byte_in_the_served_file_is_rejected(site, tmp_path):
    r = _cli("small:corrupt", "--index", site.view("corrupt").index, "--cache-dir", str(tmp_path))
    bad_sha = _sha((site.root / "smallbad" / "persona.qcow2").read_bytes())
    line = _one_error_line(r)
    assert f"SHA-256 mismatch: expected {site.small_sha}, got {bad_sha}" in line
    assert "partial download was deleted" in line
    folder = tmp_path / "small" / "corrupt"
    assert not (folder / "persona.qcow2").exists() and not (folder / "persona.qcow2.part").exists()
    assert r.stdout == ""


def test_corrupted_byte_in_the_partial_file_is_rejected(site, tmp_path):
    folder = tmp_path / "big" / "fast"
    folder.mkdir(parents=True)
    prefix = bytearray(site.big[: 40 * MiB + 123])
    prefix[random.Random(5).randrange(len(prefix))] ^= 0x80
    (folder / "persona.qcow2.part").write_bytes(prefix)
    v = site.view("badpartial")
    r = _cli("big:fast", "--index", v.index, "--cache-dir", str(tmp_path))
    assert f"expected {site.big_sha}, got " in _one_error_line(r)
    assert not (folder / "persona.qcow2.part").exists() and not (folder / "persona.qcow2").exists()
    assert [(x[2], x[3]) for x in v.settled_rows("big/persona.qcow2", 1)] == [(206, f"bytes={len(prefix)}-")]
    r = _cli("big:fast", "--index", v.index, "--cache-dir", str(tmp_path))  # starts afresh
    assert r.returncode == 0, r.stderr
    assert hashlib.sha256((folder / "persona.qcow2").read_bytes()).hexdigest() == site.big_sha


def test_server_ignoring_range_restarts_from_zero(site, tmp_path):
    folder = tmp_path / "big" / "norange"
    folder.mkdir(parents=True)
    (folder / "persona.qcow2.part").write_bytes(site.big[: 10 * MiB])
    v = site.view("norange")
    r = _cli("big:norange", "--index", v.index, "--cache-dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "restarted (the server ignored Range)" in r.stderr
    rows = v.settled_rows("norange/big/persona.qcow2", 1)
    assert [(x[2], x[3], x[4]) for x in rows] == [(200, f"bytes={10 * MiB}-", BIG)]
    assert hashlib.sha256((folder / "persona.qcow2").read_bytes()).hexdigest() == site.big_sha


# ---------------------------------------------------------------- plain URLs


def test_plain_url_with_sha256(site, tmp_path):
    v = site.view("url")
    url = f"{v.base}/small/persona.qcow2"
    wrong = "0" * 64
    r = _cli(url, "--sha256", wrong, "--cache-dir", str(tmp_path))
    assert f"expected {wrong}, got {site.small_sha}" in _one_error_line(r)
    assert _no_files_under_final_names(tmp_path) == [] and not list(tmp_path.rglob("*.part"))

    assert "64 hex digits" in _one_error_line(_cli(url, "--sha256", "abc", "--cache-dir", str(tmp_path)))
    assert "needs --sha256" in _one_error_line(_cli(url, "--cache-dir", str(tmp_path)))

    r = _cli(url, "--sha256", site.small_sha.upper(), "--cache-dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    path = Path(r.stdout.strip())
    assert path == tmp_path / "_url" / site.small_sha[:16] / "persona.qcow2"
    assert path.read_bytes() == site.small

    # a complete partial file (killed just before the rename): the server says 416, the size fits
    path.unlink()
    path.with_name("persona.qcow2.part").write_bytes(site.small)
    r = _cli(url, "--sha256", site.small_sha, "--cache-dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert [(x[2], x[3]) for x in v.settled_rows("small/persona.qcow2", 3)] == [
        (200, "-"),
        (200, "-"),
        (416, f"bytes={SMALL}-"),
    ]
    assert path.read_bytes() == site.small


# ---------------------------------------------------------------- cache


def test_second_pull_is_instant_and_verify_rehashes(site, tmp_path):
    v = site.view("second")
    r = _cli("big:full", "--index", v.index, "--cache-dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    qcow2 = Path(r.stdout.strip())
    assert qcow2 == tmp_path / "big" / "full" / "persona.qcow2"
    assert (qcow2.parent / "manifest.json").is_file() and (qcow2.parent / "tasks" / "tasks.jsonl").is_file()
    assert len(v.settled_rows("big/persona.qcow2", 1)) == 1
    for extra in ([], ["--verify"]):
        t = time.monotonic()
        r = _cli("big:full", "--index", v.index, "--cache-dir", str(tmp_path), *extra)
        print(f"\nsecond pull {extra}: {time.monotonic() - t:.2f} s")
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == str(qcow2)
        assert ("SHA-256 checked now" if extra else "SHA-256 verified when pulled") in r.stderr
    assert len(v.settled_rows("index.json", 3)) == 3
    assert len(v.rows("big/persona.qcow2")) == 1  # no second request for the image,
    assert len(v.rows("big/manifest.json")) == 1  # nor for the small files


def test_changed_cached_file_is_fetched_again(site, tmp_path):
    r = _cli("big:tamper", "--index", site.view("tamper").index, "--cache-dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    qcow2 = Path(r.stdout.strip())
    with open(qcow2, "r+b") as f:  # same size, one byte changed, so the recorded mtime is stale
        f.seek(BIG // 2)
        f.write(bytes([site.big[BIG // 2] ^ 0xFF]))
    r = _cli("big:tamper", "--index", site.view("tamper").index, "--cache-dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "does not match" in r.stderr and "downloading it again" in r.stderr
    assert hashlib.sha256(qcow2.read_bytes()).hexdigest() == site.big_sha


def test_two_pulls_of_one_image_take_turns(site, tmp_path):
    v = site.view("turns")
    a = _popen("big:turns", "--index", v.index, "--cache-dir", str(tmp_path))
    b = _popen("big:turns", "--index", v.index, "--cache-dir", str(tmp_path))
    outs = [p.communicate(timeout=60) for p in (a, b)]
    assert a.returncode == 0 and b.returncode == 0, outs
    assert outs[0][0] == outs[1][0] == f"{tmp_path / 'big' / 'turns' / 'persona.qcow2'}\n"
    assert any("already in the cache" in err for _, err in outs)
    assert [r[2] for r in v.settled_rows("slow/big/persona.qcow2", 1)] == [200]  # one download, not two


def test_full_disk_is_one_line_and_resumable(site, tmp_path):
    """A file size limit (RLIMIT_FSIZE, EFBIG) stands in for a full disk: one line, the partial
    file is kept, nothing under the final name, and the next pull finishes it."""

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (8 * MiB, 8 * MiB))

    r = subprocess.run(
        [sys.executable, "-m", "builder.runtime.pull", "big:fast", "--index", site.index, "--cache-dir", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        preexec_fn=limit,
        timeout=60,
        check=False,
    )
    line = _one_error_line(r)
    assert "file too large after" in line and "run pull-image again to resume" in line
    folder = tmp_path / "big" / "fast"
    assert not (folder / "persona.qcow2").exists()
    assert (folder / "persona.qcow2.part").stat().st_size == 8 * MiB
    r = _cli("big:fast", "--index", site.index, "--cache-dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "resumed at 8.0 MiB" in r.stderr


# ---------------------------------------------------------------- bad input


def test_bad_input_is_one_line(site, tmp_path):
    cache = ["--cache-dir", str(tmp_path)]
    assert "unknown image 'nobody'" in (line := _one_error_line(_cli("nobody", "--index", site.index, *cache)))
    assert line.endswith("it lists: big, small")
    assert "its tags: corrupt, latest" in _one_error_line(_cli("small:v9", "--index", site.index, *cache))
    assert "bad tag" in _one_error_line(_cli("small:../x", "--index", site.index, *cache))
    assert "bad image name" in _one_error_line(_cli("..", "--index", site.index, *cache))
    assert "looks like a path" in _one_error_line(_cli("../etc", "--index", site.index, *cache))
    assert "unsupported URL scheme 'ftp'" in _one_error_line(_cli("ftp://127.0.0.1/x.qcow2", *cache))
    dead = f"http://127.0.0.1:{_free_port()}/index.json"
    assert "unreachable: Connection refused" in _one_error_line(_cli("big", "--index", dead, *cache))
    assert "HTTP 404" in _one_error_line(_cli("big", "--index", f"{site.base}/nope.json", *cache))
    assert "not valid JSON" in _one_error_line(_cli("big", "--index", f"{site.base}/bad.json", *cache))
    assert "no index" in _one_error_line(_cli("big", *cache, env={P.INDEX_ENV: ""}))
    assert not any(tmp_path.iterdir())
    # the env var names the index too
    r = _cli("--list", env={P.INDEX_ENV: site.index})
    assert r.returncode == 0 and "small:corrupt\tas_of 2026-11-16\t16.0 MiB" in r.stdout


def test_index_validation_names_the_field():
    good = {
        "persona": "a",
        "tag": "t",
        "qcow2": {"url": "x.qcow2", "size": 1, "sha256": "a" * 64},
        "manifest": {"url": "m.json", "size": 1, "sha256": "b" * 64},
    }
    entries = P.parse_index({"format": 1, "images": [good]}, "https://example.test/pub/index.json")
    assert entries[0].qcow2.url == "https://example.test/pub/x.qcow2" and entries[0].tasks is None
    for broken, msg in [
        ({**good, "qcow2": {**good["qcow2"], "sha256": "xyz"}}, r"images\[0\]\.qcow2\.sha256"),
        ({**good, "qcow2": {**good["qcow2"], "size": -1}}, r"images\[0\]\.qcow2\.size"),
        ({**good, "tag": "../../etc"}, r"images\[0\]\.tag"),
        ({**good, "manifest": None}, r"images\[0\]\.manifest"),
        ({**good, "qcow2": {**good["qcow2"], "url": "ftp://h/x"}}, r"unsupported scheme"),
    ]:
        with pytest.raises(P.PullError, match=msg):
            P.parse_index({"format": 1, "images": [broken]}, "https://example.test/index.json")
    with pytest.raises(P.PullError, match="listed twice"):
        P.parse_index({"format": 1, "images": [good, good]}, "https://example.test/index.json")
    with pytest.raises(P.PullError, match="not a format 1 index"):
        P.parse_index({"format": 2, "images": []}, "https://example.test/index.json")
    older = {**good, "tag": "2026-01", "created": "2026-01-01T00:00:00Z"}
    newer = {**good, "tag": "2026-02", "created": "2026-02-01T00:00:00Z"}
    es = P.parse_index({"format": 1, "images": [newer, older]}, "https://example.test/index.json")
    assert P.find_entry(es, "a", None).tag == "2026-02"
    es = P.parse_index({"format": 1, "images": [newer, {**older, "tag": "latest"}]}, "https://example.test/i.json")
    assert P.find_entry(es, "a", None).tag == "latest"


# ---------------------------------------------------------------- publish -> pull


def _fake_build(folder: Path, persona: str, seed: int) -> Path:
    (folder / "tasks").mkdir(parents=True)
    (folder / "persona.qcow2").write_bytes(random.Random(seed).randbytes(3 * MiB + seed))
    (folder / "manifest.json").write_text(
        json.dumps(
            {"persona": persona, "as_of": "2026-11-16", "seed": seed, "apps": [{"name": "bank"}, {"name": "mail"}]}
        )
    )
    (folder / "tasks" / "tasks.jsonl").write_text('{"id": "bank-001"}\n')
    return folder


def test_index_entry_publish_pull_round_trip(tmp_path):
    build = _fake_build(tmp_path / "out" / "ann-lee", "ann-lee", 1)
    entry = P.index_entry(build, "https://example.test/img/", "v1")
    assert entry["persona"] == "ann-lee" and entry["tag"] == "v1" and entry["as_of"] == "2026-11-16"
    assert entry["apps"] == ["bank", "mail"]
    assert entry["qcow2"] == {
        "url": "https://example.test/img/persona.qcow2",
        "size": 3 * MiB + 1,
        "sha256": _sha((build / "persona.qcow2").read_bytes()),
    }
    assert entry["tasks"]["url"] == "https://example.test/img/tasks/tasks.jsonl"
    assert P.index_entry(build, "", "v1")["manifest"]["url"] == "manifest.json"

    pub = tmp_path / "pub"
    r = _cli("publish", str(build), "--index", str(pub / "index.json"), "--copy")
    assert r.returncode == 0, r.stderr
    doc = json.loads((pub / "index.json").read_text())
    assert [(e["persona"], e["tag"], e["qcow2"]["url"]) for e in doc["images"]] == [
        ("ann-lee", "latest", "ann-lee/latest/persona.qcow2")
    ]
    assert (pub / "ann-lee" / "latest" / "tasks" / "tasks.jsonl").is_file()

    # a second build published as v2 merges; republishing latest replaces, never duplicates
    build2 = _fake_build(tmp_path / "out2" / "ann-lee", "ann-lee", 2)
    assert _cli("publish", str(build2), "--index", str(pub / "index.json"), "--copy", "--tag", "v2").returncode == 0
    assert _cli("publish", str(build), "--index", str(pub / "index.json"), "--copy").returncode == 0
    doc = json.loads((pub / "index.json").read_text())
    assert [(e["persona"], e["tag"]) for e in doc["images"]] == [("ann-lee", "latest"), ("ann-lee", "v2")]

    cache = tmp_path / "cache"
    r = _cli("ann-lee", "--index", (pub / "index.json").as_uri(), "--cache-dir", str(cache))
    assert r.returncode == 0, r.stderr
    assert Path(r.stdout.strip()).read_bytes() == (build / "persona.qcow2").read_bytes()
    r = _cli("ann-lee:v2", "--index", str(pub / "index.json"), "--cache-dir", str(cache))  # a plain path
    assert r.returncode == 0, r.stderr
    assert Path(r.stdout.strip()).read_bytes() == (build2 / "persona.qcow2").read_bytes()

    assert P.resolve_local("ann-lee", cache) == cache / "ann-lee" / "latest"
    assert P.resolve_local("ann-lee:v2", cache) == cache / "ann-lee" / "v2"
    assert P.resolve_local(str(build)) == build
    with pytest.raises(P.NotPulledError, match=r"ann-lee:v3 is not pulled .*pulled tags: latest, v2"):
        P.resolve_local("ann-lee:v3", cache)
    with pytest.raises(P.NotPulledError, match="run pull-image bob"):
        P.resolve_local("bob", cache)
    with pytest.raises(P.PullError, match="not a finished build folder"):
        P.index_entry(tmp_path / "out", "", "x")


def test_resolve_local_untagged(tmp_path):
    for tag in ("2026-01", "2026-02"):
        (tmp_path / "p" / tag).mkdir(parents=True)
        (tmp_path / "p" / tag / "persona.qcow2").write_bytes(b"x")
        (tmp_path / "p" / tag / "manifest.json").write_text("{}")
    with pytest.raises(P.NotPulledError, match="several pulled tags"):
        P.resolve_local("p", tmp_path)
    (tmp_path / "p" / ".latest").write_text("2026-01\n")
    assert P.resolve_local("p", tmp_path) == tmp_path / "p" / "2026-01"
    (tmp_path / "p" / "2026-01" / "persona.qcow2").rename(tmp_path / "p" / "2026-01" / "persona.qcow2.part")
    assert P.resolve_local("p", tmp_path) == tmp_path / "p" / "2026-02"  # a partial pull is not an image


def test_cache_root_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert P.cache_root() == tmp_path / "persona-desktop" / "images"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert P.cache_root() == tmp_path / "home" / ".cache" / "persona-desktop" / "images"
    assert P.cache_root(tmp_path / "x") == tmp_path / "x"


# ---------------------------------------------------------------- hf://


def test_parse_hf():
    assert P.parse_hf("hf://acme/dana-image/v1/persona.qcow2") == P.HfRef(
        "model", "acme/dana-image", "v1/persona.qcow2", "main"
    )
    assert P.parse_hf("hf://datasets/acme/imgs/persona.qcow2@refs/pr/3") == P.HfRef(
        "dataset", "acme/imgs", "persona.qcow2", "refs/pr/3"
    )
    assert P.parse_hf("hf://acme/imgs@v2/a/b.qcow2") == P.HfRef("model", "acme/imgs", "a/b.qcow2", "v2")
    for bad in (
        "hf://acme",
        "hf://acme/repo",
        "hf://acme/repo/",
        "hf://acme/repo/x@",
        "hf://acme/repo/../x",
        "hf://a/r@v1/x@v2",
    ):
        with pytest.raises(P.PullError, match="bad hf:// reference"):
            P.parse_hf(bad)


def test_hf_pull_through_hf_endpoint(site, tmp_path):
    """huggingface_hub's get_paths_info against nginx standing in for the hub (HF_ENDPOINT): LFS
    sha256 for the qcow2, the git blob id for the small manifest beside it, /resolve/ downloads."""
    pytest.importorskip("huggingface_hub")
    env = {"HF_ENDPOINT": site.base, "HF_HUB_DISABLE_TELEMETRY": "1", "HF_TOKEN": ""}
    r = _cli("hf://acme/dana-image/v1/persona.qcow2", "--cache-dir", str(tmp_path), env=env)
    assert r.returncode == 0, r.stderr
    path = Path(r.stdout.strip())
    assert path == tmp_path / "_hf" / "acme" / "dana-image" / site.small_sha[:16] / "persona.qcow2"
    assert path.read_bytes() == site.small
    assert (path.parent / "manifest.json").read_bytes() == (site.root / "hf" / "v1" / "manifest.json").read_bytes()
    assert not (path.parent / "tasks").exists()  # the repo has none
    site.wait_requests("/acme/dana-image/resolve/main/v1/persona.qcow2", 1)
    time.sleep(0.3)
    assert len(site.requests("/acme/dana-image/resolve/main/v1/persona.qcow2")) == 1
    r = _cli("hf://acme/dana-image/v1/persona.qcow2", "--sha256", "1" * 64, "--cache-dir", str(tmp_path), env=env)
    assert "the hub records" in _one_error_line(r)
    r = _cli("hf://acme/dana-image/v1/persona.qcow2@v9", "--cache-dir", str(tmp_path), env=env)
    assert "hf://acme/dana-image/v1/persona.qcow2@v9" in _one_error_line(r)
