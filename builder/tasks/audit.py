"""``audit-tasks``: how far a build's task answers can be trusted, per category.

    audit-tasks BUILD_DIR [--app APP] [--task ID] [--show N] [--json] [--port P]

``BUILD_DIR`` is a build folder (``out/<persona-id>``, ``--until bundle`` or later: ``tasks/tasks.jsonl``,
``manifest.json`` and ``layer/``). The command serves a copy of the layer's app databases with the site build
(built first when ``$PERSONA_CACHE`` has none: minutes), signs in with the cookies the persona's Firefox profile
holds, and for every answer task runs its independent reader (:mod:`builder.tasks.reader`) and compares what it
read with the task's expected values. It prints one row per category: tasks, answer tasks, reader-verified,
disagreeing, unreadable, without a reader, the questions with a single winner proven unique, the adversarial
answers tried against the answer checks and how many passed (:mod:`builder.tasks.adversary`), and the tasks the
builder dropped (``tasks/dropped.jsonl``); then each dropped task with its reason and each task that is not
verified, with what the reader saw. ``--show N`` prints the derivation of N verified tasks too.
Exit status 0 when every answer task is verified and no adversarial answer passes, 1 otherwise, 2 on bad input.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import shutil
import sqlite3
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .model import CATEGORIES, Task
from .reader import NoReader, See, Unreadable, answer_items, compare, find, read

APPS_ROOT = Path("var/lib/persona-desktop/apps")


@dataclass
class TaskAudit:
    """One task's audit: ``status`` is ``verified``, ``disagrees``, ``unreadable``, ``no_reader``, ``action`` (no
    answer to read) or ``after_action`` (an action task's answer its end state shows: read by the oracle run); ``problems`` say why it is not verified; ``steps`` and ``trail`` are the reader's derivation and
    the pages and files it read; ``margin`` the winner's lead of a single-winner question."""

    id: str
    category: str
    status: str
    problems: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    trail: list[str] = field(default_factory=list)
    margin: float | None = None
    unique: bool = False
    adversarial: int = 0
    adversarial_passed: list[str] = field(default_factory=list)
    values: dict = field(default_factory=dict)


def try_adversaries(task: Task, currency: str) -> tuple[int, list[str]]:
    """``(tried, passed)``: the adversarial answers of every answer item of ``task``
    (:func:`builder.tasks.adversary.adversaries`) run through its check; ``passed`` names each that met its item."""
    from .adversary import adversaries
    from .grade import run_check

    tried, passed = 0, []
    for item in answer_items(task):
        for label, answer in adversaries(item.check, currency):
            tried += 1
            if run_check(item.check, {}, answer)[0]:
                passed.append(f"{item.id}: {label}: {answer[:100]!r}")
    return tried, passed


def profile_cookies(home: Path) -> dict[str, dict[str, str]]:
    """Host -> ``{cookie name: value}`` of the cookies the persona's Firefox profile holds (``cookies.sqlite`` of
    every profile under ``~/.mozilla/firefox``), read-only. The host is written without a leading dot."""
    out: dict[str, dict[str, str]] = {}
    for db in sorted(home.glob(".mozilla/firefox/*/cookies.sqlite")):
        con = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            for host, name, value in con.execute("SELECT host, name, value FROM moz_cookies ORDER BY id"):
                out.setdefault(host.lstrip("."), {})[name] = value
        finally:
            con.close()
    return out


def persona_home(layer: Path) -> Path:
    """The one user folder under ``layer/home``. Raises ``FileNotFoundError`` when there is none."""
    homes = sorted(p for p in (layer / "home").iterdir() if p.is_dir()) if (layer / "home").is_dir() else []
    if not homes:
        raise FileNotFoundError(f"no home folder under {layer / 'home'}")
    return homes[0]


@contextlib.contextmanager
def desktop(build_dir: Path, port: int | None = None, progress=lambda m: None) -> Iterator[See]:
    """The persona's desktop of a build folder as a :class:`See`: the site served on a copy of the layer's app
    databases (the layer stays as built) at the manifest's ``now``, the Firefox profile's cookies, the layer's home.
    Stops the server on exit. Raises ``FileNotFoundError`` when the folder lacks its manifest or layer."""
    from builder.apps import discover
    from builder.image.boot import free_port
    from builder.site import build_site, serve

    manifest = json.loads((build_dir / "manifest.json").read_text(encoding="utf-8"))
    layer = build_dir / "layer"
    home = persona_home(layer)
    jar = profile_cookies(home)
    domains = {a["name"]: a["domain"] for a in manifest["apps"]}
    cookies = {name: jar.get(domain, {}) for name, domain in domains.items()}
    now = dt.datetime.fromisoformat(manifest["now"]).replace(tzinfo=None)
    build = build_site(discover(), progress=progress)
    with tempfile.TemporaryDirectory(prefix="audit-") as tmp:
        data = Path(tmp) / "apps"
        shutil.copytree(layer / APPS_ROOT, data)
        port = port or free_port()
        log = open(Path(tmp) / "site.log", "wb")
        proc = serve(build, data, port, log=log, now=now.isoformat())
        try:
            _wait(port, next(iter(domains.values())), proc, Path(tmp) / "site.log")
            yield See(port=port, domains=domains, cookies=cookies, now=now, home=home)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except Exception:  # noqa: BLE001 -- a server that will not stop is killed
                proc.kill()
            log.close()


def _wait(port: int, host: str, proc, log: Path, seconds: float = 60) -> None:
    import time

    import requests

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the site exited ({proc.returncode}): {log.read_text(errors='replace')[-2000:]}")
        try:
            requests.get(f"http://127.0.0.1:{port}/", headers={"Host": host}, timeout=2, allow_redirects=False)
            return
        except requests.RequestException:
            time.sleep(0.3)
    raise RuntimeError(f"the site did not answer within {seconds:.0f} s")


def audit_task(task: Task, see: See, currency: str = "USD") -> TaskAudit:
    """Read ``task`` on ``see`` and compare (an action task without answer items is ``action``), and try its
    adversarial answers (amounts written in ``currency``)."""
    out = TaskAudit(task.id, task.category, "action")
    if not answer_items(task):
        return out
    out.adversarial, out.adversarial_passed = try_adversaries(task, currency)
    try:
        found = find(task)
    except NoReader as e:
        out.status, out.problems = "no_reader", [str(e)]
        return out
    out.unique = found.unique
    if found.after_action:  # read on the end state its reference solution leaves, by the oracle run
        out.status = "after_action"
        return out
    try:
        reading = read(task, see)
    except Unreadable as e:
        out.status, out.problems, out.trail = "unreadable", [str(e)], list(see.trail)
        return out
    except NoReader as e:
        out.status, out.problems = "no_reader", [str(e)]
        return out
    out.steps, out.trail, out.margin = reading.steps, list(see.trail), reading.margin
    out.values = {i.id: reading.values.get(i.id) for i in answer_items(task)}
    out.problems = compare(task, reading, found)
    out.status = "disagrees" if out.problems else "verified"
    return out


COLUMNS = (
    "tasks",
    "answer",
    "verified",
    "disagrees",
    "unreadable",
    "no_reader",
    "unique",
    "adversarial",
    "passed",
    "dropped",
)


def table(audits: list[TaskAudit], dropped: list[dict] = ()) -> list[tuple]:
    """Rows ``(category, tasks, answer tasks, verified, disagrees, unreadable, no reader, unique, adversarial
    answers tried, of them passed, dropped)``, one per category in :data:`CATEGORIES` order, then ``all``.
    ``unique``: single-winner questions read with a margin above 0; ``dropped``: the bundle's
    ``tasks/dropped.jsonl`` records of the category."""
    rows = []
    for cat in (*CATEGORIES, "all"):
        mine = [a for a in audits if cat in ("all", a.category)]
        gone = [d for d in dropped if cat in ("all", d["category"])]
        if not mine and not gone:
            continue
        n = Counter(a.status for a in mine)
        answer = sum(a.status not in ("action", "after_action") for a in mine)
        unique = sum(1 for a in mine if a.unique and a.margin is not None and a.margin > 0)
        tried = sum(a.adversarial for a in mine)
        passed = sum(len(a.adversarial_passed) for a in mine)
        rows.append(
            (
                cat,
                len(mine),
                answer,
                n["verified"],
                n["disagrees"],
                n["unreadable"],
                n["no_reader"],
                unique,
                tried,
                passed,
                len(gone),
            )
        )
    return rows


def _print_table(rows: list[tuple]) -> None:
    head = ("category", *COLUMNS)
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, *rows]:
        print("  ".join(str(v).ljust(w) if i == 0 else str(v).rjust(w) for i, (v, w) in enumerate(zip(r, widths))))


