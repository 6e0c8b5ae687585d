"""The whole pipeline, as a user runs it: `build-image` the default persona from scratch (base image
included, unless already cached), boot the qcow2 under QEMU (KVM if usable, TCG otherwise), fetch the
bank through the forwarded port with the persona's session cookie, and save a QMP screendump of the
desktop under out/.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from apps.board.documents import sprint_reviews

from builder.apps import discover
from builder.image.boot import app_probes, check_booted_image
from builder.bundle_format import sha256_file
from builder.image.thin import backing_name, check_base

from tests.conftest import DEFAULT_PERSONA, REPO

OUT = Path(os.environ.get("PERSONA_TEST_OUT", REPO / "out"))
#: The apps the boot test opens in the guest's Firefox besides the first (its home page).
SHOWN = {"mail", "calendar", "shop"}


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


@pytest.mark.slow
def test_image_boots_with_every_app_signed_in(built, world):
    apps = discover()
    shots = OUT / "dana-whitfield-screens"
    probes = app_probes(world, apps)
    bank = next(p for p in probes if p.name == "bank")
    checking = next(i for i, a in enumerate(world.persona.accounts, start=1) if a.kind == "checking")
    result = check_booted_image(
        built / "persona.qcow2",
        world.now.isoformat(),
        probes,
        shots,
        world.persona.identity.username,
        progress=print,
        # The checking account's activity: 25 rows, longer than the 1280x800 screen.
        desktop_page=(f"http://{bank.domain}/accounts/{checking}", re.escape(bank.title)),
        # Every app answers signed in through the guest's nginx (the probes above); Firefox opens a few of them
        # (about 20 s each under TCG), every one with PERSONA_BOOT_SCREENS=all.
        shown=None if os.environ.get("PERSONA_BOOT_SCREENS") == "all" else SHOWN,
    )
    print(json.dumps(result, indent=2))
    assert result["guest_date"].startswith("2026-11-16")
    assert sorted(result["healthy_s"]) == sorted(a.name for a in apps)
    assert result["untitled"] == [], "Firefox's title never named these apps"
    every = os.environ.get("PERSONA_BOOT_SCREENS") == "all"
    assert set(result["screendumps"]) == ({a.name for a in apps} if every else {"bank"} | SHOWN)  # the home page
    for name in result["screendumps"]:
        data = Path(result["screendumps"][name]).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000, name
    assert "Larkspur Bank" in result["window"]
    assert result["toolbar"], "the bookmarks toolbar was never drawn"
    home = result["home"]
    assert home["desktop_dir"] and home["impress"], home
    assert home["form_history"] >= 100, home  # Dana's 210 seeded entries, kept by the Firefox that is running
    # The desktop as a person uses it: Impress opens the first sprint review deck, Firefox prints the bank's
    # activity to a PDF.
    desk = result["desktop"]
    first = min(sprint_reviews(world), key=lambda r: r["path"])
    assert desk["deck"]["file"].endswith(first["path"]) and desk["deck"]["pages"] == 4 + bool(first["next"]), desk
    assert desk["print"]["file"].endswith(".pdf") and desk["print"]["pages"] >= 1, desk
