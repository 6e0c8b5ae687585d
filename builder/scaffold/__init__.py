"""``scripts/new-app NAME``: a working app folder under ``apps/`` from the template beside this file.

The new app builds, is served on its own host, signs the persona in by its seeded cookie, has a
sign-in page, one persisted workflow (notes) and its own e2e test (run by
tests/apps/test_contract.py). Nothing outside ``apps/<name>/`` is written.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

from ..apps import APPS_DIR, AppError, discover

TEMPLATE = Path(__file__).with_name("template")


def create_app(name: str, title: str | None = None, domain: str | None = None, apps_dir: Path = APPS_DIR) -> Path:
    """Write ``apps_dir/<name>/`` from the template; return it.

    ``title`` defaults to the capitalised name, ``domain`` to ``<name>.test``. Raises
    :class:`AppError` for a bad name or domain, a folder that exists, or a name or domain
    another app has.
    """
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,30}", name):
        raise AppError(f"app name {name!r} must match [a-z][a-z0-9_]* (a Python package and a route segment)")
    title = title or name.replace("_", " ").title()
    domain = domain or f"{name.replace('_', '-')}.test"
    if not re.fullmatch(r"[a-z0-9.-]+\.test", domain):
        raise AppError(f"domain {domain!r} must be a .test name (RFC 6761)")
    if not re.fullmatch(r"[^\n\"\\<>{}`$]{1,60}", title):
        raise AppError(f"title {title!r}: one line of up to 60 characters, without quotes, braces, <, > or $")
    dest = Path(apps_dir) / name
    if dest.exists():
        raise AppError(f"{dest} exists")
    for app in discover(apps_dir, selected=False):
        if domain == app.domain:
            raise AppError(f"app {app.name} already uses the domain {domain}")
    slots = {"__APP__": name, "__TITLE__": title, "__DOMAIN__": domain, "__COOKIE__": f"{name[:12]}_session"}
    tmp = Path(apps_dir) / f".{name}.partial"
    shutil.rmtree(tmp, ignore_errors=True)
    for src in sorted(TEMPLATE.rglob("*")):
        if "__pycache__" in src.parts or src.is_dir():
            continue
        out = tmp / src.relative_to(TEMPLATE)
        out.parent.mkdir(parents=True, exist_ok=True)
        text = src.read_text(encoding="utf-8")
        for key, value in slots.items():
            text = text.replace(key, value)
        out.write_text(text, encoding="utf-8")
    tmp.rename(dest)
    return dest


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="scripts/new-app", description="Create a working app folder apps/NAME.")
    ap.add_argument("name", help="the app's name: [a-z][a-z0-9_]*, also its folder and route segment")
    ap.add_argument("--title", help="what people see (default: the name, capitalised)")
    ap.add_argument("--domain", help="its host name in the guest (default: NAME.test)")
    args = ap.parse_args(argv)
    try:
        dest = create_app(args.name, args.title, args.domain)
    except AppError as e:
        print(f"new-app: {e}", file=sys.stderr)
        return 2
    print(
        f"created {dest}\n"
        f"  build and serve it:  PERSONA_APPS={args.name} .venv/bin/python -m builder.site build\n"
        f"  test it:             PERSONA_APPS={args.name} .venv/bin/python -m pytest tests/apps/test_contract.py\n"
        f"  then edit models.py, seed.py, tasks.py and web/ (see apps/README.md)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
