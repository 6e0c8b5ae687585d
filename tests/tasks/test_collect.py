"""Where the cross-app scenarios' tasks land (``builder/tasks/collect.py``), and the rule that makes ``scenarios/``
necessary: no module of an app imports another app.

The placement tests run on made-up scenarios (no world, no site): after an anchor task (or before the first,
``FIRST``), else after the app's own tasks by rank; left out when an app they need is not built or their gate says
no; refused when the anchor is missing or a task lacks an app the scenario declares.
"""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

from builder.tasks import collect
from builder.tasks.collect import Scenario
from builder.tasks.model import Check, RubricItem, Task

REPO = Path(__file__).resolve().parents[2]
WORLD = SimpleNamespace(persona=SimpleNamespace(id="p"))


def _task(app: str, slug: str, apps: list[str] | None = None) -> Task:
    return Task(
        id=f"p/{app}/{slug}",
        persona="p",
        kind="lookup",
        instruction=slug,
        apps_involved=apps or [app],
        difficulty="easy",
        time_limit_seconds=60,
        rubric=[RubricItem(id="a", weight=100, requirement="r", check=Check(type="answer_text", any_of=["x"]))],
        expected={},
    )


def _scenarios(monkeypatch, *scenarios: Scenario) -> None:
    monkeypatch.setattr(collect, "discover", lambda: tuple((f"scenarios.m{i}", s) for i, s in enumerate(scenarios)))


def _slugs(tasks: list[Task]) -> list[str]:
    return [t.id.rsplit("/", 1)[-1] for t in tasks]


def test_anchored_after_their_task_the_rest_by_rank(monkeypatch):
    own = [_task("a", "one"), _task("a", "two"), _task("a", "three")]
    _scenarios(
        monkeypatch,
        Scenario(home="a", apps=("a", "b"), tasks=lambda w: [_task("a", "pair", ["a", "b"])], rank=30),
        Scenario(home="a", apps=("a", "b"), tasks=lambda w: [_task("a", "recap", ["a", "b"])], rank=10),
        Scenario(home="a", apps=("a", "b"), tasks=lambda w: [_task("a", "errand", ["a", "b"])], after="one"),
        Scenario(home="a", apps=("a", "b"), tasks=lambda w: [_task("a", "later", ["a", "b"])], after=("x", "one")),
        Scenario(home="b", apps=("b",), tasks=lambda w: [_task("b", "elsewhere")]),
    )
    got = collect.home_tasks(WORLD, "a", own)
    assert _slugs(got) == ["one", "errand", "later", "two", "three", "recap", "pair"]


def test_an_empty_anchor_places_them_first_when_no_other_anchor_is_there(monkeypatch):
    own = [_task("a", "one"), _task("a", "two")]
    _scenarios(
        monkeypatch,
        Scenario(home="a", apps=("a", "b"), tasks=lambda w: [_task("a", "lead", ["a", "b"])], after=("x", "")),
        Scenario(home="a", apps=("a", "b"), tasks=lambda w: [_task("a", "next", ["a", "b"])], after=""),
        Scenario(home="a", apps=("a", "b"), tasks=lambda w: [_task("a", "mid", ["a", "b"])], after=("one", "")),
    )
    assert _slugs(collect.home_tasks(WORLD, "a", own)) == ["lead", "next", "one", "mid", "two"]


def test_the_empty_anchor_is_the_start_of_the_list(monkeypatch):
    own = [_task("a", "one"), _task("a", "two")]
    _scenarios(
        monkeypatch,
        Scenario(home="a", apps=("a", "b"), tasks=lambda w: [_task("a", "opens", ["a", "b"])], after=""),
        Scenario(home="a", apps=("a", "b"), tasks=lambda w: [_task("a", "next", ["a", "b"])], after=("x", "")),
        Scenario(home="a", apps=("a", "b"), tasks=lambda w: [_task("a", "after", ["a", "b"])], after="opens"),
    )
    assert _slugs(collect.home_tasks(WORLD, "a", own)) == ["opens", "after", "next", "one", "two"]


