"""run-image and run-task without a VM: argument checks, image lookup errors, the host control
server's own answers and its forwarding (to a real HTTP server on loopback standing where the guest's
control API is), the agent runner's time limit and answer file."""

from __future__ import annotations

import http.server
import json
import subprocess
import sys
import threading
import zlib

import pytest
import requests

from builder.image.boot import free_port
from builder.runtime.desktop_check import band_colours, pdf_pages
from builder.runtime.episode import EpisodeError, find_task, load_tasks, run_agent
from builder.runtime.run import ControlServer, ImageRef, Machine, RunError, parse_memory, resolve_image

from tests.conftest import REPO


def test_parse_memory():
    assert parse_memory("4G") == 4096
    assert parse_memory("2560M") == 2560
    assert parse_memory("3072") == 3072
    for bad in ("lots", "512M", "-1G", "1T"):
        with pytest.raises(RunError):
            parse_memory(bad)


def test_resolve_image_errors(tmp_path):
    with pytest.raises(RunError, match="no persona.qcow2"):
        resolve_image(str(tmp_path))
    not_qcow = tmp_path / "x.qcow2"
    not_qcow.write_bytes(b"hello")
    with pytest.raises(RunError, match="not a qcow2"):
        resolve_image(str(not_qcow))
    with pytest.raises(RunError, match="no such file"):
        resolve_image(str(tmp_path / "missing" / "persona.qcow2"))


def test_resolve_image_reads_the_manifest(tmp_path):
    (tmp_path / "persona.qcow2").write_bytes(b"QFI\xfb" + bytes(60))
    (tmp_path / "manifest.json").write_text(
        json.dumps(
            {
                "persona": "p",
                "now": "2026-11-16T09:00:00",
                "guest": {"rtc_base": "2026-11-16T09:00:00"},
                "apps": [{"name": "bank", "domain": "larkspurbank.test", "database": "/var/lib/x/bank.sqlite"}],
                "artifacts": [{"path": "layer/var/lib/x/bank.sqlite", "size": 1, "sha256": "ab" * 32}],
            }
        )
    )
    ref = resolve_image(str(tmp_path))
    assert (ref.persona, ref.as_of, ref.apps[0]["name"]) == ("p", "2026-11-16T09:00:00", "bank")
    assert ref.seeded_hashes() == {"bank": "ab" * 32}
    with pytest.raises(RunError, match="no manifest"):
        ImageRef(ref.qcow2, None).seeded_hashes()


