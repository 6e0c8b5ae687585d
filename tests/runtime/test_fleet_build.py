"""`fleet build` as a user runs it on a local Ray cluster: two shipped personas built `--until bundle` as Ray tasks
(each the same bundle build-image makes alone, byte for byte), and a bad spec reported with its log."""

from __future__ import annotations

import json

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.pipeline


def test_fleet_build_makes_the_same_bundles_as_build_image(tmp_path):
    import ray
    from typer.testing import CliRunner

    from builder.cli import app
    from builder.runtime.fleet import build_fleet

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"identity": {"name": ""}}))
    specs = [str(REPO / "personas" / f"{p}.json") for p in ("jana-petersen", "jordan-lee")] + [str(bad)]
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        records = build_fleet(specs, tmp_path / "fleet", until="bundle")
    finally:
        ray.shutdown()
    assert [r["returncode"] for r in records] == [0, 0, 2], [r["log"][-500:] for r in records]
    assert "identity.name" in records[2]["log"]
    alone = CliRunner().invoke(app, [specs[0], "--out", str(tmp_path / "alone"), "--until", "bundle"])
    assert alone.exit_code == 0, alone.output
    for persona in ("jana-petersen",):
        a = (tmp_path / "fleet" / persona / "SHA256SUMS").read_text()
        b = (tmp_path / "alone" / persona / "SHA256SUMS").read_text()
        assert a == b  # the same seeded bytes, built by a Ray worker or by build-image alone
    assert (tmp_path / "fleet" / "jordan-lee" / "tasks" / "tasks.jsonl").stat().st_size > 0
