"""Static checks of the apps' TypeScript without a site build: ``tsc --noEmit`` and eslint.

The site assembly (:mod:`builder.site`) copies each app into ``apps/_site/src`` and resolves ``@/<name>/x``
there. These checks read the sources where they are instead, through a generated tsconfig that mirrors the
assembly's module names:

    @/<name>/*                     -> apps/<name>/web/*            (each app; the route tree app/ included)
    @persona/<package>[/<export>]  -> the workspace package's own ``exports`` (apps/_platform/src/db.ts, ...)
    */generated/<file>.json        -> declared by shape (:data:`GENERATED_DECLARATIONS`): only assembly writes them

Its compiler options are the site's own (it extends ``apps/_site/tsconfig.json``), so the type check is the
one ``next build`` makes, minus Next's generated route types. eslint (``apps/eslint.config.mjs``) reads the
same file from ``$PERSONA_TSCONFIG`` for its typed rules. Both tools come from ``apps/node_modules``, installed
with ``npm ci`` when it does not match the lock file (:func:`install`).

``python -m builder.webcheck [--tsc | --eslint]`` runs them (default: both) and prints what they find;
``$PERSONA_APPS`` narrows the apps as everywhere.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import reference
from .apps import APPS_DIR, App, discover
from .site import npm_install

#: Types of the JSON files :func:`builder.site.assemble` writes into ``apps/_site/src/generated/``, which the
#: shared code imports (the middleware the hosts, ``@persona/platform/services`` the services,
#: ``@persona/platform/app`` each app's settings).
GENERATED_DECLARATIONS = """\
declare module "*/generated/hosts.json" {
  const hosts: Record<string, string>;
  export default hosts;
}
declare module "*/generated/databases.json" {
  const databases: Record<string, string>;
  export default databases;
}
declare module "*/generated/services.json" {
  const services: Record<string, { app: string; domain: string }>;
  export default services;
}
declare module "*/generated/apps.json" {
  const apps: Record<
    string,
    {
      name: string;
      title: string;
      domain: string;
      database: string;
      session_cookie: string;
      brand: Record<string, string>;
      tables: string[];
    }
  >;
  export default apps;
}
"""

#: Folders of the site project that assembly fills (never sources).
_ASSEMBLED = ("_site/src/app", "_site/src/apps", "_site/src/generated")


@dataclass(frozen=True)
class Finding:
    """One tool's run: ``ok`` when it exited 0; ``output`` its report (paths relative to ``apps/``)."""

    tool: str
    ok: bool
    output: str


def _package_paths(apps_dir: Path) -> dict[str, list[str]]:
    """``paths`` entries for the workspace packages' TypeScript exports (``@persona/platform/db`` -> its file).

    Read from each workspace's ``package.json`` ``exports``; exports that are not TypeScript (a stylesheet,
    the e2e helpers in ``.mjs``) are left to node_modules resolution.
    """
    root = json.loads((apps_dir / "package.json").read_text(encoding="utf-8"))
    out: dict[str, list[str]] = {}
    for ws in sorted(root.get("workspaces", [])):
        pkg = json.loads((apps_dir / ws / "package.json").read_text(encoding="utf-8"))
        for sub, target in sorted((pkg.get("exports") or {}).items()):
            if isinstance(target, str) and target.endswith((".ts", ".tsx")):
                name = pkg["name"] + sub[1:]  # "." -> the package, "./db" -> "<package>/db"
                out[name] = [str((apps_dir / ws / target).resolve())]
    return out


def write_tsconfig(dest: Path, apps: list[App], apps_dir: Path = APPS_DIR) -> Path:
    """Write the type-check tsconfig for ``apps`` (and the shared packages) into folder ``dest``; return its path.

    ``dest`` gets ``tsconfig.json`` (absolute paths throughout, so it works from anywhere) and
    ``generated.d.ts`` (:data:`GENERATED_DECLARATIONS`). Files covered: each app's ``web/**/*.{ts,tsx}``,
    ``_platform/src``, ``_ui/src`` and the site's own ``src`` (its middleware), never the assembled folders.
    """
    apps_dir = Path(apps_dir).resolve()
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "generated.d.ts").write_text(GENERATED_DECLARATIONS, encoding="utf-8")
    paths = {f"@/{a.name}/*": [str(a.dir.resolve() / "web") + "/*"] for a in sorted(apps, key=lambda a: a.name)}
    paths.update(_package_paths(apps_dir))
    # What site assembly copies into src/generated/reference/ (builder.reference.WEB_FILES), read where it lives.
    paths["@reference/*"] = [str(Path(reference.__file__).resolve().parent) + "/*"]
    roots = [str(a.dir.resolve() / "web") for a in sorted(apps, key=lambda a: a.name)]
    roots += [str(apps_dir / "_platform" / "src"), str(apps_dir / "_ui" / "src"), str(apps_dir / "_site" / "src")]
    include = [f"{r}/**/*.{ext}" for r in roots for ext in ("ts", "tsx")]
    include += [str(apps_dir / "_site" / "next-env.d.ts"), str((dest / "generated.d.ts").resolve())]
    config = {
        "extends": str(apps_dir / "_site" / "tsconfig.json"),
        "compilerOptions": {"incremental": False, "noEmit": True, "paths": paths},
        "include": include,
        "exclude": [str(apps_dir / "node_modules")] + [str(apps_dir / d) for d in _ASSEMBLED],
    }
    out = dest / "tsconfig.json"
    out.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return out


