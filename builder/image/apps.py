"""Web apps that go into the base image: discovery (``apps/*/app.yaml``) and build.

Each app is a Next.js project at ``apps/<name>/web`` inside the npm workspace rooted at
``apps/package.json``. It is built with ``output: 'standalone'`` and assembled into a
directory that runs with plain ``node <entry>`` (no npm needed in the guest).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ..apps import App, AppError, discover

__all__ = ["App", "AppBuild", "AppError", "apps_source_key", "assemble_standalone", "build_app", "discover"]

Progress = Callable[[str], None]

#: Where apps live in the guest; ``<name>/`` below it is an :class:`AppBuild` ``dir``.
GUEST_APPS_DIR = "/opt/persona-desktop/apps"
#: Where app databases live in the guest; ``<name>/<database>`` below it.
GUEST_DATA_DIR = "/var/lib/persona-desktop/apps"


@dataclass(frozen=True)
class AppBuild:
    """A built app, runnable as ``node <entry>`` from ``dir`` (relative to ``dir``).

    ``dir`` holds the Next.js standalone output: ``node_modules/``, the server file
    ``entry`` (``server.js``, or ``<name>/web/server.js`` for a workspace build) with
    ``.next/static`` and ``public/`` beside it. The whole ``dir`` is copied to
    ``/opt/persona-desktop/apps/<name>/`` in the guest.
    """

    name: str
    title: str
    domain: str
    port: int
    database: str
    dir: Path
    entry: str = "server.js"

    @property
    def guest_dir(self) -> str:
        """Absolute guest path of the app's directory."""
        return f"{GUEST_APPS_DIR}/{self.name}"

    @property
    def guest_workdir(self) -> str:
        """Absolute guest path of the directory holding the server file."""
        parent = os.path.dirname(self.entry)
        return f"{self.guest_dir}/{parent}" if parent else self.guest_dir

    @property
    def guest_database(self) -> str:
        """Absolute guest path of the app's SQLite database."""
        return f"{GUEST_DATA_DIR}/{self.name}/{self.database}"


_SOURCE_SKIP = {"node_modules", ".next", "test-results", "playwright-report", "__pycache__", ".turbo"}


def _iter_files(root: Path, skip: set[str] = frozenset()) -> Iterable[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in skip)
        for f in sorted(filenames):
            yield Path(dirpath) / f


def hash_tree(root: Path, h: "hashlib._Hash", skip: set[str] = frozenset(), label: str = "") -> None:
    """Feed a directory's sorted relative paths, symlink targets and bytes into ``h``."""
    root = Path(root)
    for p in _iter_files(root, skip):
        rel = p.relative_to(root).as_posix()
        h.update(f"{label}{rel}\0".encode())
        if p.is_symlink():
            h.update(b"L" + os.readlink(p).encode() + b"\0")
        else:
            h.update(b"F%d\0" % (p.stat().st_mode & 0o111 != 0))
            with open(p, "rb") as f:
                for chunk in iter(lambda: f.read(1 << 20), b""):
                    h.update(chunk)
            h.update(b"\0")


def apps_source_key(repo_root: Path, metas: list[App]) -> str:
    """SHA-256 hex over what the app builds are made from.

    Covers the workspace manifest and lock file (``apps/package.json``,
    ``apps/package-lock.json``), shared ``apps/_*`` workspaces and each app's folder,
    skipping build products (``node_modules``, ``.next``). Used as the base-image cache key
    so a cache hit needs no ``npm`` run at all.
    """
    apps_dir = Path(repo_root) / "apps"
    h = hashlib.sha256()
    for name in ("package.json", "package-lock.json"):
        p = apps_dir / name
        h.update(name.encode() + b"\0")
        h.update(p.read_bytes() if p.exists() else b"<missing>")
    for shared in sorted(apps_dir.glob("_*")):
        if shared.is_dir():
            hash_tree(shared, h, _SOURCE_SKIP, label=f"{shared.name}/")
    for m in metas:
        hash_tree(m.dir, h, _SOURCE_SKIP | {"__pycache__"}, label=f"{m.name}/")
    return h.hexdigest()


def _run(cmd: list[str], cwd: Path, progress: Progress, log: Path) -> None:
    progress(f"$ {' '.join(cmd)}  (in {cwd})")
    env = dict(os.environ, NEXT_TELEMETRY_DISABLED="1", CI="1")
    with open(log, "ab") as lf:
        r = subprocess.run(cmd, cwd=cwd, stdout=lf, stderr=subprocess.STDOUT, env=env)
    if r.returncode != 0:
        tail = log.read_text(errors="replace").splitlines()[-30:]
        raise AppError(f"{' '.join(cmd)} failed ({r.returncode}); log {log}:\n" + "\n".join(tail))


