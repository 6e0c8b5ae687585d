"""``fleet``: episodes over many persona desktops on a Ray cluster, one host agent per node; builds of many personas.

``fleet run --tasks BUNDLE[,BUNDLE...] --agent CMD [--vms-per-host N] [--address RAY_ADDRESS] [--split test]
[--out DIR]`` connects to Ray (``ray.init()`` on this machine by default: a local cluster), places one
:class:`HostAgent` actor on every alive node (a :class:`builder.runtime.host.Host` owning ``N`` clones, KVM
where it works, TCG otherwise) and runs every task of the bundles (a build folder holding ``persona.qcow2``,
``manifest.json`` and ``tasks/tasks.jsonl``; ``--split`` keeps one split) as one episode each, through
``run-task``'s logic (:func:`builder.runtime.episode.run_episode`: reset, agent, end state, grade). A VM's
clone is of one persona at a time: an episode of another persona replaces it with a clone of that one (seconds,
from its template). An episode whose VM died is run again on another VM (at most ``--retries`` times); the dead
VM is restarted from its template by the host agent.

The agent command gets run-task's environment plus ``PERSONA_HTTP_URL`` (the VM's guest port 80) and
``PERSONA_BUNDLE`` (the build folder), so one command serves every VM (the scripted oracle agent:
``python -m builder.tasks.oracle_agent``).

Results: ``DIR/<persona>/<task slug>.json`` per episode (run-task's result, plus ``host``, ``vm``, ``attempts``,
``seconds``) and ``DIR/summary.json``: per persona, category and app, the episodes, mean score, perfect rate and
mean seconds; printed as a table. The Python API is :func:`run_fleet`.

``fleet build PERSONA.json... [--out out] [--until STAGE] [--address ...]`` builds each spec as a Ray task
(build-image's own command; :func:`build_fleet`); exit 1 when one failed, with its log.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from ..tasks.model import Task
from .episode import Control, EpisodeError, load_tasks, run_episode

#: The ports each host agent hands out: a block of this many per node, in node order.
PORTS_PER_HOST = 300
FIRST_PORT = 21000


@dataclass(frozen=True)
class Episode:
    """One task of one bundle to run."""

    bundle: str
    task: Task

    @property
    def key(self) -> str:
        return self.task.id


class VMDied(RuntimeError):
    """The VM an episode ran on stopped answering (its QEMU died): run the episode elsewhere."""


class HostAgent:
    """The host agent of one Ray node, as an actor: owns ``vms`` clones (``builder.runtime.host.Host``) and runs
    one episode on each at a time. Made by :func:`run_fleet` with ``ray.remote``."""

    def __init__(self, bundles: list[str], vms: int, index: int, state_root: str, memory_mb: int = 4096, cpus: int = 2):
        import socket

        from .host import Host, PortPool

        first = FIRST_PORT + index * PORTS_PER_HOST
        self.name = f"{socket.gethostname()}#{index}"
        self.host = Host(
            bundles[:1],
            ports=PortPool(first, first + PORTS_PER_HOST - 1),
            memory_mb=memory_mb,
            cpus=cpus,
            state_root=Path(state_root) / f"host{index}",
            progress=lambda s: print(f"[{self.name}] {s}", flush=True),
        )
        self.bundles = bundles
        self.idle: list[str] = []
        self.used: set[str] = set()
        self._cv = threading.Condition()
        self._images_lock = threading.Lock()
        for _ in range(vms):
            self.idle.append(self.host.add(bundles[0]).id)
        self.host.watch()

    def _image_of(self, bundle: str):
        from .run import resolve_image
        from .template import load_template
        from .host import ensure_template

        # Episodes run on several threads of this actor: one writes a new image's template while the others wait, and
        # the image is known to the host (refs) only once its template is there.
        with self._images_lock:
            if bundle not in self.host.refs:
                ref = resolve_image(bundle)
                try:
                    template = load_template(ref)
                except Exception:  # noqa: BLE001 -- any stale or missing template is written again
                    template = ensure_template(
                        ref, self.host.memory_mb, self.host.cpus, self.host.accel, self.host.progress
                    )
                self.host.templates[bundle] = template
                self.host.refs[bundle] = ref
            return self.host.refs[bundle]

    def run(self, bundle: str, task_line: str, agent: str, timeout: float | None = None) -> dict:
        """Run one episode of the task (its ``tasks.jsonl`` line) of ``bundle`` on a free VM; return run-task's
        result plus ``host`` and ``vm``. Raises :class:`VMDied` when the VM stopped answering."""
        task = Task.from_line(task_line)
        self._image_of(bundle)
        with self._cv:
            while not self.idle:
                self._cv.wait()
            vid = self.idle.pop(0)
        try:
            slot = self.host.slots[vid]
            if slot.image != bundle:
                self.host.remove(vid)
                self.used.discard(vid)
                slot = self.host.add(bundle)
                vid = slot.id
            control = Control(slot.describe(self.host.bind)["control_url"])
            env = {"PERSONA_HTTP_URL": f"http://127.0.0.1:{slot.ports[1]}", "PERSONA_BUNDLE": bundle}
            t0 = time.monotonic()
            try:
                reset_s = control.reset() if vid in self.used else None  # a new QEMU: watched from here on
            except (EpisodeError, OSError) as e:
                raise VMDied(f"{self.name}/{vid}: reset failed ({e})") from None
            qemu = slot.clone.vm
            restarts = slot.restarts

            def died() -> bool:
                vm = slot.clone.vm
                return (
                    vm is not qemu
                    or slot.restarts != restarts
                    or vm is None
                    or vm.proc is None
                    or vm.proc.poll() is not None
                )

            try:
                result = run_episode(task, agent, control, reset=False, timeout=timeout, env=env)
            except (EpisodeError, OSError) as e:
                if died():
                    raise VMDied(f"{self.name}/{vid}: {e}") from None
                raise
            if died():  # the episode ran on: its end state is a restarted VM's, not the agent's
                raise VMDied(f"{self.name}/{vid}: QEMU died during the episode")
            self.used.add(vid)
            traj = result.get("trajectory")
            if traj:  # the folder is on this node: travel back to the driver as a tar
                import shutil

                from .trajectory import pack

                result["trajectory_tar"] = pack(Path(traj["folder"]))
                shutil.rmtree(traj["folder"], ignore_errors=True)
            result.update(
                {"host": self.name, "vm": vid, "seconds": round(time.monotonic() - t0, 1), "reset_seconds": reset_s}
            )
            return result
        finally:
            with self._cv:
                if vid in self.host.slots:
                    self.idle.append(vid)
                self._cv.notify()

    def kill_vm(self, vid: str | None = None) -> str:
        """Kill the QEMU of VM ``vid`` (default: a busy one, else the first): what a crash does. Returns its id."""
        busy = [v for v in self.host.slots if v not in self.idle]
        vid = vid or (busy or list(self.host.slots))[0]
        self.host.slots[vid].clone.vm.proc.kill()
        return vid

    def info(self) -> dict:
        return {
            "name": self.name,
            "capacity": self.host.capacity(),
            "vms": [s.describe("127.0.0.1") for s in self.host.slots.values()],
        }

    def close(self) -> None:
        self.host.close()


def episodes_of(bundles: list[str], split: str | None = None) -> list[Episode]:
    """Every task of each bundle (``tasks/tasks.jsonl``), in the bundles' order and the file's, of ``split`` when
    given. Raises :class:`EpisodeError` for a bundle without tasks."""
    out = []
    for b in bundles:
        tasks = load_tasks(Path(b) / "tasks" / "tasks.jsonl")
        out += [Episode(b, t) for t in tasks.values() if split is None or t.split == split]
    return out


def summarise(results: list[dict]) -> dict:
    """``{"persona": {...}, "category": {...}, "app": {...}, "all": {...}}``: per key, episodes, mean score,
    perfect rate (score 100) and mean seconds."""

    def stats(rs: list[dict]) -> dict:
        n = len(rs)
        return {
            "episodes": n,
            "mean_score": round(sum(r["score"] for r in rs) / n, 2),
            "perfect_rate": round(sum(r["score"] >= 100 for r in rs) / n, 3),
            "mean_seconds": round(sum(r.get("seconds", 0) for r in rs) / n, 1),
        }

    by: dict[str, dict[str, list]] = {
        "persona": defaultdict(list),
        "category": defaultdict(list),
        "app": defaultdict(list),
    }
    for r in results:
        by["persona"][r["task_id"].split("/")[0]].append(r)
        by["category"][r["category"]].append(r)
        by["app"][r["task_id"].split("/")[1]].append(r)
    return {
        **{k: {name: stats(rs) for name, rs in sorted(v.items())} for k, v in by.items()},
        "all": stats(results) if results else {"episodes": 0},
    }


def run_fleet(
    bundles: list[str],
    agent: str,
    *,
    vms_per_host: int = 2,
    address: str | None = None,
    split: str | None = None,
    out: Path = Path("results/fleet"),
    retries: int = 2,
    task_ids: list[str] | None = None,
    timeout: float | None = None,
    state_root: Path | None = None,
    chaos=None,
    shuffle: int | None = None,
    progress=print,
) -> dict:
    """Run the episodes of ``bundles`` over the Ray cluster at ``address`` (None: a local one) with one host
    agent of ``vms_per_host`` VMs per node; write results and the summary under ``out``; return the summary
    (plus ``"retried"``: episodes run again after their VM died). ``task_ids`` keeps only those tasks;
    ``chaos(actors)`` is called once after the first episodes started (a test kills a VM there); ``shuffle`` runs
    the episodes in an order drawn from that seed instead of the bundles' (every episode starts from the reset
    point, so the scores must not move). Raises
    :class:`EpisodeError` when an episode fails on every attempt."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    bundles = [str(Path(b).resolve()) for b in bundles]
    episodes = episodes_of(bundles, split)
    if task_ids is not None:
        keep = set(task_ids)
        episodes = [e for e in episodes if e.task.id in keep]
    if shuffle is not None:
        import random

        random.Random(shuffle).shuffle(episodes)
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=True)
    nodes = sorted((n for n in ray.nodes() if n.get("Alive")), key=lambda n: n["NodeID"])
    root = str(
        Path(
            state_root
            or Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local/state") / "persona-desktop" / "fleet"
        ).resolve()
    )
    Actor = ray.remote(HostAgent)
    actors = [
        Actor.options(
            num_cpus=0,
            max_concurrency=vms_per_host + 2,
            scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False),
        ).remote(bundles, vms_per_host, i, root)
        for i, n in enumerate(nodes)
    ]
    ray.get([a.info.remote() for a in actors])  # every host agent up with its VMs healthy
    progress(f"fleet: {len(actors)} host agent(s), {vms_per_host} VM(s) each; {len(episodes)} episodes")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    lines = {e.task.id: e.task.model_dump_json() for e in episodes}
    pending = list(reversed(episodes))
    attempts: dict[str, int] = defaultdict(int)
    load = {i: 0 for i in range(len(actors))}
    running: dict = {}
    results: list[dict] = []
    retried: list[str] = []
    t0 = time.monotonic()

    def submit(e: Episode, avoid: int | None = None) -> None:
        choices = sorted(load, key=lambda i: (i == avoid, load[i], i))
        i = choices[0]
        attempts[e.key] += 1
        load[i] += 1
        running[actors[i].run.remote(e.bundle, lines[e.task.id], agent, timeout)] = (e, i)

    capacity = len(actors) * vms_per_host
    while pending and len(running) < capacity:
        submit(pending.pop())
    if chaos is not None:
        chaos(actors)
    while running:
        done, _ = ray.wait(list(running), num_returns=1)
        ref = done[0]
        e, i = running.pop(ref)
        load[i] -= 1
        try:
            r = ray.get(ref)
        except Exception as err:  # noqa: BLE001 -- a Ray task error wraps the actor's exception
            cause = getattr(err, "cause", err)
            if isinstance(cause, VMDied) and attempts[e.key] <= retries:
                progress(f"fleet: {e.key}: {cause}; running it again on another VM")
                retried.append(e.key)
                submit(e, avoid=i)
                continue
            raise EpisodeError(f"{e.key}: {cause}") from None
        r["attempts"] = attempts[e.key]
        results.append(r)
        persona, slug = r["task_id"].split("/", 1)
        path = out / persona / (slug.replace("/", "__") + ".json")
        path.parent.mkdir(parents=True, exist_ok=True)
        tar_bytes = r.pop("trajectory_tar", None)
        if tar_bytes is not None:  # the trajectory beside the result, as run-task leaves it
            import shutil

            from .trajectory import unpack

            folder = path.with_suffix("")
            shutil.rmtree(folder, ignore_errors=True)
            unpack(tar_bytes, folder)
            r["trajectory"]["folder"] = str(folder)
        path.write_text(json.dumps(r, indent=2, ensure_ascii=False, sort_keys=True) + "\n")
        progress(f"fleet: {r['task_id']}: {r['score']}/100 on {r['host']}/{r['vm']} in {r['seconds']}s")
        if pending:
            submit(pending.pop())
    summary = summarise(results)
    summary["retried"] = retried
    summary["wall_seconds"] = round(time.monotonic() - t0, 1)
    summary["hosts"] = len(actors)
    summary["vms_per_host"] = vms_per_host
    (out / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    for a in actors:
        ray.get(a.close.remote())
        ray.kill(a)
    return summary


def build_one(spec: str, out: str, until: str = "image") -> dict:
    """Build one persona spec with build-image's own command (``build-image SPEC --out OUT --until UNTIL``) in this
    process: ``{"spec", "returncode", "seconds", "node", "log"}`` (``log``: the command's last 4,000 characters)."""
    import socket

    from typer.testing import CliRunner

    from ..cli import app

    t0 = time.monotonic()
    res = CliRunner().invoke(app, [spec, "--out", out, "--until", until], catch_exceptions=True)
    rc = res.exit_code if res.exception is None or isinstance(res.exception, SystemExit) else 99
    log = res.output + ("" if res.exception is None or isinstance(res.exception, SystemExit) else repr(res.exception))
    return {
        "spec": spec,
        "returncode": rc,
        "seconds": round(time.monotonic() - t0, 1),
        "node": socket.gethostname(),
        "log": log[-4000:],
    }


def build_fleet(
    specs: list[str], out: Path, *, until: str = "image", address: str | None = None, progress=print
) -> list[dict]:
    """Build every spec as one Ray task (one CPU each) on the cluster at ``address`` (None: a local one), into
    ``out/<persona id>/``; return :func:`build_one`'s record per spec, in the specs' order. Each node caches the
    base image and the app build in its own ``PERSONA_CACHE`` (made once per node: the builds on one node wait on the
    cache's lock); ``out`` must be a folder every node writes to (this machine's, for a local cluster)."""
    import ray

    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    task = ray.remote(num_cpus=1)(build_one)
    out = Path(out).resolve()
    refs = [task.remote(str(Path(spec).resolve()), str(out), until) for spec in specs]
    records = ray.get(refs)
    for r in records:
        progress(f"fleet build: {r['spec']}: exit {r['returncode']} in {r['seconds']}s on {r['node']}")
    return records


def table(summary: dict) -> str:
    """The summary as a plain text table: one line per persona, category and app."""
    rows = [f"{'':10} {'name':36} {'episodes':>8} {'mean':>7} {'perfect':>8} {'seconds':>8}"]
    for kind in ("persona", "category", "app"):
        for name, s in summary.get(kind, {}).items():
            rows.append(
                f"{kind:10} {name[:36]:36} {s['episodes']:>8} {s['mean_score']:>7.1f} {s['perfect_rate']:>8.0%} "
                f"{s['mean_seconds']:>8.1f}"
            )
    a = summary.get("all", {})
    if a.get("episodes"):
        rows.append(
            f"{'all':10} {'':36} {a['episodes']:>8} {a['mean_score']:>7.1f} {a['perfect_rate']:>8.0%} {a['mean_seconds']:>8.1f}"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    """Console script ``fleet``."""
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="fleet", description=__doc__.split("\n\n")[0].replace("``", ""))
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run every task of the bundles as episodes over a Ray cluster")
    r.add_argument("--tasks", required=True, help="BUNDLE[,BUNDLE...]: build folders with persona.qcow2 and tasks/")
    r.add_argument("--agent", required=True, help="the agent's shell command (run-task's environment)")
    r.add_argument("--vms-per-host", type=int, default=2, help="clones each node's host agent owns (default 2)")
    r.add_argument("--address", help="a Ray cluster's address (default: a local one on this machine)")
    r.add_argument("--split", choices=["train", "dev", "test"], help="only this split's tasks (default: every task)")
    r.add_argument(
        "--out", type=Path, default=Path("results/fleet"), help="results and summary.json (default results/fleet)"
    )
    r.add_argument("--retries", type=int, default=2, help="times an episode whose VM died runs again (default 2)")
    r.add_argument("--timeout", type=float, help="seconds per agent (default: each task's time limit)")
    b = sub.add_parser("build", help="build persona specs as Ray tasks, one per spec")
    b.add_argument("specs", nargs="+", help="persona JSON files")
    b.add_argument(
        "--out", type=Path, default=Path("out"), help="where each build goes, OUT/<persona id>/ (default out)"
    )
    b.add_argument(
        "--until", default="image", choices=["world", "layer", "bundle", "image"], help="last stage (default image)"
    )
    b.add_argument("--address", help="a Ray cluster's address (default: a local one on this machine)")
    a = ap.parse_args(argv)
    if a.cmd == "build":
        records = build_fleet(a.specs, a.out, until=a.until, address=a.address)
        failed = [r for r in records if r["returncode"] != 0]
        for r in failed:
            print(f"fleet build: {r['spec']} failed (exit {r['returncode']}):\n{r['log']}", file=sys.stderr)
        raise SystemExit(1 if failed else 0)
    try:
        summary = run_fleet(
            a.tasks.split(","),
            a.agent,
            vms_per_host=a.vms_per_host,
            address=a.address,
            split=a.split,
            out=a.out,
            retries=a.retries,
            timeout=a.timeout,
        )
    except EpisodeError as e:
        raise SystemExit(f"fleet: {e}") from None
    print(table(summary))
    print(
        f"results in {a.out}; {len(summary['retried'])} episode(s) retried; {summary['wall_seconds']}s", file=sys.stderr
    )


if __name__ == "__main__":
    main()
