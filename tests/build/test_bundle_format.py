"""The bundle's format number (docs/bundle-format.md): written into the manifest and every task line, and a bundle
newer than this code is refused by the task reader and by run-image with a message, never misread."""

from __future__ import annotations

import json

import pytest

from builder.bundle_format import BUNDLE_FORMAT, check_bundle_format
from builder.runtime.run import RunError, resolve_image
from builder.tasks.model import Task

LINE = {
    "id": "p/bank/x",
    "persona": "p",
    "kind": "lookup",
    "instruction": "What is my checking balance?",
    "apps_involved": ["bank"],
    "difficulty": "easy",
    "time_limit_seconds": 300,
    "rubric": [
        {"id": "a", "requirement": "says $12.00", "weight": 100, "check": {"type": "answer_amount", "cents": 1200}}
    ],
    "expected": {"cents": 1200},
}


def test_a_task_line_carries_the_format_first():
    task = Task.model_validate(LINE)
    dumped = json.loads(task.model_dump_json(exclude_none=True))
    assert list(dumped)[0] == "format" and dumped["format"] == BUNDLE_FORMAT


def test_a_line_without_a_format_is_read_as_format_one():
    assert Task.from_line(json.dumps(LINE)).format == 1


@pytest.mark.parametrize("bad", [BUNDLE_FORMAT + 1, 0, -1])
def test_a_newer_or_impossible_format_is_refused_with_its_task_named(bad):
    with pytest.raises(ValueError, match=r"task p/bank/x: bundle format"):
        Task.model_validate_json(json.dumps({"format": bad, **LINE}))


@pytest.mark.parametrize("bad", ["1", True, 1.5])
def test_a_format_that_is_not_an_integer_is_refused(bad):
    with pytest.raises(ValueError, match=r"format\n  Input should be a valid integer"):
        Task.model_validate_json(json.dumps({"format": bad, **LINE}))


def test_the_newer_message_says_what_to_do():
    with pytest.raises(ValueError, match="update persona-desktop"):
        check_bundle_format(BUNDLE_FORMAT + 1, "manifest.json")


def test_run_image_refuses_a_newer_manifest(tmp_path):
    (tmp_path / "persona.qcow2").write_bytes(b"QFI\xfb" + bytes(508))
    (tmp_path / "manifest.json").write_text(json.dumps({"bundle_format": BUNDLE_FORMAT + 1, "persona": "p"}))
    with pytest.raises(RunError, match="newer than this persona-desktop reads"):
        resolve_image(str(tmp_path))
    (tmp_path / "manifest.json").write_text(json.dumps({"bundle_format": BUNDLE_FORMAT, "persona": "p"}))
    assert resolve_image(str(tmp_path)).manifest["bundle_format"] == BUNDLE_FORMAT
