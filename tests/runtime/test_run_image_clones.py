"""Many VMs from one booted state, as a fleet user runs them: the default persona's run-image reset point written
as a template, clones started from it (no boot) that are each at the reset point and independent, a clone reset,
the host agent (`persona-host`) owning VMs on its own ports and restarting one whose QEMU died, and a `fleet run`
over a local Ray cluster of two nodes with a VM killed mid-run and its episode retried.

Runs after tests/runtime/test_run_image.py and reuses its reset point (`PERSONA_TEST_OUT/run-state`): CI cold
boots the image once. Run alone, it makes that reset point first (one cold boot under TCG: minutes).
"""

from __future__ import annotations

import json
import shutil
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from builder.image.boot import internal_snapshots
from builder.runtime.run import SNAPSHOT_TAG, ControlServer, Machine, resolve_image
from tests.conftest import REPO

OUT = Path(os.environ.get("PERSONA_TEST_OUT", REPO / "out"))
BUILD = OUT / "dana-whitfield"
STATE = OUT / "run-state"

pytestmark = pytest.mark.slow


def execute(url: str, command) -> str:
    r = requests.post(url + "/execute", json={"command": command, "shell": False}, timeout=120)
    assert r.status_code == 200, r.text
    return r.json()["output"]


def oracle(clone, url: str, task_id: str) -> None:
    """Run the scripted oracle agent (the task's reference solution) on a clone's control API and web servers."""
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "builder.tasks.oracle_agent",
            "--bundle",
            str(BUILD),
            "--http",
            f"http://127.0.0.1:{clone.http_port}",
        ],
        env={**os.environ, "PERSONA_TASK_ID": task_id, "PERSONA_CONTROL_URL": url},
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-2000:]


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """The template of the image's run-image reset point (made first when no reset point is there)."""
    from builder.runtime.template import write_template

    if not (BUILD / "persona.qcow2").is_file():
        pytest.skip(f"no built image at {BUILD} (tests/image/test_boot.py builds it)")
    ref = resolve_image(str(BUILD))
    overlay = STATE / "overlay.qcow2"
    if not (overlay.is_file() and SNAPSHOT_TAG in internal_snapshots(overlay)):
        m = Machine(ref, state_dir=STATE, http_port=0, vnc_port=None, qmp_port=None)
        try:
            m.start()
        finally:
            m.stop()
    t = write_template(ref, STATE, tmp_path_factory.mktemp("template") / "t", progress=print)
    info = t.info()
    print(f"template: {info['sizes']}, {info['timings']}")
    return ref, t


@pytest.fixture
def served_clone(template, tmp_path):
    """One clone of the template with run-image's control API in front of it: (clone, its URL); stopped after."""
    from builder.runtime.template import Clone

    ref, t = template
    c = Clone(ref, t, state_dir=tmp_path / "vm")
    c.start()
    server = ControlServer.start(c, "127.0.0.1", 0)
    try:
        yield c, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        c.stop()


