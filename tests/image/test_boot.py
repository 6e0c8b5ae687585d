"""The whole pipeline, as a user runs it: `build-image` the default persona from scratch (base image
included, unless already cached) into a verified bundle under out/. The run's one cold boot of it is
tests/runtime/test_run_image.py's run-image, which also looks at the desktop; the Podman test boots it in
its container.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from builder.bundle_format import sha256_file
from builder.image.thin import backing_name, check_base

from tests.conftest import DEFAULT_PERSONA, REPO

OUT = Path(os.environ.get("PERSONA_TEST_OUT", REPO / "out"))


@pytest.fixture(scope="module")
def built():
    res = subprocess.run(
        [sys.executable, "-m", "builder.cli", str(DEFAULT_PERSONA), "--out", str(OUT)],
        cwd=REPO,
        stdout=None,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert res.returncode == 0, res.stderr[-4000:]
    return OUT / "dana-whitfield"


@pytest.mark.slow
def test_build_image_writes_a_verified_bundle(built):
    manifest = json.loads((built / "manifest.json").read_text())
    qcow2 = next(a for a in manifest["artifacts"] if a["path"] == "persona.qcow2")
    assert qcow2["size"] == (built / "persona.qcow2").stat().st_size
    head = (built / "persona.qcow2").read_bytes()[:4]
    assert head == b"QFI\xfb"  # qcow2 magic
    sums = dict(reversed(line.split("  ", 1)) for line in (built / "SHA256SUMS").read_text().splitlines())
    digest = hashlib.sha256()
    with (built / "persona.qcow2").open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 22), b""):
            digest.update(block)
    assert sums["persona.qcow2"] == digest.hexdigest() == qcow2["sha256"]
    # A thin image: the bake's delta on the shared base, which sits beside it (hard-linked from the cache) and is
    # named with its SHA-256 in the manifest and in SHA256SUMS.
    image = manifest["image"]
    assert image["form"] == "thin" and image["qcow2"] == "persona.qcow2"
    base = built / image["base"]["file"]
    assert backing_name(built / "persona.qcow2") == base.name and base.stat().st_nlink >= 2
    assert image["base"]["size"] == base.stat().st_size
    assert sums[base.name] == image["base"]["sha256"] == sha256_file(base)
    assert qcow2["size"] <= 100 * 1024 * 1024, f"the persona's delta is {qcow2['size'] / 2**20:.1f} MiB"
    assert check_base(built / "persona.qcow2", manifest) == base
    assert [p.name for p in OUT.glob(".dana-whitfield.*")] == [".dana-whitfield.lock"], "staging folders left behind"


@pytest.mark.slow
def test_reserved_usernames_cover_the_base_images_accounts(built):
    """Every user and group of the base image is a name the persona spec refuses (kept in sync by this test)."""
    from builder.image.base import base_accounts
    from builder.persona.model import RESERVED_USERNAMES

    cache = Path(os.environ.get("PERSONA_CACHE", REPO / ".cache"))
    sidecars = [q for q in cache.glob("base-*.qcow2") if base_accounts(q) is not None]
    assert sidecars, f"no base image with recorded accounts in {cache}"
    for qcow2 in sidecars:
        accounts = base_accounts(qcow2)
        assert "root" in accounts and "nobody" in accounts
        assert sorted(set(accounts) - RESERVED_USERNAMES) == [], "add to builder/persona/reserved_usernames.txt"
