"""``grade``: score an end state (app databases, home folder, answer text) for one task of a bundle.

    grade TASK_ID [--bundle DIR] [--state ROOT] [--answer TEXT | --answer-file F]
          [--judge-url URL --judge-model NAME] [--json]

``--bundle``: a build's output folder (``out/<persona-id>``: ``tasks/tasks.jsonl`` and ``layer/``);
``TASK_ID`` may be the full id or its ``<app>/<slug>`` end. ``--state``: the end state, a folder
laid out like the guest's root (``var/lib/persona-desktop/apps/<app>/<app>.sqlite`` and
``home/<user>/``); default the bundle's ``layer/``, i.e. the seeded state (what doing nothing scores).
The start state that ``state_diff`` checks compare with is always the bundle's ``layer/``.
Prints one line per rubric item (met / violated / needs a judge, weight, requirement, evidence) and
the total; ``--json`` prints the same as one JSON object. Exit status 0 when graded, 2 on bad input.
A judge (``--judge-url``, an OpenAI-compatible endpoint, key from ``$JUDGE_API_KEY``) assesses the
``judge`` items only (:mod:`builder.tasks.judge`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from pydantic import ValidationError

from .grade import REPORTED, grade, graded_apps
from .judge import openai_judge
from .model import Task

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


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="grade", description="Score an end state for one task of a bundle.")
    ap.add_argument("task", help="the task id (or its <app>/<slug> end)")
    ap.add_argument("--bundle", type=Path, default=None, help="a build's output folder (default: the only one in out/)")
    ap.add_argument(
        "--state", type=Path, default=None, help="the end state's root folder (default: the bundle's layer/)"
    )
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--answer", default="", help="the agent's final answer")
    g.add_argument("--answer-file", type=Path, default=None, help="a file holding the final answer")
    ap.add_argument("--judge-url", default=None, help="an OpenAI-compatible base URL (…/v1) for judge items")
    ap.add_argument("--judge-model", default=None, help="the model name to ask")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)

    bundle = args.bundle
    if bundle is None:
        found = sorted(p for p in Path("out").glob("*") if (p / "tasks" / "tasks.jsonl").is_file())
        if len(found) != 1:
            _fail("pass --bundle DIR (a build's output folder holding tasks/tasks.jsonl)")
        bundle = found[0]
    tasks = load_bundle_tasks(bundle)
    hits = [t for t in tasks if t.id == args.task or t.id.endswith("/" + args.task.strip("/"))]
    if len(hits) != 1:
        near = [t.id for t in tasks if args.task.split("/")[-1] in t.id][:5]
        _fail(
            f"{'no' if not hits else 'more than one'} task {args.task!r} in {bundle}"
            + (f" (did you mean {', '.join(near)}?)" if near and not hits else "")
        )
    task = hits[0]
    layer = bundle / "layer"
    state = args.state or layer
    if not state.is_dir():
        _fail(f"{state}: not a folder")
    if args.judge_url and not args.judge_model:
        _fail("--judge-url needs --judge-model")
    answer = args.answer
    if args.answer_file:
        try:
            answer = args.answer_file.read_text(encoding="utf-8", errors="replace")
        except OSError as e:
            _fail(f"{args.answer_file}: {e.strerror or e}")
    apps = graded_apps(task)
    homes = sorted(p for p in (state / "home").glob("*") if p.is_dir()) if (state / "home").is_dir() else []
    judge = openai_judge(args.judge_url, args.judge_model, os.environ.get("JUDGE_API_KEY")) if args.judge_url else None
    score, results = grade(
        task,
        databases_under(state, apps),
        answer,
        initial=databases_under(layer, apps),
        home=homes[0] if homes else None,
        judge=judge,
    )
    items = {i.id: i for i in task.rubric}
    if args.json:
        print(
            json.dumps(
                {
                    "task_id": task.id,
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
