"""Thin persona images with real qemu-img: the bake's delta on a base, written as build-image writes it
(convert -B, a backing name beside the image, the base hard-linked), checked and refused as run-image does,
and published and pulled with the base fetched once for two personas (a file:// index, no network)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from builder.bundle_format import sha256_file
from builder.image.base import convert
from builder.image.thin import (
    ThinImageError,
    backing_name,
    base_sha256,
    check_base,
    image_record,
    is_base_file,
    place_base,
    relative_backing,
)
from builder.runtime import pull as P
from builder.runtime.run import RunError, resolve_image

pytestmark = pytest.mark.skipif(shutil.which("qemu-io") is None, reason="qemu-utils is not installed")
MiB = 1 << 20


def _qemu_io(image: Path, *commands: str) -> None:
    args = ["qemu-io", "-f", "qcow2"]
    for c in commands:
        args += ["-c", c]
    subprocess.run([*args, str(image)], check=True, capture_output=True)


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A 64 MiB base with 24 MiB of data, as the cache holds it (base-<hash16>.qcow2)."""
    d = tmp_path_factory.mktemp("cache")
    b = d / "base-0123456789abcdef.qcow2"
    subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", str(b), "64M"], check=True)
    _qemu_io(b, "write -P 0x11 0 16M", "write -P 0x22 32M 8M")
    return b


def _thin_build(base: Path, folder: Path, persona: str, pattern: int) -> Path:
    """A build folder as the image stage leaves it: the bake's overlay converted to a delta on ``base``."""
    work = folder.parent / f".{persona}-work"
    work.mkdir(parents=True)
    overlay = work / "packer.qcow2"
    subprocess.run(
        ["qemu-img", "create", "-q", "-f", "qcow2", "-b", str(base), "-F", "qcow2", str(overlay)], check=True
    )
    _qemu_io(overlay, f"write -P {pattern} 4M 2M", f"write -P {pattern} 40M 1M")  # what the bake changed
    (folder / "tasks").mkdir(parents=True)
    out = folder / "persona.qcow2"
    convert(overlay, out, work / "convert.log", src_fmt="qcow2", backing=base)
    relative_backing(out, base.name)
    place_base(base, folder)
    (folder / "tasks" / "tasks.jsonl").write_text('{"id": "bank-001"}\n')
    manifest = {"persona": persona, "as_of": "2026-11-16", "seed": 1, "image": image_record(folder)}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    # The delta reads exactly as the bake left the disk.
    same = subprocess.run(["qemu-img", "compare", "-q", str(out), str(overlay)], capture_output=True)
    assert same.returncode == 0, same.stderr
    return folder


def test_a_thin_build_holds_only_the_delta_and_names_its_base_beside_it(base, tmp_path):
    build = _thin_build(base, tmp_path / "out" / "ann-lee", "ann-lee", 0x33)
    qcow2 = build / "persona.qcow2"
    assert backing_name(qcow2) == base.name  # a bare name, resolved against the image's own folder
    assert qcow2.stat().st_size < 4 * MiB  # 3 MiB written, compressed; the 24 MiB of the base are not copied
    beside = build / base.name
    assert beside.samefile(base) and base.stat().st_nlink >= 2  # a hard link, no bytes copied
    manifest = json.loads((build / "manifest.json").read_text())
    assert manifest["image"] == {
        "qcow2": "persona.qcow2",
        "form": "thin",
        "base": {"file": base.name, "size": base.stat().st_size, "sha256": sha256_file(base)},
    }
    assert check_base(qcow2, manifest) == beside
    ref = resolve_image(str(build))  # run-image's, the host agent's and the Docker wrapper's way in
    assert ref.qcow2 == qcow2.resolve()
    # The hash is recorded beside the base and trusted while its size and mtime hold.
    assert base_sha256(beside) == manifest["image"]["base"]["sha256"]
    assert json.loads((build / f".{base.name}.sha256.json").read_text())["sha256"] == sha256_file(base)


def test_a_full_image_needs_no_base(base, tmp_path):
    full = tmp_path / "full"
    full.mkdir()
    subprocess.run(["qemu-img", "convert", "-O", "qcow2", str(base), str(full / "persona.qcow2")], check=True)
    assert backing_name(full / "persona.qcow2") is None
    assert image_record(full) == {"qcow2": "persona.qcow2", "form": "full"}
    assert check_base(full / "persona.qcow2", None) is None
    assert resolve_image(str(full)).qcow2 == (full / "persona.qcow2").resolve()