def main(argv: list[str] | None = None) -> int:
    from .cli import load_bundle_tasks

    ap = argparse.ArgumentParser(prog="audit-tasks", description=__doc__.split("\n\n")[0].replace("``", ""))
    ap.add_argument("build", type=Path, help="a build folder: out/<persona-id> (--until bundle or later)")
    ap.add_argument("--app", help="only the tasks whose ids name this app")
    ap.add_argument("--task", help="only this task (its full id or <app>/<slug>)")
    ap.add_argument("--show", type=int, default=0, help="also print the derivation of this many verified tasks")
    ap.add_argument("--json", action="store_true", help="print every task's audit as JSON lines")
    ap.add_argument("--port", type=int, help="serve the apps on this loopback port (default: a free one)")
    args = ap.parse_args(argv)
    build = args.build
    if not (build / "manifest.json").is_file() or not (build / "layer").is_dir():
        print(f"audit-tasks: {build} is not a build folder (manifest.json and layer/ are needed)", file=sys.stderr)
        return 2
    tasks = load_bundle_tasks(build)
    if args.app:
        tasks = [t for t in tasks if t.id.split("/")[1] == args.app]
    if args.task:
        tasks = [t for t in tasks if t.id == args.task or t.id.split("/", 1)[1] == args.task]
    if not tasks:
        print("audit-tasks: no task matches", file=sys.stderr)
        return 2
    manifest = json.loads((build / "manifest.json").read_text(encoding="utf-8"))
    currency = manifest.get("currency", "USD")
    dropped_path = build / "tasks" / "dropped.jsonl"
    dropped = (
        [json.loads(line) for line in dropped_path.read_text(encoding="utf-8").splitlines() if line.strip()]
        if dropped_path.is_file()
        else []
    )
    if args.app or args.task:
        dropped = [
            d
            for d in dropped
            if any(d["id"] == t.id for t in tasks) or (args.app and d["id"].split("/")[1] == args.app)
        ]
    with desktop(build, port=args.port, progress=lambda m: print(m, file=sys.stderr)) as see:
        audits = [audit_task(t, see, currency) for t in tasks]
    if args.json:
        for a in audits:
            print(json.dumps(asdict(a), ensure_ascii=False))
    else:
        _print_table(table(audits, dropped))
        acting = [a for a in audits if a.status in ("action", "after_action")]
        if acting:
            # An action task's expected values are what its checks read from the end state after the agent acted, not
            # an answer to read off the screen: it counts as a task, never as an answer task, and its rubric is proven
            # by its reference solution (run-task's scripted oracle agent), not here.
            print(
                f"{len(acting)} action task(s) not audited here (their checks read the end state; run the oracle "
                "agent with run-task to prove them)"
            )
        for d in dropped:
            print(f"dropped {d['id']}: {d['reason']}")
        shown = 0
        for a in audits:
            for p in a.adversarial_passed:
                print(f"{a.id}: an adversarial answer passes: {p}")
            if a.status in ("action", "verified", "after_action"):
                if a.status == "verified" and shown < args.show:
                    shown += 1
                    print(f"\n{a.id}: verified" + (f" (margin {a.margin:g})" if a.margin is not None else ""))
                    for s in a.steps:
                        print(f"  {s}")
                    print("  read: " + "; ".join(f"{k} = {v!r}" for k, v in a.values.items()))
                continue
            print(f"\n{a.id}: {a.status}")
            for p in a.problems:
                print(f"  {p}")
            for s in a.steps:
                print(f"  step: {s}")
            for s in a.trail[-5:]:
                print(f"  read: {s}")
    ok = all(a.status in ("action", "verified", "after_action") and not a.adversarial_passed for a in audits)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
