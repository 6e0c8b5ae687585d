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
from builder.apps import App, AppError, discover
from builder.site import SiteBuild, assemble, source_key
from builder.image.bake import BakeError, pack_layer, parse_as_of, read_guest_json, rtc_base
from builder.image.boot import ppm_to_png
from builder.image.packer import artifact_files, parse_line

REPO = Path(__file__).resolve().parents[2]


def test_parse_machine_readable_lines():
    ln = parse_line("1700000000,,ui,say,Build 'qemu' finished after 1 minute%!(PACKER_COMMA) 12 seconds.\n")
    assert ln is not None
    assert ln.timestamp == 1700000000 and ln.target == "" and ln.type == "ui"
    assert ln.message == "Build 'qemu' finished after 1 minute, 12 seconds."
    assert not ln.is_error
    err = parse_line("1700000001,,ui,error,Build 'qemu' errored: boom\\nsecond line")
    assert err.is_error and err.message == "Build 'qemu' errored: boom\nsecond line"
    art = [
        parse_line(x)
        for x in (
            "1700000002,qemu,artifact-count,1",
            "1700000002,qemu,artifact,0,builder-id,transcend.qemu",
            "1700000002,qemu,artifact,0,file,0,out/persona.qcow2",
        )
    ]
    assert artifact_files(art) == ["out/persona.qcow2"]
    assert parse_line("") is None
    assert parse_line("==> qemu: human readable") is None


def _app(tmp: Path, name="bank", domain="larkspurbank.test") -> App:
    return App(name, "Larkspur Bank", domain, "bank.sqlite", "lb_session", tmp / name)


def test_base_hash_tracks_apps_sources_and_recipe(tmp_path):
    a = _app(tmp_path)
    k1 = base_mod.base_hash([a], "s1")
    assert k1 == base_mod.base_hash([a], "s1")
    assert base_mod.base_hash([a], "s2") != k1
    # App metadata is hashed too.
    assert base_mod.base_hash([_app(tmp_path, domain="bank2.test")], "s1") != k1


def test_build_base_returns_cached_image_without_building(tmp_path, monkeypatch):
    a = _app(tmp_path)
    site = SiteBuild(tmp_path / "site", (a,), "s1")
    cache = tmp_path / "cache"
    cache.mkdir()
    out = base_mod.base_path(cache, base_mod.base_hash([a], "s1"))
    out.write_bytes(b"qcow2")

    def boom(*args, **kw):
        raise AssertionError("must not build when cached")

    monkeypatch.setattr(base_mod, "_build", boom)
    msgs = []
    assert base_mod.build_base(cache, site, msgs.append) == out
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
    g = {
        "username": "dana",
        "full_name": "Dana Whitfield",
        "password": "pw",
        "uid": 1000,
        "timezone": "America/Los_Angeles",
        "as_of": "2026-11-16T09:00:00",
        "hostname": "dana-desktop",
        "apps": [{"name": "bank", "domain": "larkspurbank.test", "port": 3101, "database": "bank.sqlite"}],
        "homepage": "http://larkspurbank.test/",
    }
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
    n = int.from_bytes(png[i - 4 : i], "big")
    raw = zlib.decompress(png[i + 4 : i + 4 + n])
    assert raw == b"\0" + pix[:9] + b"\0" + pix[9:]


def _web(root: Path, name: str, domain: str) -> None:
    (root / f"apps/{name}/web/app").mkdir(parents=True)
    (root / f"apps/{name}/app.yaml").write_text(
        f"name: {name}\ntitle: T {name}\ndomain: {domain}\ndatabase: {name}.sqlite\nsession_cookie: {name}_session\n"
    )
    (root / f"apps/{name}/web/app/layout.tsx").write_text("export default function L() {}\n")


