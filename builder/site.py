"""The one web server: every app under ``apps/`` assembled into one Next.js production build.

Seventeen Next.js servers would cost ~1.7 GB of guest memory and seventeen ``next build`` runs;
one project (``apps/_site``) serves them all instead. Assembly mounts each app into it:

    apps/<name>/web/app/      -> apps/_site/src/app/<name>/     the app's route tree (its own root layout)
    apps/<name>/web/<other>/  -> apps/_site/src/apps/<name>/    its components/ and lib/ (import "@/<name>/lib/x")
    apps/<name>/web/public/   -> apps/_site/public/<name>/      static files, served at /<file> on its host
    app.yaml domains          -> apps/_site/src/generated/hosts.json      Host -> app, read by the middleware
    app.yaml databases        -> apps/_site/src/generated/databases.json  app -> database file name
    app.yaml provides         -> apps/_site/src/generated/services.json   service -> {app, domain}
    builder/reference/<file>  -> apps/_site/src/generated/reference/<file> the reference data the web side reads
                                 (:data:`builder.reference.WEB_FILES`), imported as "@reference/<file>"
    app.yaml + models.py      -> apps/_site/src/generated/apps.json       app -> its settings, read by
                                 @persona/platform/app (title, domain, database, session_cookie, brand, tables)

Builds run on a copy of ``apps/`` under a work directory, so a developer's tree never gets
``.next`` or generated routes, and are cached there by :func:`builder.image.base`'s source key:
the e2e tests and the base image share one build.

``python -m builder.site build [--apps a,b] [--work DIR]`` builds and prints the server's path;
``python -m builder.site serve --data DIR [--port N]`` runs it on app databases in ``DIR/<app>/<file>``.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from . import reference
from .apps import APPS_DIR, REPO, App, AppError, discover

Progress = Callable[[str], None]

#: The one server's loopback port in the guest (nginx proxies every app host name to it).
SITE_PORT = 3100
#: Where the assembled server lives in the guest.
GUEST_SITE_DIR = "/opt/persona-desktop/site"
#: Where app databases live in the guest; ``<name>/<database>`` below it.
GUEST_DATA_DIR = "/var/lib/persona-desktop/apps"
#: Build products and folders never copied or hashed.
_SOURCE_SKIP = {"node_modules", ".next", "test-results", "playwright-report", "__pycache__", ".turbo"}
#: Builds kept in a work directory (each app selection is its own build).
KEEP_BUILDS = 3
#: Parts of ``apps/<name>/web`` that are not mounted into the site (tests, docs, dev scripts).
_NOT_MOUNTED = {"app", "public", "e2e", "scripts", "README.md"}


@dataclass(frozen=True)
class SiteBuild:
    """The built site, runnable as ``node <dir>/<entry>`` (cwd: the entry's folder).

    ``dir`` holds the Next.js standalone output (``node_modules/``, ``_site/server.js`` with
    ``.next/static`` and ``public/`` beside it); ``apps`` are the apps it serves. The whole
    ``dir`` is copied to :data:`GUEST_SITE_DIR` in the guest.
    """

    dir: Path
    apps: tuple[App, ...]
    source_key: str
    entry: str = "_site/server.js"

    @property
    def server(self) -> Path:
        """The server file."""
        return self.dir / self.entry


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


def source_key(apps: list[App], apps_dir: Path = APPS_DIR, reference_dir: Path = reference.DIR) -> str:
    """SHA-256 hex over what the site build is made from.

    Covers the workspace manifest and lock file, the shared ``apps/_*`` packages (the site
    project among them), each served app's ``app.yaml``, ``models.py`` (its table names are generated
    into the site) and ``web/``, skipping build products, and the reference files the web side imports
    (:data:`builder.reference.WEB_FILES` under ``reference_dir``). The rest of an app's Python side (seed,
    tasks) does not shape the build.
    """
    apps_dir = Path(apps_dir)
    h = hashlib.sha256()
    for name in ("package.json", "package-lock.json", ".npmrc"):
        p = apps_dir / name
        h.update(name.encode() + b"\0" + (p.read_bytes() if p.exists() else b"<missing>") + b"\0")
    for shared in sorted(apps_dir.glob("_*")):
        if shared.is_dir() and shared.name not in _SOURCE_SKIP:  # apps/__pycache__ is no shared package
            hash_tree(
                shared, h, _SOURCE_SKIP | {"src"} if shared.name == "_site" else _SOURCE_SKIP, label=f"{shared.name}/"
            )
            if shared.name == "_site":
                for kept in ("middleware.ts",):
                    p = shared / "src" / kept
                    h.update(f"_site/src/{kept}\0".encode() + (p.read_bytes() if p.exists() else b"") + b"\0")
    for app in sorted(apps, key=lambda a: a.name):
        h.update(f"app {app.name}\0".encode() + (app.dir / "app.yaml").read_bytes() + b"\0")
        models = app.dir / "models.py"
        h.update(b"models\0" + (models.read_bytes() if models.is_file() else b"<missing>") + b"\0")
        hash_tree(app.dir / "web", h, _SOURCE_SKIP | {"e2e", "scripts"}, label=f"{app.name}/web/")
    for rel in reference.WEB_FILES:
        p = Path(reference_dir) / rel
        h.update(f"reference {rel}\0".encode() + (p.read_bytes() if p.exists() else b"<missing>") + b"\0")
    return h.hexdigest()


def assemble(apps_dir: Path, apps: list[App], reference_dir: Path = reference.DIR) -> Path:
    """Mount ``apps`` into the site project under ``apps_dir/_site`` (see the module docstring), with the
    reference files the web side imports copied from ``reference_dir`` into ``src/generated/reference/``.

    Replaces what an earlier assembly wrote. Returns the site folder. Raises :class:`AppError`
    when an app has no ``web/app/layout.tsx`` (each app is its own root layout) or a reference file is missing.
    """
    site = Path(apps_dir) / "_site"
    gen = site / "src"
    for d in (gen / "app", gen / "apps", gen / "generated", site / "public"):
        shutil.rmtree(d, ignore_errors=True)
    (gen / "generated").mkdir(parents=True)

    def ignore(_d: str, names: list[str]) -> set[str]:
        return {n for n in names if n in _SOURCE_SKIP or n.endswith(".pyc")}

    for app in sorted(apps, key=lambda a: a.name):
        web = app.dir / "web"
        if not (web / "app" / "layout.tsx").is_file():
            raise AppError(f"{web}/app/layout.tsx missing: every app has its own root layout")
        shutil.copytree(web / "app", gen / "app" / app.name, ignore=ignore)
        (gen / "apps" / app.name).mkdir(parents=True)
        for child in sorted(web.iterdir()):
            if child.name in _NOT_MOUNTED or child.name in _SOURCE_SKIP:
                continue
            if child.is_dir():
                shutil.copytree(child, gen / "apps" / app.name / child.name, ignore=ignore)
            else:
                shutil.copy2(child, gen / "apps" / app.name / child.name)
        if (web / "public").is_dir():
            shutil.copytree(web / "public", site / "public" / app.name, ignore=ignore)
    hosts = {a.domain: a.name for a in sorted(apps, key=lambda a: a.domain)}
    (gen / "generated" / "hosts.json").write_text(json.dumps(hosts, indent=2) + "\n")
    dbs = {a.name: a.database for a in sorted(apps, key=lambda a: a.name)}
    (gen / "generated" / "databases.json").write_text(json.dumps(dbs, indent=2) + "\n")
    services = {s: {"app": a.name, "domain": a.domain} for a in sorted(apps, key=lambda a: a.name) for s in a.provides}
    (gen / "generated" / "services.json").write_text(json.dumps(dict(sorted(services.items())), indent=2) + "\n")
    for rel in reference.WEB_FILES:
        src = Path(reference_dir) / rel
        if not src.is_file():
            raise AppError(f"{src} missing: the web side imports it as @reference/{rel}")
        (gen / "generated" / "reference" / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, gen / "generated" / "reference" / rel)
    (gen / "generated" / "apps.json").write_text(json.dumps(app_settings(apps), indent=2) + "\n")
    return site


def app_settings(apps: list[App]) -> dict[str, dict]:
    """Each app's settings for its web side, by app name (``generated/apps.json``, read by ``@persona/platform/app``).

    ``{"name", "title", "domain", "database", "session_cookie", "brand": {...}, "tables": [...]}``: the app.yaml
    fields, so no app restates its cookie, title or file name in TypeScript, and the sorted table names of its
    ``models.py``, which its database file must hold.
    """
    return {
        a.name: {
            "name": a.name,
            "title": a.title,
            "domain": a.domain,
            "database": a.database,
            "session_cookie": a.session_cookie,
            "brand": dict(sorted(a.brand.items())),
            "tables": list(a.tables()),
        }
        for a in sorted(apps, key=lambda a: a.name)
    }


def _run(cmd: list[str], cwd: Path, progress: Progress, log: Path) -> None:
    progress(f"$ {' '.join(cmd)}  (in {cwd})")
    env = dict(os.environ, NEXT_TELEMETRY_DISABLED="1", CI="1")
    with open(log, "ab") as lf:
        r = subprocess.run(cmd, cwd=cwd, stdout=lf, stderr=subprocess.STDOUT, env=env)
    if r.returncode != 0:
        tail = log.read_text(errors="replace").splitlines()[-40:]
        raise AppError(f"{' '.join(cmd)} failed ({r.returncode}); log {log}:\n" + "\n".join(tail))


def npm_install(apps_dir: Path, work_dir: Path, progress: Progress) -> None:
    """Run ``npm ci`` in the workspace ``apps_dir`` unless its installed tree matches the lock file.

    A stamp (SHA-256 of ``package-lock.json``) in ``node_modules`` records the last good
    install. Raises :class:`AppError` if npm fails.
    """
    apps_dir = Path(apps_dir)
    lock = apps_dir / "package-lock.json"
    if not lock.exists():
        raise AppError(f"{lock} missing: apps/ must be an npm workspace with a lock file")
    stamp = apps_dir / "node_modules" / ".persona-lock-sha256"
    want = hashlib.sha256(lock.read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == want:
        progress("npm: node_modules up to date")
        return
    _run(["npm", "ci", "--no-audit", "--no-fund"], apps_dir, progress, Path(work_dir) / "npm-install.log")
    stamp.write_text(want)


def sync_sources(apps_dir: Path, dst: Path) -> Path:
    """Copy ``apps_dir`` (without build products) to ``dst``, keeping ``dst/node_modules``; return ``dst``."""
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

    for child in sorted(Path(apps_dir).iterdir()):
        if child.name in _SOURCE_SKIP:
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.copytree(child, dst / child.name, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(child, dst / child.name, follow_symlinks=False)
    return dst


def _standalone(site: Path, dest: Path) -> str:
    """Copy ``site``'s standalone output with ``.next/static`` and ``public/`` into ``dest``; return the entry."""
    standalone = site / ".next" / "standalone"
    server = standalone / "_site" / "server.js"
    if not server.is_file():
        raise AppError(f"{server} missing after next build (is output: 'standalone' set?)")
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(standalone, dest, symlinks=True)
    shutil.copytree(site / ".next" / "static", dest / "_site" / ".next" / "static", symlinks=True)
    if (site / "public").is_dir():
        shutil.copytree(site / "public", dest / "_site" / "public", symlinks=True, dirs_exist_ok=True)
    return "_site/server.js"