def test_first_puts_them_before_the_own_tasks_and_later_scenarios_may_follow_placed_ones(monkeypatch):
    own = [_task("a", "one"), _task("a", "two")]
    _scenarios(
        monkeypatch,
        Scenario(home="a", apps=("a",), tasks=lambda w: [_task("a", "lead")], after=collect.FIRST),
        Scenario(home="a", apps=("a",), tasks=lambda w: [_task("a", "errand")], after="one"),
        Scenario(home="a", apps=("a",), tasks=lambda w: [_task("a", "next")], after=("gone", collect.FIRST)),
        Scenario(home="a", apps=("a",), tasks=lambda w: [_task("a", "pair")], after=("missing", "errand")),
    )
    got = collect.home_tasks(WORLD, "a", own)
    assert _slugs(got) == ["lead", "next", "one", "errand", "pair", "two"]


def test_first_by_start_and_after_a_task_of_a_scenario_placed_before_by_rank(monkeypatch):
    own = [_task("a", "one"), _task("a", "two")]
    _scenarios(
        monkeypatch,
        Scenario(home="a", apps=("a",), tasks=lambda w: [_task("a", "late", ["a", "b"])], after="lead", rank=1),
        Scenario(home="a", apps=("a",), tasks=lambda w: [_task("a", "head", ["a", "b"])], after=collect.FIRST),
        Scenario(home="a", apps=("a",), tasks=lambda w: [_task("a", "lead", ["a", "b"])], after=("x", "one")),
        Scenario(home="a", apps=("a",), tasks=lambda w: [_task("a", "next", ["a", "b"])], after=("x", collect.FIRST)),
    )
    assert _slugs(collect.home_tasks(WORLD, "a", own)) == ["head", "next", "one", "lead", "late", "two"]


def test_left_out_without_their_apps_or_when_their_gate_says_no(monkeypatch):
    own = [_task("a", "one")]
    _scenarios(
        monkeypatch,
        Scenario(home="a", apps=("a", "b"), tasks=lambda w: [_task("a", "needs-b", ["a", "b"])]),
        Scenario(home="a", apps=("a",), tasks=lambda w: [_task("a", "gated")], when=lambda w: False),
        Scenario(home="a", apps=("a", "files"), tasks=lambda w: [_task("a", "files", ["a", "files"])]),
    )
    assert _slugs(collect.home_tasks(WORLD, "a", own, built={"a"})) == ["one", "files"]
    assert _slugs(collect.home_tasks(WORLD, "a", own)) == ["one", "needs-b", "files"]


def test_a_missing_anchor_or_an_undeclared_app_is_refused(monkeypatch):
    _scenarios(monkeypatch, Scenario(home="a", apps=("a",), tasks=lambda w: [_task("a", "x")], after="nowhere"))
    with pytest.raises(ValueError, match="nowhere"):
        collect.home_tasks(WORLD, "a", [_task("a", "one")])
    _scenarios(monkeypatch, Scenario(home="a", apps=("a", "b"), tasks=lambda w: [_task("a", "x")]))
    with pytest.raises(ValueError, match="does not involve"):
        collect.home_tasks(WORLD, "a", [])


def test_every_scenario_solver_takes_task_and_web_and_is_homed_once():
    seen: set[tuple[str, str]] = set()
    for name, s in collect.discover():
        assert s.home in s.apps, name
        for slug, fn in s.solvers.items():
            assert (s.home, slug) not in seen, (name, slug)
            seen.add((s.home, slug))
            assert fn.__code__.co_varnames[:2] == ("task", "web"), (name, slug)


def test_no_app_imports_another_app():
    apps = sorted(p.parent.name for p in (REPO / "apps").glob("*/app.yaml"))
    found = []
    for app in apps:
        for path in sorted((REPO / "apps" / app).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names = [node.module]
                for n in names:
                    parts = n.split(".")
                    if parts[0] == "apps" and len(parts) > 1 and parts[1] in apps and parts[1] != app:
                        found.append(f"{path.relative_to(REPO)}:{node.lineno} imports {n}")
    assert not found, "\n".join(found)
