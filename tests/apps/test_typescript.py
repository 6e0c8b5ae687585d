"""The apps' TypeScript type-checks and lints clean: ``tsc --noEmit`` and eslint, no site build (fast lane).

Both read the sources where they are, through the tsconfig :mod:`builder.webcheck` generates to mirror the site
assembly (``@/<name>/x`` -> ``apps/<name>/web/x``), over every app (or ``$PERSONA_APPS``), ``@persona/platform``,
``@persona/ui`` and the site's middleware. Needs ``apps/node_modules`` (``npm ci``, run here when the lock file
changed). About 15 s (tsc) and 25 s (eslint, typed rules) of one core.
"""

from __future__ import annotations

import subprocess

import pytest

from builder.apps import APPS_DIR, discover
from builder.webcheck import install, run_eslint, run_tsc, write_tsconfig


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """(apps, tsconfig path) with apps/node_modules installed."""
    work = tmp_path_factory.mktemp("webcheck")
    install(APPS_DIR, work)
    apps = discover()
    return apps, write_tsconfig(work, apps)


def test_tsconfig_covers_every_app_and_the_shared_packages_of_this_tree(checked):
    """The program holds each app's files and the shared packages from this tree (not a linked node_modules copy)."""
    apps, tsconfig = checked
    r = subprocess.run(
        [str(APPS_DIR / "node_modules" / ".bin" / "tsc"), "-p", str(tsconfig), "--listFilesOnly"],
        cwd=APPS_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    files = [f for f in r.stdout.splitlines() if "/node_modules/" not in f]
    root = str(APPS_DIR.resolve())
    for app in apps:
        assert any(f.startswith(f"{app.dir.resolve()}/web/app/") for f in files), f"{app.name}: no route in the program"
    for shared in ("_platform/src/session.ts", "_ui/src/index.ts", "_site/src/middleware.ts"):
        assert f"{root}/{shared}" in files, shared
    assert not any("/_site/src/apps/" in f or "/_site/src/app/" in f for f in files), "assembled copies checked"


def test_tsc_finds_no_type_error(checked):
    _apps, tsconfig = checked
    found = run_tsc(tsconfig)
    assert found.ok, f"tsc --noEmit:\n{found.output}"


def test_eslint_finds_nothing(checked):
    apps, tsconfig = checked
    found = run_eslint(tsconfig, apps)
    assert found.ok, f"eslint (apps/eslint.config.mjs):\n{found.output}"