def test_discover_apps_reads_app_yaml(tmp_path):
    root = tmp_path
    (root / "apps/_ui").mkdir(parents=True)
    (root / "apps/_ui/app.yaml").write_text("name: ui\n")
    _web(root, "bank", "larkspurbank.test")
    metas = discover(root / "apps")
    assert [m.name for m in metas] == ["bank"]
    assert (
        metas[0].session_cookie == "bank_session"
        and metas[0].guest_database == "/var/lib/persona-desktop/apps/bank/bank.sqlite"
    )
    k1 = source_key(metas, root / "apps")
    (root / "apps/bank/app.yaml").write_text((root / "apps/bank/app.yaml").read_text() + "\n")
    assert source_key(metas, root / "apps") != k1
    k2 = source_key(metas, root / "apps")
    (root / "apps/bank/web/app/page.tsx").write_text("x")
    assert source_key(metas, root / "apps") != k2
    (root / "reference/tax").mkdir(parents=True)
    (root / "reference/tax/rules.json").write_text("{}")
    k3 = source_key(metas, root / "apps", root / "reference")
    (root / "reference/tax/rules.json").write_text('{"US": {}}')
    assert source_key(metas, root / "apps", root / "reference") != k3, "a reference file the web reads is a source"
    k4 = source_key(metas, root / "apps", root / "reference")
    (root / "apps/bank/models.py").write_text("# tables")  # its table names are generated into the site
    assert source_key(metas, root / "apps", root / "reference") != k4
    _web(root, "mail", "larkspurbank.test")
    with pytest.raises(AppError, match="domain"):
        discover(root / "apps")
    (root / "apps/mail/app.yaml").write_text(
        "name: mail\ntitle: M\ndomain: m.test\ndatabase: m.sqlite\nsession_cookie: bank_session\n"
    )
    with pytest.raises(AppError, match="session_cookie"):
        discover(root / "apps")
    (root / "apps/mail/app.yaml").write_text(
        "name: work-chat\ntitle: M\ndomain: m.test\ndatabase: m.sqlite\nsession_cookie: m\n"
    )
    with pytest.raises(AppError, match="must match"):
        discover(root / "apps")


def test_repo_apps_are_valid():
    for m in discover(REPO / "apps"):
        assert m.domain.endswith(".test")
        assert (m.dir / "web/app/layout.tsx").is_file(), f"{m.name} has no root layout"


def test_assemble_mounts_each_app_in_its_segment(tmp_path):
    root = tmp_path
    for name, domain in (("bank", "larkspurbank.test"), ("mail", "mail.test")):
        _web(root, name, domain)
        (root / f"apps/{name}/web/lib").mkdir()
        (root / f"apps/{name}/web/lib/db.ts").write_text(f"// {name}")
        (root / f"apps/{name}/web/e2e").mkdir()
        (root / f"apps/{name}/web/e2e/x.test.mjs").write_text("//")
    (root / "apps/bank/web/public").mkdir()
    (root / "apps/bank/web/public/favicon.svg").write_text("<svg/>")
    site = assemble(root / "apps", discover(root / "apps"))
    assert (site / "src/app/bank/layout.tsx").is_file() and (site / "src/app/mail/layout.tsx").is_file()
    assert (site / "src/apps/mail/lib/db.ts").read_text() == "// mail"
    assert not (site / "src/apps/bank/e2e").exists(), "tests are not mounted"
    assert (site / "public/bank/favicon.svg").is_file()
    assert json.loads((site / "src/generated/hosts.json").read_text()) == {
        "larkspurbank.test": "bank",
        "mail.test": "mail",
    }
    assert json.loads((site / "src/generated/databases.json").read_text()) == {
        "bank": "bank.sqlite",
        "mail": "mail.sqlite",
    }
    assert (site / "src/generated/reference/tax/rules.json").read_bytes() == (
        REPO / "builder/reference/tax/rules.json"
    ).read_bytes()
    # Each app's settings for @persona/platform/app (no models.py here: no tables to require).
    assert json.loads((site / "src/generated/apps.json").read_text())["mail"] == {
        "name": "mail",
        "title": "T mail",
        "domain": "mail.test",
        "database": "mail.sqlite",
        "session_cookie": "mail_session",
        "brand": {},
        "tables": [],
    }
    # A second assembly replaces the first (an app removed is gone).
    site = assemble(root / "apps", discover(root / "apps")[:1])
    assert not (site / "src/app/mail").exists()


