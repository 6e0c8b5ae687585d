"""Trajectories: what an agent saw and did in one episode, recorded on the host side of the control API.

Between ``POST /trajectory/start {"name": NAME}`` and ``POST /trajectory/stop {"answer": TEXT}`` the host control
server (run-image's, a ``persona-host`` VM's) hands every request it forwards to the guest to a
:class:`Recorder`, which writes a folder in the shape OSWorld's runners write per example:

* ``traj.jsonl``: one line per action (every forwarded request but ``GET`` ones): ``{"step_num", "action_timestamp"
  ("%Y%m%d@%H%M%S%f", the host's UTC), "action": {"method", "path", "arguments"}, "status", "seconds", "response"
  (the guest's answer, at most 2,000 characters), "reward": 0, "done" (true on the last line), "info": {},
  "screenshot_file"}``; ``screenshot_file`` names the first screenshot the agent took after that action (OSWorld's
  observation after a step), or ``null``;
* ``step_<n>_<timestamp>.png``: each ``GET /screenshot`` the agent made, ``n`` the number of actions before it
  (``step_0_...``: the first observation); ``step_<n>_<timestamp>.xml``: each accessibility tree it asked for;
* ``recording.mp4``: the screen recording (:mod:`builder.runtime.video`) when the agent ended one
  (``POST /end_recording``) during the episode, as OSWorld's runners keep it;
* ``answer.txt`` (the final answer, when given) and ``trajectory.json``: ``{"name", "steps", "screenshots",
  "trees", "dropped", "bytes", "seconds"}``.

Bounded: at most :data:`MAX_STEPS` actions and :data:`MAX_BYTES` of images and trees per episode; past either,
requests are still answered but only counted (``dropped``). The agent's requests are recorded as they come: nothing
is added to them (no screenshot is taken for the agent), so recording costs the episode no guest time.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import threading
import time
from pathlib import Path

#: Actions recorded per episode; later ones are counted in ``dropped``.
MAX_STEPS = 1000
#: Bytes of screenshots and accessibility trees kept per episode (256 MiB); later ones are counted in ``dropped``.
MAX_BYTES = 256 << 20
#: Characters of a guest's answer kept per action.
RESPONSE_CHARS = 2000

_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(name: str) -> str:
    """``name`` as one folder name: runs of other characters than letters, digits, ``.``, ``_`` and ``-`` become
    ``__`` (a task id's ``/`` too), at most 150 characters. Raises ``ValueError`` for an empty result."""
    out = _NAME.sub("__", name.strip()).strip(".")[:150]
    if not out:
        raise ValueError(f"not a usable trajectory name: {name!r}")
    return out


class Recorder:
    """One episode's trajectory being written into ``folder`` (created; must not exist). Thread-safe: the control
    server answers requests on several threads."""

    def __init__(self, folder: Path, name: str):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=False)
        self.name = name
        self.steps: list[dict] = []
        self.screenshots: list[tuple[int, str]] = []  # (actions before it, file name)
        self.trees = 0
        self.dropped = 0
        self.bytes = 0
        self.t0 = time.monotonic()
        self._lock = threading.Lock()

    @staticmethod
    def _stamp() -> str:
        return dt.datetime.now(dt.timezone.utc).strftime("%Y%m%d@%H%M%S%f")

    def _keep(self, data: bytes, suffix: str) -> str | None:
        if self.bytes + len(data) > MAX_BYTES:
            self.dropped += 1
            return None
        name = f"step_{len(self.steps)}_{self._stamp()}.{suffix}"
        (self.folder / name).write_bytes(data)
        self.bytes += len(data)
        return name

    def request(self, method: str, path: str, body: bytes, status: int, answer: bytes, seconds: float) -> None:
        """Record one forwarded request and the guest's answer (``seconds``: how long the guest took)."""
        route = path.split("?", 1)[0]
        with self._lock:
            if method == "GET":
                if route == "/screenshot" and status == 200:
                    kept = self._keep(answer, "png")
                    if kept:
                        self.screenshots.append((len(self.steps), kept))
                elif route == "/accessibility" and status == 200:
                    try:
                        tree = json.loads(answer).get("AT") or ""
                    except (ValueError, AttributeError):
                        tree = ""
                    if tree and self._keep(tree.encode(), "xml"):
                        self.trees += 1
                return
            if len(self.steps) >= MAX_STEPS:
                self.dropped += 1
                return
            try:
                arguments = json.loads(body) if body else {}
            except ValueError:
                arguments = {"body": body[:RESPONSE_CHARS].decode("utf-8", "replace")}
            self.steps.append(
                {
                    "step_num": len(self.steps) + 1,
                    "action_timestamp": self._stamp(),
                    "action": {"method": method, "path": route, "arguments": arguments},
                    "status": status,
                    "seconds": round(seconds, 3),
                    "response": answer[:RESPONSE_CHARS].decode("utf-8", "replace"),
                }
            )

    def add_file(self, name: str, src: Path) -> bool:
        """Copy ``src`` into the folder as ``name`` (the episode's ``recording.mp4``) within the byte bound; False
        (counted in ``dropped``) past it."""
        data = Path(src).read_bytes()
        with self._lock:
            if self.bytes + len(data) > MAX_BYTES:
                self.dropped += 1
                return False
            (self.folder / safe_name(name)).write_bytes(data)
            self.bytes += len(data)
            return True

    def stop(self, answer: str | None = None) -> dict:
        """Write ``traj.jsonl``, ``answer.txt`` and ``trajectory.json``; return the summary."""
        with self._lock:
            lines = []
            for i, step in enumerate(self.steps, 1):
                after = next((f for n, f in self.screenshots if n >= i), None)
                lines.append(
                    json.dumps(
                        {**step, "reward": 0, "done": i == len(self.steps), "info": {}, "screenshot_file": after},
                        ensure_ascii=False,
                    )
                )
            (self.folder / "traj.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            if answer is not None:
                (self.folder / "answer.txt").write_text(answer, encoding="utf-8")
            summary = {
                "name": self.name,
                "steps": len(self.steps),
                "screenshots": len(self.screenshots),
                "trees": self.trees,
                "dropped": self.dropped,
                "bytes": self.bytes,
                "seconds": round(time.monotonic() - self.t0, 1),
            }
            (self.folder / "trajectory.json").write_text(json.dumps(summary, indent=2) + "\n")
            return summary


def pack(folder: Path) -> bytes:
    """A trajectory folder as an uncompressed tar (its PNGs are compressed already): its files by name, sorted, no
    folders. How it travels: ``GET /trajectories/<name>``, and a fleet node's result to the driver."""
    import io
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for f in sorted(Path(folder).iterdir()):
            tar.add(f, arcname=f.name)
    return buf.getvalue()


def unpack(data: bytes, dest: Path) -> None:
    """Write the files of a :func:`pack` tar into ``dest`` (created). Raises ``ValueError`` for a member that is not
    a plain file named without a folder or a leading dot (nothing is written outside ``dest``)."""
    import io
    import tarfile

    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for member in tar.getmembers():
            if not member.isfile() or "/" in member.name or member.name.startswith("."):
                raise ValueError(f"unexpected member {member.name!r}")
            (dest / member.name).write_bytes(tar.extractfile(member).read())
