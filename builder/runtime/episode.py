"""``run-task``: one benchmark episode: reset, run an agent on a task, collect the end state, grade it.

``run-task TASK_ID --agent CMD`` runs against a machine that ``run-image`` serves (``--control URL``,
default ``http://127.0.0.1:5000``), or boots one itself from ``--image PATH|NAME`` (the same code as
``run-image``, on free ports, torn down at the end). An episode:

1. ``POST /reset`` (skipped right after a boot or restore: the machine is at its reset point).
2. The agent: ``CMD`` run through ``/bin/sh -c`` with the instruction on its standard input and in
   the environment: ``PERSONA_TASK_ID``, ``PERSONA_INSTRUCTION``, ``PERSONA_CONTROL_URL`` (the control
   API: OSWorld's ``/screenshot``, ``/execute``, ``/accessibility``... ), ``PERSONA_ANSWER_FILE``
   (where the agent writes its final answer as text; when it writes none, its standard output is the
   answer) and ``PERSONA_TIME_LIMIT`` (seconds). It is stopped (SIGTERM, then SIGKILL, its whole
   process group) after ``--timeout`` seconds (default: the task's ``time_limit_seconds``).
3. The end state: a consistent copy of each app database the task's checks read (``GET
   /state/apps/<app>``; for ``state_diff`` checks also one taken right after the reset), every file the
   task names in ``expected.files`` and every home file a ``file`` check's glob matches (``POST /file``).
4. Grading with the task's own checks (:func:`builder.tasks.grade.grade`) into a result JSON::

     {"task_id", "score": 0..100, "max_machine_score", "items": [{"id", "status": "met"|"unmet"|
      "needs_judge", "weight", "requirement", "evidence"}], "answer", "agent": {"command",
      "returncode", "seconds", "timed_out"}, "end_state": {"databases": {app: sha256}, "files": {...}}}

   written to ``--out`` (default ``<results>/<task id with / as __>.json`` under ``--results-dir``,
   default ``results/``) and summarised on standard output.

Tasks come from the image's bundle (``tasks/tasks.jsonl`` beside ``persona.qcow2``) or ``--tasks FILE``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import requests

from ..tasks.grade import REPORTED, grade
from ..tasks.model import Task
from ..tasks.osworld_hooks import fetch_database, fetch_home_files


class EpisodeError(RuntimeError):
    """The task, the machine or the agent could not be set up (the message says which)."""


def load_tasks(path: Path) -> dict[str, Task]:
    """Tasks of a ``tasks.jsonl`` by id. Raises :class:`EpisodeError` for a missing or invalid file."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise EpisodeError(f"{path}: {e.strerror or e}") from None
    out: dict[str, Task] = {}
    for n, line in enumerate(lines, 1):
        if line.strip():
            try:
                t = Task.from_line(line)
            except ValueError as e:
                raise EpisodeError(f"{path}:{n}: not a task ({str(e).splitlines()[0]})") from None
            out[t.id] = t
    return out


def find_task(tasks: dict[str, Task], task_id: str) -> Task:
    """The task ``task_id``; a bare suffix (``bank/bill-pay``) matches when it is unique. Raises :class:`EpisodeError`."""
    if task_id in tasks:
        return tasks[task_id]
    hits = [t for k, t in tasks.items() if k.endswith("/" + task_id)]
    if len(hits) == 1:
        return hits[0]
    near = ", ".join(sorted(tasks)[:8])
    raise EpisodeError(f"no task {task_id!r}" + (f" (ambiguous: {len(hits)} match)" if hits else f"; e.g. {near}"))


@dataclass
class AgentRun:
    """How the agent process ended."""

    command: str
    returncode: int | None
    seconds: float
    timed_out: bool
    stdout: str


