"""The getter and metric an OSWorld harness registers to run the exported tasks (``tasks/osworld/``).

OSWorld evaluates a task as ``metric(getter(env, evaluator["result"]), evaluator["expected"])``. Ours:

* :func:`persona_end_state` (getter ``persona_end_state``): downloads each app database the
  checks read (``GET /state/apps/<app>`` of run-image's control URL, a consistent copy), each file the
  checks name (``POST /file``), and reads the agent's final answer, into a temporary folder.
* :func:`persona_rubric` (metric ``persona_rubric``): grades that end state with the task's rubric
  (:func:`builder.tasks.grade.grade`) and returns the score as a fraction (0.0..1.0).

Register them in a harness as it registers its own (``desktop_env.evaluators.getters`` /
``metrics``), e.g. ``getters.get_persona_end_state = persona_end_state`` and
``metrics.persona_rubric = persona_rubric``. The control URL is ``env.controller.http_server`` (or
``$PERSONA_CONTROL_URL``); the start-of-episode databases that ``state_diff`` checks compare with come
from the bundle's ``layer/`` (``$PERSONA_BUNDLE``, the folder holding ``tasks/`` and ``layer/``); the
answer comes from ``$PERSONA_ANSWER_FILE`` or the guest file ``/tmp/persona-answer.txt`` (OSWorld has no
answer channel of its own: an agent writes its final answer there).
"""

from __future__ import annotations

import fnmatch
import os
import tempfile
from pathlib import Path

import requests

from .export import GUEST_ANSWER
from .grade import grade
from .model import Task

APPS_ROOT = "var/lib/persona-desktop/apps"


def _control_url(env) -> str:
    url = os.environ.get("PERSONA_CONTROL_URL") or getattr(getattr(env, "controller", None), "http_server", None)
    if not url:
        raise RuntimeError("no control URL: set PERSONA_CONTROL_URL or pass an OSWorld env with a controller")
    return url.rstrip("/")


def _seeded(bundle: Path, app: str) -> Path | None:
    folder = bundle / "layer" / APPS_ROOT / app
    found = sorted(folder.glob("*.sqlite")) if folder.is_dir() else []
    return found[0] if found else None


def fetch_home_files(url: str, patterns: list[str], dest: Path) -> dict[str, int]:
    """Copy every guest file under the persona's home matching one of ``patterns`` (globs relative to
    ``~``) into ``dest`` (same relative paths), through the control API's ``/execute`` (listing) and
    ``/file`` (download); return ``{relative path: size}``. Raises ``requests.HTTPError`` on a refused listing."""
    r = requests.post(
        f"{url}/execute",
        json={"command": ["sh", "-c", 'echo "$HOME"; find "$HOME" -type f'], "shell": False},
        timeout=120,
    )
    r.raise_for_status()
    lines = (r.json().get("output") or "").splitlines()
    if not lines:
        return {}
    home, paths = lines[0].rstrip("/"), lines[1:]
    got = {}
    for path in sorted(paths):
        rel = path[len(home) + 1 :]
        if not any(fnmatch.fnmatch(rel, pat) for pat in patterns):
            continue
        f = requests.post(f"{url}/file", data={"file_path": path}, timeout=300)
        if f.status_code == 200:
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(f.content)
            got[rel] = len(f.content)
    return got


def persona_end_state(env, config: dict) -> dict:
    """Fetch the end state ``config`` asks for (``apps``, ``initial_apps``, ``files``, ``answer``) into a
    temporary folder; return ``{"databases", "initial", "home", "answer"}`` for :func:`persona_rubric`.

    Raises ``requests.HTTPError`` when the control API refuses a download.
    """
    url = _control_url(env)
    work = Path(tempfile.mkdtemp(prefix="persona-end-"))
    dbs = {}
    for app in config.get("apps", []):
        r = requests.get(f"{url}/state/apps/{app}", timeout=300)
        r.raise_for_status()
        dbs[app] = work / f"{app}.sqlite"
        dbs[app].write_bytes(r.content)
    bundle = Path(os.environ.get("PERSONA_BUNDLE", "."))
    initial = {a: p for a in config.get("initial_apps", []) if (p := _seeded(bundle, a))}
    home = work / "home"
    home.mkdir()
    if config.get("files"):
        fetch_home_files(url, config["files"], home)
    answer = ""
    if config.get("answer"):
        local = os.environ.get("PERSONA_ANSWER_FILE")
        if local and Path(local).is_file():
            answer = Path(local).read_text(encoding="utf-8", errors="replace")
        else:
            r = requests.post(f"{url}/file", data={"file_path": GUEST_ANSWER}, timeout=60)
            answer = r.content.decode("utf-8", "replace") if r.status_code == 200 else ""
    return {
        "databases": {k: str(v) for k, v in dbs.items()},
        "initial": {k: str(v) for k, v in initial.items()},
        "home": str(home),
        "answer": answer,
    }


def persona_rubric(result: dict, expected: dict) -> float:
    """The task's score on ``result`` (from :func:`persona_end_state`) as a fraction 0.0..1.0."""
    task = Task(
        id=expected["task_id"],
        persona=expected["task_id"].split("/")[0],
        kind=expected["kind"],
        category=expected["category"],
        instruction="-",
        apps_involved=["files"],
        difficulty="medium",
        time_limit_seconds=1,
        rubric=expected["rubric"],
        expected={},
    )
    score, _ = grade(
        task,
        {k: Path(v) for k, v in result["databases"].items()},
        result.get("answer", ""),
        initial={k: Path(v) for k, v in result.get("initial", {}).items()},
        home=Path(result["home"]),
    )
    return score / 100
