"""Every app keeps the platform's contract (apps/README.md), whoever wrote it.

For each app under apps/: its database is byte-identical across two seeds (one here, one in the shared
layer, which another process may have built) and has the ``meta`` facts; its credentials have the three
keys; its tasks validate, read only their own apps' databases, and score 0 for an agent that does nothing;
served by the one site, it signs the persona in by the seeded cookie, sends others to its sign-in page,
answers its own 404 for another app's segment and refuses internal routes from outside. Apps without a
test of their own (``tests/apps/<name>/test_web.py``: a new app from scripts/new-app) also run their e2e
tests here.
"""

from __future__ import annotations

import hashlib
import json
import re
import http.client
import sqlite3
import urllib.parse

import pytest

from builder.apps import discover
from builder.tasks.grade import grade
from builder.tasks.model import NOT_APPS

from tests.app_e2e import Served, run_e2e
from tests.conftest import REPO, world_tasks
from builder.tasks.collect import app_tasks

APPS = discover()
IDS = [a.name for a in APPS]


def _get(port: int, host: str, path: str, cookie: str | None = None, method: str = "GET") -> tuple[int, str, str]:
    con = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Host": host}
    if cookie:
        headers["Cookie"] = cookie
    con.request(method, path, headers=headers, body=b"{}" if method == "POST" else None)
    r = con.getresponse()
    body = r.read().decode("utf-8", "replace")
    return r.status, r.getheader("Location") or "", body


@pytest.fixture(scope="module")
def served(site_build, default_layer, tmp_path_factory):
    with Served(default_layer, tmp_path_factory.mktemp("contract")) as s:
        yield s


@pytest.mark.parametrize("app", APPS, ids=IDS)
def test_seed_is_deterministic_with_meta(app, world, default_layer, tmp_path):
    # One seed here against the shared layer's, which another process may have written: the same bytes.
    seed = app.module("seed")
    a, b = tmp_path / "a.sqlite", default_layer / app.guest_database.lstrip("/")
    seed.seed(world, a)
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()
    meta = dict(sqlite3.connect(a).execute("SELECT key, value FROM meta").fetchall())
    assert {"as_of", "timezone", "locale"} <= set(meta), meta
    assert meta["as_of"] == world.persona.as_of.isoformat()
    creds = seed.credentials(world)
    assert set(creds) == {"username", "password", "session_token"} and all(creds.values())


@pytest.mark.parametrize("app", APPS, ids=IDS)
def test_tasks_validate_and_doing_nothing_scores_zero(app, world, default_layer):
    tasks = app_tasks(world, app.name)
    assert tasks, f"{app.name} has no tasks"
    names = {a.name for a in discover(selected=False)}  # every app folder, whatever PERSONA_APPS selects
    dbs = {a.name: default_layer / a.guest_database.lstrip("/") for a in APPS}
    assert len({t.id for t in tasks}) == len(tasks)
    for t in tasks:
        assert app.name in t.apps_involved, t.id
        assert set(t.apps_involved) <= names | NOT_APPS, t.id
        if t.kind == "action" and set(t.apps_involved) <= set(dbs) | NOT_APPS:
            score, results = grade(t, dbs, answer="")
            assert score == 0, (t.id, [(r.item_id, r.status, r.evidence) for r in results])
    if (REPO / "tests" / "apps" / app.name / "test_web.py").exists():
        # A real app (not a fresh scaffold): the floor.
        assert len(tasks) >= 8, f"{app.name}: {len(tasks)} tasks"
        assert sum(t.kind == "action" for t in tasks) >= 3
        # Tasks across apps count for every app they involve, whichever tasks.py defines them.
        every = world_tasks(world)  # every app's tasks, as app_tasks gives them, generated once per process
        across = [t.id for t in every if app.name in t.apps_involved and len(set(t.apps_involved)) >= 2]
        assert len(across) >= 4, f"{app.name}: tasks across apps {across}"


