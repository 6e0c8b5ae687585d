"""Running an app's end-to-end tests: the one site build, the default persona's databases, Chromium.

Every app's pytest module calls :func:`run_e2e` with the values its world predicts. The site is
built once per session (:func:`builder.site.build_site`, cached in ``$PERSONA_CACHE/appbuild``,
the same build the base image uses), the default persona's layer once per session; each call
serves a fresh copy of every app database on a free loopback port and runs
``node --test apps/<name>/web/e2e/*.test.mjs`` with ``APP_FACTS``, ``SITE_PORT``,
``APP_ARTIFACTS`` and ``CHROMIUM_PATH`` set (see ``apps/_platform/testing/browser.mjs``).
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from functools import lru_cache
from pathlib import Path

import pytest

from builder.apps import App, discover
from builder.image.boot import free_port
from builder.site import SiteBuild, build_site, serve

from .conftest import REPO

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


def site() -> SiteBuild:
    """The site serving every app, built once (or found in the cache).

    Fails the test when the test running is not marked ``site`` (tests/conftest.py marks the tests that request the
    ``site_build`` fixture), so that no site build slips into the fast lane.
    """
    from .conftest import RUNNING

    if RUNNING and RUNNING[-1].get_closest_marker("site") is None:
        pytest.fail(
            f"{RUNNING[-1].nodeid} builds the site: request the site_build fixture (tests/conftest.py), which marks"
            " it `site` (out of the fast lane)",
            pytrace=False,
        )
    return _site()


@lru_cache(maxsize=None)
def _site() -> SiteBuild:
    assert shutil.which("node"), "Node.js is not installed (scripts/setup-deps.sh installs it)"
    assert (REPO / "apps" / "node_modules" / "next").is_dir(), "run `npm ci` in apps/ (scripts/install.sh does)"
    return build_site(discover())


_LAYERS: dict[tuple[str, tuple[str, ...]], Path] = {}


def layer(world, root: Path, home: bool = True) -> Path:
    """The persona layer of ``world``, built once per test run; returns its folder (read it, do not change it).

    ``root`` is a folder from ``tmp_path_factory.mktemp``. ``home=False`` asks only for the part outside the home
    folder (:func:`builder.layer.write_system`: the apps' databases, ``guest.json``); the home is then added the
    first time a test asks for the whole layer. Under pytest-xdist the layer is built once for all workers in
    their :func:`~tests.conftest.shared_folder`, under :func:`~tests.conftest.locked`: the first worker to ask
    builds it, the others wait and read it. The key is the persona's id plus
    :func:`~tests.conftest.persona_digest`, so two different worlds of one id never share a layer."""
    from builder.layer import write_home, write_system

    from .conftest import locked, persona_digest, shared_folder

    key = f"layer-{world.persona.id}-{persona_digest(world.persona)}"
    parts = ("system", "home") if home else ("system",)
    if (key, parts) not in _LAYERS:
        folder = shared_folder() or root
        dest = folder / key
        with locked(folder, key):
            for part, write in (("system", write_system), ("home", write_home)):
                done = folder / f"{key}.{part}.done"
                if part in parts and not done.exists():
                    # A build that died half-way: start that part again on a clean slate.
                    shutil.rmtree(dest / "home" if part == "home" else dest, ignore_errors=True)
                    write(world, discover(), dest)
                    done.touch()
        _LAYERS[(key, parts)] = dest
    return _LAYERS[(key, parts)]


def app(name: str) -> App:
    """The registered app ``name``."""
    return next(a for a in discover() if a.name == name)


def wait_up(port: int, host: str, proc: subprocess.Popen, log: Path, seconds: float = 30) -> None:
    """Wait until the server answers for ``host`` (any HTTP status)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"site exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
        req = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={"Host": host})
        try:
            urllib.request.urlopen(req, timeout=2)
            return
        except urllib.error.HTTPError:
            return
        except (urllib.error.URLError, OSError):
            time.sleep(0.3)
    pytest.fail(f"site did not answer within {seconds}s:\n{log.read_text()[-3000:]}")


class Served:
    """A running site on copies of a layer's app databases (a context manager)."""

    def __init__(self, layer_dir: Path, tmp: Path, build: SiteBuild | None = None, now: str | None = None):
        """``now``: start the apps' clock at this naive local ISO time (the world's now, say) instead
        of the host's wall clock, for apps whose pages depend on "today" (check-in windows)."""
        self.build = build
        self.now = now
        self.data = tmp / "data"
        shutil.copytree(layer_dir / "var/lib/persona-desktop/apps", self.data)
        self.port = free_port()
        self.log = tmp / "site.log"
        self.proc: subprocess.Popen | None = None

    def database(self, name: str) -> Path:
        """The served copy of app ``name``'s database."""
        a = app(name)
        return self.data / a.name / a.database

    def __enter__(self) -> "Served":
        self._lf = open(self.log, "wb")
        build = self.build or site()
        self.proc = serve(build, self.data, self.port, log=self._lf, now=self.now)
        wait_up(self.port, build.apps[0].domain, self.proc, self.log)
        return self

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self._lf.close()


def run_e2e(name: str, facts: dict, served: Served, tmp: Path, timeout: int = 900) -> str:
    """Run ``apps/<name>/web/e2e/*.test.mjs`` against ``served``; return the reporter output.

    ``facts`` gets ``base_url`` (``http://<domain>``) and ``apps`` (the names the site serves) added. Fails the pytest test with the
    output and the server log when a node test fails.
    """
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} missing (scripts/setup-deps.sh installs chromium)"
    a = app(name)
    web = a.dir / "web"
    files = sorted(str(p.relative_to(web)) for p in (web / "e2e").glob("*.test.mjs"))
    assert files, f"{web}/e2e has no *.test.mjs"
    facts_file = tmp / f"{name}-facts.json"
    # "apps": what this site serves, so a test of a cross-app workflow knows whether the other side is there.
    served_apps = [x.name for x in (served.build or site()).apps]
    facts_file.write_text(
        json.dumps({"base_url": f"http://{a.domain}", "apps": served_apps, **facts}, indent=2, default=str)
    )
    env = dict(
        os.environ,
        APP_FACTS=str(facts_file),
        SITE_PORT=str(served.port),
        CHROMIUM_PATH=CHROMIUM,
        APP_ARTIFACTS=str(Path(os.environ.get("APP_ARTIFACTS_DIR", tmp)) / f"{name}-screens"),
    )
    run = subprocess.run(
        ["node", "--test", "--test-concurrency=1", "--test-reporter=spec", *files],
        cwd=web,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if run.returncode != 0:
        pytest.fail(
            f"{name} e2e failed:\n{run.stdout[-8000:]}\n{run.stderr[-3000:]}\n"
            f"site log:\n{served.log.read_text()[-2000:]}",
            pytrace=False,
        )
    return run.stdout


def post_form(served: Served, host: str, path: str, fields: list[tuple[str, str]], cookie: str) -> tuple[int, str]:
    """A form post to the app on ``host`` as a browser sends it (urlencoded, with ``cookie``), redirects not
    followed: ``(status, Location or "")``. What reference solutions use to act through the apps' routes."""
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=60)
    try:
        conn.request(
            "POST",
            path,
            body=urllib.parse.urlencode(fields),
            headers={"Host": host, "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie},
        )
        res = conn.getresponse()
        res.read()
        return res.status, res.getheader("Location") or ""
    finally:
        conn.close()