def test_clones_start_at_the_reset_point_and_stay_apart(template, tmp_path):
    from builder.runtime.template import Clone

    ref, t = template
    seeded = ref.seeded_hashes()
    info = t.info()
    # the devices' stream is small: the RAM lives in the template's file, not in the stream
    assert info["sizes"]["devices"]["bytes"] < 8 << 20, info["sizes"]
    assert SNAPSHOT_TAG not in internal_snapshots(t.disk)  # the disk is the reset point's, without a RAM copy
    clones, servers = [], []
    try:
        for k in range(2):
            c = Clone(ref, t, state_dir=tmp_path / f"vm{k}")
            c.start()
            clones.append(c)
            servers.append(ControlServer.start(c, "127.0.0.1", 0))
            print(
                f"clone {k + 1}: healthy {c.timings['healthy_s']}s after QEMU started (incoming {c.timings['incoming_s']}s)"
            )
        urls = [f"http://127.0.0.1:{s.server_address[1]}" for s in servers]
        for url in urls:
            assert requests.get(url + "/health", timeout=60).status_code == 200
            assert requests.get(url + "/state", timeout=60).json()["databases"] == seeded
            # the frozen clock stays: each clone is set back to as_of
            assert execute(url, ["date", "+%Y-%m-%dT%H:%M"]).strip() == "2026-11-16T09:00"
        # what one clone does, the other does not see; a reset brings it back
        execute(urls[0], ["sh", "-c", "echo only-here > ~/clone-mark.txt"])
        assert execute(urls[0], ["sh", "-c", "cat ~/clone-mark.txt"]).strip() == "only-here"
        assert "only-here" not in execute(urls[1], ["sh", "-c", "cat ~/clone-mark.txt 2>&1 || true"])
        r = requests.post(urls[0] + "/reset", timeout=300)
        assert r.status_code == 200, r.text
        time.sleep(3)  # the QEMU a reset started outlives the request that asked for it
        assert clones[0].vm.proc.poll() is None
        assert "only-here" not in execute(urls[0], ["sh", "-c", "cat ~/clone-mark.txt 2>&1 || true"])
        assert requests.get(urls[0] + "/state", timeout=60).json()["databases"] == seeded
        print(f"clone reset: healthy again after {r.json()['seconds']}s")
    finally:
        for s in servers:
            s.shutdown()
        for c in clones:
            c.stop()


def test_host_agent_owns_vms_and_restarts_a_dead_one(template, tmp_path):
    ref, t = template
    # the host agent finds the template beside the image
    beside = BUILD / "persona.template"
    if beside.exists() or beside.is_symlink():
        subprocess.run(["rm", "-rf", str(beside)], check=True)
    beside.symlink_to(t.folder)
    port = 7391
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "builder.runtime.host",
            "serve",
            str(BUILD),
            "--vms",
            "2",
            "--port",
            str(port),
            "--ports",
            "23000-23099",
            "--state-root",
            str(tmp_path / "host"),
        ],
        cwd=REPO,
        stderr=open(tmp_path / "host.log", "wb"),
    )
    api = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 600
        while True:
            assert proc.poll() is None, (tmp_path / "host.log").read_text()[-3000:]
            try:
                if requests.get(api + "/health", timeout=10).status_code == 200:
                    break
            except requests.RequestException:
                pass
            assert time.monotonic() < deadline, (tmp_path / "host.log").read_text()[-3000:]
            time.sleep(1)
        vms = requests.get(api + "/vms", timeout=10).json()
        assert [v["id"] for v in vms] == ["vm1", "vm2"]
        # ports come from the agent's range, three per VM, in order
        assert [v["control_url"] for v in vms] == ["http://127.0.0.1:23000", "http://127.0.0.1:23003"]
        cap = requests.get(api + "/capacity", timeout=10).json()
        assert cap["vms"] == 2 and cap["healthy"] == 2 and cap["memory_per_vm_mb"] == 4096
        for v in vms:
            assert requests.get(v["control_url"] + "/health", timeout=60).status_code == 200
        # kill vm2's QEMU: the watchdog starts it again from the template
        qemu = subprocess.run(
            ["pgrep", "-f", str(tmp_path / "host" / "vm2")], capture_output=True, text=True
        ).stdout.split()
        assert qemu, "no QEMU of vm2"
        subprocess.run(["kill", "-9", *qemu], check=True)
        deadline = time.monotonic() + 300
        while True:
            v2 = requests.get(api + "/vms", timeout=10).json()[1]
            if v2["restarts"] == 1 and v2["healthy"]:
                break
            assert time.monotonic() < deadline, v2
            time.sleep(1)
        assert requests.get(v2["control_url"] + "/state", timeout=60).json()["databases"] == ref.seeded_hashes()
    finally:
        proc.terminate()
        proc.wait(timeout=120)
        beside.unlink()