def test_a_missing_or_different_base_is_refused_with_what_to_do(base, tmp_path):
    build = _thin_build(base, tmp_path / "b" / "cal-ng", "cal-ng", 0x44)
    manifest = json.loads((build / "manifest.json").read_text())
    (build / base.name).unlink()
    with pytest.raises(ThinImageError, match=rf"thin image on the base {base.name} \(SHA-256 [0-9a-f]{{64}}\).*pull"):
        check_base(build / "persona.qcow2", manifest)
    with pytest.raises(RunError, match="not beside it"):
        resolve_image(str(build))
    # Another base under the same name (rebuilt elsewhere: ext4 stamps differ) is not the one the delta was made on.
    other = tmp_path / "other" / base.name
    other.parent.mkdir()
    shutil.copyfile(base, other)
    _qemu_io(other, "write -P 0x55 60M 1M")
    place_base(other, build)
    with pytest.raises(RunError, match="is not the base persona.qcow2 was made on"):
        resolve_image(str(build))
    with pytest.raises(ThinImageError, match="not a qcow2"):
        backing_name(build / "manifest.json")
    # The header must name the base the manifest records, by a base image's name, nothing else.
    manifest["image"]["base"]["file"] = "base-ffffffffffffffff.qcow2"
    with pytest.raises(ThinImageError, match="not the base its manifest records"):
        check_base(build / "persona.qcow2", manifest)
    assert not is_base_file("base-/../../tmp/x.qcow2") and not is_base_file("/etc/base-0123456789abcdef.qcow2")


def test_a_pulled_image_may_not_name_any_other_backing_file(base, tmp_path):
    """A download whose header names a host file (here the base by absolute path, standing in for ~/.ssh/...) is
    refused by pull-image before run-image could open it."""
    evil = tmp_path / "evil.qcow2"
    subprocess.run(
        ["qemu-img", "create", "-q", "-f", "qcow2", "-b", str(base), "-F", "qcow2", str(evil), "64M"], check=True
    )
    with pytest.raises(P.PullError, match="not a base image beside it: refused"):
        P.pull(evil.as_uri(), sha256=sha256_file(evil), cache_dir=tmp_path / "cache")


def test_publish_and_pull_fetch_a_shared_base_once(base, tmp_path):
    """Two personas on one base: the index stores the base once under bases/, and a cache that pulled the
    first persona fetches only the second one's delta; each pulled folder runs as it is."""
    pub = tmp_path / "pub" / "index.json"
    for persona, pattern in (("ann-lee", 0x33), ("bo-chen", 0x66)):
        build = _thin_build(base, tmp_path / "out" / persona, persona, pattern)
        entry = P.publish(build, pub, copy=True)
        assert entry["base"]["url"] == f"bases/{sha256_file(base)[:16]}/{base.name}"
        assert entry["base"]["sha256"] == sha256_file(base)
    assert [p.relative_to(pub.parent).as_posix() for p in pub.parent.rglob("base-*.qcow2")] == [
        f"bases/{sha256_file(base)[:16]}/{base.name}"
    ]
    cache = tmp_path / "cache"
    first = P.pull("ann-lee", index=str(pub), cache_dir=cache)
    assert not first.transfers[base.name].cached and "its base" in first.summary()
    second = P.pull("bo-chen", index=str(pub), cache_dir=cache)
    assert second.transfers[base.name].cached and second.transfers["persona.qcow2"].fetched > 0
    assert "was already in the cache" in second.summary()
    stored = cache / "_bases" / sha256_file(base)[:16] / base.name
    assert resolve_image("bo-chen", cache).qcow2 == second.qcow2.resolve()  # run-image NAME --cache-dir
    for r in (first, second):
        assert (r.folder / base.name).samefile(stored)
        # the fetch verified the base: its record came along, so run-image trusts it without hashing 800 MB again
        record = json.loads((r.folder / f".{base.name}.sha256.json").read_text())
        assert record["sha256"] == sha256_file(base) and record["size"] == base.stat().st_size
        assert resolve_image(str(r.folder)).qcow2 == r.qcow2.resolve()
        same = subprocess.run(
            ["qemu-img", "compare", "-q", str(r.qcow2), str(tmp_path / "out" / r.folder.parent.name / "persona.qcow2")],
            capture_output=True,
        )
        assert same.returncode == 0, same.stderr
    # A plain URL pull of a thin image cannot know its base: it says so instead of leaving an image that won't boot.
    delta = tmp_path / "out" / "ann-lee" / "persona.qcow2"
    with pytest.raises(P.PullError, match=f"thin image on {base.name}.*index or hf://"):
        P.pull(delta.as_uri(), sha256=sha256_file(delta), cache_dir=tmp_path / "cache2")
    # An index entry whose base is not a base image's file name is refused by name.
    doc = json.loads(pub.read_text())
    doc["images"][0]["base"]["url"] = "bases/x/evil.qcow2"
    with pytest.raises(P.PullError, match=r"images\[0\]\.base\.url must name a base-<hash>\.qcow2"):
        P.parse_index(doc, pub.as_uri())
