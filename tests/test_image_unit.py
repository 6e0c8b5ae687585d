"""Fast tests of the image pipeline's pure parts: Packer line parsing, base hash and
cache lookup, layer packing, app discovery and generated guest config."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import tarfile
import zlib
from pathlib import Path

import pytest

from builder.image import base as base_mod
from builder.image.apps import AppBuild, AppError, apps_source_key, assemble_standalone, discover
from builder.image.bake import BakeError, pack_layer, parse_as_of, read_guest_json, rtc_base
from builder.image.boot import ppm_to_png
from builder.image.packer import artifact_files, parse_line

REPO = Path(__file__).resolve().parents[1]


def test_parse_machine_readable_lines():
    ln = parse_line("1700000000,,ui,say,Build 'qemu' finished after 1 minute%!(PACKER_COMMA) 12 seconds.\n")
    assert ln is not None
    assert ln.timestamp == 1700000000 and ln.target == "" and ln.type == "ui"
    assert ln.message == "Build 'qemu' finished after 1 minute, 12 seconds."
    assert not ln.is_error
    err = parse_line("1700000001,,ui,error,Build 'qemu' errored: boom\\nsecond line")
    assert err.is_error and err.message == "Build 'qemu' errored: boom\nsecond line"
    art = [parse_line(x) for x in (
        "1700000002,qemu,artifact-count,1",
        "1700000002,qemu,artifact,0,builder-id,transcend.qemu",
        "1700000002,qemu,artifact,0,file,0,out/persona.qcow2",
    )]
    assert artifact_files(art) == ["out/persona.qcow2"]
    assert parse_line("") is None
    assert parse_line("==> qemu: human readable") is None


def _app(tmp: Path, name="bank", content=b"console.log(1)") -> AppBuild:
    d = tmp / name
    (d / ".next/static").mkdir(parents=True, exist_ok=True)
    (d / "server.js").write_bytes(content)
    return AppBuild(name, "Larkspur Bank", "larkspurbank.test", 3101, "bank.sqlite", d)


def test_base_hash_tracks_app_content_and_recipe(tmp_path):
    a = _app(tmp_path)
    h1 = base_mod.base_hash([a])
    assert h1 == base_mod.base_hash([a])
    (a.dir / "server.js").write_bytes(b"console.log(2)")
    h2 = base_mod.base_hash([a])
    assert h2 != h1
    # A source key replaces the built directory's content in the hash.
    k1 = base_mod.base_hash([a], source_key="s1")
    (a.dir / "server.js").write_bytes(b"console.log(3)")
    assert base_mod.base_hash([a], source_key="s1") == k1
    assert base_mod.base_hash([a], source_key="s2") != k1
    # App metadata is hashed too.
    b = AppBuild("bank", "Larkspur Bank", "larkspurbank.test", 3102, "bank.sqlite", a.dir)
    assert base_mod.base_hash([b], source_key="s1") != k1


def test_build_base_returns_cached_image_without_building(tmp_path, monkeypatch):
    a = _app(tmp_path)
    cache = tmp_path / "cache"
    cache.mkdir()
    out = base_mod.base_path(cache, base_mod.base_hash([a]))
    out.write_bytes(b"qcow2")

    def boom(*args, **kw):
        raise AssertionError("must not build when cached")

    monkeypatch.setattr(base_mod, "_build", boom)
    msgs = []
    assert base_mod.build_base(cache, [a], msgs.append) == out
    assert any("cached" in m for m in msgs)


def test_read_packages_drops_comments():
    pk = base_mod.read_packages()
    assert "linux-image-amd64" in pk and "firefox-esr" in pk and "nodejs" in pk
    assert "systemd-timesyncd" not in pk
    assert all(not p.startswith("#") and p.strip() == p for p in pk)


def _layer(tmp: Path) -> Path:
    layer = tmp / "layer"
    (layer / "etc/persona-desktop").mkdir(parents=True)
    (layer / "var/lib/persona-desktop/apps/bank").mkdir(parents=True)
    (layer / "home/dana/Documents").mkdir(parents=True)
    g = {"username": "dana", "full_name": "Dana Whitfield", "password": "pw", "uid": 1000,
         "timezone": "America/Los_Angeles", "as_of": "2026-11-16T09:00:00", "hostname": "dana-desktop",
         "apps": [{"name": "bank", "domain": "larkspurbank.test", "port": 3101, "database": "bank.sqlite"}],
         "homepage": "http://larkspurbank.test/"}
    (layer / "etc/persona-desktop/guest.json").write_text(json.dumps(g))
    c = sqlite3.connect(layer / "var/lib/persona-desktop/apps/bank/bank.sqlite")
    c.execute("create table t(x)")
    c.commit()
    c.close()
    (layer / "home/dana/Documents/a.txt").write_text("hello")
    os.symlink("Documents/a.txt", layer / "home/dana/link")
    return layer


def test_pack_layer_is_deterministic_and_clamped(tmp_path):
    layer = _layer(tmp_path)
    clamp = 1_700_000_000
    t1, t2 = tmp_path / "a.tar", tmp_path / "b.tar"
    pack_layer(layer, t1, clamp)
    os.utime(layer / "home/dana/Documents/a.txt", (2_000_000_000, 2_000_000_000))
    pack_layer(layer, t2, clamp)
    assert hashlib.sha256(t1.read_bytes()).digest() == hashlib.sha256(t2.read_bytes()).digest()
    assert t1.stat().st_size % (1 << 20) == 0
    with tarfile.open(t1) as tf:
        names = tf.getnames()
        assert names == sorted(names[:-1]) + ["etc/adjtime"]
        for m in tf.getmembers():
            assert (m.uid, m.gid, m.uname, m.gname) == (0, 0, "root", "root")
            assert m.mtime <= clamp
        assert tf.getmember("home/dana/link").issym()
        assert tf.extractfile("etc/adjtime").read().endswith(b"LOCAL\n")


def test_read_guest_json_checks_layer(tmp_path):
    layer = _layer(tmp_path)
    assert read_guest_json(layer)["username"] == "dana"
    (layer / "var/lib/persona-desktop/apps/bank/bank.sqlite").unlink()
    with pytest.raises(BakeError, match="missing"):
        read_guest_json(layer)


def test_as_of_is_local_wall_time():
    assert rtc_base("2026-11-16T09:00:00") == "2026-11-16T09:00:00"
    assert rtc_base("2026-11-16T09:00") == "2026-11-16T09:00:00"
    assert parse_as_of("2026-11-16T09:00:00").hour == 9
    with pytest.raises(ValueError):
        rtc_base("2026-11-16T09:00:00+02:00")


def test_ppm_to_png_roundtrip():
    w, h = 3, 2
    pix = bytes(range(w * h * 3))
    png = ppm_to_png(b"P6\n%d %d\n255\n" % (w, h) + pix)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # IDAT holds filter byte 0 + row bytes per row.
    i = png.index(b"IDAT")
    n = int.from_bytes(png[i - 4:i], "big")
    raw = zlib.decompress(png[i + 4:i + 4 + n])
    assert raw == b"\0" + pix[:9] + b"\0" + pix[9:]


def test_discover_apps_reads_app_yaml(tmp_path):
    root = tmp_path
    (root / "apps/bank").mkdir(parents=True)
    (root / "apps/_ui").mkdir(parents=True)
    (root / "apps/_ui/app.yaml").write_text("name: ui\n")
    (root / "apps/bank/app.yaml").write_text(
        "name: bank\ntitle: Larkspur Bank\ndomain: larkspurbank.test\nport: 3101\n"
        "database: bank.sqlite\nsession_cookie: lb_session\nbrand: {primary: '#000'}\n")
    metas = discover(root / "apps")
    assert [m.name for m in metas] == ["bank"]
    assert metas[0].port == 3101 and metas[0].session_cookie == "lb_session"
    k1 = apps_source_key(root, metas)
    (root / "apps/bank/app.yaml").write_text((root / "apps/bank/app.yaml").read_text() + "\n")
    assert apps_source_key(root, metas) != k1
    (root / "apps/mail").mkdir()
    (root / "apps/mail/app.yaml").write_text(
        "name: mail\ntitle: M\ndomain: larkspurbank.test\nport: 3102\ndatabase: m.sqlite\nsession_cookie: m\n")
    with pytest.raises(AppError, match="domain"):
        discover(root / "apps")


def test_repo_apps_are_valid():
    if not (REPO / "apps").is_dir():
        pytest.skip("no apps/")
    for m in discover(REPO / "apps"):
        assert m.domain.endswith(".test")


def test_assemble_standalone_workspace_layout(tmp_path):
    web = tmp_path / "apps/bank/web"
    sa = web / ".next/standalone"
    (sa / "bank/web/.next").mkdir(parents=True)
    (sa / "bank/web/server.js").write_text("//")
    (sa / "node_modules/next").mkdir(parents=True)
    (sa / "node_modules/next/server.js").write_text("// not this one")
    (web / ".next/static/chunks").mkdir(parents=True)
    (web / ".next/static/chunks/a.js").write_text("a")
    (web / "public").mkdir()
    (web / "public/logo.svg").write_text("<svg/>")
    dest = tmp_path / "out"
    entry = assemble_standalone(web, dest)
    assert entry == "bank/web/server.js"
    assert (dest / "bank/web/.next/static/chunks/a.js").exists()
    assert (dest / "bank/web/public/logo.svg").exists()
    app = AppBuild("bank", "Larkspur Bank", "larkspurbank.test", 3101, "bank.sqlite", dest, entry)
    assert app.guest_workdir == "/opt/persona-desktop/apps/bank/bank/web"


def test_generated_unit_nginx_and_hosts(tmp_path):
    a = AppBuild("bank", "Larkspur Bank", "larkspurbank.test", 3101, "bank.sqlite", tmp_path, "bank/web/server.js")
    unit = base_mod.app_unit(a)
    assert "Environment=PORT=3101" in unit and "Environment=HOSTNAME=127.0.0.1" in unit
    assert "DATABASE_PATH=/var/lib/persona-desktop/apps/bank/bank.sqlite" in unit
    assert "WorkingDirectory=/opt/persona-desktop/apps/bank/bank/web" in unit
    assert "ExecStart=/usr/bin/node server.js" in unit and "Restart=on-failure" in unit
    assert "ConditionPathExists=/var/lib/persona-desktop/apps/bank/bank.sqlite" in unit
    ng = base_mod.app_nginx(a)
    assert "server_name larkspurbank.test;" in ng and "proxy_pass http://127.0.0.1:3101;" in ng
    assert "127.0.0.1\tlarkspurbank.test" in base_mod.hosts_file([a])


def test_bake_rtc_is_utc_of_local_as_of():
    from builder.image.bake import bake_rtc_base

    assert bake_rtc_base("2026-11-16T09:00:00", "America/Los_Angeles") == "2026-11-16T17:00:00"
    assert bake_rtc_base("2026-07-01T09:00:00", "Europe/London") == "2026-07-01T08:00:00"
