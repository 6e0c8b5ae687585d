"""A scripted agent for ``run-task``: performs a task's reference solution in a booted image.

    run-task rides/door-to-door --control http://127.0.0.1:5000 --tasks out/dana-whitfield/tasks/tasks.jsonl \\
        --agent ".venv/bin/python -m builder.tasks.oracle_agent --bundle out/dana-whitfield --http http://127.0.0.1:8080"

It proves the path an agent's work takes, end to end: the episode's reset, changes made through the guest's
own web servers (the apps' forms and API routes, as Firefox would post them, with the persona's session
cookies), the end state fetched through the control API and graded with the task's checks. A scripted
agent, not a model: it knows the task's reference solution (``apps/<app>/oracle.py``).

Reads ``PERSONA_TASK_ID``, ``PERSONA_CONTROL_URL`` and ``PERSONA_ANSWER_FILE`` from the environment run-task
sets. ``--bundle`` is the build folder (``manifest.json``, ``layer/etc/persona-desktop/guest.json`` with the
session cookies, ``tasks/tasks.jsonl``); ``--http`` is run-image's ``--http-port`` (the guest's port 80,
where nginx serves each app by its Host). Lookups the solution makes (the id behind a button) read a fresh
copy of the app's database from the control API's ``GET /state/apps/<app>``. Tasks that write home files
are refused (exit 2): the solution writes them on the host. Exits 1 when an app refused a step.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import urllib.parse
from pathlib import Path

import requests

from .model import Task
from .oracle import NoOracle, OracleError, Web, solve


class ImageWeb(Web):
    """:class:`Web` against a booted image: HTTP to its forwarded port 80, lookups on fresh database copies."""

    base: str = ""  # http://host:port of the guest's port 80
    control: str = ""  # run-image's control URL
    scratch: Path | None = None  # where the database copies go

    def _url(self, path: str) -> str:
        return f"{self.base}{path}"

    def query(self, app: str, sql: str, params: tuple | list = ()) -> list[tuple]:
        r = requests.get(f"{self.control}/state/apps/{app}", timeout=120)
        if r.status_code != 200:
            raise OracleError(f"GET /state/apps/{app} -> {r.status_code}: {r.text[:300]}")
        assert self.scratch is not None
        path = self.scratch / f"{app}.sqlite"
        path.write_bytes(r.content)
        self.databases[app] = path
        return super().query(app, sql, params)


def load_task(bundle: Path, task_id: str) -> Task:
    """The task ``task_id`` (or a unique ``<app>/<slug>`` suffix) of the bundle's tasks.jsonl. Raises SystemExit."""
    lines = (bundle / "tasks" / "tasks.jsonl").read_text(encoding="utf-8").splitlines()
    tasks = [Task.from_line(line) for line in lines if line.strip()]
    hits = [t for t in tasks if t.id == task_id or t.id.endswith("/" + task_id)]
    if len(hits) != 1:
        raise SystemExit(f"oracle_agent: {len(hits)} tasks match {task_id!r} in {bundle}/tasks/tasks.jsonl")
    return hits[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Perform a task's reference solution in a booted image (for run-task).")
    ap.add_argument(
        "--bundle",
        type=Path,
        default=os.environ.get("PERSONA_BUNDLE"),
        required=not os.environ.get("PERSONA_BUNDLE"),
        help="the build folder (manifest.json, layer/, tasks/; default $PERSONA_BUNDLE, which fleet sets)",
    )
    ap.add_argument(
        "--http",
        default=os.environ.get("PERSONA_HTTP_URL", "http://127.0.0.1:8080"),
        help="run-image's HTTP port, the guest's port 80 (default $PERSONA_HTTP_URL, else http://127.0.0.1:8080)",
    )
    ap.add_argument("--task", default=os.environ.get("PERSONA_TASK_ID"), help="task id (default $PERSONA_TASK_ID)")
    a = ap.parse_args(argv)
    control = os.environ.get("PERSONA_CONTROL_URL", "http://127.0.0.1:5000").rstrip("/")
    if not a.task:
        raise SystemExit("oracle_agent: no task: pass --task or run it from run-task")
    task = load_task(a.bundle, a.task)
    if any(i.check.type == "file" for i in task.rubric):
        print(f"oracle_agent: {task.id} writes home files; this agent only acts through the apps", file=sys.stderr)
        return 2
    guest_json = a.bundle / "layer" / "etc" / "persona-desktop" / "guest.json"
    if not guest_json.is_file():
        print(
            f"oracle_agent: {a.bundle} has no layer/ (a pulled image's folder has none): the reference solutions sign "
            "in with the session cookies of the build folder's layer/etc/persona-desktop/guest.json",
            file=sys.stderr,
        )
        return 2
    guest = json.loads(guest_json.read_text())
    apps = guest["apps"]
    u = urllib.parse.urlsplit(a.http)
    with tempfile.TemporaryDirectory(prefix="oracle-agent-") as td:
        web = ImageWeb(
            port=u.port or 80,
            domains={x["name"]: x["domain"] for x in apps},
            cookies={x["name"]: {x["session_cookie"]: x["session_token"]} for x in apps},
            currency=json.loads((a.bundle / "manifest.json").read_text()).get("currency", "USD"),
        )
        web.base = f"{u.scheme}://{u.netloc}"
        web.control, web.scratch = control, Path(td)
        try:
            answer = solve(task, web)
        except NoOracle as e:
            print(f"oracle_agent: {e}", file=sys.stderr)
            return 2
        except OracleError as e:
            print(f"oracle_agent: {task.id}: {e}", file=sys.stderr)
            return 1
    out = os.environ.get("PERSONA_ANSWER_FILE")
    if out:
        Path(out).write_text(answer + "\n", encoding="utf-8")
    print(answer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
