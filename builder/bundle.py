"""The task bundle beside the image: ``tasks/tasks.jsonl``, ``manifest.json`` and ``SHA256SUMS``."""

from __future__ import annotations

import hashlib
import json
import platform
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

from .apps import App
from .bundle_format import BUNDLE_FORMAT, sha256_file
from .tasks import collect
from .tasks.export import write_exports
from .tasks.mypcbench import write_mypcbench
from .tasks.model import split_of
from .world import World

REPO = Path(__file__).resolve().parent.parent
# Python packages whose versions shape output bytes or behaviour.
_PACKAGES = ["pydantic", "SQLAlchemy", "Faker", "reportlab", "email-validator", "PyYAML", "qemu.qmp"]
_TOOLS = {
    "node": ["node", "--version"],
    "packer": ["packer", "version"],
    "qemu-img": ["qemu-img", "--version"],
    "qemu-system-x86_64": ["qemu-system-x86_64", "--version"],
    "mmdebstrap": ["mmdebstrap", "--version"],
}


def tree_hash(root: Path, skip: tuple[str, ...] = ("node_modules", ".next", "__pycache__")) -> str:
    """SHA-256 over the sorted relative paths and contents of every file under ``root`` (skipping build output)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not set(p.relative_to(root).parts) & set(skip)):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(sha256_file(path).encode())
    return digest.hexdigest()


def _tool_version(argv: list[str]) -> str | None:
    if shutil.which(argv[0]) is None:
        return None
    try:
        res = subprocess.run(argv, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return (res.stdout or res.stderr).strip().splitlines()[0] if (res.stdout or res.stderr).strip() else None


def write_tasks(world: World, apps: list[App], dest: Path) -> Path:
    """Write every app's tasks for ``world`` to ``dest/tasks/tasks.jsonl`` (app order, then task order, the
    cross-app scenarios among them: :func:`builder.tasks.collect.tasks`),
    and the same tasks as OSWorld task JSON (:mod:`builder.tasks.export`) and MyPCBench's task lists
    (:mod:`builder.tasks.mypcbench`); the tasks the
    builder made and left out, with why, go to ``tasks/dropped.jsonl``.

    A task that involves an app this build leaves out (``PERSONA_APPS``, an app still to come) is left out:
    it could not be done, or graded, in the image."""
    path = dest / "tasks" / "tasks.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    kept = collect.tasks(world, apps)
    with path.open("w", encoding="utf-8") as fh:
        for task in kept:
            fh.write(task.model_dump_json(exclude_none=True) + "\n")
    with (path.parent / "dropped.jsonl").open("w", encoding="utf-8") as fh:
        for gone in collect.dropped(world, apps):
            fh.write(gone.model_dump_json() + "\n")
    write_exports(kept, path.parent, world.persona.id, {a.name: a.url for a in apps})
    write_mypcbench(kept, path.parent, {a.name: a.title for a in apps})
    return path


def write_bundle(
    world: World, apps: list[App], spec_path: Path, dest: Path, *, with_image: bool, image: dict | None = None
) -> Path:
    """Write tasks, ``manifest.json`` and ``SHA256SUMS`` into ``dest``; return the manifest path.

    ``image``: the manifest's ``image`` object (:func:`builder.image.thin.image_record`: the qcow2's
    form, and a thin one's base file, size and SHA-256); the base is listed in SHA256SUMS from it,
    not hashed again.

    The manifest lists input hashes, tool and package versions, each app's hostname and
    credentials, the persona's ``as_of``, and the size and SHA-256 of every artifact.
    """
    write_tasks(world, apps, dest)
    guest = json.loads((dest / "layer" / "etc" / "persona-desktop" / "guest.json").read_text())
    artifacts = []
    for path in sorted(p for p in dest.rglob("*") if p.is_file()):
        rel = path.relative_to(dest).as_posix()
        if rel in ("manifest.json", "SHA256SUMS") or (rel == "persona.qcow2" and not with_image):
            continue
        if "/" not in rel and rel.startswith("."):
            continue  # a top-level dotfile is a record of a tool (the base's hash record), not part of the build
        if image and rel == image.get("base", {}).get("file"):
            continue  # the shared base: the manifest's image.base names it (hashed once per base, not per build)
        artifacts.append({"path": rel, "size": path.stat().st_size, "sha256": sha256_file(path)})
    manifest = {
        "bundle_format": BUNDLE_FORMAT,
        "persona": world.persona.id,
        "split": split_of(world.persona.id),
        "seed": world.seed,
        "as_of": world.persona.as_of.isoformat(),
        "now": world.now.isoformat(),
        "timezone": world.persona.timezone,
        "currency": world.persona.finances.currency,
        "inputs": {
            "persona_spec": {"path": spec_path.name, "sha256": sha256_file(spec_path)},
            "builder": tree_hash(REPO / "builder"),
            "apps": {a.name: tree_hash(a.dir) for a in apps},
            "scenarios": tree_hash(REPO / "scenarios"),
            "image_recipe": tree_hash(REPO / "image") if (REPO / "image").is_dir() else None,
        },
        "tools": {"python": platform.python_version(), **{k: _tool_version(v) for k, v in _TOOLS.items()}},
        "packages": {name: metadata.version(name) for name in _PACKAGES},
        # The guest's RTC runs in local time: boot with -rtc base=<rtc_base> to see the persona's today.
        "guest": {
            "username": guest["username"],
            "password": guest["password"],
            "hostname": guest["hostname"],
            "timezone": guest["timezone"],
            "rtc_base": guest["as_of"],
        },
        "apps": [
            {
                "name": a.name,
                "title": a.title,
                "url": a.url,
                "domain": a.domain,
                "session_cookie": a.session_cookie,
                "database": a.guest_database,
                "username": (c := a.module("seed").credentials(world))["username"],
                "password": c["password"],
            }
            for a in apps
        ],
        "artifacts": artifacts,
    }
    if image:
        manifest["image"] = image
    path = dest / "manifest.json"
    path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    sums = [f"{a['sha256']}  {a['path']}" for a in artifacts] + [f"{sha256_file(path)}  manifest.json"]
    if "base" in manifest.get("image", {}):
        sums.append(f"{manifest['image']['base']['sha256']}  {manifest['image']['base']['file']}")
    (dest / "SHA256SUMS").write_text("\n".join(sums) + "\n", encoding="utf-8")
    return path
