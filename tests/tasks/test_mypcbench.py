"""The MyPCBench export (``tasks/mypcbench/``) holds what MyPCBench's own harness relies on, on a real bundle (the
default persona's, written by the bundle stage beside its layer), and ``grade`` is the exact grader a MyPCBench
harness calls on the end state: by its MyPCBench id, through a control URL, before the reset.

The facts checked here are MyPCBench's (its ``tasks/schema.json``, its loaders in ``agent-harness/`` and its
``scripts/validate_tasks.py``), written out as values, since CI cannot reach GitHub: one JSON list; ids matching
``^[a-z_]+-[a-z0-9]+$`` with no path part; a known category; ``grading.type`` and every item's ``type``
``llm_judge``; no ``grading.checks`` (its runner then skips the rubric bundle); weights in 0..1 summing to 1 as
decimals; no repeated criterion; no ``${VAR}``; ``all_tasks.json`` the list without ``grading``; every task in
exactly one ``<bucket>/<bucket>.rubrics.json``; its judge runner reads the ``score`` of a command's JSON.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from builder.apps import discover
from builder.bundle import write_bundle
from builder.tasks import cli
from builder.tasks.model import Task
from builder.tasks.mypcbench import problems, record

from tests.conftest import DEFAULT_PERSONA

THEIR_ID = re.compile(r"^[a-z_]+-[a-z0-9]+$")
THEIR_CATEGORIES = {
    "retrieval",
    "aggregation",
    "contradiction",
    "situated_action",
    "preference_inference",
    "counterfactual",
    "long_horizon",
    "cua_only",
    "hard_app",
}
BANK = "var/lib/persona-desktop/apps/bank/bank.sqlite"
RESPONSE = "/tmp/mypcbench_agent_response.txt"


@pytest.fixture(scope="module")
def bundle(world, default_layer, tmp_path_factory):
    """The bundle stage alone: the default persona's tasks, exports, manifest and sums beside a copy of its layer."""
    dest = tmp_path_factory.mktemp("mypcbench") / "dana-whitfield"
    shutil.copytree(default_layer, dest / "layer", symlinks=True)
    write_bundle(world, discover(), DEFAULT_PERSONA, dest, with_image=False)
    return dest


def _ours(bundle: Path) -> list[Task]:
    return [Task.from_line(line) for line in (bundle / "tasks/tasks.jsonl").read_text().splitlines()]


def _theirs(bundle: Path, name: str = "all_tasks_with_grading.json"):
    return json.loads((bundle / "tasks/mypcbench" / name).read_text(encoding="utf-8"))


def test_the_list_their_runners_and_validator_read(bundle):
    ours = _ours(bundle)
    recs = _theirs(bundle)
    assert isinstance(recs, list) and len(recs) == len(ours) >= 200
    assert not (bundle / "tasks/mypcbench.jsonl").exists()
    ids = [r["id"] for r in recs]
    assert len(set(ids)) == len(ids)
    for r in recs:
        assert THEIR_ID.match(r["id"]) and not any(s in r["id"] for s in ("/", "\\", "..")), r["id"]
        assert r["category"] in THEIR_CATEGORIES and r["instruction"].strip()
        assert "persona" not in r  # their schema's persona is an enum of their own one
        assert r["grading"]["type"] == "llm_judge" and "checks" not in r["grading"]
        items = r["grading"]["rubrics"]
        assert items and all(i["type"] == "llm_judge" and 0 < i["weight"] <= 1 for i in items), r["id"]
        assert sum(Decimal(str(i["weight"])) for i in items) == 1, r["id"]
        assert len({i["criterion"] for i in items}) == len(items), r["id"]
        assert not re.search(r"\$\{[A-Za-z_]+\}", json.dumps({"i": r["instruction"], "g": r["grading"]}))
    # The same tasks, in bundle order, with our weights and check types beside the judge's wording.
    assert [r["persona_desktop"]["task_id"] for r in recs] == [t.id for t in ours]
    for r, t in zip(recs, ours):
        assert [i["rubric_id"] for i in r["grading"]["rubrics"]] == [i.id for i in t.rubric]
        assert [round(i["weight"] * 100) for i in r["grading"]["rubrics"]] == [i.weight for i in t.rubric]
        assert [i["persona_check"] for i in r["grading"]["rubrics"]] == [i.check.type for i in t.rubric]
        assert [i["graded_by"] for i in r["grading"]["rubrics"]] == [
            "command" if i.check.type != "judge" else "judge" for i in t.rubric
        ]
        assert r["persona_desktop"]["machine_weight"] == t.machine_weight / 100
    kinds = [i["graded_by"] for r in recs for i in r["grading"]["rubrics"]]
    assert kinds.count("judge") == sum(1 for t in ours for i in t.rubric if i.check.type == "judge") > 0
    # Their grading-free list and their shards (their validator compares all three).
    assert _theirs(bundle, "all_tasks.json") == [{k: v for k, v in r.items() if k != "grading"} for r in recs]
    shards = sorted((bundle / "tasks/mypcbench").glob("*/*.rubrics.json"))
    assert [p.parent.name for p in shards] == sorted({t.id.split("/")[1] for t in ours})
    assert all(p.name == f"{p.parent.name}.rubrics.json" for p in shards)
    sharded = [r for p in shards for r in json.loads(p.read_text())]
    assert sorted(sharded, key=lambda r: r["id"]) == sorted(recs, key=lambda r: r["id"])
    assert problems(recs) == []