def lint_roots(apps: list[App], apps_dir: Path = APPS_DIR) -> list[str]:
    """What eslint reads, relative to ``apps_dir``: each app's ``web/`` and the shared packages."""
    apps_dir = Path(apps_dir).resolve()
    webs = [(a.dir.resolve() / "web").relative_to(apps_dir).as_posix() for a in sorted(apps, key=lambda a: a.name)]
    return webs + ["_platform", "_ui", "_site"]


def install(apps_dir: Path = APPS_DIR, log_dir: Path | None = None) -> None:
    """``npm ci`` in ``apps_dir`` unless its node_modules matches the lock file (:func:`builder.site.npm_install`).

    Holds an exclusive ``flock`` on ``package-lock.json`` meanwhile, so test workers that start together install
    once (the others wait, then find it up to date). ``log_dir`` gets ``npm-install.log`` (default: a temporary
    folder). A ``node_modules`` that is a symbolic link (a git worktree sharing another checkout's install) is left
    alone: ``npm ci`` would empty the folder it points to under the other checkout's feet.
    Raises :class:`builder.apps.AppError` if npm fails.
    """
    apps_dir = Path(apps_dir)
    if (apps_dir / "node_modules").is_symlink():
        return
    with open(apps_dir / "package-lock.json", "rb") as lock, tempfile.TemporaryDirectory(prefix="npm-") as tmp:
        fcntl.flock(lock, fcntl.LOCK_EX)
        npm_install(apps_dir, Path(log_dir or tmp), lambda _m: None)


def _tool(apps_dir: Path, name: str) -> str:
    return str(Path(apps_dir) / "node_modules" / ".bin" / name)


def run_tsc(tsconfig: Path, apps_dir: Path = APPS_DIR) -> Finding:
    """``tsc --noEmit -p tsconfig`` in ``apps_dir`` (about 15 s for every app on one core)."""
    r = subprocess.run(
        [_tool(apps_dir, "tsc"), "-p", str(tsconfig), "--noEmit", "--pretty", "false"],
        cwd=apps_dir,
        capture_output=True,
        text=True,
    )
    return Finding("tsc", r.returncode == 0, (r.stdout + r.stderr).strip())


def run_eslint(tsconfig: Path, apps: list[App], apps_dir: Path = APPS_DIR) -> Finding:
    """eslint (``apps/eslint.config.mjs``, typed rules on ``tsconfig``) over :func:`lint_roots`; warnings fail too."""
    env = dict(os.environ, PERSONA_TSCONFIG=str(Path(tsconfig).resolve()))
    r = subprocess.run(
        [_tool(apps_dir, "eslint"), "--max-warnings", "0", "--no-warn-ignored", *lint_roots(apps, apps_dir)],
        cwd=apps_dir,
        capture_output=True,
        text=True,
        env=env,
    )
    return Finding("eslint", r.returncode == 0, (r.stdout + r.stderr).strip())


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m builder.webcheck", description=__doc__.split("\n\n")[0])
    ap.add_argument("--tsc", action="store_true", help="only the type check")
    ap.add_argument("--eslint", action="store_true", help="only eslint")
    args = ap.parse_args(argv)
    both = not (args.tsc or args.eslint)
    apps = discover()
    with tempfile.TemporaryDirectory(prefix="webcheck-") as tmp:
        install(APPS_DIR, Path(tmp))
        tsconfig = write_tsconfig(Path(tmp), apps)
        findings = []
        if both or args.tsc:
            findings.append(run_tsc(tsconfig))
        if both or args.eslint:
            findings.append(run_eslint(tsconfig, apps))
    for f in findings:
        print(f"{f.tool}: {'ok' if f.ok else 'FAILED'}" + (f"\n{f.output}" if f.output else ""))
    return 0 if all(f.ok for f in findings) else 1


if __name__ == "__main__":
    sys.exit(main())
