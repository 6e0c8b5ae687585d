"""The getter and metric an OSWorld harness uses to grade the exported tasks (``tasks/osworld/``).

OSWorld evaluates a task as ``metric(get_<result.type>(env, result), get_<expected.type>(env, expected),
**options)``. An exported task names:

* ``result``: our getter ``persona_end_state`` (:func:`persona_end_state`): downloads each app database the
  checks read (``GET /state/apps/<app>`` of run-image's control API, a consistent copy), the start state of
  each app a ``state_diff`` check compares (:func:`start_databases`), each file the checks name
  (``POST /file``) and the agent's final answer, into a temporary folder.
* ``expected``: OSWorld's built-in ``rule`` getter, which hands over ``rules`` as they are: the task's id,
  kind, category, instruction and rubric.
* ``func``: our metric ``persona_rubric`` (:func:`persona_rubric`): grades that end state with the task's
  rubric (:func:`builder.tasks.grade.grade`) and returns a fraction 0.0..1.0.

:func:`register` puts the getter and metric into an installed ``desktop-env``'s ``getters`` and ``metrics``
modules (OSWorld looks both up there by name), plus ``get_persona_rubric``, the ``expected`` getter that
bundles written before the ``rule`` shape named. :mod:`builder.runtime.osworld` registers these and the
run-image provider in one call.

Judge items. OSWorld has no judge, and a rubric item checked by a judge (``check.type == "judge"``) cannot be
met by a program. The metric's ``judge`` option (the export sets ``machine_share``) says what it scores then:

* ``machine_share`` (default): the met share of the machine-checked weight (met machine weight / machine
  weight). A task whose rubric is all judge items scores 0.0.
* ``strict``: met weight / 100, judge items counted as unmet (the task's ceiling is its machine weight).

Either way the metric logs one warning naming the unassessed weight and both numbers, and writes the whole
grading (each item's status and evidence, ``basis``, ``score_of_100``, ``machine_weight``,
``unassessed_weight``) to ``persona-grade.json`` in the episode's cache folder (``env.cache_dir``), so a
score is never read without its basis. With ``$PERSONA_JUDGE_URL`` and ``$PERSONA_JUDGE_MODEL`` set (key in
``$JUDGE_API_KEY``) the judge items go to that OpenAI-compatible endpoint (:func:`builder.tasks.judge.openai_judge`)
and the score is met weight / 100 (``basis: "judge"``).

Start state. ``state_diff`` checks compare the end state with the databases at the start of the episode.
They come from the bundle's ``layer/`` when ``$PERSONA_BUNDLE`` names it (the folder holding ``tasks/`` and
``layer/``), else from run-image itself (``GET /state/seeded/<app>``: the reset point's database, checked
against the manifest's seeded SHA-256). When neither can give them the getter raises :class:`StartStateError`:
a diff against nothing is never graded as unmet in silence.

The control URL is ``env.controller.http_server`` (or ``$PERSONA_CONTROL_URL``); the answer comes from
``$PERSONA_ANSWER_FILE`` or the guest file ``/tmp/persona-answer.txt`` (OSWorld has no answer channel of its
own: an agent writes its final answer there).
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path

import requests

from .export import GUEST_ANSWER
from .grade import REPORTED, grade
from .model import RubricItem, Task

APPS_ROOT = "var/lib/persona-desktop/apps"
#: The file the metric writes its whole grading to, in the episode's cache folder.
REPORT_NAME = "persona-grade.json"
JUDGE_MODES = ("machine_share", "strict")

log = logging.getLogger("desktopenv.persona")


class StartStateError(RuntimeError):
    """The start-of-episode database a ``state_diff`` check needs could not be had (the message says why)."""


def _control_url(env) -> str:
    url = os.environ.get("PERSONA_CONTROL_URL") or getattr(getattr(env, "controller", None), "http_server", None)
    if not url:
        raise RuntimeError("no control URL: set PERSONA_CONTROL_URL or pass an OSWorld env with a controller")
    return url.rstrip("/")


def _seeded(bundle: Path, app: str) -> Path | None:
    folder = bundle / "layer" / APPS_ROOT / app
    found = sorted(folder.glob("*.sqlite")) if folder.is_dir() else []
    return found[0] if found else None


def start_databases(url: str, apps: list[str], dest: Path) -> dict[str, Path]:
    """The database of each app in ``apps`` as it was at the start of the episode: ``{app: path under dest}``.

    From ``$PERSONA_BUNDLE``'s ``layer/`` when that is set (a missing app there raises), else from the control
    API at ``url`` (run-image's ``GET /state/seeded/<app>``, whose ``X-Persona-SHA256`` header is checked against
    the bytes). Raises :class:`StartStateError` naming the app and the reason when one cannot be had.
    """
    out: dict[str, Path] = {}
    bundle = os.environ.get("PERSONA_BUNDLE")
    for app in apps:
        if bundle:
            found = _seeded(Path(bundle), app)
            if found is None:
                raise StartStateError(
                    f"$PERSONA_BUNDLE={bundle}: no layer/{APPS_ROOT}/{app}/*.sqlite (a build folder?)"
                )
            out[app] = found
            continue
        try:
            r = requests.get(f"{url}/state/seeded/{app}", timeout=300)
        except requests.RequestException as e:
            raise StartStateError(f"the start state of {app!r} from {url}: {e}") from None
        if r.status_code != 200:
            raise StartStateError(
                f"the start state of {app!r}: {url}/state/seeded/{app} answered {r.status_code} {r.text[:300]!r} "
                "(serve the image with run-image, or set PERSONA_BUNDLE to the build folder)"
            )
        want = r.headers.get("X-Persona-SHA256")
        if want and hashlib.sha256(r.content).hexdigest() != want:
            raise StartStateError(f"the start state of {app!r} does not match its SHA-256 {want}")
        out[app] = dest / f"{app}.start.sqlite"
        out[app].write_bytes(r.content)
    return out


def fetch_database(url: str, app: str, session=None) -> bytes:
    """A consistent copy of ``app``'s SQLite database in the running machine at the control API ``url``
    (run-image's ``GET /state/apps/<app>``). Raises ``requests.RequestException`` when the machine does not answer,
    ``RuntimeError`` (its HTTP status and error) when it refuses."""
    r = (session or requests).get(f"{url.rstrip('/')}/state/apps/{app}", timeout=300)
    if r.status_code != 200:
        raise RuntimeError(f"GET {url.rstrip('/')}/state/apps/{app}: HTTP {r.status_code} {r.text.strip()[:300]}")
    return r.content


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
    temporary folder; return ``{"databases", "initial", "home", "answer", "report"}`` for :func:`persona_rubric`
    (``report``: where the metric writes its grading, in ``env.cache_dir``; None without one).

    Raises ``RuntimeError`` when the control API refuses a database, ``requests.HTTPError`` a file listing, and
    :class:`StartStateError` when a start state cannot be had.
    """
    url = _control_url(env)
    work = Path(tempfile.mkdtemp(prefix="persona-end-"))
    dbs = {}
    for app in config.get("apps", []):
        dbs[app] = work / f"{app}.sqlite"
        dbs[app].write_bytes(fetch_database(url, app))
    initial = start_databases(url, list(config.get("initial_apps", [])), work)
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
    cache = getattr(env, "cache_dir", None)
    return {
        "databases": {k: str(v) for k, v in dbs.items()},
        "initial": {k: str(v) for k, v in initial.items()},
        "home": str(home),
        "answer": answer,
        "report": str(Path(cache) / REPORT_NAME) if cache else None,
    }


def _judge_from_env():
    url, model = os.environ.get("PERSONA_JUDGE_URL"), os.environ.get("PERSONA_JUDGE_MODEL")
    if not url:
        return None
    if not model:
        raise RuntimeError("PERSONA_JUDGE_URL is set without PERSONA_JUDGE_MODEL")
    from .judge import openai_judge

    return openai_judge(url, model, os.environ.get("JUDGE_API_KEY"))


def grade_osworld(result: dict, rules: dict, judge: str = "machine_share") -> dict:
    """Grade ``result`` (from :func:`persona_end_state`) on ``rules`` (the exported ``expected.rules``).

    Returns ``{"task_id", "score" (the fraction the metric returns), "basis" ("machine_share" | "strict" |
    "judge"), "score_of_100", "machine_weight", "unassessed_weight", "items": [{id, status, weight, evidence}]}``.
    Raises ``ValueError`` for an unknown ``judge`` mode.
    """
    if judge not in JUDGE_MODES:
        raise ValueError(f"judge option {judge!r}: one of {', '.join(JUDGE_MODES)}")
    rubric = [RubricItem.model_validate(i) for i in rules["rubric"]]
    task = Task(
        id=rules["task_id"],
        persona=rules["task_id"].split("/")[0],
        kind=rules["kind"],
        category=rules["category"],
        instruction=rules.get("instruction") or "-",
        apps_involved=["files"],
        difficulty="medium",
        time_limit_seconds=1,
        rubric=rubric,
        expected={},
    )
    a_judge = _judge_from_env()
    score, items = grade(
        task,
        {k: Path(v) for k, v in result["databases"].items()},
        result.get("answer", ""),
        initial={k: Path(v) for k, v in result.get("initial", {}).items()},
        home=Path(result["home"]),
        judge=a_judge,
    )
    machine = sum(i.weight for i in rubric if i.check.machine)
    unassessed = sum(r.weight for r in items if r.status == "not_assessable")
    met_machine = sum(r.weight for r, i in zip(items, rubric) if r.status == "met" and i.check.machine)
    if a_judge is not None:
        basis, frac = "judge", score / 100
    elif judge == "strict" or unassessed == 0:
        basis, frac = ("strict" if judge == "strict" else "machine_share"), score / 100
    else:
        basis, frac = "machine_share", (met_machine / machine if machine else 0.0)
    return {
        "task_id": task.id,
        "score": frac,
        "basis": basis,
        "score_of_100": score,
        "machine_weight": machine,
        "unassessed_weight": unassessed,
        "items": [
            {"id": r.item_id, "status": REPORTED[r.status], "weight": r.weight, "evidence": r.evidence} for r in items
        ],
    }


def persona_rubric(result: dict, expected: dict, judge: str = "machine_share", **_options) -> float:
    """The task's score on ``result`` (from :func:`persona_end_state`) as a fraction 0.0..1.0.

    ``expected``: the task's rules (``task_id``, ``kind``, ``category``, ``rubric``...: what OSWorld's ``rule``
    getter returns), or the older ``expected`` object holding them at its top level. ``judge``: how judge items
    count without a judge (``machine_share`` or ``strict``, see the module docstring). Writes the grading to
    ``result["report"]`` when set and logs a warning when weight went unassessed. Raises ``ValueError`` for
    an unknown ``judge``.
    """
    rules = expected.get("rules", expected) if isinstance(expected, dict) else expected
    out = grade_osworld(result, rules, judge)
    if out["unassessed_weight"]:
        log.warning(
            "persona_rubric %s: %d of 100 rubric weight needs a judge and got no verdict; score %.4f is %s "
            "(%d/100 met, %d machine-checked weight)",
            out["task_id"],
            out["unassessed_weight"],
            out["score"],
            "the met share of the machine-checked weight" if out["basis"] == "machine_share" else "met weight / 100",
            out["score_of_100"],
            out["machine_weight"],
        )
    if result.get("report"):
        path = Path(result["report"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return out["score"]


def get_persona_rubric(env, config: dict) -> dict:
    """The ``expected`` getter that bundles written before the ``rule`` shape name: returns ``config`` as it is."""
    return config


def register(getters_module=None, metrics_module=None) -> None:
    """Put the getter (``get_persona_end_state``, and ``get_persona_rubric`` for older bundles) and the metric
    (``persona_rubric``) into OSWorld's ``desktop_env.evaluators.getters`` and ``.metrics`` modules (or the
    ones given), where ``DesktopEnv`` looks them up by name. Idempotent. Raises ``ImportError`` without
    ``desktop-env`` installed."""
    if getters_module is None or metrics_module is None:
        from desktop_env.evaluators import getters, metrics  # OSWorld's package

        getters_module = getters_module or getters
        metrics_module = metrics_module or metrics
    getters_module.get_persona_end_state = persona_end_state
    getters_module.get_persona_rubric = get_persona_rubric
    metrics_module.persona_rubric = persona_rubric