def run_agent(
    command: str, task: Task, control_url: str, timeout: float, workdir: Path, env: dict[str, str] | None = None
) -> tuple[AgentRun, str]:
    """Run the agent ``command`` (shell) for ``task``, with ``env`` added to its environment; return (how it
    ended, its final answer text)."""
    answer_file = workdir / "answer.txt"
    answer_file.unlink(missing_ok=True)
    env = {
        **os.environ,
        "PERSONA_TASK_ID": task.id,
        "PERSONA_INSTRUCTION": task.instruction,
        "PERSONA_CONTROL_URL": control_url,
        "PERSONA_ANSWER_FILE": str(answer_file),
        "PERSONA_TIME_LIMIT": str(int(timeout)),
        **(env or {}),
    }
    t0 = time.monotonic()
    # In the caller's folder, so `--agent 'python my_agent.py'` finds its script.
    p = subprocess.Popen(
        ["/bin/sh", "-c", command],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=None,
        env=env,
        start_new_session=True,
        text=True,
    )
    timed_out = False
    try:
        out, _ = p.communicate(task.instruction + "\n", timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        for sig in (signal.SIGTERM, signal.SIGKILL):  # the whole group: an agent's children go too
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                break
            try:
                p.wait(timeout=10)
                break
            except subprocess.TimeoutExpired:
                continue
        try:
            os.killpg(p.pid, signal.SIGKILL)  # stragglers that ignored SIGTERM while the shell exited
        except ProcessLookupError:
            pass
        out, _ = p.communicate()  # what it printed before it was stopped
    run = AgentRun(command, p.returncode, round(time.monotonic() - t0, 1), timed_out, out)
    answer = answer_file.read_text(encoding="utf-8", errors="replace") if answer_file.exists() else out
    return run, answer.strip()


class Control:
    """A client of ``run-image``'s control server at ``url``."""

    def __init__(self, url: str):
        self.url = url.rstrip("/")
        self.http = requests.Session()

    def healthy(self) -> bool:
        try:
            return self.http.get(self.url + "/health", timeout=30).status_code == 200
        except requests.RequestException:
            return False

    def wait_healthy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not self.healthy():
            if time.monotonic() > deadline:
                raise EpisodeError(f"{self.url}/health is not 200 after {timeout:.0f}s")
            time.sleep(2)

    def reset(self) -> float:
        r = self.http.post(self.url + "/reset", timeout=600)
        if r.status_code != 200:
            raise EpisodeError(f"reset failed: HTTP {r.status_code} {r.text.strip()[:300]}")
        return float(r.json().get("seconds", 0))

    def database(self, app: str) -> bytes:
        try:
            return fetch_database(self.url, app, self.http)
        except RuntimeError as e:
            raise EpisodeError(f"end state of {app}: {e}") from None

    def state(self) -> dict[str, str]:
        """SHA-256 of each app database file in the guest now (``GET /state``)."""
        r = self.http.get(self.url + "/state", timeout=120)
        if r.status_code != 200:
            raise EpisodeError(f"GET /state: HTTP {r.status_code} {r.text.strip()[:300]}")
        return r.json()["databases"]

    def trajectory_start(self, name: str) -> str | None:
        """Start recording the episode's trajectory (``POST /trajectory/start``); its name, or None from a control
        server that does not record."""
        r = self.http.post(self.url + "/trajectory/start", json={"name": name}, timeout=60)
        return r.json().get("name") if r.status_code == 200 else None

    def trajectory_stop(self, name: str, answer: str, dest: Path) -> dict | None:
        """Stop recording, with the final answer, and copy the trajectory into ``dest`` (created); its summary, or
        None when the server recorded nothing. Raises :class:`EpisodeError` when the copy fails."""
        from .trajectory import unpack

        r = self.http.post(self.url + "/trajectory/stop", json={"answer": answer}, timeout=60)
        if r.status_code != 200:
            return None
        t = self.http.get(f"{self.url}/trajectories/{name}", timeout=300)
        if t.status_code != 200:
            raise EpisodeError(f"GET /trajectories/{name}: HTTP {t.status_code}")
        try:
            unpack(t.content, dest)
        except ValueError as e:
            raise EpisodeError(f"GET /trajectories/{name}: {e}") from None
        summary = {k: v for k, v in r.json().items() if k != "status"}
        return {**summary, "folder": str(dest)}

    def file(self, path: str) -> bytes | None:
        r = self.http.post(self.url + "/file", data={"file_path": path}, timeout=300)
        if r.status_code == 404:
            return None
        if r.status_code != 200:
            raise EpisodeError(f"file {path}: HTTP {r.status_code} {r.text.strip()[:300]}")
        return r.content


def start_episode(
    task: Task, control: Control, work: Path, *, reset: bool = True
) -> tuple[dict[str, Path], float | None]:
    """The start of an episode: ``POST /reset`` (when ``reset``), then a copy of each database a ``state_diff``
    check compares with, as the reset left it, under ``work/initial``. Returns ``(initial databases, reset
    seconds or None)``. Raises :class:`EpisodeError`."""
    reset_s = control.reset() if reset else None
    initial: dict[str, Path] = {}
    for app in sorted({i.check.app for i in task.rubric if i.check.type == "state_diff"}):
        initial[app] = work / "initial" / f"{app}.sqlite"
        initial[app].parent.mkdir(parents=True, exist_ok=True)
        initial[app].write_bytes(control.database(app))
    return initial, reset_s


def finish_episode(task: Task, control: Control, answer: str, work: Path, initial: dict[str, Path]) -> dict:
    """The end of an episode: the end state (each database the checks read, the files they name) collected under
    ``work`` and graded with the task's rubric. Returns ``{"task_id", "category", "kind", "instruction", "score",
    "max_machine_score", "items", "answer", "end_state"}``. Raises :class:`EpisodeError`."""
    apps = sorted({i.check.app for i in task.rubric if i.check.type in ("sql", "state_diff")})
    dbs: dict[str, Path] = {}
    hashes: dict[str, str] = {}
    for app in apps:
        data = control.database(app)
        dbs[app] = work / f"{app}.sqlite"
        dbs[app].write_bytes(data)
        hashes[app] = hashlib.sha256(data).hexdigest()
    files: dict[str, dict | None] = {}
    for path in task.expected.get("files", []) or []:
        data = control.file(str(path))
        if data is not None:
            (work / "files").mkdir(exist_ok=True)
            (work / "files" / re.sub(r"[^A-Za-z0-9._-]", "_", str(path))).write_bytes(data)
        files[str(path)] = None if data is None else {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    patterns = sorted({i.check.path for i in task.rubric if i.check.type == "file"})
    home = work / "home"
    home.mkdir(exist_ok=True)
    if patterns:
        for rel, size in fetch_home_files(control.url, patterns, home).items():
            files["~/" + rel] = {"size": size, "sha256": hashlib.sha256((home / rel).read_bytes()).hexdigest()}
    files_now = control.state() if apps else {}
    score, results = grade(task, dbs, answer, initial=initial, home=home)
    status = REPORTED
    req = {i.id: i.requirement for i in task.rubric}
    return {
        "task_id": task.id,
        "category": task.category,
        "kind": task.kind,
        "instruction": task.instruction,
        "score": score,
        "max_machine_score": task.machine_weight,
        "items": [
            {
                "id": r.item_id,
                "status": status[r.status],
                "weight": r.weight,
                "requirement": req[r.item_id],
                "evidence": r.evidence,
            }
            for r in results
        ],
        "answer": answer,
        # "databases": SHA-256 of each database file in the guest (compare with the manifest's seeded ones);
        # "exported": of the consistent copies graded here (sqlite3 .backup: other bytes, same rows)
        "end_state": {"databases": {a: files_now.get(a) for a in apps}, "exported": hashes, "files": files},
    }


def run_episode(
    task: Task,
    agent: str,
    control: Control,
    *,
    reset: bool = True,
    timeout: float | None = None,
    workdir: Path | None = None,
    env: dict[str, str] | None = None,
    record: bool = True,
) -> dict:
    """Reset (when ``reset``), run ``agent`` (``env`` added to its environment; its requests recorded as the
    episode's trajectory when ``record`` and the control server records, :mod:`builder.runtime.trajectory`), collect
    the end state and grade; return the result dict (:func:`finish_episode`'s, with ``agent``, ``reset_seconds`` and
    ``trajectory``: its summary and the ``folder`` it was copied to under ``workdir``, or None)."""
    work = Path(workdir or tempfile.mkdtemp(prefix="persona-episode-"))
    work.mkdir(parents=True, exist_ok=True)
    initial, reset_s = start_episode(task, control, work, reset=reset)
    limit = float(timeout or task.time_limit_seconds)
    recording = control.trajectory_start(task.id) if record else None
    run, answer = run_agent(agent, task, control.url, limit, work, env)
    trajectory = control.trajectory_stop(recording, answer, work / "trajectory") if recording else None
    result = finish_episode(task, control, answer, work, initial)
    end_state = result.pop("end_state")
    return {
        **result,
        "agent": {
            "command": run.command,
            "returncode": run.returncode,
            "seconds": run.seconds,
            "timed_out": run.timed_out,
        },
        "reset_seconds": reset_s,
        "end_state": end_state,
        "trajectory": trajectory,
    }


def main(argv: list[str] | None = None) -> None:
    """Console script ``run-task``."""
    import argparse

    ap = argparse.ArgumentParser(prog="run-task", description="Run one task as a benchmark episode and grade it.")
    ap.add_argument("task_id", help="a task id from the bundle (or a unique suffix such as bank/bill-pay)")
    ap.add_argument(
        "--agent", required=True, help="shell command of the agent (see the module docs for its environment)"
    )
    ap.add_argument(
        "--control",
        default=os.environ.get("PERSONA_CONTROL_URL", "http://127.0.0.1:5000"),
        help="control API of a running run-image (default http://127.0.0.1:5000)",
    )
    ap.add_argument("--image", help="boot this image (PATH|NAME) instead of using a running run-image")
    ap.add_argument("--tasks", type=Path, help="tasks.jsonl (needed with --control; with --image: the image's bundle)")
    ap.add_argument("--timeout", type=float, help="seconds for the agent (default: the task's time limit)")
    ap.add_argument("--no-reset", action="store_true", help="do not reset before the episode")
    ap.add_argument("--out", type=Path, help="result JSON (default results/<task>.json)")
    ap.add_argument(
        "--results-dir",
        type=Path,
        default=Path("results"),
        help="folder of the result JSON and the trajectory folder beside it (default results/)",
    )
    a = ap.parse_args(argv)

    def fail(msg: str) -> None:
        print(f"run-task: error: {msg}", file=sys.stderr)
        sys.exit(2)

    machine = server = None
    try:
        tasks_path = a.tasks
        if a.image:
            from ..image.boot import free_port
            from .run import ControlServer, Machine, RunError, resolve_image

            try:
                ref = resolve_image(a.image)
                tasks_path = tasks_path or ref.qcow2.parent / "tasks" / "tasks.jsonl"
                task = find_task(load_tasks(tasks_path), a.task_id)
                machine = Machine(
                    ref,
                    http_port=free_port(),
                    vnc_port=None,
                    qmp_port=None,
                    progress=lambda s: print(f"[run-task] {s}", file=sys.stderr, flush=True),
                )
                server = ControlServer.start(machine, "127.0.0.1", 0)
                machine.start()
            except RunError as e:
                fail(str(e))
            control = Control(f"http://127.0.0.1:{server.server_address[1]}")
            do_reset = False  # just booted or restored: the machine is at its reset point
        else:
            if tasks_path is None:
                fail("--tasks FILE is needed with --control (or pass --image)")
            task = find_task(load_tasks(tasks_path), a.task_id)
            control = Control(a.control)
            control.wait_healthy(30)
            do_reset = not a.no_reset
        result = run_episode(task, a.agent, control, reset=do_reset, timeout=a.timeout)
    except EpisodeError as e:
        fail(str(e))
    finally:
        if server is not None:
            server.shutdown()
        if machine is not None:
            machine.stop()
    out = a.out or a.results_dir / (result["task_id"].replace("/", "__") + ".json")
    out.parent.mkdir(parents=True, exist_ok=True)
    if result.get("trajectory"):
        # The trajectory folder beside the result JSON (OSWorld's runners' per-example folder): <result>/
        folder = out.with_suffix("")
        shutil.rmtree(folder, ignore_errors=True)
        shutil.move(result["trajectory"]["folder"], folder)
        result["trajectory"]["folder"] = str(folder)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    os.replace(tmp, out)
    met = sum(1 for i in result["items"] if i["status"] == "met")
    print(
        f"{result['task_id']}: score {result['score']}/100 (machine-checkable {result['max_machine_score']}; "
        f"{met}/{len(result['items'])} items met, agent exit {result['agent']['returncode']}, "
        f"agent {result['agent']['seconds']}s{' timed out' if result['agent']['timed_out'] else ''}) -> {out}"
    )


if __name__ == "__main__":
    main()