def test_run_image_cli_refuses_a_bad_image_with_one_line(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "builder.runtime.run", str(tmp_path / "nope.qcow2")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 1
    assert "no such file" in r.stderr and "Traceback" not in r.stderr


class _Upstream(http.server.BaseHTTPRequestHandler):
    """A real HTTP server where the guest's control API would be: echoes what reached it."""

    def log_message(self, *a):
        pass

    def _echo(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = json.dumps(
            {
                "method": self.command,
                "path": self.path,
                "body": self.rfile.read(n).decode(),
                "ctype": self.headers.get("Content-Type"),
            }
        ).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("X-Upstream", "yes")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _echo


@pytest.fixture
def control(tmp_path):
    (tmp_path / "persona.qcow2").write_bytes(b"QFI\xfb" + bytes(60))
    m = Machine(ImageRef(tmp_path / "persona.qcow2", None), state_dir=tmp_path / "state")
    up = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Upstream)
    threading.Thread(target=up.serve_forever, daemon=True).start()
    m.guest_control_port = up.server_address[1]
    srv = ControlServer.start(m, "127.0.0.1", 0)
    yield m, f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    up.shutdown()


def test_control_server_answers_health_and_reset_itself(control):
    m, url = control
    r = requests.get(url + "/health", timeout=10)
    assert r.status_code == 503 and r.json()["status"] == "stopped"
    r = requests.post(url + "/reset", timeout=10)
    assert r.status_code == 500 and "error" in r.json()
    assert requests.get(url + "/reset", timeout=10).status_code == 405
    assert requests.get(url + "/state", timeout=10).status_code == 503


def test_control_server_forwards_everything_else_verbatim(control):
    _, url = control
    r = requests.post(url + "/execute?x=1", json={"command": ["echo", "hi"], "shell": False}, timeout=10)
    assert r.status_code == 201 and r.headers["X-Upstream"] == "yes"
    got = r.json()
    assert got["path"] == "/execute?x=1" and got["ctype"] == "application/json"
    assert json.loads(got["body"]) == {"command": ["echo", "hi"], "shell": False}
    assert requests.get(url + "/screenshot", timeout=10).json()["method"] == "GET"


def test_control_server_says_when_the_guest_is_not_there(control):
    m, url = control
    m.guest_control_port = free_port()  # nothing listens there
    r = requests.get(url + "/screenshot", timeout=10)
    assert r.status_code == 502 and "did not answer" in r.json()["error"]


def _task(tid: str, limit: int = 60) -> dict:
    return {
        "id": tid,
        "persona": "p",
        "kind": "lookup",
        "instruction": "What is my balance?",
        "apps_involved": ["bank"],
        "difficulty": "easy",
        "time_limit_seconds": limit,
        "expected": {},
        "rubric": [
            {
                "id": "a",
                "requirement": "States $12.00",
                "weight": 100,
                "check": {"type": "answer_amount", "cents": 1200},
            }
        ],
    }


def test_tasks_load_and_match_by_suffix(tmp_path):
    f = tmp_path / "tasks.jsonl"
    f.write_text("\n".join(json.dumps(_task(t)) for t in ("p/bank/a", "p/bank/b", "p/mail/a")) + "\n")
    tasks = load_tasks(f)
    assert find_task(tasks, "bank/b").id == "p/bank/b"
    with pytest.raises(EpisodeError, match="ambiguous"):
        find_task(tasks, "a")
    with pytest.raises(EpisodeError, match="no task"):
        find_task(tasks, "nothing")
    (tmp_path / "bad.jsonl").write_text('{"id": 1}\n')
    with pytest.raises(EpisodeError, match="bad.jsonl:1"):
        load_tasks(tmp_path / "bad.jsonl")


def test_agent_gets_the_instruction_and_its_answer_file_wins(tmp_path):
    from builder.tasks.model import Task

    task = Task.model_validate(_task("p/bank/a"))
    run, answer = run_agent(
        'read line; echo "$line" >&2; echo "It is 12.00" > "$PERSONA_ANSWER_FILE"; echo noise',
        task,
        "http://127.0.0.1:9",
        30,
        tmp_path,
    )
    assert (run.returncode, run.timed_out, answer) == (0, False, "It is 12.00")
    run, answer = run_agent("echo $PERSONA_TASK_ID", task, "http://127.0.0.1:9", 30, tmp_path)
    assert answer == "p/bank/a"


def test_agent_past_its_time_limit_is_stopped_with_its_children(tmp_path):
    from builder.tasks.model import Task

    task = Task.model_validate(_task("p/bank/a"))
    marker = tmp_path / "child-alive"
    run, _ = run_agent(f"(sleep 30; touch {marker}) & sleep 30", task, "http://127.0.0.1:9", 1, tmp_path)
    assert run.timed_out and run.seconds < 15
    assert not marker.exists()


def test_build_image_publish_needs_the_image_stage(tmp_path):
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "builder.cli",
            str(REPO / "personas/jordan-lee.json"),
            "--until",
            "layer",
            "--out",
            str(tmp_path / "out"),
            "--publish",
            str(tmp_path / "index.json"),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2 and "--publish needs the image stage" in r.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "index.json").exists()


def test_control_server_serves_the_seeded_databases(tmp_path):
    """GET /state/seeded/<app>: the reset point's bytes from the build's layer/ (or the state folder's copy), with
    their SHA-256; an unknown app 404s; a layer that is not the seeded bytes is never served."""
    import hashlib

    (tmp_path / "persona.qcow2").write_bytes(b"QFI\xfb" + bytes(60))
    db = tmp_path / "layer/var/lib/persona-desktop/apps/bank/bank.sqlite"
    db.parent.mkdir(parents=True)
    db.write_bytes(b"SQLite format 3\x00" + bytes(100))
    sha = hashlib.sha256(db.read_bytes()).hexdigest()
    manifest = {
        "apps": [{"name": "bank", "database": "/var/lib/persona-desktop/apps/bank/bank.sqlite"}],
        "artifacts": [{"path": "layer/var/lib/persona-desktop/apps/bank/bank.sqlite", "sha256": sha}],
    }
    m = Machine(ImageRef(tmp_path / "persona.qcow2", manifest), state_dir=tmp_path / "state")
    m.ready = True
    srv = ControlServer.start(m, "127.0.0.1", 0)
    url = f"http://127.0.0.1:{srv.server_address[1]}"
    try:
        r = requests.get(url + "/state/seeded/bank", timeout=10)
        assert r.status_code == 200 and r.content == db.read_bytes() and r.headers["X-Persona-SHA256"] == sha
        assert requests.get(url + "/state/seeded/nope", timeout=10).status_code == 404
        db.write_bytes(b"changed")  # no longer the seeded bytes, no copy kept, no machine to read it from
        r = requests.get(url + "/state/seeded/bank", timeout=10)
        assert r.status_code == 500 and "no copy of the start of bank" in r.json()["error"]
        keep = tmp_path / "state/seeded/bank.sqlite"  # the state folder's copy wins
        keep.parent.mkdir(parents=True)
        keep.write_bytes(b"SQLite format 3\x00" + bytes(100))
        assert requests.get(url + "/state/seeded/bank", timeout=10).content == keep.read_bytes()
        m.ready = False
        assert requests.get(url + "/state/seeded/bank", timeout=10).status_code == 503
    finally:
        srv.shutdown()


