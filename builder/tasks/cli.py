"""``grade``: score an end state (app databases, home folder, answer text) for one task of a bundle.

    grade TASK_ID [--bundle DIR] [--state ROOT | --control URL [--save-state ROOT]] [--initial ROOT]
          [--answer TEXT | --answer-file F | --guest-answer PATH] [--judge-url URL --judge-model NAME
          [--trajectory DIR]] [--json]

``--bundle``: a build's output folder (``out/<persona-id>``: ``tasks/tasks.jsonl`` and ``layer/``);
``TASK_ID`` may be the full id, its ``<app>/<slug>`` end or its MyPCBench id (``tasks/mypcbench/id_map.json``).
The end state is one of:

* ``--state ROOT``: a folder laid out like the guest's root (``var/lib/persona-desktop/apps/<app>/<app>.sqlite``
  and ``home/<user>/``); default the bundle's ``layer/``, i.e. the seeded state (what doing nothing scores);
* ``--control URL``: the machine that ``run-image`` (or any server of its control API) serves, read before the
  harness resets it: each app database the checks read (``GET /state/apps/<app>``), each home file a ``file``
  check names (``/execute``, ``/file``) and the ``--guest-answer`` file, into ``--save-state ROOT`` (kept, the
  same layout: grade it again later with ``--state ROOT``) or a temporary folder.

The start state that ``state_diff`` checks compare with is ``--initial ROOT`` (default the bundle's ``layer/``,
which is what the image boots with); a task with such a check and no start database for its app is refused.
The answer is ``--answer``, the file ``--answer-file``, or ``--guest-answer PATH``: a file the agent's harness
left in the guest (MyPCBench's runner writes ``/tmp/mypcbench_agent_response.txt``, an OSWorld agent
``/tmp/persona-answer.txt``), read through ``--control`` or under ``--state``'s root; a missing one is no answer.
Prints one line per rubric item (met / violated / needs a judge, weight, requirement, evidence) and
the total; ``--json`` prints the same as one JSON object (``score`` 0..100: MyPCBench's judge runner reads it).
Exit status 0 when graded, 2 on bad input or an end state that cannot be read.
A judge (``--judge-url``, an OpenAI-compatible endpoint, key from ``$JUDGE_API_KEY``) assesses the
``judge`` items only (:mod:`builder.tasks.judge`); with ``--trajectory DIR`` (the episode's folder run-task keeps)
it also reads the agent's actions and sees its last screenshots.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import requests
from pydantic import ValidationError

from .grade import REPORTED, grade, graded_apps
from .judge import openai_judge, read_trajectory
from .model import Task
from .mypcbench import GUEST_RESPONSE, mypcbench_id
from .osworld_hooks import StartStateError, fetch_database, fetch_home_files, start_databases

APPS_ROOT = Path("var/lib/persona-desktop/apps")


def _fail(msg: str) -> None:
    print(f"grade: {msg}", file=sys.stderr)
    sys.exit(2)


def load_bundle_tasks(bundle: Path) -> list[Task]:
    """The tasks of ``bundle/tasks/tasks.jsonl``. Exits with status 2 when it is missing or invalid."""
    path = bundle / "tasks" / "tasks.jsonl"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        _fail(f"{path}: {e.strerror or e}")
    out = []
    for n, line in enumerate(lines, 1):
        if line.strip():
            try:
                out.append(Task.from_line(line))
            except ValidationError as e:
                _fail(f"{path}:{n}: not a task: {e.errors()[0]['msg']}")
            except ValueError as e:  # not JSON at all
                _fail(f"{path}:{n}: not a task: {e}")
    return out


def databases_under(root: Path, apps: list[str]) -> dict[str, Path]:
    """app -> its SQLite file under ``root/var/lib/persona-desktop/apps/<app>/`` (apps without one left out)."""
    out = {}
    for app in apps:
        found = sorted((root / APPS_ROOT / app).glob("*.sqlite"))
        if found:
            out[app] = found[0]
    return out


def find_task(tasks: list[Task], key: str) -> list[Task]:
    """The tasks ``key`` names: a task's full id, its ``<app>/<slug>`` end, or its MyPCBench id
    (:func:`builder.tasks.mypcbench.mypcbench_id`). More than one when an end is ambiguous."""
    return [t for t in tasks if t.id == key or t.id.endswith("/" + key.strip("/")) or mypcbench_id(t) == key]


def fetch_end_state(url: str, task: Task, root: Path, user: str, guest_answer: str | None = None) -> dict[str, int]:
    """Copy ``task``'s end state from the control API at ``url`` into ``root``, laid out like the guest's root:
    each database :func:`graded_apps` names to ``var/lib/persona-desktop/apps/<app>/<app>.sqlite`` (``GET
    /state/apps/<app>``, a consistent copy), each home file a ``file`` check's glob matches to ``home/<user>/``,
    and the guest file ``guest_answer`` (absolute) to the same path under ``root``. Returns ``{path under root:
    size}``. Raises ``requests.RequestException`` when the machine does not answer, ``RuntimeError`` when it
    refuses a database (the message has its HTTP status and error)."""
    url = url.rstrip("/")
    got: dict[str, int] = {}
    for app in graded_apps(task):
        data = fetch_database(url, app)
        path = root / APPS_ROOT / app / f"{app}.sqlite"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        got[path.relative_to(root).as_posix()] = len(data)
    home = root / "home" / user
    home.mkdir(parents=True, exist_ok=True)
    patterns = sorted({i.check.path for i in task.rubric if i.check.type == "file"})
    if patterns:
        for rel, size in fetch_home_files(url, patterns, home).items():
            got[f"home/{user}/{rel}"] = size
    if guest_answer:
        r = requests.post(f"{url}/file", data={"file_path": guest_answer}, timeout=60)
        if r.status_code == 200:
            path = root / guest_answer.lstrip("/")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(r.content)
            got[path.relative_to(root).as_posix()] = len(r.content)
    return got


def _guest_user(bundle: Path, layer: Path) -> str:
    """The persona's user name: the manifest's ``guest.username``, else the layer's one home folder."""
    try:
        return json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))["guest"]["username"]
    except (OSError, ValueError, KeyError, TypeError):
        homes = sorted(p.name for p in (layer / "home").glob("*") if p.is_dir()) if (layer / "home").is_dir() else []
        return homes[0] if homes else "user"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="grade", description="Score an end state for one task of a bundle.")
    ap.add_argument("task", help="the task id, its <app>/<slug> end, or its MyPCBench id")
    ap.add_argument("--bundle", type=Path, default=None, help="a build's output folder (default: the only one in out/)")
    src = ap.add_mutually_exclusive_group()
    src.add_argument(
        "--state", type=Path, default=None, help="the end state's root folder (default: the bundle's layer/)"
    )
    src.add_argument("--control", default=None, help="read the end state from this control API (run-image's URL)")
    ap.add_argument("--save-state", type=Path, default=None, help="with --control: keep the end state in this folder")
    ap.add_argument(
        "--initial", type=Path, default=None, help="the start state's root folder (default: the bundle's layer/)"
    )
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--answer", default="", help="the agent's final answer")
    g.add_argument("--answer-file", type=Path, default=None, help="a file holding the final answer")
    g.add_argument(
        "--guest-answer",
        default=None,
        help=f"the guest file holding the final answer, read through --control or under --state (MyPCBench's runner "
        f"writes {GUEST_RESPONSE})",
    )
    ap.add_argument("--judge-url", default=None, help="an OpenAI-compatible base URL (…/v1) for judge items")
    ap.add_argument("--judge-model", default=None, help="the model name to ask")
    ap.add_argument(
        "--trajectory",
        type=Path,
        default=None,
        help="the episode's trajectory folder (run-task's results/<task>/: traj.jsonl and step PNGs): the judge reads "
        "its actions and sees its last screenshots",
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    if args.trajectory is not None and not args.judge_url:
        _fail("--trajectory is read by the judge: pass --judge-url and --judge-model too")

    bundle = args.bundle
    if bundle is None:
        # Finished builds only: a build under way stages in out/.<id>.partial.
        found = sorted(
            p for p in Path("out").glob("*") if not p.name.startswith(".") and (p / "tasks" / "tasks.jsonl").is_file()
        )
        if len(found) != 1:
            _fail(
                "pass --bundle DIR (a build's output folder holding tasks/tasks.jsonl; out/ holds "
                + (", ".join(p.name for p in found) if found else "none")
                + ")"
            )
        bundle = found[0]
    tasks = load_bundle_tasks(bundle)
    hits = find_task(tasks, args.task)
    if len(hits) != 1:
        near = [t.id for t in tasks if args.task.split("/")[-1] in t.id][:5]
        _fail(
            f"{'no' if not hits else 'more than one'} task {args.task!r} in {bundle}"
            + (f" (did you mean {', '.join(near)}?)" if near and not hits else "")
        )
    task = hits[0]
    layer = bundle / "layer"
    initial_root = args.initial or layer
    if args.judge_url and not args.judge_model:
        _fail("--judge-url needs --judge-model")
    trajectory = None
    if args.trajectory is not None:
        try:
            trajectory = read_trajectory(args.trajectory)
        except (ValueError, OSError) as e:
            _fail(f"--trajectory: {e}")
    if args.save_state and not args.control:
        _fail("--save-state keeps what --control reads: pass --control URL too")
    if args.guest_answer is not None and not args.guest_answer.startswith("/"):
        _fail(f"--guest-answer {args.guest_answer!r}: give the guest file's absolute path")
    apps = graded_apps(task)
    initial = databases_under(initial_root, apps)
    unseeded = sorted({i.check.app for i in task.rubric if i.check.type == "state_diff"} - initial.keys())
    if unseeded and args.control and args.initial is None:
        # A pulled bundle has no layer/: the running machine keeps its start state (run-image's /state/seeded).
        try:
            initial.update(start_databases(args.control, unseeded, Path(tempfile.mkdtemp(prefix="grade-start-"))))
        except StartStateError as e:
            _fail(str(e))
        unseeded = []
    if unseeded:
        _fail(
            f"{task.id} compares {', '.join(unseeded)} with its start state, which is not under {initial_root}: "
            "pass --initial ROOT (a build's layer/, or a --save-state taken right after the reset)"
        )
    if (
        args.save_state
        and args.save_state.exists()
        and (not args.save_state.is_dir() or any(args.save_state.iterdir()))
    ):
        _fail(f"--save-state {args.save_state}: not empty (keep each episode's end state in a folder of its own)")
    if args.control:
        state = args.save_state or Path(tempfile.mkdtemp(prefix="grade-end-state-"))
        try:
            fetch_end_state(args.control, task, state, _guest_user(bundle, layer), args.guest_answer)
        except (requests.RequestException, RuntimeError) as e:
            _fail(f"cannot read the end state from {args.control}: {e}")
    else:
        state = args.state or layer
    if not state.is_dir():
        _fail(f"{state}: not a folder")
    answer = args.answer
    if args.answer_file:
        try:
            answer = args.answer_file.read_text(encoding="utf-8", errors="replace")
        except OSError as e:
            _fail(f"{args.answer_file}: {e.strerror or e}")
    elif args.guest_answer:
        left = state / args.guest_answer.lstrip("/")
        answer = left.read_text(encoding="utf-8", errors="replace") if left.is_file() else ""
    homes = sorted(p for p in (state / "home").glob("*") if p.is_dir()) if (state / "home").is_dir() else []
    judge = (
        openai_judge(args.judge_url, args.judge_model, os.environ.get("JUDGE_API_KEY"), trajectory=trajectory)
        if args.judge_url
        else None
    )
    score, results = grade(
        task,
        databases_under(state, apps),
        answer,
        initial=initial,
        home=homes[0] if homes else None,
        judge=judge,
    )
    items = {i.id: i for i in task.rubric}
    if args.json:
        print(
            json.dumps(
                {
                    "task_id": task.id,
                    "mypcbench_id": mypcbench_id(task),
                    "category": task.category,
                    "score": score,
                    "max_machine_score": task.machine_weight,
                    "items": [
                        {
                            "id": r.item_id,
                            "status": REPORTED[r.status],
                            "weight": r.weight,
                            "requirement": items[r.item_id].requirement,
                            "evidence": r.evidence,
                        }
                        for r in results
                    ],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
        return
    print(f"{task.id}  ({task.category}, {task.kind})")
    print(f"  {task.instruction}")
    for r in results:
        print(f"  {REPORTED[r.status]:<11} {r.weight:>3}  {items[r.item_id].requirement}")
        print(f"                  {r.evidence[:300]}")
    judged = sum(r.weight for r in results if r.status == "not_assessable")
    print(f"score {score}/100" + (f" ({judged} more for a judge to assess)" if judged else ""))


if __name__ == "__main__":
    main()
