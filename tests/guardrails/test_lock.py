"""requirements.lock (the host's Python dependencies, resolved with their hashes) agrees with pyproject.toml."""

from __future__ import annotations

import re
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import REPO

LOCK = REPO / "requirements.lock"
# One pinned requirement line of the lock: "name==version" then an optional "; marker" and the hashes' backslash.
PINNED = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def _locked() -> dict[str, tuple[str, str]]:
    """Canonical name -> (version, the requirement's whole logical line with its hashes)."""
    logical = re.sub(r"\\\n", " ", LOCK.read_text(encoding="utf-8"))
    found = {}
    for line in logical.splitlines():
        match = PINNED.match(line)
        if match:
            found[canonicalize_name(match[1])] = (match[2], line)
    return found


def _wanted() -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [Requirement(r) for r in [*project["dependencies"], *project["optional-dependencies"]["test"]]]


def test_lock_pins_every_dependency_of_pyproject_within_its_range():
    locked = _locked()
    wrong = []
    for req in _wanted():
        version = locked.get(canonicalize_name(req.name), (None,))[0]
        if version is None:
            wrong.append(f"{req}: not in requirements.lock")
        elif not req.specifier.contains(version, prereleases=True):
            wrong.append(f"{req}: the lock has {version}")
    assert not wrong, "regenerate requirements.lock (its first lines give the command):\n" + "\n".join(wrong)


def test_every_locked_package_has_hashes():
    locked = _locked()
    assert len(locked) >= len(_wanted())
    assert not [name for name, (_, line) in locked.items() if "--hash=sha256:" not in line]


def test_install_script_installs_from_the_lock():
    script = (REPO / "scripts" / "install.sh").read_text(encoding="utf-8")
    assert "--require-hashes -r requirements.lock" in script and "--no-deps -e" in script