def test_fleet_runs_episodes_on_two_nodes_and_retries_a_dead_vm(template, tmp_path):
    """`fleet run`'s Python API on a local Ray cluster of two nodes (two raylets, each with its own host agent of
    one VM): three action tasks by the scripted oracle agent, one VM killed mid-run and its episode run again."""
    import threading

    import ray
    from ray.cluster_utils import Cluster

    from builder.runtime.fleet import run_fleet, table

    ref, t = template
    beside = BUILD / "persona.template"
    if beside.exists() or beside.is_symlink():
        subprocess.run(["rm", "-rf", str(beside)], check=True)
    beside.symlink_to(t.folder)
    tasks = [f"dana-whitfield/{s}" for s in ("bank/bill-pay", "bank/transfer-to-savings", "board/comment")]
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    killed = []

    def chaos(actors):
        def later():
            time.sleep(4)  # the agent below waits 12 s before it acts: node 0's VM is busy with an episode now
            killed.append(ray.get(actors[0].kill_vm.remote()))

        threading.Thread(target=later, daemon=True).start()

    try:
        ray.init(address=cluster.address, include_dashboard=False)
        assert len([n for n in ray.nodes() if n["Alive"]]) == 2
        summary = run_fleet(
            [str(BUILD)],
            f"sleep 12; {sys.executable} -m builder.tasks.oracle_agent",
            vms_per_host=1,
            out=tmp_path / "results",
            state_root=tmp_path / "fleet",
            task_ids=tasks,
            chaos=chaos,
        )
    finally:
        ray.shutdown()
        cluster.shutdown()
        beside.unlink()
    print(table(summary))
    assert killed == ["vm1"]
    assert summary["hosts"] == 2 and summary["all"]["episodes"] == 3
    assert len(summary["retried"]) == 1, summary["retried"]
    # every reference solution scores full marks, the retried one included, and each result is on disk
    assert summary["all"]["mean_score"] == 100.0 and summary["all"]["perfect_rate"] == 1.0
    results = {p.stem: json.loads(p.read_text()) for p in (tmp_path / "results" / "dana-whitfield").glob("*.json")}
    assert sorted(r["task_id"] for r in results.values()) == sorted(tasks)
    retried = results[summary["retried"][0].split("/", 1)[1].replace("/", "__")]
    # the episode whose VM was killed on node 0 ran again, on the other node's VM
    assert retried["attempts"] == 2 and retried["host"].endswith("#1")


def test_rl_env_rewards_the_rubric_score_at_the_end(served_clone, tmp_path):
    """PersonaDesktopEnv over a clone: a do-nothing episode gets reward 0.0; an episode in which the task's reference
    solution acted (the scripted oracle agent, between reset and DONE) gets 1.0; a pyautogui step moves the pointer."""
    from builder.runtime.rlenv import PersonaDesktopEnv

    c, url = served_clone
    env = PersonaDesktopEnv(url, BUILD, max_steps=3)
    obs, info = env.reset("bank/bill-pay")
    assert info["task_id"] == "dana-whitfield/bank/bill-pay" and obs["screenshot"][:8] == b"\x89PNG\r\n\x1a\n"
    obs, reward, terminated, truncated, info = env.step("pyautogui.moveTo(300, 400)")
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert execute(url, ["xdotool", "getmouselocation"]).startswith("x:300 y:400")
    obs, reward, terminated, truncated, info = env.step("DONE")
    assert (reward, terminated) == (0.0, True) and info["result"]["score"] == 0
    env.reset("bank/bill-pay")
    oracle(c, url, "dana-whitfield/bank/bill-pay")
    obs, reward, terminated, truncated, info = env.step("DONE")
    assert (reward, terminated) == (1.0, True), info["result"]["items"]