def test_osworld_provider_control_url():
    from builder.runtime.osworld import RunImageProvider, control_url

    assert control_url("http://127.0.0.1:5000/") == "http://127.0.0.1:5000"
    assert control_url("10.1.2.3:15000") == "http://10.1.2.3:15000"
    for bad in ("/vms/Ubuntu.vmx", "http://127.0.0.1", "ftp://h:1", "http://h:1/x"):
        with pytest.raises(ValueError, match="control URL"):
            control_url(bad)
    p = RunImageProvider(None, "http://127.0.0.1:15231")
    assert p.get_ip_address("ignored") == "127.0.0.1:15231:9222:8006:8080"
    with pytest.raises(NotImplementedError):
        p.save_state("x", "y")
    with pytest.raises(RuntimeError, match="POST http://127.0.0.1:9/reset"):
        RunImageProvider(None, "http://127.0.0.1:9").revert_to_snapshot("x", "init_state")


def test_a_trajectory_travels_as_a_flat_tar_and_nothing_else_unpacks(tmp_path):
    """pack/unpack (GET /trajectories/<name>, a fleet node's result): the files come back byte for byte; a member in
    a folder, or a hidden one, is refused before anything is written outside the destination."""
    import io
    import tarfile

    from builder.runtime.trajectory import pack, unpack

    src = tmp_path / "src"
    src.mkdir()
    (src / "traj.jsonl").write_text('{"step_num": 1}\n')
    (src / "step_0_x.png").write_bytes(b"\x89PNG" + bytes(range(50)))
    unpack(pack(src), tmp_path / "dest")
    assert {p.name: p.read_bytes() for p in (tmp_path / "dest").iterdir()} == {
        p.name: p.read_bytes() for p in src.iterdir()
    }
    for bad in ("../evil.txt", "sub/x.png", ".hidden"):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            info = tarfile.TarInfo(bad)
            info.size = 1
            tar.addfile(info, io.BytesIO(b"x"))
        with pytest.raises(ValueError, match="unexpected member"):
            unpack(buf.getvalue(), tmp_path / "dest2")
    assert not (tmp_path / "evil.txt").exists()


def test_pdf_pages_counts_pages_also_inside_compressed_object_streams():
    """The desktop test's print check reads Firefox's PDF, whose page objects cairo packs into object streams."""
    plain = b"%PDF-1.4\n1 0 obj << /Type /Pages /Count 2 >> endobj 2 0 obj << /Type /Page >> endobj 3 0 obj << /Type /Page >> endobj"
    packed = zlib.compress(
        b"<< /Type /Pages /Kids [4 0 R 5 0 R 6 0 R] /Count 3 >> << /Type /Page >> << /Type /Page >> << /Type/Page >>"
    )
    streamed = (
        b"%PDF-1.7\n1 0 obj\n<< /Type /ObjStm /N 4 /First 20 /Filter /FlateDecode >>\nstream\n"
        + packed
        + b"\nendstream\nendobj\n"
    )
    assert pdf_pages(plain) == 2 and pdf_pages(streamed) == 3
    assert pdf_pages(b"") == 0 and pdf_pages(b"<html>") == 0


def test_band_colours_counts_the_colours_of_a_band_of_rows():
    """The desktop test's toolbar check: a flat band has one colour, a drawn toolbar many."""
    import io

    from PIL import Image

    im = Image.new("RGB", (40, 30), (240, 240, 240))
    for x in range(10):
        im.putpixel((x, 20), (x * 20, 0, 0))
    buf = io.BytesIO()
    im.save(buf, "PNG")
    assert band_colours(buf.getvalue(), 0, 10) == 1
    assert band_colours(buf.getvalue(), 15, 25) == 11
    assert band_colours(buf.getvalue(), 25, 99) == 1