def test_criteria_are_worded_for_a_judge_who_sees_the_trajectory(bundle):
    recs = {r["persona_desktop"]["task_id"]: r for r in _theirs(bundle)}
    pay = {i["rubric_id"]: i for i in recs["dana-whitfield/bank/bill-pay"]["grading"]["rubrics"]}
    assert pay["nothing-else"]["criterion"] == (
        "Nothing in Larkspur Bank changed beyond what the task needs (only the one new bill payment and the checking "
        "balance): the trajectory shows no other save, send, payment, booking, deletion or cancellation in Larkspur "
        "Bank."
    )
    assert pay["payment"]["criterion"] == (
        "The trajectory shows this done in Larkspur Bank: A new bill payment of $312.45 to Nelnet left checking."
    )
    assert recs["dana-whitfield/bank/checking-balance"]["grading"]["rubrics"][0]["criterion"] == (
        "The agent's final answer to the user: States the balance $11,908.00."
    )
    ours = {t.id: t for t in _ours(bundle)}
    for tid, r in recs.items():
        for item, mine in zip(r["grading"]["rubrics"], ours[tid].rubric):
            text = item["criterion"]
            assert not text.startswith("Nothing else changed"), tid  # a database claim no screenshot shows
            if mine.check.type == "state_diff":
                assert text.startswith("Nothing in ") and "the trajectory shows no other" in text, text
            elif mine.check.type.startswith("answer_"):
                assert text.startswith("The agent's final answer to the user: "), text
            elif mine.check.type == "sql":
                assert text.startswith("The trajectory shows this done in "), text
            if mine.check.type != "state_diff":
                assert mine.requirement.strip().rstrip(".") in text, text
            assert item["verification"].strip()


def test_the_id_map_round_trips_and_grade_takes_their_ids(bundle, capsys):
    ours = _ours(bundle)
    recs = _theirs(bundle)
    id_map = _theirs(bundle, "id_map.json")
    assert list(id_map) == sorted(id_map) and len(id_map) == len(ours)
    assert set(id_map.values()) == {t.id for t in ours}
    back = {v: k for k, v in id_map.items()}
    for t, r in zip(ours, recs):
        want = f"{t.category}-{hashlib.sha256(t.id.encode()).hexdigest()[:12]}"
        assert r["id"] == back[t.id] == want and id_map[want] == t.id
    # The same record again from the same task: the id depends on the task alone.
    assert record(ours[0], {a.name: a.title for a in discover()}) == recs[0]
    balance = next(t for t in ours if t.id == "dana-whitfield/bank/checking-balance")
    answer = f"${balance.expected['balance_cents'] / 100:,.2f}"
    outs = []
    for key in (back[balance.id], balance.id, "bank/checking-balance"):
        cli.main([key, "--bundle", str(bundle), "--answer", answer, "--json"])
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1] == outs[2]
    assert outs[0]["task_id"] == balance.id and outs[0]["mypcbench_id"] == back[balance.id]
    assert outs[0]["score"] == 100 and isinstance(outs[0]["score"], int)  # what their judge runner reads


# grade --control against a running machine (a clone of the built image) is in
# tests/runtime/test_run_image_clones.py: it needs the image.


def test_grade_refuses_what_it_cannot_grade_exactly(bundle, capsys, tmp_path):
    url = "http://127.0.0.1:9"  # every refusal comes before the end state is read; nothing listens there
    base = ["bank/bill-pay", "--bundle", str(bundle)]
    cases = [
        (["--control", url, "--initial", str(tmp_path)], "compares bank with its start state"),
        (["--save-state", str(tmp_path / "x")], "--save-state keeps what --control reads"),
        (["--control", "http://127.0.0.1:9"], "cannot read the end state from http://127.0.0.1:9"),
        (["--control", url, "--guest-answer", "tmp/answer.txt"], "absolute path"),
    ]
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "old.sqlite").write_text("x")
    cases.append((["--control", url, "--save-state", str(tmp_path / "used")], "not empty"))
    for extra, says in cases:
        with pytest.raises(SystemExit) as e:
            cli.main(base + extra)
        assert e.value.code == 2
        assert says in capsys.readouterr().err, extra


def test_two_items_asking_the_same_words_get_criteria_of_their_own(bundle):
    """Two obligations due the same day, an amount both paid and saved: each criterion still names one item."""
    from builder.tasks.mypcbench import problems, record

    t = next(t for t in _ours(bundle) if t.id == "dana-whitfield/bank/checking-balance")
    item = t.rubric[0]
    twin = t.model_copy(
        update={
            "rubric": [
                item.model_copy(update={"id": "a", "weight": 50}),
                item.model_copy(update={"id": "b", "weight": 50}),
            ]
        }
    )
    r = record(twin, {})
    texts = [i["criterion"] for i in r["grading"]["rubrics"]]
    assert len(set(texts)) == 2 and texts[0].endswith("(item 'a')") and texts[1].endswith("(item 'b')")
    assert problems([r]) == []
