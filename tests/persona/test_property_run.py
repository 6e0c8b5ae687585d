"""``scripts/property-run`` in CI: generated specs (``new-persona --population``) and specs drawn from the schema
(hypothesis-jsonschema, given real cities, airports and cuisines) build ``--until bundle`` with no traceback.

The full lane builds four (two of each source, about two minutes); ``PERSONA_PROPERTY_COUNT`` and
``PERSONA_PROPERTY_SEED`` run more or other ones (the closing notes' runs of hundreds use the script itself)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
COUNT = int(os.environ.get("PERSONA_PROPERTY_COUNT", "2"))
SEED = int(os.environ.get("PERSONA_PROPERTY_SEED", "26"))


@pytest.mark.pipeline
@pytest.mark.parametrize("source", ["population", "schema"])
def test_generated_and_schema_drawn_specs_build_until_bundle(tmp_path, source):
    res = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "property-run"), "--count", str(COUNT), "--seed", str(SEED)]
        + ["--source", source, "--until", "bundle", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600 * COUNT,
    )
    results = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert len(results) == COUNT, res.stdout + res.stderr
    crashed = [r for r in results if r["rc"] not in (0, 2)]
    assert not crashed, "\n".join(f"{r['spec']}: {r['traceback']}" for r in crashed)
    assert res.returncode == 0, res.stdout + res.stderr
    if source == "population":  # a generated spec is never refused: each one builds
        assert [r["rc"] for r in results] == [0] * COUNT, results
    else:  # a drawn spec may break a rule the schema cannot state (refused in one line), but not all of them
        assert any(r["rc"] == 0 for r in results), results
    # Only the specs and the results are kept: the builds went to the work folder's out/ (made by the first build that
    # starts; a spec refused at once makes none) and were removed.
    assert {p.name for p in tmp_path.iterdir()} - {"out"} == {"results.jsonl", "specs"}
    assert not any((tmp_path / "out").glob("*/")) if (tmp_path / "out").exists() else True