def default_work_dir() -> Path:
    """``$PERSONA_CACHE/appbuild`` (default ``.cache/appbuild`` in the repo): shared by tests and images."""
    return Path(os.environ.get("PERSONA_CACHE", REPO / ".cache")) / "appbuild"


def build_site(
    apps: list[App] | None = None,
    work_dir: Path | None = None,
    progress: Progress = lambda s: None,
    apps_dir: Path = APPS_DIR,
) -> SiteBuild:
    """Build the site serving ``apps`` (default: every app) unless ``work_dir`` holds a build of the same sources.

    Steps: copy ``apps/`` to ``work_dir/src/apps``, ``npm ci`` there (skipped while the lock
    file is unchanged), :func:`assemble`, ``next build``, and copy the standalone server to
    ``work_dir/site-<key16>``. Builds sharing a ``work_dir`` run one at a time (``flock`` on
    ``work_dir/.build.lock``; the waiting one reports it through ``progress``). Needs the npm
    registry on a first install. Raises :class:`AppError` on a failure, with the log's tail.
    """
    apps = sorted(apps if apps is not None else discover(apps_dir), key=lambda a: a.name)
    if not apps:
        raise AppError("no apps to build")
    work_dir = Path(work_dir or default_work_dir())
    key = source_key(apps, apps_dir)
    dest = work_dir / f"site-{key[:16]}"
    if _built(dest, key):
        progress(f"site build cached: {dest}")
        return SiteBuild(dest, tuple(apps), key)
    work_dir.mkdir(parents=True, exist_ok=True)
    # Two builds in one work folder share src/ and .next/: the second waits for the first (and then
    # usually finds its result cached) instead of breaking it mid-build.
    with _work_lock(work_dir, lambda: progress(f"waiting for another site build in {work_dir}")):
        if _built(dest, key):
            progress(f"site build cached: {dest}")
            return SiteBuild(dest, tuple(apps), key)
        return _build_locked(apps, work_dir, key, dest, progress, apps_dir)