def test_grade_reads_a_running_machines_end_state(served_clone, tmp_path, capsys, world):
    """`grade --control URL` (what a harness calls before its reset, MyPCBench's included) on a clone: bill-pay
    scores 0 with nothing done, 100 once the reference solution acted (and again from the kept end state), 60 with
    a bank transfer nobody asked for; the answer the agent left in the guest is graded."""
    from builder.apps import discover
    from builder.image.boot import app_probes
    from builder.tasks import cli

    def grade(*args) -> dict:
        cli.main([*args, "--bundle", str(BUILD), "--json"])
        return json.loads(capsys.readouterr().out)

    c, url = served_clone
    assert grade("bank/bill-pay", "--control", url)["score"] == 0
    oracle(c, url, "dana-whitfield/bank/bill-pay")
    kept = tmp_path / "end-state"
    assert grade("bank/bill-pay", "--control", url, "--save-state", str(kept))["score"] == 100
    assert grade("bank/bill-pay", "--state", str(kept))["score"] == 100  # graded again later
    # A pulled bundle has no layer/: the start state its state-diff item needs comes from the machine.
    pulled = tmp_path / "pulled"
    shutil.copytree(BUILD / "tasks", pulled / "tasks")
    shutil.copy(BUILD / "manifest.json", pulled)
    cli.main(["bank/bill-pay", "--bundle", str(pulled), "--control", url, "--json"])
    assert json.loads(capsys.readouterr().out)["score"] == 100
    bank = {p.name: p for p in app_probes(world, discover())}["bank"]
    import sqlite3

    layer = BUILD / "layer/var/lib/persona-desktop/apps/bank/bank.sqlite"
    with sqlite3.connect(f"file:{layer}?mode=ro", uri=True) as con:
        ids = dict(con.execute("SELECT kind, id FROM accounts WHERE kind IN ('checking', 'savings')").fetchall())
    r = requests.post(
        f"http://127.0.0.1:{c.http_port}/api/transfer",
        data={"from": ids["checking"], "to": ids["savings"], "amount": "1.00", "memo": "not asked"},
        headers={"Host": bank.domain, "Cookie": f"{bank.cookie_name}={bank.cookie_value}"},
        allow_redirects=False,
        timeout=60,
    )
    assert r.status_code == 303 and "error" not in r.headers["Location"], r.headers.get("Location")
    broke = grade("bank/bill-pay", "--control", url)
    # the payment is there, but so is a transfer nobody asked for: not the only new row, not the only change
    assert {i["id"]: i["status"] for i in broke["items"]} == {
        "payment": "met",
        "single": "unmet",
        "nothing-else": "unmet",
    }
    assert broke["score"] == 60
    # the agent's last message, left where MyPCBench's runner leaves it
    response = "/tmp/mypcbench_agent_response.txt"
    args = ("bank/checking-balance", "--control", url, "--guest-answer", response)
    assert grade(*args)["score"] == 0  # no answer left
    balance = json.loads(
        next(
            line
            for line in (BUILD / "tasks/tasks.jsonl").read_text().splitlines()
            if '"dana-whitfield/bank/checking-balance"' in line
        )
    )["expected"]["balance_cents"]
    execute(url, ["sh", "-c", f"echo 'Your checking balance is ${balance / 100:,.2f}.' > {response}"])
    assert grade(*args)["score"] == 100
    execute(url, ["sh", "-c", f"echo 'Your checking balance is $1.00.' > {response}"])
    assert grade(*args)["score"] == 0


