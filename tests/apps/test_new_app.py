"""``scripts/new-app`` makes an app that builds, is served on its own host and passes its own e2e test.

The app is created in the real apps/ folder (apps are packages of ``apps``) under a name no app
uses, built alone into its own work directory, served over a layer of its database only, and
removed afterwards whatever happens. Nothing outside ``apps/<name>/`` may change.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from builder.apps import discover
from builder.layer import build_layer
from builder.site import build_site, default_work_dir

from tests.app_e2e import Served, run_e2e
from tests.conftest import REPO

NAME = "scaffoldcheck"

# The app lives in the shared apps/ folder while the test runs: every other test's discover() would see it.
# It builds a site of its own (site).
pytestmark = [pytest.mark.alone, pytest.mark.site]


def _tree_state() -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "--", "."],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_new_app_builds_serves_and_passes_its_test(world, tmp_path, monkeypatch):
    monkeypatch.setenv("PERSONA_APPS", NAME)  # this app alone, whatever else is in apps/
    before = _tree_state()
    dest = REPO / "apps" / NAME
    assert not dest.exists()
    try:
        res = subprocess.run(
            [str(REPO / "scripts" / "new-app"), NAME, "--title", "Scaffold Check"],
            cwd=REPO,
            capture_output=True,
            text=True,
        )
        assert res.returncode == 0, res.stderr
        after = [line for line in _tree_state().splitlines() if line not in before.splitlines()]
        assert after and all(line[3:].startswith(f"apps/{NAME}/") for line in after), after
        app = next(a for a in discover() if a.name == NAME)
        assert app.domain == "scaffoldcheck.test" and app.title == "Scaffold Check"
        build = build_site([app], default_work_dir().parent / "appbuild-new-app")
        layer = tmp_path / "layer"
        build_layer(world, [app], layer)
        facts = {
            "title": app.title,
            "cookie": app.session_cookie,
            "full_name": world.persona.identity.name,
            "credentials": app.module("seed").credentials(world),
        }
        with Served(layer, tmp_path, build) as served:
            out = run_e2e(NAME, facts, served, tmp_path)
        assert "ℹ pass 3" in out and "ℹ fail 0" in out, out[-2000:]
        res = subprocess.run([str(REPO / "scripts" / "new-app"), NAME], cwd=REPO, capture_output=True, text=True)
        assert res.returncode == 2 and "exists" in res.stderr
    finally:
        shutil.rmtree(dest, ignore_errors=True)
    assert _tree_state() == before
