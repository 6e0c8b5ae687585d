"""ruff over the whole Python tree: the lint rules and the formatting of pyproject.toml's [tool.ruff]."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=REPO, capture_output=True, text=True, timeout=300, check=False
    )


def test_ruff_check():
    res = _ruff("check", "--no-cache", "--output-format=concise", ".")
    assert res.returncode == 0, (
        f"ruff check found problems (`.venv/bin/ruff check --fix` fixes some):\n{res.stdout}{res.stderr}"
    )


def test_ruff_format():
    res = _ruff("format", "--no-cache", "--check", ".")
    assert res.returncode == 0, (
        f"files ruff would reformat (run `.venv/bin/ruff format <file>`):\n{res.stdout}{res.stderr}"
    )
