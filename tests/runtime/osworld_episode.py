"""One episode of an exported task driven by OSWorld's own ``DesktopEnv`` (the ``desktop-env`` package) against a
running run-image, with our provider, getter and metric registered (:func:`builder.runtime.osworld.register`).

Run under the OSWorld venv (``.venv-osworld/bin/python``, made by scripts/install.sh)::

    osworld_episode.py --control URL --example tasks/osworld/examples/bank/<id>.json --cache DIR
        [--dirty] [--step PYTHON] [--then SHELL]

``--dirty`` first leaves a file in the guest's /tmp (RAM) and reports whether it survived the env's first
``reset()`` (OSWorld skips the revert there for providers it believes start clean). The episode: a new
``DesktopEnv``, ``reset(task_config=example)``, one ``step`` (``--step``, default a pointer move), ``evaluate()``;
then, with ``--then``, that shell command on the host and ``evaluate()`` again. Prints one JSON object:
``{"reset_s", "screenshot_png", "dirty_survived", "score", "score_after", "report", "report_after"}`` (reports:
the metric's ``persona-grade.json``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import requests

from builder.runtime.osworld import register


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--control", required=True)
    ap.add_argument("--example", type=Path, required=True)
    ap.add_argument("--cache", type=Path, required=True)
    ap.add_argument("--dirty", action="store_true")
    ap.add_argument("--step", default="import pyautogui; pyautogui.moveTo(640, 400)")
    ap.add_argument("--then")
    a = ap.parse_args()
    example = json.loads(a.example.read_text())
    marker = "/tmp/persona-osworld-dirty"
    if a.dirty:
        r = requests.post(f"{a.control}/execute", json={"command": ["touch", marker]}, timeout=60)
        r.raise_for_status()
    register()
    from desktop_env.desktop_env import DesktopEnv

    env = DesktopEnv(
        provider_name="persona",
        path_to_vm=a.control,
        action_space="pyautogui",
        cache_dir=str(a.cache),
        screen_size=(1280, 800),
        require_a11y_tree=False,
        os_type="Ubuntu",
    )
    out: dict = {"provider": type(env.provider).__name__, "provider_name": env.provider_name}
    t0 = time.monotonic()
    obs = env.reset(task_config=example)
    out["reset_s"] = round(time.monotonic() - t0, 1)
    shot = obs["screenshot"] or b""
    out["screenshot_png"] = shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 10_000
    if a.dirty:
        r = requests.post(f"{a.control}/execute", json={"command": ["test", "-e", marker]}, timeout=60)
        out["dirty_survived"] = r.json()["returncode"] == 0
    env.step(a.step, pause=1)
    report = Path(env.cache_dir) / "persona-grade.json"
    out["score"] = env.evaluate()
    out["report"] = json.loads(report.read_text())
    if a.then:
        subprocess.run(a.then, shell=True, check=True, stdout=sys.stderr)
        out["score_after"] = env.evaluate()
        out["report_after"] = json.loads(report.read_text())
    env.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