def test_an_episode_leaves_its_trajectory(served_clone, tmp_path):
    """run-task's episode on a clone records what the agent did on the host side: a scripted agent takes a
    screenshot, runs a command, reads the accessibility tree and takes another screenshot; traj.jsonl has its one
    action with the screenshot taken after it, the images and the tree are files, the answer is kept. The agent also
    records the screen as OSWorld's controller does (POST /start_recording, /end_recording answering the MP4): an
    H.264 video of the 1280x800 screen, kept in the trajectory as recording.mp4."""
    import av
    from PIL import Image

    from builder.runtime.episode import Control, load_tasks, run_episode

    c, url = served_clone
    agent = tmp_path / "agent.py"
    video = tmp_path / "agent.mp4"
    agent.write_text(
        "import os, time, requests\n"
        "u = os.environ['PERSONA_CONTROL_URL']\n"
        "requests.post(u + '/start_recording', timeout=60).raise_for_status()\n"
        "requests.get(u + '/screenshot', timeout=60)\n"
        "requests.post(u + '/execute', json={'command': ['xdotool', 'mousemove', '200', '300'], 'shell': False}, timeout=60)\n"
        "requests.get(u + '/accessibility', timeout=120)\n"
        "requests.get(u + '/screenshot', timeout=60)\n"
        "time.sleep(2)\n"
        "r = requests.post(u + '/end_recording', timeout=120)\n"
        "r.raise_for_status()\n"
        f"open({str(video)!r}, 'wb').write(r.content)\n"
        "print('$11,908.00')\n"
    )
    task = load_tasks(BUILD / "tasks" / "tasks.jsonl")["dana-whitfield/bank/checking-balance"]
    result = run_episode(task, f"{sys.executable} {agent}", Control(url), reset=False, workdir=tmp_path / "ep")
    assert result["score"] == 100
    traj = result["trajectory"]
    assert (traj["steps"], traj["screenshots"], traj["trees"], traj["dropped"]) == (1, 2, 1, 0), traj
    folder = Path(traj["folder"])
    lines = [json.loads(x) for x in (folder / "traj.jsonl").read_text().splitlines()]
    assert len(lines) == 1
    step = lines[0]
    assert step["step_num"] == 1 and step["done"] is True and step["status"] == 200
    assert step["action"] == {
        "method": "POST",
        "path": "/execute",
        "arguments": {"command": ["xdotool", "mousemove", "200", "300"], "shell": False},
    }
    shots = sorted(folder.glob("step_*.png"))
    assert [p.name.split("_")[1] for p in shots] == ["0", "1"]  # the first observation, then the one after step 1
    assert step["screenshot_file"] == shots[1].name
    assert Image.open(shots[1]).size == (1280, 800)
    assert len(list(folder.glob("step_1_*.xml"))) == 1
    assert (folder / "answer.txt").read_text() == "$11,908.00"
    assert (folder / "recording.mp4").read_bytes() == video.read_bytes()
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        frames = list(container.decode(stream))
    assert stream.codec_context.name == "h264" and (stream.width, stream.height) == (1280, 800)
    assert len(frames) >= 4  # 2 frames a second over at least the agent's 2 s wait


def test_fleet_scores_do_not_depend_on_the_order(template, tmp_path):
    """The same three tasks over one host agent of two VMs, in the bundle's order and shuffled: every task scores
    the same, item by item (each episode starts from the reset point whatever ran before on its VM)."""
    import ray

    from builder.runtime.fleet import run_fleet

    ref, t = template
    beside = BUILD / "persona.template"
    if beside.exists() or beside.is_symlink():
        subprocess.run(["rm", "-rf", str(beside)], check=True)
    beside.symlink_to(t.folder)
    tasks = [f"dana-whitfield/{s}" for s in ("bank/bill-pay", "bank/checking-balance", "board/comment")]
    agent = f"{sys.executable} -m builder.tasks.oracle_agent"
    runs = []
    try:
        ray.init(num_cpus=2, include_dashboard=False)
        for shuffle in (None, 7):
            out = tmp_path / f"order-{shuffle}"
            run_fleet(
                [str(BUILD)],
                agent,
                vms_per_host=2,
                out=out,
                state_root=tmp_path / "fleet",
                task_ids=tasks,
                shuffle=shuffle,
            )
            runs.append({p.stem: json.loads(p.read_text()) for p in (out / "dana-whitfield").glob("*.json")})
    finally:
        ray.shutdown()
        beside.unlink()
    assert sorted(runs[0]) == sorted(runs[1]) and len(runs[0]) == 3
    for key in runs[0]:
        a, b = runs[0][key], runs[1][key]
        assert a["score"] == b["score"], key
        assert [(i["id"], i["status"]) for i in a["items"]] == [(i["id"], i["status"]) for i in b["items"]], key