def npm_install(repo_root: Path, work_dir: Path, progress: Progress) -> None:
    """Run ``npm ci`` in the ``apps/`` workspace unless the installed tree matches the lock file.

    A stamp (SHA-256 of ``package-lock.json``) in ``apps/node_modules`` records the last
    successful install. Raises :class:`AppError` if npm fails or there is no workspace.
    """
    apps_dir = Path(repo_root) / "apps"
    lock = apps_dir / "package-lock.json"
    if not (apps_dir / "package.json").exists():
        raise AppError(f"{apps_dir}/package.json missing: apps/ must be an npm workspace root")
    stamp = apps_dir / "node_modules" / ".persona-lock-sha256"
    want = hashlib.sha256(lock.read_bytes()).hexdigest() if lock.exists() else "nolock"
    if stamp.exists() and stamp.read_text() == want:
        progress("npm: node_modules up to date")
        return
    work_dir.mkdir(parents=True, exist_ok=True)
    cmd = ["npm", "ci", "--no-audit", "--no-fund"] if lock.exists() else ["npm", "install", "--no-audit", "--no-fund"]
    _run(cmd, apps_dir, progress, work_dir / "npm-install.log")
    stamp.write_text(want)


def _find_server(standalone: Path) -> Path:
    cands = [
        p for p in standalone.rglob("server.js")
        if "node_modules" not in p.relative_to(standalone).parts
        and (p.parent / ".next").is_dir()
    ]
    if not cands:
        raise AppError(f"no server.js next to a .next/ directory under {standalone}")
    cands.sort(key=lambda p: (len(p.relative_to(standalone).parts), str(p)))
    return cands[0]


def assemble_standalone(web_dir: Path, dest: Path) -> str:
    """Copy a built Next.js app's standalone output into ``dest``; return the server file path.

    ``web_dir`` is the Next.js project (holding ``.next/standalone`` after ``next build``).
    The server file may sit at ``dest/server.js`` or, in a workspace build,
    ``dest/<name>/web/server.js``; ``.next/static`` and ``public/`` are copied beside it.
    Returns the server file's path relative to ``dest``. Raises :class:`AppError`.
    """
    standalone = web_dir / ".next" / "standalone"
    if not standalone.is_dir():
        raise AppError(f"{standalone} missing: is output: 'standalone' set in next.config?")
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(standalone, dest, symlinks=True)
    server = _find_server(dest)
    static = web_dir / ".next" / "static"
    if static.is_dir():
        shutil.copytree(static, server.parent / ".next" / "static", symlinks=True, dirs_exist_ok=True)
    public = web_dir / "public"
    if public.is_dir():
        shutil.copytree(public, server.parent / "public", symlinks=True, dirs_exist_ok=True)
    return server.relative_to(dest).as_posix()


def sync_sources(repo_root: Path, work_dir: Path) -> Path:
    """Copy ``apps/`` (without build products) to ``work_dir/src/apps``; return that folder.

    Builds run on this copy so they never touch a developer's tree (no ``.next`` there, no
    ``npm ci`` wiping their ``node_modules``). The copy's ``node_modules`` is kept between
    builds and reinstalled only when the lock file changes (see :func:`npm_install`).
    """
    src = Path(repo_root) / "apps"
    dst = Path(work_dir) / "src" / "apps"
    dst.mkdir(parents=True, exist_ok=True)
    for child in dst.iterdir():
        if child.name == "node_modules":
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()

    def ignore(d: str, names: list[str]) -> set[str]:
        return {n for n in names if n in _SOURCE_SKIP or n.endswith(".pyc")}

    for child in sorted(src.iterdir()):
        if child.name in _SOURCE_SKIP:
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.copytree(child, dst / child.name, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(child, dst / child.name, follow_symlinks=False)
    return dst


def build_app(meta: App, repo_root: Path, work_dir: Path, progress: Progress) -> AppBuild:
    """Build one app and assemble its runnable directory under ``work_dir/apps/<name>``.

    Copies ``apps/`` to ``work_dir/src/apps`` (:func:`sync_sources`), runs ``npm ci`` there
    (skipped when the lock file is unchanged) and ``npm run build --workspace <name>/web``,
    then copies the standalone output, ``.next/static`` and ``public/``. Needs the npm
    registry on a first build. Raises :class:`AppError` on failure (with the npm log tail).
    """
    repo_root = Path(repo_root)
    work_dir = Path(work_dir)
    work_dir.mkdir(parents=True, exist_ok=True)
    rel_web = (meta.dir / "web").relative_to(repo_root / "apps")
    if not (meta.dir / "web" / "package.json").exists():
        raise AppError(f"{meta.dir / 'web'}/package.json missing")
    src_apps = sync_sources(repo_root, work_dir)
    build_root = src_apps.parent
    npm_install(build_root, work_dir, progress)
    log = work_dir / f"build-{meta.name}.log"
    log.write_text("")
    _run(["npm", "run", "build", "--workspace", rel_web.as_posix()], src_apps, progress, log)
    dest = work_dir / "apps" / meta.name
    entry = assemble_standalone(src_apps / rel_web, dest)
    progress(f"app {meta.name}: assembled {dest} (entry {entry})")
    return AppBuild(meta.name, meta.title, meta.domain, meta.port, meta.database, dest, entry)