@pytest.mark.parametrize("app", APPS, ids=IDS)
def test_served_on_its_own_host(app, world, served):
    creds = app.module("seed").credentials(world)
    cookie = f"{app.session_cookie}={creds['session_token']}"
    status, location, body = _get(served.port, app.domain, "/", cookie)
    assert status == 200 or (300 <= status < 400 and "/login" not in location), (status, location)
    if status != 200:
        status, _, body = _get(served.port, app.domain, urllib.parse.urlsplit(location).path, cookie)
    # The desktop finds an app's Firefox window by its brand (the image's boot check, run-image's
    # screenshots): a front page titled only "Portfolio" would never be found.
    titles = re.findall(r"<title>([^<]*)</title>", body)
    assert status == 200 and titles and app.title in titles[0], f"the signed-in front page's title {titles}"
    status, location, _ = _get(served.port, app.domain, "/")
    assert 300 <= status < 400 and "/login" in location, (status, location)
    status, _, body = _get(served.port, app.domain, "/login")
    assert status == 200 and "<html" in body
    for other in APPS:
        if other.name != app.name:
            status, _, _ = _get(served.port, app.domain, f"/{other.name}/login", cookie)
            assert status == 404, f"{app.domain}/{other.name}/login reached another app's segment ({status})"
    status, _, body = _get(served.port, app.domain, "/no/such/page/here", cookie)
    titles = re.findall(r"<title>([^<]*)</title>", body)
    assert status == 404 and titles and app.title in titles[0], (
        f"a deep unknown path is not the app's own 404: {titles}"
    )
    status, _, _ = _get(served.port, "unknown.test", "/")
    assert status == 404
    # The readiness path the guest's health check asks, answered for this host without a page render.
    status, _, body = _get(served.port, app.domain, "/_persona/health")
    assert status == 200 and json.loads(body) == {"app": app.name, "status": "ok"}, (status, body)
    assert _get(served.port, "unknown.test", "/_persona/health")[0] == 404


@pytest.mark.parametrize("app", APPS, ids=IDS)
def test_internal_routes_refuse_outside_callers(app, served):
    internal = app.dir / "web" / "app" / "api" / "internal"
    routes = (
        sorted(p.parent.relative_to(app.dir / "web" / "app") for p in internal.rglob("route.ts"))
        if internal.is_dir()
        else []
    )
    for route in routes:
        status, _, _ = _get(served.port, app.domain, f"/{route.as_posix()}", method="POST")
        assert status == 403, f"{app.name} /{route}: {status}"


@pytest.mark.parametrize(
    "app",
    [a for a in APPS if not (REPO / "tests" / "apps" / a.name / "test_web.py").exists()],
    ids=[a.name for a in APPS if not (REPO / "tests" / "apps" / a.name / "test_web.py").exists()],
)
def test_e2e_of_apps_without_their_own_test(site_build, app, world, default_layer, tmp_path):
    facts = {
        "title": app.title,
        "cookie": app.session_cookie,
        "full_name": world.persona.identity.name,
        "credentials": app.module("seed").credentials(world),
    }
    with Served(default_layer, tmp_path) as s:
        run_e2e(app.name, facts, s, tmp_path)


def test_boot_warmup_loads_every_start_page_signed_in_and_changes_no_database(served, default_layer, tmp_path):
    """The guest's persona-warm.service script, run against the served site as the guest's nginx would be:
    every app's start page answers 200 signed in (the guest.json cookie), and no database byte changes."""
    import subprocess
    import sys

    warm = REPO / "image/guest/usr/local/lib/persona-control/warm.py"
    guest_json = default_layer / "etc/persona-desktop/guest.json"
    dbs = sorted(served.data.rglob("*.sqlite"))
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in dbs}
    out = tmp_path / "warm.json"
    r = subprocess.run(
        [
            sys.executable,
            str(warm),
            "--guest-json",
            str(guest_json),
            "--nginx",
            f"127.0.0.1:{served.port}",
            "--out",
            str(out),
            "--timeout",
            "120",
            "--after-control",
            "0",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    result = json.loads(out.read_text())
    assert {n: a["status"] for n, a in result["apps"].items()} == {a.name: 200 for a in APPS}, r.stdout + r.stderr
    assert {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in dbs} == before