def test_generated_unit_nginx_and_hosts(tmp_path):
    a, b = _app(tmp_path), _app(tmp_path, "mail", "mail.test")
    site = SiteBuild(tmp_path, (a, b), "k")
    unit = base_mod.site_unit(site)
    assert "Environment=PORT=3100" in unit and "Environment=HOSTNAME=127.0.0.1" in unit
    assert "Environment=PERSONA_DATA_DIR=/var/lib/persona-desktop/apps" in unit
    assert "WorkingDirectory=/opt/persona-desktop/site/_site" in unit
    assert "ExecStart=/usr/bin/node server.js" in unit and "Restart=on-failure" in unit
    ng = base_mod.app_nginx(b)
    assert "server_name mail.test;" in ng and "proxy_pass http://127.0.0.1:3100;" in ng
    hosts = base_mod.hosts_file([a, b])
    assert "127.0.0.1\tlarkspurbank.test" in hosts and "127.0.0.1\tmail.test" in hosts


def test_bake_rtc_is_utc_of_local_as_of():
    from builder.image.bake import bake_rtc_base

    assert bake_rtc_base("2026-11-16T09:00:00", "America/Los_Angeles") == "2026-11-16T17:00:00"
    assert bake_rtc_base("2026-07-01T09:00:00", "Europe/London") == "2026-07-01T08:00:00"


def test_concurrent_site_builds_in_one_work_dir_build_once(tmp_path, monkeypatch):
    """Two builds of the same sources in one work folder: the second waits on the lock, then finds the
    first one's result instead of rebuilding over it (which broke Next.js mid-build before)."""
    import threading
    import time

    import builder.site as site_mod

    _web(tmp_path, "bank", "larkspurbank.test")
    apps = discover(tmp_path / "apps")
    calls, waits = [], []

    def fake_build(apps_, work_dir, key, dest, progress, apps_dir):
        calls.append(key)
        time.sleep(0.5)  # long enough that the other thread arrives while this one holds the lock
        (dest / "_site").mkdir(parents=True)
        (dest / "_site" / "server.js").write_text("")
        (dest / ".persona-source-key").write_text(key)
        return SiteBuild(dest, tuple(apps_), key)

    monkeypatch.setattr(site_mod, "_build_locked", fake_build)
    work = tmp_path / "work"
    results = []

    def build():
        results.append(
            site_mod.build_site(
                apps, work, lambda m: waits.append(m) if "waiting" in m else None, apps_dir=tmp_path / "apps"
            )
        )

    threads = [threading.Thread(target=build) for _ in range(2)]
    threads[0].start()
    time.sleep(0.1)
    threads[1].start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and len(results) == 2 and results[0].dir == results[1].dir
    assert waits, "the second build said it was waiting"


def test_app_settings_name_each_apps_tables():
    """The generated settings carry every table of an app's models.py, which its web side then requires."""
    from builder.site import app_settings

    apps = discover(REPO / "apps")
    settings = app_settings(apps)
    assert list(settings) == sorted(a.name for a in apps)
    for a in apps:
        s = settings[a.name]
        assert (s["title"], s["session_cookie"], s["database"]) == (a.title, a.session_cookie, a.database)
        assert {"meta", "users", "sessions"} <= set(s["tables"]) and s["tables"] == sorted(s["tables"])


def test_base_build_says_when_the_disk_is_too_small(tmp_path):
    base_mod._need_space(tmp_path, 1, "a byte")
    with pytest.raises(base_mod.BaseImageError, match=r"need about .* GiB free in .*PERSONA_CACHE"):
        base_mod._need_space(tmp_path, 1 << 60, "the disk image and its qcow2")


def test_the_guest_checks_read_the_profile_the_layer_writes():
    from builder.image.boot import GUEST_PROFILE
    from builder.layer import PROFILE_NAME

    assert GUEST_PROFILE == PROFILE_NAME
