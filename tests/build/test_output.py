"""build-image's output folder: one lock per persona, an atomic swap, repair after kills, clear --out errors.

The end-to-end tests run the real CLI (``python -m builder.cli``, what the ``build-image`` console script
calls) as subprocesses into ``tmp_path``; the unit tests drive :mod:`builder.output` directly. The folder's
handling is the same whatever the last stage, so the CLI tests build the world stage of a small persona (one
month of history) in the fast lane, and the default persona's bundle in the full lane (``pipeline``).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from builder import output

from tests.conftest import DEFAULT_PERSONA, REPO

DANA = "dana-whitfield"
JORDAN_SPEC = REPO / "personas" / "jordan-lee.json"
JORDAN = "jordan-lee"
WAITING = "waiting for another build of"
# A persona whose world builds in about a second: a month of history, no days ahead.
SMALL = {"history_months": 1, "horizon_days": 0}


@dataclass(frozen=True)
class Build:
    """Which build the CLI tests make: ``until`` (the last stage), ``spec`` and ``other`` (two personas' spec files)
    and ``id`` and ``other_id`` (their ids)."""

    until: str
    spec: Path
    id: str
    other: Path
    other_id: str


@pytest.fixture(params=["world", pytest.param("bundle", marks=pytest.mark.pipeline)])
def build(request, tmp_path_factory) -> Build:
    if request.param == "bundle":
        return Build("bundle", DEFAULT_PERSONA, DANA, JORDAN_SPEC, JORDAN)
    specs = tmp_path_factory.mktemp("specs")
    for name in ("Tess Small", "Ned Small"):
        (specs / f"{name.split()[0].lower()}.json").write_text(json.dumps({"identity": {"name": name}, **SMALL}))
    return Build("world", specs / "tess.json", "tess-small", specs / "ned.json", "ned-small")


#: Seconds a CLI build may take before the test gives up: a hang guard, not a speed check (a bundle build of the
#: default persona takes about a minute alone, two waiting on each other on a busy 2-core host several).
BUILD_TIMEOUT = 900


def _start(out: Path, spec: Path = DEFAULT_PERSONA, until: str = "bundle") -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "builder.cli", str(spec), "--out", str(out), "--until", until],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _run(out: Path, spec: Path = DEFAULT_PERSONA, until: str = "bundle") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "builder.cli", str(spec), "--out", str(out), "--until", until],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
    )


def _finish(proc: subprocess.Popen) -> tuple[int, str]:
    _, err = proc.communicate(timeout=BUILD_TIMEOUT)
    return proc.returncode, err


def _verify(build: Path, until: str = "bundle") -> int:
    """``build`` is a whole build: for a bundle, manifest.json present and every SHA256SUMS line matching its file;
    for the world stage, its four files, each JSON (lines of JSON for the events)."""
    assert build.is_dir(), f"{build} is missing"
    if until == "world":
        world = build / "world"
        assert sorted(p.name for p in build.iterdir()) == ["world"]
        for name in ("stats.json", "planted.json", "persona.completed.json"):
            json.loads((world / name).read_text())
        lines = (world / "events.jsonl").read_text().splitlines()
        assert lines and all(json.loads(line) for line in lines)
        return len(lines)
    assert (build / "manifest.json").is_file(), f"{build}/manifest.json is missing"
    json.loads((build / "manifest.json").read_text())
    lines = (build / "SHA256SUMS").read_text().splitlines()
    assert len(lines) >= 10
    for line in lines:
        digest, name = line.split("  ", 1)
        path = build / name
        assert path.is_file(), f"{name} is listed in SHA256SUMS but missing"
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, f"{name}: checksum mismatch"
    return len(lines)


def _dot_entries(out: Path) -> set[str]:
    return {p.name for p in out.iterdir() if p.name.startswith(".")}


# --- end to end: the CLI ---------------------------------------------------------------------------------


@pytest.mark.parametrize("delay", [0.0, 0.6])
def test_two_builds_of_one_persona_take_turns(tmp_path, delay, build):
    if delay and build.until == "world":
        pytest.skip("the small world can finish before a late second build starts; the bundle variant covers it")
    if not delay and build.until == "bundle":
        pytest.skip("two builds started together: the world variant covers it (a bundle build is a CPU-minute)")
    first = _start(tmp_path, build.spec, build.until)
    time.sleep(delay)
    second = _start(tmp_path, build.spec, build.until)
    (rc1, err1), (rc2, err2) = _finish(first), _finish(second)
    assert rc1 == 0, err1
    assert rc2 == 0, err2
    waited = [err for err in (err1, err2) if WAITING in err]
    assert len(waited) == 1, (err1, err2)
    line = next(ln for ln in waited[0].splitlines() if WAITING in ln)
    assert line == f"build-image: waiting for another build of {build.id} in {tmp_path.resolve()} to finish"
    assert "Built" in err1 and "Built" in err2  # the waiting one rebuilt after the first was done
    _verify(tmp_path / build.id, build.until)
    assert _dot_entries(tmp_path) == {f".{build.id}.lock"}


def test_builds_of_two_personas_run_side_by_side(tmp_path, build):
    one, other = _start(tmp_path, build.spec, build.until), _start(tmp_path, build.other, build.until)
    (rc1, err1), (rc2, err2) = _finish(one), _finish(other)
    assert rc1 == 0, err1
    assert rc2 == 0, err2
    assert WAITING not in err1 and WAITING not in err2
    _verify(tmp_path / build.id, build.until)
    _verify(tmp_path / build.other_id, build.until)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [build.id, build.other_id, f".{build.id}.lock", f".{build.other_id}.lock"]
    )


#: SIGKILLs at random moments per build stage: the small world builds in a second, so it takes many; the default
#: persona's bundle takes most of a minute, so CI kills it fewer times (PERSONA_KILLS sets both, for a longer sweep).
KILLS = {"world": 20, "bundle": 4}


@pytest.mark.pipeline  # the full lane's (the fast lane keeps the other output tests of the world stage)
def test_sigkill_at_random_points_always_leaves_a_whole_build(tmp_path, build):
    started = time.monotonic()
    res = _run(tmp_path, build.spec, build.until)
    duration = time.monotonic() - started
    assert res.returncode == 0, res.stderr
    final, staging = tmp_path / build.id, tmp_path / f".{build.id}.partial"
    _verify(final, build.until)

    rng = random.Random(20261116)
    phases: dict[str, int] = {}
    left_partial = None  # (inode, ctime) of the .partial a previous kill left behind (inodes get reused)
    kills = int(os.environ.get("PERSONA_KILLS") or KILLS[build.until])
    for _ in range(kills):
        delay = rng.uniform(0.0, duration)
        before = final.stat().st_ino
        proc = _start(tmp_path, build.spec, build.until)
        time.sleep(delay)
        finished = proc.poll() is not None
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        # Whatever the moment, OUT/<id> is a whole build (the old one or the new one); never a missing folder.
        _verify(final, build.until)
        assert not (tmp_path / f".{build.id}.old").exists()
        partial = (staging.stat().st_ino, staging.stat().st_ctime_ns) if staging.exists() else None
        if finished:
            phase = "finished before the kill"
        elif final.stat().st_ino != before:
            phase = "after the swap, removing the old build" if partial else "after the swap and cleanup"
        elif partial is not None and partial != left_partial:
            phase = "building into .partial"
        else:
            phase = "before the lock/cleanup (starting up)"
        phases[phase] = phases.get(phase, 0) + 1
        left_partial = partial
    print(f"\n{build.until} build {duration:.2f}s; {kills} SIGKILLs landed: {phases}")

    res = _run(tmp_path, build.spec, build.until)
    assert res.returncode == 0, res.stderr
    _verify(final, build.until)
    assert _dot_entries(tmp_path) == {f".{build.id}.lock"}


def test_out_naming_a_file_is_refused(tmp_path):
    target = tmp_path / "not-a-dir"
    target.write_text("keep me\n")
    mtime = target.stat().st_mtime_ns
    for out in (target, target / "sub"):
        res = _run(out)
        assert res.returncode == 2
        assert "Traceback" not in res.stderr
        lines = res.stderr.splitlines()
        assert len(lines) == 1, res.stderr
        assert lines[0].startswith(f"build-image: --out {out}: ")
    assert target.read_text() == "keep me\n" and target.stat().st_mtime_ns == mtime
    assert [p.name for p in tmp_path.iterdir()] == ["not-a-dir"]


def test_a_bad_spec_writes_nothing(tmp_path):
    spec = tmp_path / "bad.json"
    spec.write_text("{ not json")
    out = tmp_path / "out"
    res = _run(out, spec)
    assert res.returncode == 2
    assert "Traceback" not in res.stderr and str(spec) in res.stderr
    assert not out.exists()


def test_a_stale_partial_and_old_are_repaired_by_the_next_build(tmp_path, build):
    if build.until == "bundle":
        pytest.skip("the repair happens before any stage runs: the world variant covers it")
    # A SIGKILL between the two renames of the fallback swap: OUT/<id> missing, the old build at .old.
    assert _run(tmp_path, build.spec, until="world").returncode == 0
    (tmp_path / build.id).rename(tmp_path / f".{build.id}.old")
    (tmp_path / f".{build.id}.partial" / "world").mkdir(parents=True)
    res = _run(tmp_path, build.spec, build.until)
    assert res.returncode == 0, res.stderr
    assert f"restored {build.id} from .{build.id}.old" in res.stderr
    _verify(tmp_path / build.id, build.until)
    assert _dot_entries(tmp_path) == {f".{build.id}.lock"}


# --- unit: builder.output ----------------------------------------------------------------------------------


def _tree(path: Path, marker: str) -> Path:
    (path / "sub").mkdir(parents=True)
    (path / "sub" / "marker").write_text(marker)
    return path


def _marker(path: Path) -> str:
    return (path / "sub" / "marker").read_text()


def _slot(tmp_path) -> output.Slot:
    return output.plan(tmp_path, "p")


def test_swap_exchanges_when_an_old_build_exists(tmp_path):
    slot = _slot(tmp_path)
    _tree(slot.final, "old")
    _tree(slot.staging, "new")
    old_inode = slot.final.stat().st_ino
    try:
        how = output.swap_into_place(slot.staging, slot.final, slot.old)
    except OSError as err:  # pragma: no cover - a filesystem without RENAME_EXCHANGE
        pytest.skip(f"no RENAME_EXCHANGE on {tmp_path}: {err}")
    assert how == "exchange"
    assert _marker(slot.final) == "new" and slot.final.stat().st_ino != old_inode
    assert not os.path.lexists(slot.staging) and not os.path.lexists(slot.old)


def test_exchange_is_one_atomic_swap(tmp_path):
    a, b = _tree(tmp_path / "a", "A"), _tree(tmp_path / "b", "B")
    output.exchange(a, b)
    assert _marker(a) == "B" and _marker(b) == "A"
    with pytest.raises(FileNotFoundError):
        output.exchange(a, tmp_path / "missing")


def test_swap_renames_when_there_is_no_old_build(tmp_path, monkeypatch):
    slot = _slot(tmp_path)
    _tree(slot.staging, "new")
    monkeypatch.setattr(output, "exchange", lambda a, b: pytest.fail("exchange used without an old build"))
    assert output.swap_into_place(slot.staging, slot.final, slot.old) == "rename"
    assert _marker(slot.final) == "new" and not os.path.lexists(slot.staging)


@pytest.mark.parametrize("code", [errno.EINVAL, errno.ENOSYS, errno.EPERM])
def test_swap_falls_back_to_two_renames_when_exchange_is_refused(tmp_path, monkeypatch, code):
    slot = _slot(tmp_path)
    _tree(slot.final, "old")
    _tree(slot.staging, "new")

    def refuse(a, b):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(output, "exchange", refuse)
    assert output.swap_into_place(slot.staging, slot.final, slot.old) == "two-step"
    assert _marker(slot.final) == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p"]


def test_swap_does_not_fall_back_on_other_errors(tmp_path, monkeypatch):
    slot = _slot(tmp_path)
    _tree(slot.final, "old")
    _tree(slot.staging, "new")

    def fail(a, b):
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(output, "exchange", fail)
    with pytest.raises(OSError):
        output.swap_into_place(slot.staging, slot.final, slot.old)
    assert _marker(slot.final) == "old" and _marker(slot.staging) == "new"


def test_recover_restores_a_missing_build_from_old(tmp_path):
    slot = _slot(tmp_path)
    _tree(slot.old, "old")  # the fallback swap was killed after final -> .old
    _tree(slot.staging, "new")  # ... and before .partial -> final
    done = output.recover(slot)
    assert _marker(slot.final) == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p"]
    assert any("restored" in line for line in done)


def test_recover_drops_stale_old_and_partial_when_the_build_is_in_place(tmp_path):
    slot = _slot(tmp_path)
    _tree(slot.final, "good")
    _tree(slot.old, "older")
    slot.staging.mkdir()
    output.recover(slot)
    assert _marker(slot.final) == "good"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p"]


def test_recover_removes_symlinks_without_following_them(tmp_path):
    outside = _tree(tmp_path / "outside", "keep")
    out = tmp_path / "out"
    out.mkdir()
    slot = output.plan(out, "p")
    slot.staging.symlink_to(outside)
    output.recover(slot)
    assert not os.path.lexists(slot.staging) and _marker(outside) == "keep"


@pytest.mark.parametrize("bad", ["", ".", "..", "a/b", "../x", "/etc", ".x.partial", "a\nb", "x" * 250])
def test_plan_refuses_ids_that_are_not_a_plain_child_of_out(tmp_path, bad):
    with pytest.raises(output.OutputError):
        output.plan(tmp_path, bad)
    assert list(tmp_path.iterdir()) == []


def test_plan_paths_are_direct_children_of_the_resolved_out(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    slot = output.plan(tmp_path / "link" / ".." / "link", "p")
    assert slot.out == real.resolve()
    for path in (slot.final, slot.staging, slot.old, slot.lock):
        assert path.parent == real.resolve()


def test_plan_refuses_a_final_path_that_is_a_symlink_or_a_file(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "p").symlink_to(elsewhere)
    with pytest.raises(output.OutputError):
        output.plan(out, "p")
    (out / "p").unlink()
    (out / "p").write_text("a file")
    with pytest.raises(output.OutputError):
        output.plan(out, "p")


def test_lock_makes_a_second_holder_wait(tmp_path):
    slot = _slot(tmp_path)
    events: list[str] = []

    def second():
        with output.locked(slot, on_wait=lambda: events.append("waiting")):
            events.append("second has it")

    with output.locked(slot, on_wait=lambda: events.append("first waited?!")):
        thread = threading.Thread(target=second)
        thread.start()
        time.sleep(0.3)
        events.append("first releases")
    thread.join(5)
    assert events == ["waiting", "first releases", "second has it"]
    assert slot.lock.is_file()


def test_lock_does_not_follow_a_symlink(tmp_path):
    target = tmp_path / "target"
    target.write_text("keep")
    slot = _slot(tmp_path)
    slot.lock.symlink_to(target)
    with pytest.raises(output.OutputError):
        with output.locked(slot):
            pass
    assert target.read_text() == "keep"


def test_sigterm_removes_the_staging_folder(tmp_path):
    # Signalled 0.3 s after the staging folder appears: inside the default persona's world stage (seconds long),
    # where a bundle build is at that moment too.
    proc = _start(tmp_path, until="world")
    staging = tmp_path / f".{DANA}.partial"
    deadline = time.monotonic() + 30
    while not staging.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    rc, err = _finish(proc)
    assert rc == 128 + signal.SIGTERM, err
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [f".{DANA}.lock"]


def test_plan_refuses_an_out_that_is_not_writable(tmp_path, monkeypatch):
    monkeypatch.setattr(output.os, "access", lambda path, mode: False)
    with pytest.raises(output.OutputError, match="is not writable"):
        output.plan(tmp_path, "p")
    with pytest.raises(output.OutputError, match="cannot be created"):
        output.plan(tmp_path / "new" / "out", "p")
    assert list(tmp_path.iterdir()) == []
