"""The persona spec: validation messages, exit status, schema kept in sync."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from builder.persona import SpecError, json_schema, load

from tests.conftest import DEFAULT_PERSONA, REPO


def _spec(tmp_path, mutate):
    data = json.loads(DEFAULT_PERSONA.read_text())
    mutate(data)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    return path


def test_schema_file_is_in_sync():
    on_disk = json.loads((REPO / "personas" / "persona.schema.json").read_text())
    assert on_disk == json_schema(), "run: python -m builder.persona"


def test_comment_keys_are_allowed_everywhere(tmp_path):
    def mutate(d):
        d["_note"] = "top"
        d["identity"]["_why"] = "nested"
        d["contacts"][0]["_x"] = 1

    assert load(_spec(tmp_path, mutate)).identity.name == "Dana Whitfield"


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (lambda d: d["identity"].pop("name"), "identity.name: field required"),
        (
            lambda d: d["finances"]["accounts"][1].update(opening_balance="lots"),
            "finances.accounts[1].opening_balance: money must be a number or a string like 1234.56",
        ),
        (
            lambda d: d["contacts"][2].update(email="jonah-at-home"),
            "contacts[2].email: value is not a valid email address",
        ),
        (
            lambda d: d["finances"]["recurring_charges"][0].update(weekday=3),
            "finances.recurring_charges[0].weekday: unknown key",
        ),
        (lambda d: d.update(seed="abc"), "seed: input should be a valid integer"),
        (lambda d: d["contacts"][0].update(apps=["chat", "shop"]), "contacts[0].apps[1]: input should be 'mail', "),
        (
            lambda d: d["contacts"][0].update(apps=["workchat"]),
            "contacts[0].apps: only colleagues appear in the work chat",
        ),
    ],
)
def test_bad_field_names_file_and_path(tmp_path, mutate, expected):
    path = _spec(tmp_path, mutate)
    with pytest.raises(SpecError) as err:
        load(path)
    assert len(err.value.lines) == 1
    assert err.value.lines[0].startswith(f"{path}: {expected}")


def test_invalid_json_names_line_and_column(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n  "id": "x",\n  oops\n}')
    with pytest.raises(SpecError) as err:
        load(path)
    assert err.value.lines[0].startswith(f"{path}:3:3: invalid JSON")


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (lambda d: d.pop("identity"), "identity: field required"),
        (lambda d: d["identity"].update(birth_date=19910423), "identity.birth_date: "),
        (lambda d: d.update(favourite_color="teal"), "favourite_color: unknown key"),
    ],
)
def test_cli_rejects_bad_spec_with_exit_2_and_writes_nothing(tmp_path, mutate, expected):
    path = _spec(tmp_path, mutate)
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("earlier result")
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    res = subprocess.run(
        [sys.executable, "-m", "builder.cli", str(path), "--out", str(out), "--until", "world"],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}: {expected}"), res.stderr
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert (out / "keep.txt").read_text() == "earlier result"