def _built(dest: Path, key: str) -> bool:
    stamp = dest / ".persona-source-key"
    return stamp.is_file() and stamp.read_text() == key and (dest / "_site" / "server.js").is_file()


@contextmanager
def _work_lock(work_dir: Path, on_wait: Callable[[], None]) -> Iterator[None]:
    """Hold ``work_dir/.build.lock`` (``flock``, exclusive) for the block; ``on_wait`` once if another build holds it.

    The lock file is kept, never removed (removing lock files races with their users)."""
    fd = os.open(work_dir / ".build.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            on_wait()
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the flock


def _build_locked(
    apps: list[App], work_dir: Path, key: str, dest: Path, progress: Progress, apps_dir: Path
) -> SiteBuild:
    src = sync_sources(Path(apps_dir), work_dir / "src" / "apps")
    npm_install(src, work_dir, progress)
    site = assemble(src, apps)
    log = work_dir / "build-site.log"
    log.write_text("")
    _run(["npm", "run", "build", "--workspace", "_site"], src, progress, log)
    tmp = work_dir / f".site-{key[:16]}.partial"
    _standalone(site, tmp)
    (tmp / ".persona-source-key").write_text(key)
    if dest.exists():
        shutil.rmtree(dest)
    tmp.rename(dest)
    # Keep the newest few builds: a server started from an older one (another app selection) keeps working.
    builds = sorted((p for p in work_dir.glob("site-*") if p != dest), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in builds[KEEP_BUILDS - 1 :]:
        shutil.rmtree(old, ignore_errors=True)
    progress(f"site: {len(apps)} app(s) built into {dest}")
    return SiteBuild(dest, tuple(apps), key)


def serve(
    build: SiteBuild, data_dir: Path, port: int, log=subprocess.DEVNULL, now: str | None = None
) -> subprocess.Popen:
    """Start the built site on ``127.0.0.1:port`` over app databases in ``data_dir/<app>/<file>``.

    Returns the running process (the caller stops it). Requests pick their app by ``Host``
    (an app's domain, or ``<name>.localhost``). ``now`` (naive local ISO, e.g. the world's now)
    starts the apps' clock there instead of the host's wall clock (``PERSONA_NOW``, see
    ``@persona/platform/clock``); it runs on in real time from the server's start.
    """
    env = dict(
        os.environ,
        PORT=str(port),
        HOSTNAME="127.0.0.1",
        PERSONA_DATA_DIR=str(Path(data_dir).resolve()),
        NODE_ENV="production",
        NEXT_TELEMETRY_DISABLED="1",
    )
    env.pop("PERSONA_NOW", None)
    if now:
        env["PERSONA_NOW"] = str(now)[:19]
    return subprocess.Popen(
        ["node", build.server.name], cwd=build.server.parent, env=env, stdout=log, stderr=subprocess.STDOUT
    )


def _interrupt(signum, _frame) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m builder.site", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build the site (cached) and print the server file")
    b.add_argument("--apps", help="comma-separated app names (default: all)")
    b.add_argument("--work", type=Path, help="work directory (default: $PERSONA_CACHE/appbuild)")
    s = sub.add_parser("serve", help="build if needed, then serve on app databases")
    s.add_argument("--data", type=Path, required=True, help="folder holding <app>/<database> files")
    s.add_argument("--port", type=int, default=SITE_PORT)
    s.add_argument("--apps")
    s.add_argument("--work", type=Path)
    s.add_argument(
        "--now",
        help="start the apps' clock at this local time (YYYY-MM-DDTHH:MM:SS, e.g. the world's now) "
        "instead of the host's wall clock",
    )
    args = ap.parse_args(argv)
    if getattr(args, "now", None):
        try:
            dt.datetime.fromisoformat(args.now)
        except ValueError:
            ap.error(f"--now {args.now!r} is not a local time like 2026-11-16T09:00:00")
    every = discover()
    apps = every
    if args.apps:
        want = args.apps.split(",")
        unknown = sorted(set(want) - {a.name for a in every})
        if unknown:
            ap.error(f"unknown apps: {', '.join(unknown)}")
        apps = [a for a in every if a.name in want]
    try:
        build = build_site(apps, args.work, progress=lambda m: print(m, file=sys.stderr))
    except AppError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.cmd == "build":
        print(build.server)
        return 0
    with socket.socket() as probe:  # say so before claiming to serve (Next.js would fail after the line below)
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # only a listener refuses, as for Node
        try:
            probe.bind(("127.0.0.1", args.port))
        except OSError as e:
            print(f"error: port {args.port} on 127.0.0.1 is taken ({e.strerror}): pass another --port", file=sys.stderr)
            return 1
    print(
        f"serving {', '.join(a.name for a in apps)} on http://127.0.0.1:{args.port}/ "
        f"(Host: {apps[0].domain} or {apps[0].name}.localhost:{args.port})",
        file=sys.stderr,
    )
    proc = serve(build, args.data, args.port, log=None, now=args.now)
    # SIGTERM (systemd, kill, a harness) stops the server as Ctrl-C does, instead of orphaning it.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        return proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        proc.wait(timeout=10)
        return 130


if __name__ == "__main__":
    sys.exit(main())
